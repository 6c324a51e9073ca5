package player

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
