package game

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
