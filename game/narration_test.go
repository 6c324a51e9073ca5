package game

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
