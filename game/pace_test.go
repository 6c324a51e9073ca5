package game

import (
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/tick"
	"leaselab/game/ui"

	"boot.leaselab/progress"
)

// newWall is a wall clock the test moves by hand: now reads it, wait
// moves it on.
func newWall() (now func() time.Time, wait func(time.Duration)) {
	t := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	return func() time.Time { return t }, func(d time.Duration) { t = t.Add(d) }
}

// At ten ticks a second (a machine that draws ten frames a second), 1x
// still plays one simulated second per real second: the Game measures the
// ticks on the wall clock and the player advances by what it measured.
func TestOneXIsOneSimulatedSecondPerRealSecondAtTenTicksASecond(t *testing.T) {
	a := NewApp(nil)
	sc, err := a.OpenID("fenced-writes")
	require.NoError(t, err)
	now, wait := newWall()
	g := New(a, Options{Now: now})
	g.LayoutF(640, 400)
	require.NoError(t, g.Update(), "the first tick lays the lesson out")
	sc.Play(true)
	start := sc.Lab.Now()
	for range 10 {
		wait(100 * time.Millisecond)
		require.NoError(t, g.Update())
	}
	assert.Equal(t, time.Second, sc.Lab.Now()-start, "ten ticks 100 ms apart at 1x")

	require.NoError(t, sc.SetSpeed(4))
	start = sc.Lab.Now()
	for range 5 {
		wait(200 * time.Millisecond)
		require.NoError(t, g.Update())
	}
	assert.Equal(t, 4*time.Second, sc.Lab.Now()-start, "one real second at 4x")

	start = sc.Lab.Now()
	wait(time.Minute) // a stall
	require.NoError(t, g.Update())
	assert.Equal(t, 4*tick.MaxStep, sc.Lab.Now()-start, "a stall moves the play head by at most one bounded tick")
}

// A machine that draws under 20 frames a second for 3 s of drawing gets
// the picture without supersampling, and is told so once, in the
// narration and in the snapshot the browser page reads.
func TestASlowMachineLosesSupersamplingAndIsToldOnce(t *testing.T) {
	a := NewApp(nil)
	sc, err := a.OpenID("fenced-writes")
	require.NoError(t, err)
	sc.Play(true) // playing: every frame is drawn
	now, wait := newWall()
	g := New(a, Options{Now: now})
	screen := ebiten.NewImage(640, 400)
	frame := func() {
		t.Helper()
		g.LayoutF(640, 400)
		require.NoError(t, g.Update())
		g.Draw(screen)
		wait(100 * time.Millisecond) // ten frames a second
	}
	for range warmupFrames + 2 {
		frame()
	}
	require.Equal(t, 2.0, g.Snapshot().Supersample, "past the first frames, an ordinary screen is supersampled")
	require.Empty(t, g.Snapshot().Quality)
	for range 32 { // three seconds of frames, and the next frame laid out
		frame()
	}
	snap := g.Snapshot()
	assert.Equal(t, 1.0, snap.Supersample, "after three seconds at ten frames a second")
	assert.Contains(t, snap.Quality, "reduced quality")
	assert.True(t, g.toastOn, "and shown over the screen")
	for range 40 {
		frame()
	}
	assert.True(t, g.toastOn, "for a while")
	for range 50 {
		frame()
	}
	assert.False(t, g.toastOn, "then gone")
	told := 0
	for _, line := range sc.Inspect().Mirror.Narration {
		if strings.Contains(line, "reduced quality") {
			told++
		}
	}
	assert.Equal(t, 1, told, "the narration says so once")
	assert.Equal(t, 1.0, g.Snapshot().Supersample, "and it stays reduced")
}

// An idle lab draws nothing new: the frames counted drawn stop while the
// frames shown go on (what the browser's frames-drawn figure reads).
func TestAnIdleMenuStopsDrawing(t *testing.T) {
	now, wait := newWall()
	g := New(NewApp(nil), Options{Now: now})
	screen := ebiten.NewImage(640, 400)
	for range 3 * idleAfter {
		g.LayoutF(640, 400)
		require.NoError(t, g.Update())
		g.Draw(screen)
		wait(tick.Nominal)
	}
	before := g.Snapshot()
	for range 60 {
		g.LayoutF(640, 400)
		require.NoError(t, g.Update())
		g.Draw(screen)
		wait(tick.Nominal)
	}
	after := g.Snapshot()
	assert.Equal(t, before.Frame+60, after.Frame, "frames go on")
	assert.Equal(t, before.Drawn, after.Drawn, "none drawn anew")
	assert.Empty(t, after.Quality, "an idle lab's frames say nothing about the drawing's speed")
}

// The slow-drawing notice joins what the menu already says: a notice
// about the learner's progress is not lost to it.
func TestTheSlowNoticeKeepsTheMenusNotice(t *testing.T) {
	a := NewApp(progress.NewMemStore(nil, "Your progress is kept in memory only."))
	require.Equal(t, "Your progress is kept in memory only.", a.menu.Notice)
	a.NotifySlow("Reduced quality.")
	assert.Equal(t, "Your progress is kept in memory only. Reduced quality.", a.menu.Notice)
	assert.Contains(t, a.Inspect().Mirror.Text, "Reduced quality.", "the menu's text view says it too")
}

// TestThePageSaysTheSlowNoticeOnce: in the browser, whose page shows the
// slow-drawing notice in a box of its own, the menu's text leaves it out
// (issue 29: it appeared twice) and keeps the notice about progress.
func TestThePageSaysTheSlowNoticeOnce(t *testing.T) {
	a := NewApp(progress.NewMemStore(nil, "Your progress is kept in memory only."))
	style := draw.NewStyle(ui.UnitFor(1280, 800, 1))
	style.PanelOutside = true
	a.Layout(ui.Rect{W: 1280, H: 800}, style)
	a.NotifySlow("Reduced quality.")
	text := a.Inspect().Mirror.Text
	assert.NotContains(t, text, "Reduced quality.")
	assert.Contains(t, text, "Your progress is kept in memory only.")
}

// The slow-drawing notice covers no control: in a lesson it sits on the
// lesson's text, not over the world's Compare and Find a break buttons at
// the top of the screen (issue 29: it covered Compare).
func TestTheSlowNoticeCoversNoControl(t *testing.T) {
	for _, size := range clipSizes {
		a := NewApp(nil)
		_, err := a.OpenID("fenced-writes")
		require.NoError(t, err)
		g := New(a, Options{})
		g.LayoutF(size[0], size[1])
		require.NoError(t, g.Update())
		r := g.toastRect(draw.NewStyle(ui.UnitFor(g.width, g.height, g.scale)))
		info := a.Inspect()
		require.Contains(t, info.Regions, "compare", "the lesson has its Compare button")
		for _, name := range []string{"compare", "explore", "menu", "help", "play", "step", "scrub", "speed", "fork", "hint", "solution", "runRow"} {
			if c, ok := info.Regions[name]; ok {
				assert.False(t, r.Overlaps(c), "at %v the notice %v covers %s %v", size, r, name, c)
			}
		}
		assert.True(t, r.Within(ui.Rect{W: size[0], H: size[1]}), "on the screen at %v: %v", size, r)
	}
}
