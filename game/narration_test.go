package game

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/lab"
)

// TestNarrationKeepsKeyLinesAndCountsRepeats: a routine repeat is one
// line with a count, and when the list is full the ordinary lines go
// before any key line.
func TestNarrationKeepsKeyLinesAndCountsRepeats(t *testing.T) {
	var n Narration
	n.AddRun(lab.Line{At: time.Second, Text: "B acquired the lock with token 8", Key: true})
	for i := range 4 {
		n.AddRun(lab.Line{At: time.Duration(2+2*i) * time.Second, Text: "storage accepted B's write with token 8", Routine: "write:storage:B:8"})
	}
	require.Equal(t, []string{
		"t=1.000s B acquired the lock with token 8",
		"t=2.000s storage accepted B's write with token 8 (and 3 more to t=8.000s)",
	}, n.Lines())
	assert.Equal(t, []bool{true, false}, n.Keys())

	for i := range narrationMax + 5 {
		n.Add(fmt.Sprintf("ordinary %d", i))
	}
	lines := n.Lines()
	assert.Len(t, lines, narrationMax)
	var full Narration
	for i := range narrationMax {
		full.AddKey(fmt.Sprintf("key %d", i))
	}
	full.Add("the newest, ordinary")
	assert.Equal(t, "the newest, ordinary", full.Lines()[narrationMax-1], "a line just told is never the one dropped")
	assert.Equal(t, "t=1.000s B acquired the lock with token 8", lines[0], "the key line outlives newer ordinary ones")
	assert.Equal(t, fmt.Sprintf("ordinary %d", narrationMax+4), lines[len(lines)-1])
}

// TestAScrubBackRetellsTheStoryUpToThePlayHead: after the play head
// moves back, the narration says only what happened before it, in time
// order.
func TestAScrubBackRetellsTheStoryUpToThePlayHead(t *testing.T) {
	r := newPanelRig(t)
	r.use("lesson:fenced-writes", 0)
	r.use("scrub", 3)
	r.use("act:A:pause", 0)
	r.use("scrub", 40)
	before := r.a.Inspect().Mirror.Narration
	require.NotEmpty(t, before)
	r.use("scrub", 10)
	after := r.a.Inspect().Mirror.Narration
	require.NotEmpty(t, after)
	var last time.Duration
	for _, line := range after[:len(after)-1] {
		var secs float64
		_, err := fmt.Sscanf(line, "t=%fs", &secs)
		require.NoError(t, err, "a run line: %q", line)
		at := time.Duration(secs * float64(time.Second))
		assert.Less(t, at, 10*time.Second, "nothing after the play head: %q", line)
		assert.GreaterOrEqual(t, at, last, "in time order: %q", line)
		last = at
	}
	assert.Contains(t, after[len(after)-1], "Back at t=10.000s")
}
