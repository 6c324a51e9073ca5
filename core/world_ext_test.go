package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A sandbox setup writes a world like any other: its links both ways, its
// drawn pauses then its own actions in the script.
func TestASandboxSetupWritesItsWorld(t *testing.T) {
	c := sandbox.Default()
	c.Links = []sandbox.LinkConfig{{A: "A", B: core.CoordinatorName, Delay: 80 * time.Millisecond}}
	c.Pauses = sandbox.PauseDist{Kind: sandbox.PauseFixed, Every: 30 * time.Second, Length: time.Second}
	c.Actions = core.ActionLog{core.At(5*time.Second, core.Crash("B"))}
	w, err := c.World()
	require.NoError(t, err)
	assert.Equal(t, core.BothWays("A", core.CoordinatorName, core.Link{Delay: 80 * time.Millisecond}), w.Links)
	assert.Equal(t, &core.Link{Delay: c.Delay, Jitter: c.Jitter}, w.Net)
	pauses := c.Pauses.Schedule(c.Seed, c.ProcNames(), c.Duration)
	require.NotEmpty(t, pauses)
	assert.Equal(t, append(pauses, c.Actions...), w.Script)

	s, err := c.Build()
	require.NoError(t, err)
	s.RunUntil(time.Minute)
	assert.Equal(t, core.RunHash(t, w, time.Minute), s.Trace.Hash(), "Build is the world it writes")

	c.Procs = 0
	_, err = c.World()
	assert.ErrorIs(t, err, sandbox.ErrInvalid)
}
