package game

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

type stillScene struct{ still bool }

func (s *stillScene) Update(*State) error        { return nil }
func (s *stillScene) Layout(ui.Rect, draw.Style) {}
func (s *stillScene) Draw(*ebiten.Image)         {}
func (s *stillScene) Still() bool                { return s.still }
func (s *stillScene) Inspect() SceneInfo         { return SceneInfo{Name: "still"} }
func quietInput() ui.Input {
	return ui.Input{Cursor: ui.Point{X: 5, Y: 5}, WindowW: 100, WindowH: 80, Scale: 1}
}
func ticks(t *idleTracker, n int, in ui.Input, sc Scene, snap *Snapshot) {
	for range n {
		t.observe(&in, sc, snap)
	}
}

// A still scene with no input goes idle only after idleAfter ticks (past any
// tooltip's delay), and the first input or change on screen wakes it.
func TestIdleComesAfterQuietTicksAndAnyChangeEndsIt(t *testing.T) {
	sc, snap := &stillScene{still: true}, &Snapshot{Scene: SceneInfo{Name: "menu"}}
	var tr idleTracker
	ticks(&tr, idleAfter+1, quietInput(), sc, snap)
	assert.False(t, tr.idle(), "idle before idleAfter quiet ticks")
	ticks(&tr, 1, quietInput(), sc, snap)
	assert.True(t, tr.idle())

	wakers := map[string]func(*ui.Input, *Snapshot){
		"pointer moved":  func(in *ui.Input, _ *Snapshot) { in.Cursor.X++ },
		"button held":    func(in *ui.Input, _ *Snapshot) { in.MouseDown = true },
		"wheel":          func(in *ui.Input, _ *Snapshot) { in.Wheel.Y = 1 },
		"key":            func(in *ui.Input, _ *Snapshot) { in.Keys = ui.KeysOf(ui.IntentFaster) },
		"finger":         func(in *ui.Input, _ *Snapshot) { in.Touches = []ui.Touch{{}} },
		"window resized": func(in *ui.Input, _ *Snapshot) { in.WindowW = 120 },
		"scene changed":  func(_ *ui.Input, s *Snapshot) { s.Scene.Name = "lesson" },
		"message shown":  func(_ *ui.Input, s *Snapshot) { s.Scene.Mirror.Narration = []string{"opened"} },
	}
	for name, wake := range wakers {
		var tr idleTracker
		snap := &Snapshot{Scene: SceneInfo{Name: "menu"}}
		ticks(&tr, idleAfter+2, quietInput(), sc, snap)
		in := quietInput()
		wake(&in, snap)
		tr.observe(&in, sc, snap)
		assert.False(t, tr.idle(), name)
	}
}

// A scene that is moving, or cannot say, is never left undrawn.
func TestIdleNeedsAStillScene(t *testing.T) {
	snap := &Snapshot{}
	var moving, unknown idleTracker
	ticks(&moving, 3*idleAfter, quietInput(), &stillScene{still: false}, snap)
	ticks(&unknown, 3*idleAfter, quietInput(), struct{ Scene }{&stillScene{still: true}}, snap)
	assert.False(t, moving.idle())
	assert.False(t, unknown.idle())
}

// The menu is still; a lesson is still when paused and moving when playing.
func TestMenuAndPausedLessonAreStill(t *testing.T) {
	a := NewApp(nil)
	assert.True(t, a.Still(), "menu")
	sc, err := a.OpenID("fenced-writes")
	assert.NoError(t, err)
	assert.True(t, a.Still(), "paused lesson")
	sc.Play(true)
	assert.False(t, a.Still(), "playing lesson")
}
