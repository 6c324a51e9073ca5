package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// systemProblem searches one pause of A in a system preset (its scripted
// pause removed) for a stale write the store accepts.
func systemProblem(t *testing.T, preset string) Problem {
	t.Helper()
	p, err := FindPreset(preset)
	require.NoError(t, err)
	c := p.Config
	c.Actions, c.Duration = nil, 2*time.Minute
	return Problem{
		Build:     c.Build,
		Invariant: NoStaleWrite,
		Bounds: Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause},
			From: 5 * time.Second, To: 15 * time.Second, Step: 5 * time.Second,
			MinLen: 10 * time.Second, MaxLen: 30 * time.Second, LenStep: 10 * time.Second,
			MaxFaults: 1, Horizon: 80 * time.Second},
	}
}

// Find a break works on the new systems' worlds (they clone): on
// Kubernetes a pause of the leader longer than the lease gives a stale
// write the store accepts, since nothing checks leaseTransitions; on
// Redlock the same search finds nothing, not because Redlock is safe but
// because with every token 0 the store cannot see a stale write at all.
func TestFindABreakOnKubernetesAndRedlock(t *testing.T) {
	r := explore(t, systemProblem(t, "kubernetes"))
	require.True(t, r.Found, r.Summary())
	assert.GreaterOrEqual(t, r.Faults[0].For, 20*time.Second)
	s, bad, err := systemProblem(t, "kubernetes").Replay(r.Faults)
	require.NoError(t, err)
	require.NotNil(t, bad)
	assert.Equal(t, KindStale, bad.Kind)
	assert.NotEmpty(t, s.Trace.Filter(KindHolder))

	r = explore(t, systemProblem(t, "redlock"))
	assert.False(t, r.Found, "a store that sees only token 0 never sees a stale write")
	assert.True(t, r.Complete)
}
