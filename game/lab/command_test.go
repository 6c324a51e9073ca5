package lab

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

// Every learner request reaches the run as a command, applied by the
// scene once a tick: an action, a seek, a knob's new value. Apply says
// what happened, or why it could not.
func TestCommandsAreTheOneWayIntoTheRun(t *testing.T) {
	l, err := lessons.Find("ttl-tradeoff")
	require.NoError(t, err)
	lb, err := New(l, 1)
	require.NoError(t, err)
	lb.Advance(5 * time.Second)

	assert.Equal(t, "You: pause A for 20s", lb.Apply(Act(core.Pause("A", 20*time.Second))))
	require.Len(t, lb.Log(), 1)

	k := l.Knobs[0]
	got := lb.Apply(SetKnobTo(k.ID, k.Max))
	assert.Equal(t, KnobLabel(k)+" set to "+KnobValue(k, k.Max), got)
	assert.Equal(t, k.Max, lb.Knobs()[k.ID], "the world is rebuilt with the new value")
	assert.Len(t, lb.Log(), 1, "and the learner's actions replayed on it")
	assert.Equal(t, 5*time.Second, lb.Now(), "to the play head")

	assert.Contains(t, lb.Apply(SetKnobTo(k.ID, k.Max+1000)), "Could not set "+KnobLabel(k))
	assert.Equal(t, k.Max, lb.Knobs()[k.ID], "a refused value changes nothing")
	assert.Contains(t, lb.Apply(SetKnobTo("warp", 9)), "no such setting")

	assert.Empty(t, lb.Apply(SeekTo(2*time.Second)))
	assert.Equal(t, 2*time.Second, lb.Now())
}
