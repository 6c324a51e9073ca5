package game

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// pick chooses option opt of the page's builder menu id ("q:kind").
func (r *appRig) pick(id, opt string) {
	r.t.Helper()
	c, ok := r.control(id)
	require.True(r.t, ok, "no control %s: %v", id, controlIDs(r.a.Inspect().Mirror.Controls))
	require.Equal(r.t, KindChoice, c.Kind, id)
	i := slices.Index(c.Options, opt)
	require.GreaterOrEqual(r.t, i, 0, "%s has no option %q: %v", id, opt, c.Options)
	r.use(id, float64(i))
}

// TestPageBuildsChecksFromMenusAndPasses: with the page's controls alone
// (choice menus and buttons, what a screen reader or a touch user has) a
// learner builds exercise 5's checks, cites the evidence, and passes.
func TestPageBuildsChecksFromMenusAndPasses(t *testing.T) {
	r := newPanelRig(t)
	r.use("exercise:token-logs", 0)
	sc := r.exScene()
	c, ok := r.control("qadd")
	require.True(t, ok)
	assert.Equal(t, "bug if some write X: X.at = X.line", c.Detail, "the button says the check it adds")

	// Each step picks an option of a menu, or presses a button.
	for i, steps := range [][][2]string{
		{{"q:left:1", "X.result"}, {"q:right:1", "'accepted'"}, {"qrow+"},
			{"q:left:2", "X.token"}, {"q:op:2", "<"}, {"q:right:2", "X.highest"}, {"qadd"}},
		{{"q:kind", "lease.lost"}, {"q:with", "send"}, {"qrow-"}, {"q:left:1", "Y.actor"}, {"q:right:1", "X.actor"}, {"qrow+"},
			{"q:left:2", "Y.token"}, {"q:right:2", "X.token"}, {"qrow+"}, {"q:left:3", "Y.line"}, {"q:op:3", ">"}, {"q:right:3", "X.line"}, {"qadd"}},
	} {
		for _, st := range steps {
			if st[1] == "" {
				r.use(st[0], 0)
				continue
			}
			r.pick(st[0], st[1])
		}
		require.Len(t, sc.Form.Checks(), i+1)
		_, ok = r.control(fmt.Sprintf("qremove:%d", i))
		assert.True(t, ok, "a check added can be removed from the page")
	}
	assert.Equal(t, "bug if some write X: X.result = 'accepted' and X.token < X.highest", sc.Form.Checks()[0])
	n := r.a.Inspect().Mirror.Narration
	require.NotEmpty(t, n)
	assert.Contains(t, n[len(n)-1], "Check 2 added: bug if some lease.lost X: some send Y:")

	for q, lines := range sc.Ex.Reference.Choices {
		for _, l := range lines {
			r.use("opt:"+q+":"+l, 0)
		}
	}
	r.use("check", 0)
	r.finishCheck()
	ex := r.a.Inspect().Exercise
	require.NotNil(t, ex.Result)
	assert.True(t, ex.Passed, "%s", ex.Result.Summary)
}

// TestKeyboardBuildsACheckOnTheCanvas: on the desktop's canvas the
// builder's menus are buttons in the focus order: Enter moves a menu to
// its next option, and Enter on "Add this check" adds the check; the
// removed check goes away with Enter on its Remove.
func TestKeyboardBuildsACheckOnTheCanvas(t *testing.T) {
	r := newAppRig(t)
	r.resize(1280, 800)
	r.click("exercise:token-logs")
	sc := r.exScene()
	focus := func(name string) {
		t.Helper()
		for i := 0; r.a.Inspect().Focus != name; i++ {
			require.Less(t, i, 300, "Tab never reached %s", name)
			r.key(ui.IntentFocusNext)
		}
		_, visible := r.a.Inspect().Regions[name]
		assert.True(t, visible, "%s is scrolled into view", name)
	}
	before := sc.query.qb.Text()
	focus("q:quant")
	r.key(ui.IntentActivate)
	assert.NotEqual(t, before, sc.query.qb.Text())
	assert.Equal(t, "bug if no write X: X.at = X.line", sc.query.qb.Text())
	focus("qadd")
	r.key(ui.IntentActivate)
	require.Equal(t, []string{"bug if no write X: X.at = X.line"}, sc.Form.Checks())
	assert.Contains(t, sc.answerState(), "1 check")
	focus("qremove:0")
	r.key(ui.IntentActivate)
	assert.Empty(t, sc.Form.Checks())
}

// TestCheckBuilderIsDrawnReadably: the builder on the canvas, with two
// checks added, draws every label inside its button (no clipped or
// overlapping text), at the desktop's usual size and a small window.
func TestCheckBuilderIsDrawnReadably(t *testing.T) {
	for _, size := range [][2]float64{{1280, 800}, {1024, 640}} {
		r := newAppRig(t)
		r.resize(size[0], size[1])
		r.click("exercise:token-logs")
		sc := r.exScene()
		require.NoError(t, sc.Form.AddCheck(sc.Ex.Reference.Checks[0]))
		require.NoError(t, sc.Form.AddCheck(sc.Ex.Reference.Checks[1]))
		sc.query.qb.AddRow()
		r.tick(ui.Input{})
		r.shot("exercise-checks-" + map[float64]string{1280: "wide", 1024: "small"}[size[0]])
		for name, b := range map[string]*ui.Button{"qadd": &sc.query.addChk, "qrow+": &sc.query.addRow, "q:kind": &sc.query.menus[2]} {
			assert.False(t, b.Rect.Empty(), name)
			assert.LessOrEqual(t, draw.Measure(sc.style.Label())(b.Label), b.Rect.W-sc.style.U(20)+0.5, "%s's label %q fits its button", name, b.Label)
		}
	}
}
