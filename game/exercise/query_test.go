package exercise

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// TestKeyboardBuildsACheckOnTheCanvas: on the desktop's canvas the
// builder's menus are buttons in the focus order: Enter moves a menu to
// its next option, and Enter on "Add this check" adds the check; the
// removed check goes away with Enter on its Remove.
func TestKeyboardBuildsACheckOnTheCanvas(t *testing.T) {
	r, sc := openEx(t, "token-logs", 1280, 800)
	focus := func(name string) {
		t.Helper()
		for i := 0; r.Info().Focus != name; i++ {
			require.Less(t, i, 300, "Tab never reached %s", name)
			r.Key(ui.IntentFocusNext)
		}
		_, visible := r.Info().Regions[name]
		assert.True(t, visible, "%s is scrolled into view", name)
	}
	before := sc.query.qb.Text()
	focus("q:quant")
	r.Key(ui.IntentActivate)
	assert.NotEqual(t, before, sc.query.qb.Text())
	assert.Equal(t, "bug if no write X: X.at = X.line", sc.query.qb.Text())
	focus("qadd")
	r.Key(ui.IntentActivate)
	require.Equal(t, []string{"bug if no write X: X.at = X.line"}, sc.Form.Checks())
	assert.Contains(t, sc.answerState(), "1 check")
	focus("qremove:0")
	r.Key(ui.IntentActivate)
	assert.Empty(t, sc.Form.Checks())
}

// TestCheckBuilderIsDrawnReadably: the builder on the canvas, with two
// checks added, draws every label inside its button (no clipped or
// overlapping text), at the desktop's usual size and a small window.
func TestCheckBuilderIsDrawnReadably(t *testing.T) {
	for _, size := range [][2]float64{{1280, 800}, {1024, 640}} {
		r, sc := openEx(t, "token-logs", size[0], size[1])
		require.NoError(t, sc.Form.AddCheck(sc.Ex.Reference.Checks[0]))
		require.NoError(t, sc.Form.AddCheck(sc.Ex.Reference.Checks[1]))
		sc.query.qb.AddRow()
		r.Tick(ui.Input{})
		r.shot("exercise-checks-" + map[float64]string{1280: "wide", 1024: "small"}[size[0]])
		for name, b := range map[string]*ui.Button{"qadd": &sc.query.addChk, "qrow+": &sc.query.addRow, "q:kind": &sc.query.menus[2]} {
			assert.False(t, b.Rect.Empty(), name)
			assert.LessOrEqual(t, draw.Measure(sc.style.Label())(b.Label), b.Rect.W-sc.style.U(20)+0.5, "%s's label %q fits its button", name, b.Label)
		}
	}
}
