package exercise

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// chainRig opens exercise id at the window's size with the model answer
// loaded but its chain left out: the chain is what the test builds.
func chainRig(t *testing.T, id string, w, h float64) (*rig, *Scene) {
	r, sc := openEx(t, id, w, h)
	require.NotNil(t, sc.Ex.ChainRun, "%s asks for a chain", id)
	a := sc.Ex.Reference.Clone()
	a.Chain = nil
	require.NoError(t, sc.Form.Load(a))
	r.Tick(ui.Input{})
	return r, sc
}

// checkPasses checks the answer from the keyboard and asserts it passed.
func (r *rig) checkPasses() {
	r.T.Helper()
	r.TabTo("check")
	r.Key(ui.IntentActivate)
	r.finishCheck()
	ex := r.Info().Exercise
	require.NotNil(r.T, ex.Result, "the check finished")
	assert.True(r.T, ex.Passed, "passed: %s", ex.Result.Summary)
}

// TestKeyboardBuildsExerciseOnesChainOnTheCanvas: on the desktop's canvas
// each event of the learner's run is a row in the focus order; Enter on
// it adds it to the chain, a step's Remove takes it out, and the model
// chain built with Tab and Enter alone passes exercise 1.
func TestKeyboardBuildsExerciseOnesChainOnTheCanvas(t *testing.T) {
	r, sc := chainRig(t, "renew-ttl-pause", 1280, 800)
	want := sc.Ex.Reference.Chain
	require.NotEmpty(t, sc.Form.ChainEvents(), "the run's events are listed")
	assert.Len(t, sc.chain.Events, len(sc.Form.ChainEvents()), "a row per event of the run, as the page has")

	// A wrong step first, taken out again with its Remove.
	wrong := sc.Form.ChainEvents()[1].Seq
	require.NotContains(t, want, wrong)
	r.TabTo(fmt.Sprintf("chain:add:%d", wrong))
	r.Key(ui.IntentActivate)
	require.Equal(t, []int{wrong}, sc.Form.Chain())
	assert.True(t, sc.chain.Events[1].Disabled, "an event in the chain cannot be added twice")
	r.TabTo("chain:remove:0")
	r.Key(ui.IntentActivate)
	require.Empty(t, sc.Form.Chain())
	assert.Equal(t, fmt.Sprintf("chain:add:%d", sc.Form.ChainEvents()[0].Seq), r.Info().Focus,
		"with the last step taken out the focus goes to the run's first event, not back to the top")

	for i, seq := range want {
		name := fmt.Sprintf("chain:add:%d", seq)
		r.TabTo(name)
		before := r.Region(name)
		r.Key(ui.IntentActivate)
		r.Tick(ui.Input{})
		assert.Equal(t, before.Y, r.Region(name).Y, "the row added stays where it was though the chain above it grew")
		if i > 0 {
			r.TabTo(fmt.Sprintf("chain:remove:%d", i))
			r.Key(ui.IntentActivate)
			assert.Equal(t, fmt.Sprintf("chain:remove:%d", i-1), r.Info().Focus, "the focus stays on the chain after a Remove")
			r.TabTo(name)
			r.Key(ui.IntentActivate)
		}
	}
	require.Equal(t, want, sc.Form.Chain())
	n := r.Info().Mirror.Narration
	require.NotEmpty(t, n)
	assert.Contains(t, n[len(n)-1], fmt.Sprintf("Added event %d to your chain as step %d.", want[len(want)-1], len(want)))
	r.shot("exercise-chain-renew-ttl-pause")
	r.checkPasses()
}

// TestKeyboardBuildsExerciseThreesChainOnTheCanvas: exercise 3's model
// chain, built from the run's events with Tab and Enter, passes; Empty
// the chain takes every step out.
func TestKeyboardBuildsExerciseThreesChainOnTheCanvas(t *testing.T) {
	r, sc := chainRig(t, "no-fencing", 1280, 800)
	want := sc.Ex.Reference.Chain
	r.TabTo(fmt.Sprintf("chain:add:%d", want[0]))
	r.Key(ui.IntentActivate)
	r.TabTo("chain:clear")
	r.Key(ui.IntentActivate)
	require.Empty(t, sc.Form.Chain(), "the chain was emptied")
	for _, seq := range want {
		r.TabTo(fmt.Sprintf("chain:add:%d", seq))
		r.Key(ui.IntentActivate)
	}
	require.Equal(t, want, sc.Form.Chain())
	r.checkPasses()
}

// TestMouseBuildsTheChainOnTheCanvas: a click on an event's row adds it,
// a click on a step's Remove takes it out, and the model chain clicked
// together (scrolling the form with the wheel to each row) passes, in a
// small window too.
func TestMouseBuildsTheChainOnTheCanvas(t *testing.T) {
	for _, id := range []string{"renew-ttl-pause", "no-fencing"} {
		r, sc := chainRig(t, id, 1024, 640)
		want := sc.Ex.Reference.Chain
		clickRow := func(name string) {
			t.Helper()
			for i := 0; ; i++ {
				if v, ok := r.Info().Regions[name]; ok && v.H >= sc.style.U(30) {
					break
				}
				require.Less(t, i, 200, "%s: the wheel never brought %s into view", id, name)
				r.Tick(ui.Input{Cursor: r.Region("form").Center(), Wheel: ui.Point{Y: -1}})
			}
			r.Click(name)
		}
		clickRow(fmt.Sprintf("chain:add:%d", want[1]))
		require.Equal(t, []int{want[1]}, sc.Form.Chain(), id)
		// Back up to the chain's steps for the Remove.
		for range 100 {
			if _, ok := r.Info().Regions["chain:remove:0"]; ok {
				break
			}
			r.Tick(ui.Input{Cursor: r.Region("form").Center(), Wheel: ui.Point{Y: 1}})
		}
		r.Click("chain:remove:0")
		require.Empty(t, sc.Form.Chain(), id)
		for _, seq := range want {
			clickRow(fmt.Sprintf("chain:add:%d", seq))
		}
		require.Equal(t, want, sc.Form.Chain(), id)
		r.checkPasses()
	}
}

// TestChainIsDrawnReadably: the chain and the run's events, at the
// desktop's usual size and a small window, draw every text in full inside
// its box (none cut, none with an ellipsis), and each Remove fits its
// label.
func TestChainIsDrawnReadably(t *testing.T) {
	for _, id := range []string{"renew-ttl-pause", "no-fencing"} {
		for _, size := range [][2]float64{{1024, 640}, {1280, 800}} { // every screen fits these (issue 16)
			r, sc := chainRig(t, id, size[0], size[1])
			require.NoError(t, sc.Form.Load(sc.Ex.Reference))
			events := sc.Form.ChainEvents()
			r.TabTo(fmt.Sprintf("chain:add:%d", events[len(events)-1].Seq)) // the list's end
			name := fmt.Sprintf("exercise-chain-%s-%.0fx%.0f", id, size[0], size[1])
			assert.Empty(t, r.record(name), name)
			r.TabTo("chain:remove:0")
			assert.Empty(t, r.record(name+"-steps"), name)
			for i := range sc.chain.Remove {
				b := &sc.chain.Remove[i]
				assert.LessOrEqual(t, draw.Measure(sc.style.Label())(b.Label), b.Rect.W-sc.style.U(20)+0.5, "%s: Remove fits its button", name)
			}
		}
	}
}
