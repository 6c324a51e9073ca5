package player

import (
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// testLesson is the text the player tests show: longer than its panel,
// so the panel scrolls (and takes focus).
var testLesson = Lesson{
	Title: "Leases and fencing tokens",
	Body:  strings.Repeat("A lease is a lock with an expiry date. The holder sends its fencing token with every write.\n\n", 20),
	Goals: []draw.Goal{{Text: "Pause the leader until its lease expires"}, {Text: "See the store reject the old leader's write"}},
	Hints: []string{"Pause the leader for longer than the TTL.", "Resume the old leader and watch its next write."},
}

// testClock is a Clock over 12 s that steps by half seconds and loops at
// the end, without a simulator behind it.
type testClock struct{ now time.Duration }

func (c *testClock) Now() time.Duration    { return c.now }
func (c *testClock) Length() time.Duration { return 12 * time.Second }
func (c *testClock) Advance(d time.Duration) {
	c.now += d
	if c.now >= c.Length() {
		c.now -= c.Length()
	}
}
func (c *testClock) Step() {
	half := 500 * time.Millisecond
	c.Advance(half - c.now%half)
}
func (c *testClock) Seek(t time.Duration) { c.now = max(0, min(t, c.Length())) }

// Apply reads the player's clock commands as a lab would.
func (c *testClock) Apply(cmd lab.Command) string {
	switch op, d := cmd.Time(); op {
	case lab.TimeAdvance:
		c.Advance(d)
	case lab.TimeStep:
		c.Step()
	case lab.TimeSeek:
		c.Seek(d)
	}
	return ""
}

// markView is a View that marks the middle of its area, so a test can
// see that it was laid out and drawn there.
type markView struct{ area ui.Rect }

func (v *markView) Update(*view.Env) error            { return nil }
func (v *markView) Layout(area ui.Rect, _ draw.Style) { v.area = area }
func (v *markView) Draw(dst *ebiten.Image, _ ui.Rect, s draw.Style) {
	draw.FillRect(dst, ui.Rect{X: v.area.Center().X - 4, Y: v.area.Center().Y - 4, W: 8, H: 8}, s.Theme.Accent)
}

// newTestPlayer is a paused player over testLesson and testClock.
func newTestPlayer() *Player {
	return NewPlayer(PlayerSpec{Lesson: testLesson, Clock: &testClock{}, World: &markView{}, Timeline: &markView{}})
}
