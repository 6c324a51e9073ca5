package exercise

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/internal/scenetest"
	"leaselab/game/page"
	"leaselab/game/scene"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// rig runs one screen (an exercise, or a shared answer) as the App runs
// the screen on show: each tick is an Update, then a Layout, in a window
// at a device scale of 1.
type rig struct {
	t  *testing.T
	sc scene.Scene
	st scene.State
}

// newRig lays sc out in a w×h window.
func newRig(t *testing.T, sc scene.Scene, w, h float64) *rig {
	r := &rig{t: t, sc: sc}
	r.st.Window = ui.Rect{W: w, H: h}
	r.st.Style = draw.NewStyle(ui.UnitFor(w, h, 1))
	r.tick(ui.Input{})
	return r
}

// open opens exercise id in a w×h window, as the menu opens it for a
// learner who has not tried it yet.
func openEx(t *testing.T, id string, w, h float64) (*rig, *Scene) {
	t.Helper()
	ex, err := lessons.FindExercise(id)
	require.NoError(t, err)
	sc := New(ex, slices.Index(lessons.Exercises(), ex)+1, progress.Exercise{})
	return newRig(t, sc, w, h), sc
}

func (r *rig) tick(in ui.Input) {
	r.t.Helper()
	in.Scale = 1
	in.WindowW, in.WindowH = r.st.Window.W, r.st.Window.H
	if in.Cursor == (ui.Point{}) {
		in.Cursor = ui.Point{X: -1, Y: -1}
	}
	r.st.Input = in
	r.st.Tick++
	require.NoError(r.t, scene.Step(r.sc, &r.st))
}

// inspect is what the screen tells the page now.
func (r *rig) inspect() page.SceneInfo { return r.sc.(scene.Inspector).Inspect() }

func (r *rig) region(name string) ui.Rect {
	r.t.Helper()
	reg, ok := r.inspect().Regions[name]
	require.True(r.t, ok, "no region %q in scene %q", name, r.inspect().Name)
	return reg
}

// click presses and releases the mouse on region name.
func (r *rig) click(name string) {
	r.t.Helper()
	r.tick(ui.Input{})
	c := r.region(name).Center()
	r.tick(ui.Input{Cursor: c, MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: c, MouseJustUp: true})
}

func (r *rig) key(i ui.Intent) { r.t.Helper(); r.tick(ui.Input{Keys: ui.KeysOf(i)}) }

// control is the page's control id on the screen shown now.
func (r *rig) control(id string) (ui.Control, bool) {
	for _, c := range r.inspect().Mirror.Controls {
		if c.ID == id {
			return c, true
		}
	}
	return ui.Control{}, false
}

// use does what a click on the page's control id (or a value picked in
// it) does; the page must offer it, enabled.
func (r *rig) use(id string, value float64) {
	r.t.Helper()
	c, ok := r.control(id)
	require.Truef(r.t, ok, "the page of %q offers no %q", r.inspect().Name, id)
	require.Falsef(r.t, c.Disabled, "%q is disabled", id)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: id, Value: value}}})
	r.tick(ui.Input{})
}

// finishCheck ticks until the exercise's check is done.
func (r *rig) finishCheck() {
	for i := 0; i < 2000 && r.inspect().Exercise.Checking; i++ {
		r.tick(ui.Input{})
	}
}

// tabTo presses Tab until the canvas's focus is on name, and checks the
// form scrolled it into view.
func (r *rig) tabTo(name string) {
	r.t.Helper()
	for i := 0; r.inspect().Focus != name; i++ {
		require.Less(r.t, i, 400, "Tab never reached %s", name)
		r.key(ui.IntentFocusNext)
	}
	_, visible := r.inspect().Regions[name]
	assert.True(r.t, visible, "%s is scrolled into view", name)
}

// addChain adds events to the exercise's chain as the page's buttons do.
func (r *rig) addChain(seqs ...int) {
	for _, s := range seqs {
		r.tick(ui.Input{Host: []ui.HostAction{{ID: fmt.Sprintf("chain:add:%d", s)}}})
	}
}

// shot draws the screen, saving the frame under LEASELAB_SHOTS (if set)
// as name.png, and returns every string drawn that cannot be read in
// full (scenetest.Shot.Offenders).
func (r *rig) shot(name string) []string {
	r.t.Helper()
	return scenetest.Draw(r.t, name, int(r.st.Window.W), int(r.st.Window.H), r.sc.Draw).Offenders()
}

// record ticks once, then shoots the screen.
func (r *rig) record(name string) []string {
	r.t.Helper()
	r.tick(ui.Input{})
	return r.shot(name)
}

// answerNoFencingWrongly makes a complete, wrong checked attempt at
// exercise 3 (a pause, the wrong cause), which unlocks its model answer.
func answerNoFencingWrongly(t *testing.T) (*rig, *Scene) {
	t.Helper()
	r, sc := openEx(t, "no-fencing", 1280, 800)
	r.click("simulator")
	sc.Simulator().Lab.Advance(4 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	r.click("menu")
	r.addChain(31, 34, 63)
	r.click("check")
	r.finishCheck()
	require.NotNil(t, sc.Result(), "the check finished")
	require.True(t, sc.ModelAvailable(), "a complete checked attempt unlocks the model answer")
	return r, sc
}
