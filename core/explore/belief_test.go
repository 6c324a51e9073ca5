package explore

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// beliefProblem is systemProblem on the preset with fencing on, its
// random pauses off, searched for two believers.
func beliefProblem(t *testing.T, preset string) Problem {
	t.Helper()
	p := systemProblem(t, preset)
	pr, err := sandbox.FindPreset(preset)
	require.NoError(t, err)
	c := pr.Config
	c.Actions, c.Duration, c.Fencing, c.Pauses = nil, 2*time.Minute, true, sandbox.PauseDist{Kind: sandbox.PauseNone}
	require.Empty(t, c.Validate())
	p.Build, p.Invariant = c.Build, OneBelieverPerLock
	return p
}

// Find a break on Redlock looks for what breaks there: two clients that
// believe they hold the lock at once. A pause of the holder past its
// validity is found, and in the replay the stale holder's write reaches
// storage with fencing on, because Redlock has no token to refuse it by
// (a stale accepted write, which the fenced-register check looks for,
// cannot even be seen: every token is 0).
func TestFindABreakOnRedlockFindsTwoHolders(t *testing.T) {
	p := beliefProblem(t, "redlock")
	s, bad, err := p.Replay(nil)
	require.NoError(t, err)
	require.Nil(t, bad, "without a fault one client holds the lock at a time")
	require.NotEmpty(t, s.Trace.Filter(core.KindHolder), "the lock changes hands as validity runs out")

	r := explore(t, p)
	require.True(t, r.Found, r.Summary())
	require.Len(t, r.Faults, 1)
	t.Log(r.Summary())
	s, bad, err = p.Replay(r.Faults)
	require.NoError(t, err)
	require.NotNil(t, bad)
	require.Equal(t, core.KindState, bad.Kind)
	assert.Equal(t, core.Leader.String(), bad.To())
	assert.NotEqual(t, "A", bad.Actor, "another client takes the lock from the paused A")
	assert.Less(t, bad.At, r.Faults[0].At+r.Faults[0].For, "while A is still paused, believing it holds it")

	// Played on, A wakes and writes: with fencing on, storage takes it.
	s.RunUntil(p.Bounds.Horizon)
	require.True(t, s.Register.Fencing)
	var late *core.Event
	for _, w := range s.Trace.Filter(core.KindWrite) {
		if w.From() == "A" && w.At > bad.At {
			late = &w
			break
		}
	}
	require.NotNil(t, late, "A writes after waking")
	assert.Equal(t, core.Accepted, late.Result(), "no token to refuse it by: %s", late.Text())
	assert.Zero(t, late.Token())
}

// On a system with tokens the same overlap happens (belief cannot be
// enforced), but the stale write is refused: the belief check is Redlock's
// break, not a claim that the others are immune to pauses.
func TestTwoBelieversOnEtcdAreRefusedByTheirToken(t *testing.T) {
	p := beliefProblem(t, "leases")
	r := explore(t, p)
	require.True(t, r.Found, r.Summary())
	p.Invariant = NoStaleWrite
	_, bad, err := p.Replay(r.Faults)
	require.NoError(t, err)
	assert.Nil(t, bad, "etcd's token refuses the stale holder's write")
}
