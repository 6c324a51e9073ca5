package lessons

import (
	"fmt"
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

// lineOf is the id of the first line of case i whose text contains sub.
func lineOf(t *testing.T, i int, sub string) string {
	t.Helper()
	k := slicesIndexFunc(exLogs.Materials[i].Lines(), sub)
	require.NotEqual(t, -1, k, "case %d has no line with %q", i+1, sub)
	return fmt.Sprintf("line-%d", k+1)
}

// TestLogsEvidenceOptionsAreTheWholeLog: the evidence to pick from is every
// line of the incident's log, so which lines are offered says nothing about
// which prove the conclusion (finding 13: the proof lines were offered with
// an equal number of campaigns and grants, 5 of 8 in incident 3).
func TestLogsEvidenceOptionsAreTheWholeLog(t *testing.T) {
	for i, c := range logCases {
		opts := exLogs.Question(c.id + "-evidence").Options
		lines := exLogs.Materials[i].Lines()
		require.Len(t, opts, len(lines), c.id)
		for k, o := range opts {
			assert.Equal(t, fmt.Sprintf("line-%d", k+1), o.ID)
			assert.Equal(t, lines[k], o.Label)
		}
		proof := exLogs.Reference.Choices[c.id+"-evidence"]
		assert.Less(t, 2*len(proof), len(opts), "%s: the proof is a minority of what is offered", c.id)
	}
}

// TestLogsEvidenceJudgesWhatBearsOnTheConclusion: a line the model's own
// argument uses, or the coordinator lines a reader of its history cites,
// may be cited beside the proof; a plausible line from the same log that
// proves nothing (A's write before its ownership ended, a campaign, a
// grant) is marked as not bearing (finding 13).
func TestLogsEvidenceJudgesWhatBearsOnTheConclusion(t *testing.T) {
	cases := []struct {
		incident int
		line     string
		bears    bool
	}{
		{0, "A state from=stepping_down to=follower", true},
		{0, "coordinator lease.expire lease=4885a22a2e88c101", true},
		{0, "coordinator lock.holder lock=locks/order-9 owner=B", true},
		{0, "A resume", true},
		{0, "3.005s orders-db write from=A token=15", false},
		{0, "A state from=follower to=candidate", false},
		{0, "coordinator lease.grant", false},
		{1, "net net.partition", true},
		{1, "3.000s A send write", true},
		{1, "B crash", false},
		{1, "coordinator lease.expire lease=4885a22a2e88c104 owner=B", false},
		{2, "coordinator lock.holder lock=locks/order-9 owner=B", true},
		{2, "3.005s orders-db write from=A token=15", false},
	}
	for _, c := range cases {
		id := logCases[c.incident].id
		a := exLogs.Reference.Clone()
		a.Choices[id+"-evidence"] = append(slices.Clone(a.Choices[id+"-evidence"]), lineOf(t, c.incident, c.line))
		r, err := exLogs.Check(a)
		require.NoError(t, err)
		f := r.Parts[c.incident]
		assert.Equal(t, c.bears, f.OK, "incident %d: citing %q beside the proof (bears: %v): %s", c.incident+1, c.line, c.bears, f.Why)
		if !c.bears {
			assert.Contains(t, f.Why, "one of the lines you cited does not bear on the conclusion")
		}
	}
}

// TestLogsIncident1NeedsAsOwnLog: incident 1's proof is partly A's own
// lines (its pause, its send ahead of its lease check), so reading A's log
// is one of the checks it needs (finding 13).
func TestLogsIncident1NeedsAsOwnLog(t *testing.T) {
	assert.Contains(t, logCases[0].needs, "worker-log")
	proof := exLogs.Reference.Choices["case-1-evidence"]
	assert.Contains(t, proof, lineOf(t, 0, "A pause"))
	assert.Contains(t, proof, lineOf(t, 0, "A lease.lost"))
	a := exLogs.Reference.Clone()
	a.Choices["case-1-checks"] = []string{"coord-history", "storage-decisions"}
	r, err := exLogs.Check(a)
	require.NoError(t, err)
	assert.False(t, r.Parts[0].OK)
	assert.Contains(t, r.Parts[0].Why, "One check that decides this incident is missing.")
}

// TestLogsEvidenceCountsReadAsEnglish: one wrong line is "one of the lines
// you cited does not bear", never "1 ... do not bear" (finding 13).
func TestLogsEvidenceCountsReadAsEnglish(t *testing.T) {
	a := exLogs.Reference.Clone()
	want := a.Choices["case-1-evidence"]
	a.Choices["case-1-evidence"] = append(slices.Clone(want[1:]), lineOf(t, 0, "coordinator lease.grant"))
	r, err := exLogs.Check(a)
	require.NoError(t, err)
	assert.Contains(t, r.Parts[0].Why, "Evidence: one of the lines you cited does not bear on the conclusion, and one line the conclusion rests on is not cited.")
	assert.NotContains(t, r.Parts[0].Why, "1 of the lines")
}

// swapEvidence returns the model answer with line from of incident i cited
// as line to instead.
func swapEvidence(t *testing.T, i int, from, to string) Answer {
	t.Helper()
	a := exLogs.Reference.Clone()
	q := logCases[i].id + "-evidence"
	k := slices.Index(a.Choices[q], from)
	require.GreaterOrEqual(t, k, 0, "the model cites %s in %s", from, logCases[i].id)
	a.Choices[q][k] = to
	return a
}

// TestLogsAcceptsEquivalentEvidence (issue 31): a line that states the same
// fact at the same instant as a line of the model's proof proves the
// conclusion as well: the coordinator's lease-expiry line for the
// lock-free line beside it (incident 2), A's resume for its pause and its
// step-down for its lease.lost line at the same instant (incident 1). A
// line at another instant or of another fact does not stand in for one:
// B's lease expiry is not the end of 15's ownership, and A's own "leader
// with token 16" is not the coordinator's grant.
func TestLogsAcceptsEquivalentEvidence(t *testing.T) {
	for _, c := range []struct {
		name     string
		i        int
		from, to string
		same     bool
	}{
		{"lease expiry for lock free", 1, lineOf(t, 1, "lock.free"), lineOf(t, 1, "lease.expire lease=4885a22a2e88c101"), true},
		{"resume for pause", 0, lineOf(t, 0, "A pause"), lineOf(t, 0, "A resume"), true},
		{"step-down for lease lost", 0, lineOf(t, 0, "A lease.lost"), lineOf(t, 0, "to=stepping_down"), true},
		{"B's lease expiry for the lock free", 1, lineOf(t, 1, "lock.free"), lineOf(t, 1, "lease.expire lease=4885a22a2e88c104"), false},
		{"A's belief for the coordinator's grant", 1, lineOf(t, 1, "lock.holder lock=locks/order-9 owner=A key=locks/order-9/4885a22a2e88c10b"), lineOf(t, 1, "with token 16"), false},
		{"A's resume for its lease.lost", 0, lineOf(t, 0, "A lease.lost"), lineOf(t, 0, "A resume"), false},
	} {
		r, err := exLogs.Check(swapEvidence(t, c.i, c.from, c.to))
		require.NoError(t, err)
		f := r.Parts[c.i]
		assert.Equal(t, c.same, f.OK, "%s (%s for %s): %s", c.name, c.to, c.from, f.Why)
		if !c.same {
			assert.Contains(t, f.Why, "not cited", c.name)
		}
	}
}
