package lessons

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogsWrongTryRevealsNoConclusion: a throw-away answer to exercise 5
// gets pointers to the evidence, never the model's reading of an incident
// (defect 4: one wrong try printed all three conclusions).
func TestLogsWrongTryRevealsNoConclusion(t *testing.T) {
	wrong := Answer{Choices: map[string][]string{}}
	for _, c := range logCases {
		wrong.Choices[c.id+"-conclusion"] = []string{"coordinator-bug"}
	}
	for _, a := range []Answer{{}, wrong} {
		r, err := exLogs.Check(a)
		require.NoError(t, err)
		for i, c := range logCases {
			why := r.Parts[i].Why
			var b because
			model := c.explain(logRuns()[i], &b)
			assert.NotContains(t, why, model[:40], "%s gives the model's reading", c.id)
			for _, needed := range c.needs {
				assert.NotContains(t, why, logCheckWhy[needed], "%s names a check it left out", c.id)
			}
		}
	}
}

// TestLogsEvidenceIsChecked: the model answer cites the lines that prove
// each conclusion; dropping one, or citing an unrelated one, fails the
// incident and says how many are off.
func TestLogsEvidenceIsChecked(t *testing.T) {
	for i, c := range logCases {
		want := exLogs.Reference.Choices[c.id+"-evidence"]
		require.NotEmpty(t, want)
		a := exLogs.Reference.Clone()
		a.Choices[c.id+"-evidence"] = want[1:]
		r, err := exLogs.Check(a)
		require.NoError(t, err)
		assert.False(t, r.Parts[i].OK, "%s: a missing line passes", c.id)
		assert.Contains(t, r.Parts[i].Why, "not cited")
		for _, o := range exLogs.Question(c.id + "-evidence").Options {
			if !slices.Contains(want, o.ID) {
				a.Choices[c.id+"-evidence"] = append(slices.Clone(want), o.ID)
				break
			}
		}
		r, err = exLogs.Check(a)
		require.NoError(t, err)
		assert.False(t, r.Parts[i].OK, "%s: an unrelated line passes", c.id)
		assert.Contains(t, r.Parts[i].Why, "not bear")
	}
}

// TestLogsIncident1ShowsTheWriteLeftBeforeTheLeaseCheck: incident 1's log
// shows A sending its token-15 write before it logged the lease as lost,
// so the log agrees with the model's reading (the missing fence, not a
// worker acting on a lease it knew was gone).
func TestLogsIncident1ShowsTheWriteLeftBeforeTheLeaseCheck(t *testing.T) {
	lines := exLogs.Materials[0].Lines()
	sent, lost := -1, -1
	for i, l := range lines {
		if strings.Contains(l, "A send write to=orders-db token=15") && i > 0 && strings.HasPrefix(l, "25.") {
			sent = i
		}
		if lost < 0 && strings.Contains(l, "A lease.lost") {
			lost = i
		}
	}
	require.NotEqual(t, -1, sent, "no send line for the late write:\n%s", strings.Join(lines, "\n"))
	require.NotEqual(t, -1, lost)
	assert.Less(t, sent, lost, "the late write must be seen leaving before A noticed the loss")
	// In incident 3 the worker knew: its sends come after its lease.lost.
	lines = exLogs.Materials[2].Lines()
	lost = slicesIndexFunc(lines, "A lease.lost")
	last := -1
	for i, l := range lines {
		if strings.Contains(l, "A send write") {
			last = i
		}
	}
	assert.Greater(t, last, lost)
}

func slicesIndexFunc(lines []string, sub string) int {
	for i, l := range lines {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}
