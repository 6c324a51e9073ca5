package player

import (
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"

	"leaselab/game/draw"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// rig drives a Player tick by tick, as Game does, without a window.
type rig struct {
	t  *testing.T
	p  *Player
	st view.Env
}

func newRig(t *testing.T) *rig {
	r := &rig{t: t, p: newTestPlayer()}
	r.st.Window = ui.Rect{W: 1280, H: 800}
	r.st.Style = draw.NewStyle(ui.UnitFor(1280, 800, 1))
	r.tick(ui.Input{})
	return r
}

func (r *rig) tick(in ui.Input) {
	r.t.Helper()
	in.Scale = 1
	in.WindowW, in.WindowH = r.st.Window.W, r.st.Window.H
	if in.Cursor == (ui.Point{}) && len(in.Touches) == 0 {
		in.Cursor = ui.Point{X: -1, Y: -1}
	}
	r.st.Input = in
	r.st.Tick++
	if err := r.p.Update(&r.st); err != nil { // as the Game steps a scene
		r.t.Fatal(err)
	}
	r.p.Layout(r.st.Window, r.st.Style)
}

func (r *rig) click(rect ui.Rect) {
	c := rect.Center()
	r.tick(ui.Input{Cursor: c, MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: c, MouseJustUp: true})
}

func (r *rig) key(i ui.Intent) { r.tick(ui.Input{Keys: ui.KeysOf(i)}) }

func (r *rig) lastNarration() string {
	n := r.p.Inspect().Mirror.Narration
	if len(n) == 0 {
		return ""
	}
	return n[len(n)-1]
}

func TestPlayerPlayPauseByMouseAndKeys(t *testing.T) {
	r := newRig(t)
	if r.p.Playing() || r.p.Clock.Now() != 0 {
		t.Fatal("a new player should be paused at 0")
	}
	r.click(r.p.layout.Play)
	if !r.p.Playing() || !strings.HasPrefix(r.lastNarration(), "Playing at 1×") {
		t.Fatalf("after clicking play: playing=%v narration %q", r.p.Playing(), r.lastNarration())
	}
	before := r.p.Clock.Now()
	for range 30 {
		r.tick(ui.Input{})
	}
	want := before + 30*time.Second/time.Duration(ebiten.TPS())
	if got := r.p.Clock.Now(); got < want-time.Millisecond || got > want+time.Millisecond {
		t.Errorf("after 30 ticks at 1×: now %v, want %v", got, want)
	}
	r.key(ui.IntentPlayPause)
	if r.p.Playing() || !strings.HasPrefix(r.lastNarration(), "Paused at") {
		t.Fatal("P did not pause")
	}
	// Enter with nothing focused plays too.
	r.key(ui.IntentActivate)
	if !r.p.Playing() {
		t.Fatal("Enter with nothing focused did not play")
	}
}

func TestPlayerStepForkSpeedScrubHint(t *testing.T) {
	r := newRig(t)
	r.key(ui.IntentPlayPause)
	r.key(ui.IntentStep)
	if r.p.Playing() || r.p.Clock.Now() != 500*time.Millisecond {
		t.Fatalf("step: playing=%v now=%v", r.p.Playing(), r.p.Clock.Now())
	}
	if r.lastNarration() != "Stepped to t = 0.500 s" {
		t.Errorf("narration %q", r.lastNarration())
	}
	r.click(r.p.layout.Fork)
	if !strings.HasPrefix(r.lastNarration(), "Forked at t = 0.500 s") {
		t.Errorf("fork narration %q", r.lastNarration())
	}
	// Speed: the slider's right end is the fastest speed.
	sp := r.p.layout.Speed
	r.tick(ui.Input{Cursor: ui.Point{X: sp.MaxX() - 1, Y: sp.Center().Y}, MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: ui.Point{X: sp.MaxX() - 1, Y: sp.Center().Y}, MouseJustUp: true})
	if r.p.Speed() != speeds[len(speeds)-1] || r.lastNarration() != "Speed 64×" {
		t.Errorf("speed %v narration %q", r.p.Speed(), r.lastNarration())
	}
	// Scrub to the middle seeks the clock there.
	sc := r.p.layout.Scrub
	r.tick(ui.Input{Cursor: sc.Center(), MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: sc.Center(), MouseJustUp: true})
	if got, want := r.p.Clock.Now(), r.p.Clock.Length()/2; got < want-100*time.Millisecond || got > want+100*time.Millisecond {
		t.Errorf("scrub to the middle: now %v, want about %v", got, want)
	}
	// Hints reveal one at a time; the button disables after the last.
	for i, h := range testLesson.Hints {
		r.key(ui.IntentHint)
		if got := r.p.Inspect().Mirror.Hint; got != h {
			t.Errorf("hint %d = %q", i, got)
		}
	}
	r.key(ui.IntentHint)
	if !r.p.hint.Disabled {
		t.Error("hint button still enabled with no hints left")
	}
}

func TestPlayerFocusOrderAndEscape(t *testing.T) {
	r := newRig(t)
	want := []string{"play", "step", "scrub", "speed", "fork", "help", "lessonText", "hint"}
	for _, name := range want {
		r.key(ui.IntentFocusNext)
		if got := r.p.Inspect().Focus; got != name {
			t.Fatalf("focus %q, want %q", got, name)
		}
		if r.st.FocusEscape != ui.NoEscape {
			t.Fatalf("escaped early at %s", name)
		}
	}
	r.key(ui.IntentFocusNext)
	if r.st.FocusEscape != ui.EscapeForward || r.p.Inspect().Focus != "" {
		t.Fatalf("Tab past the last widget: escape %v focus %q", r.st.FocusEscape, r.p.Inspect().Focus)
	}
	r.st.FocusEscape = ui.NoEscape
	r.st.WrapFocus = true
	r.key(ui.IntentFocusPrev)
	r.key(ui.IntentFocusNext)
	if r.st.FocusEscape != ui.NoEscape || r.p.Inspect().Focus != "play" {
		t.Fatalf("wrapping ring: escape %v focus %q", r.st.FocusEscape, r.p.Inspect().Focus)
	}
	// Arrow keys move the focused slider.
	r.key(ui.IntentFocusNext) // step
	r.key(ui.IntentFocusNext) // scrub
	r.key(ui.IntentFocusNext) // speed
	r.key(ui.IntentRight)
	if r.p.Speed() != 2 {
		t.Errorf("Right on the speed slider: %v×", r.p.Speed())
	}
}

func TestPlayerReportsLayoutAndMirror(t *testing.T) {
	r := newRig(t)
	info := r.p.Inspect()
	if info.Name != "player" || info.Mirror.Title != testLesson.Title || info.Mirror.Text != testLesson.Body {
		t.Fatalf("info %+v", info)
	}
	if len(info.Mirror.Goals) != 2 || info.Mirror.Goals[0].Met || info.Mirror.Goals[1].Met {
		t.Errorf("goals %+v: want two open goals", info.Mirror.Goals)
	}
	if info.Regions["world"] != r.p.layout.World {
		t.Error("regions do not match the layout")
	}
	// The lesson text panel ends on a whole line.
	lh := r.p.text.LineHeight()
	if h := r.p.text.Rect.H; h/lh != float64(int(h/lh)) || h > r.p.layout.LessonText.H {
		t.Errorf("text panel height %v for line height %v", h, lh)
	}
}

func TestPlayerDrawsEveryRegion(t *testing.T) {
	r := newRig(t)
	// Show a tooltip too.
	for range TooltipDelay + 2 {
		r.tick(ui.Input{Cursor: r.p.layout.Step.Center()})
	}
	img := ebiten.NewImage(1280, 800)
	img.Fill(draw.Dark.Background)
	r.p.Draw(img)
	pix := make([]byte, 4*1280*800)
	img.ReadPixels(pix)
	bg := draw.Dark.Background
	for name, rect := range r.p.layout.Regions() {
		painted := 0
		for y := int(rect.Y); y < int(rect.MaxY()); y++ {
			for x := int(rect.X); x < int(rect.MaxX()); x++ {
				i := 4 * (y*1280 + x)
				if pix[i] != bg.R || pix[i+1] != bg.G || pix[i+2] != bg.B {
					painted++
				}
			}
		}
		if painted == 0 {
			t.Errorf("region %s is blank", name)
		}
	}
}

// TestHelpListsOnlyWorkingKeys: a player without a solution (the sandbox)
// does not advertise L.
func TestHelpListsOnlyWorkingKeys(t *testing.T) {
	p := NewPlayer(PlayerSpec{Solution: func() {}})
	if !strings.Contains(p.helpText(), "L: show the solution") {
		t.Fatalf("with a solution: %s", p.helpText())
	}
	p = NewPlayer(PlayerSpec{})
	if strings.Contains(p.helpText(), "L: ") || !strings.Contains(p.helpText(), "H: reveal the next hint") {
		t.Fatalf("without a solution: %s", p.helpText())
	}
	// The break finder has no letter: the help says how to reach it, only
	// where there is one.
	if strings.Contains(p.helpText(), "Find a break") || !strings.Contains(p.helpText(), "Tab: move focus") {
		t.Fatalf("no finder, yet: %s", p.helpText())
	}
	p.names = map[ui.Focusable]string{&ui.Button{}: "explore"}
	if !strings.Contains(p.helpText(), "Tab, Enter: reach Find a break or Compare on/off") {
		t.Fatalf("with a finder: %s", p.helpText())
	}
}

// The help is generated from the intent table and reads as it always did.
func TestHelpRowsComeFromTheIntentTable(t *testing.T) {
	want := "Space or P: play / pause; . (period): step to the next event; , (comma): back one second; " +
		"[  ]: slower / faster (1/4x to 64x); + (or =)  -  0: timeline: zoom in / out / whole run (or wheel, pinch); " +
		"Semicolon  Quote: timeline: show earlier / later; F: fork: drop later actions, carry on from here; " +
		"1 - 9, N: select process (or worker) 1 to 9; N: the next one; Up Down Enter: choose from the selected one's action menu; " +
		"Z  X  C  E: pause, crash, cut the link, expire the lease; W  V: write now with its own token / with the picked token; " +
		"Y  D  U: set its TTL, delete / put the lesson's key; T  I: switch fencing / the queue's idempotency check; " +
		"H: reveal the next hint; Q: why? what caused the last event; L: show the solution; Tab: move focus (leaves the canvas after the last widget); " +
		"Esc: back to the lesson menu; ?: this help"
	assert.Equal(t, want, NewPlayer(PlayerSpec{Solution: func() {}}).helpText())
}
