package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CheckCauses asserts the causal trace's property on a finished run: every
// cause is an earlier event of the same trace, no event lost its cause on
// the way (Orphans), and every chain ends at an action or the start.
func checkCauses(t *testing.T, name string, tr *Trace) {
	t.Helper()
	assert.Zero(t, tr.Orphans, "%s: events recorded with their cause lost", name)
	for e := range tr.All() {
		for _, c := range e.Causes() {
			if !assert.True(t, c >= 0 && c < e.Seq, "%s: %s is caused by event %d, not an earlier one", name, e.Text(), c) {
				return
			}
		}
		root, act := tr.RootOf(e)
		if root == RootAction {
			require.NotNil(t, act)
			assert.Contains(t, []Kind{KindAction, KindActionError}, act.Kind)
			assert.LessOrEqual(t, act.At, e.At, "%s: %s comes before the action it stems from", name, e.Text())
		}
	}
}
