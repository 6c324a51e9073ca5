package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// TestTheSummaryTellsHoldersLeasesAndTheStore: in fenced-writes, with A
// paused past its lease, the summary says B holds the lock with token 8,
// that A still acts as leader with 7 while the coordinator has let it go,
// each lease by both clocks, and what the store accepted.
func TestTheSummaryTellsHoldersLeasesAndTheStore(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	start := lb.World().Summary()
	require.NotEmpty(t, start.Lines)
	assert.Equal(t, "Lock: held by A with token 7", start.Lines[0])
	a := start.Lines[1]
	assert.True(t, strings.HasPrefix(a, "A: acts as leader with token 7; lease left "), "A's line: %q", a)
	assert.Contains(t, a, "by its own clock")
	assert.Contains(t, a, "by the coordinator's")
	assert.Contains(t, start.Lines[len(start.Lines)-1], "highest token accepted 7", "the store's line")

	require.NoError(t, pauseA(lb))
	lb.Advance(16 * time.Second) // t = 20 s: A frozen, its lease gone
	mid := lb.World().Summary()
	assert.Equal(t, "Lock: held by B with token 8", mid.Lines[0])
	assert.Contains(t, mid.Lines[1], "A: acts as leader with token 7")
	assert.Contains(t, mid.Lines[1], "the coordinator no longer counts it as holder")
	assert.Contains(t, mid.Lines[1], "paused")
	assert.Equal(t, []string{"Lock: held by B with token 8", "A: acts as leader with token 7, the coordinator no longer counts it as holder, paused", "B: acts as leader with token 8",
		"Storage: highest token accepted 8 (checks tokens)"}, mid.Changed(start), "a listener is told the new holder and both processes' states")
}

// TestTheSummaryKeyIgnoresLeasesRunningDown: a second of play changes the
// leases left (the lines) but not who holds what (the key), so a listener
// is not told every second.
func TestTheSummaryKeyIgnoresLeasesRunningDown(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	before := lb.World().Summary()
	lb.Advance(1500 * time.Millisecond)
	after := lb.World().Summary()
	assert.Equal(t, before.Key, after.Key)
	assert.Empty(t, after.Changed(before), "nothing to tell")
	assert.NotEqual(t, before.Lines, after.Lines, "the leases left moved")
}

// TestStepBackwardGoesToThePreviousEvent: the play head steps back to the
// last event before it, and from the first event to the start.
func TestStepBackwardGoesToThePreviousEvent(t *testing.T) {
	lb := fenced(t)
	lb.Advance(10 * time.Second)
	var before time.Duration
	for e := range lb.Sim().Trace.All() {
		if e.At < 10*time.Second {
			before = e.At
		}
	}
	require.Positive(t, before)
	assert.Equal(t, "", lb.Apply(StepBack()))
	assert.Equal(t, before, lb.Now(), "back to the last event before 10 s")
	lb.Seek(0)
	lb.Apply(StepBack())
	assert.Equal(t, time.Duration(0), lb.Now(), "at the start it stays there")
}

// TestARedlockSummaryTellsEachNodesKey: with no coordinator, the summary
// says which client each Redis node's key is held by, and a crashed node.
func TestARedlockSummaryTellsEachNodesKey(t *testing.T) {
	lb := redlockLab(t, 5, core.At(50*time.Second, core.Crash(core.RedisNodeName(5))))
	lb.Seek(59 * time.Second)
	v := lb.World()
	lines := v.Summary().Lines
	require.GreaterOrEqual(t, len(lines), 5)
	for i, r := range v.Redis {
		switch {
		case r.Down:
			assert.Equal(t, r.Name+": down", lines[i])
		case r.Owner != "":
			assert.Equal(t, r.Name+": key held by "+r.Owner, lines[i])
		}
	}
	assert.NotContains(t, strings.Join(lines, "\n"), "Lock: free", "no coordinator's lock to speak of")
}
