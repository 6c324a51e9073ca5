package exercise

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"leaselab/game/internal/scenetest"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// rig runs one screen (an exercise, or a shared answer) as the App runs
// the screen on show: each tick is an Update, then a Layout, in a window
// at a device scale of 1 (scenetest.Rig), with what an exercise's tests
// add to it.
type rig struct{ *scenetest.Rig }

// newRig lays sc out in a w×h window.
func newRig(t *testing.T, sc scenetest.Scene, w, h float64) *rig {
	return &rig{scenetest.New(t, sc, w, h)}
}

func openEx(t *testing.T, id string, w, h float64) (*rig, *Scene) {
	t.Helper()
	ex, err := lessons.FindExercise(id)
	require.NoError(t, err)
	sc := New(ex, slices.Index(lessons.Exercises(), ex)+1, progress.Exercise{})
	return newRig(t, sc, w, h), sc
}

// finishCheck ticks until the exercise's check is done.
func (r *rig) finishCheck() {
	for i := 0; i < 2000 && r.Info().Exercise.Checking; i++ {
		r.Tick(ui.Input{})
	}
}

// addChain adds events to the exercise's chain as the page's buttons do.
func (r *rig) addChain(seqs ...int) {
	for _, s := range seqs {
		r.Tick(ui.Input{Host: []ui.HostAction{{ID: fmt.Sprintf("chain:add:%d", s)}}})
	}
}

// shot draws the screen, saving the frame under LEASELAB_SHOTS (if set)
// as name.png, and returns every string drawn that cannot be read in
// full (scenetest.Shot.Offenders).
func (r *rig) shot(name string) []string {
	r.T.Helper()
	return scenetest.Draw(r.T, name, int(r.St.Window.W), int(r.St.Window.H), r.Scene.Draw).Offenders()
}

// record ticks once, then shoots the screen.
func (r *rig) record(name string) []string {
	r.T.Helper()
	r.Tick(ui.Input{})
	return r.shot(name)
}

// answerNoFencingWrongly makes a complete, wrong checked attempt at
// exercise 3 (a pause, the wrong cause), which unlocks its model answer.
func answerNoFencingWrongly(t *testing.T) (*rig, *Scene) {
	t.Helper()
	r, sc := openEx(t, "no-fencing", 1280, 800)
	r.Click("simulator")
	sc.Simulator().Lab.Advance(4 * time.Second)
	r.Click("proc:A")
	r.Click("act:A:pause")
	r.Click("menu")
	r.addChain(31, 34, 63)
	r.Click("check")
	r.finishCheck()
	require.NotNil(t, sc.Result(), "the check finished")
	require.True(t, sc.ModelAvailable(), "a complete checked attempt unlocks the model answer")
	return r, sc
}
