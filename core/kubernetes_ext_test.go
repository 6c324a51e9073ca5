package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kubeWorld is the kubernetes preset with a script of its own.
func kubeWorld(t *testing.T, until time.Duration, script ...core.Timed) *core.Sim {
	t.Helper()
	p, err := sandbox.FindPreset("kubernetes")
	require.NoError(t, err)
	c := p.Config
	c.Actions, c.Duration = script, until
	s, err := c.Build()
	require.NoError(t, err)
	s.RunUntil(until)
	return s
}

func TestKubeDurationsAreValidatedAsClientGoDoes(t *testing.T) {
	require.NoError(t, core.CheckKubeDurations(core.KubeLeaseDuration, core.KubeRenewDeadline, core.KubeRetryPeriod), "client-go's defaults")
	err := core.CheckKubeDurations(10*time.Second, 10*time.Second, 2*time.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "leaseDuration must be greater than renewDeadline")
	err = core.CheckKubeDurations(15*time.Second, 2400*time.Millisecond, 2*time.Second)
	require.Error(t, err, "2.4 s is not more than 1.2 x 2 s")
	assert.Contains(t, err.Error(), "renewDeadline must be greater than retryPeriod*JitterFactor")

	p, _ := sandbox.FindPreset("kubernetes")
	c := p.Config
	c.RenewDeadline = 20 * time.Second
	errs := c.Validate()
	require.Len(t, errs, 1)
	assert.Equal(t, sandbox.FieldTTL, errs[0].Field)
	assert.Contains(t, errs[0].Msg, "leaseDuration must be greater than renewDeadline (lease 15 s, renew deadline 20 s)")
	c = p.Config
	c.TTL = 15500 * time.Millisecond
	errs = c.Validate()
	require.NotEmpty(t, errs)
	assert.Contains(t, errs[0].Msg, "whole seconds")
	_, err = c.Build()
	assert.ErrorIs(t, err, sandbox.ErrInvalid, "a refused configuration is never built")
}

// The same cut on etcd: there the coordinator expires A's lease itself.
func TestEtcdUnderTheSameCutExpiresOnTheCoordinator(t *testing.T) {
	p, _ := sandbox.FindPreset("etcd")
	c := p.Config
	c.Actions, c.Duration = core.ActionLog{core.At(30*time.Second, core.Partition("A", core.CoordinatorName))}, 2*time.Minute
	s, _, err := c.Run()
	require.NoError(t, err)
	assert.NotEmpty(t, s.Trace.Filter(core.KindLeaseExpire), "etcd's server decides expiry")
}

// A woken holder that reads someone else's record still leads until its
// renew deadline: client-go's renew poll only gives up when its context
// ends. With fencing off, its writes in that window are accepted.
func TestKubeWokenHolderLeadsUntilItsRenewDeadline(t *testing.T) {
	s := kubeWorld(t, 2*time.Minute, sandbox.SystemPause)
	down := stateChanges(s, "A", core.SteppingDown.String())
	require.NotEmpty(t, down)
	wake := sandbox.SystemPause.At.D() + sandbox.SystemPause.Action.For.D()
	assert.InDelta(t, (wake + core.KubeRenewDeadline).Seconds(), down[0].At.Seconds(), 0.05,
		"the poll that was due during the pause starts on waking and ends 10 s later")
	late := 0
	for _, e := range core.Writes(s.Trace) {
		if e.From() == "A" && e.At > wake && e.At < down[0].At {
			late++
			assert.Equal(t, core.Accepted, e.Result())
			assert.EqualValues(t, 0, e.Token(), "A's leaseTransitions")
		}
	}
	assert.Equal(t, 5, late, "one write every 2 s for 10 s")
}

// "By its own clock": a candidate on a slow link (1 s each way) sees A's
// last renewal a second after it was written, and takes over no sooner
// than LeaseDuration after *that sighting*, not after the renewTime the
// record carries.
func TestKubeCandidateCountsFromItsOwnSighting(t *testing.T) {
	p, _ := sandbox.FindPreset("kubernetes")
	c := p.Config
	c.Procs, c.Names, c.Duration = 2, []string{"A", "B"}, 80*time.Second
	c.Links = []sandbox.LinkConfig{{A: "B", B: core.CoordinatorName, Delay: time.Second}}
	c.Actions = core.ActionLog{core.At(30*time.Second, core.Partition("A", core.CoordinatorName))}
	s, _, err := c.Run()
	require.NoError(t, err)
	last := lastRenewBefore(s, "A", 30*time.Second)
	rec, _, _ := s.Coord.LeaseObject("locks/leader")
	require.Equal(t, "B", rec.HolderIdentity)
	var sighting time.Duration
	for _, e := range s.Trace.Filter(core.KindSend) {
		if e.Actor == core.CoordinatorName && e.To() == "B" && e.Msg() == "LeaseGetResponse" && e.At > last {
			sighting = e.Arrive()
			break
		}
	}
	require.NotZero(t, sighting)
	assert.GreaterOrEqual(t, sighting-last, time.Second, "the answer took the slow link")
	takeover := firstHolderBut(s, "A")
	// The try that won began with a Get (1 s there, 1 s back) and its
	// Update took 1 s more to reach the server: it began at takeover - 3 s,
	// which must be at or after the sighting + 15 s.
	assert.GreaterOrEqual(t, takeover.At-3*time.Second, sighting+core.KubeLeaseDuration)
}

// The difference from etcd: nobody expires a Lease. When A cannot reach
// the API server, A itself stops leading RetryPeriod + RenewDeadline after
// its last successful renewal (the next poll starts a RetryPeriod later
// and gives up RenewDeadline after that), and a candidate takes over when
// its own observation of that renewal is LeaseDuration old.
func TestKubeHolderStepsDownAtRenewDeadlineAndACandidateTakesOverByItsOwnClock(t *testing.T) {
	cut := core.At(30*time.Second, core.Partition("A", core.CoordinatorName))
	s := kubeWorld(t, 70*time.Second, cut)

	last := lastRenewBefore(s, "A", 30*time.Second)
	require.Greater(t, last, 27*time.Second, "A renewed every 2 s up to the cut")
	down := stateChanges(s, "A", core.SteppingDown.String())
	require.Len(t, down, 1)
	assert.Contains(t, down[0].Why(), "renew deadline")
	// The poll that fails begins 2 s (RetryPeriod) after the renewal's
	// answer reached A and ends 10 s later.
	assert.InDelta(t, (last + core.KubeRetryPeriod + core.KubeRenewDeadline).Seconds(), down[0].At.Seconds(), 0.05)

	takeover := firstHolderBut(s, "A")
	require.NotEmpty(t, takeover.Actor, "someone took over")
	// Bounds from the algorithm: the candidate saw A's last record at one
	// of its polls, at most 2.2 x RetryPeriod after it was written, and
	// takes over at its first poll after that sighting + LeaseDuration,
	// again at most 2.2 x RetryPeriod late. Never before last + 15 s.
	lo := last + core.KubeLeaseDuration
	hi := lo + 2*time.Duration(2.2*float64(core.KubeRetryPeriod)) + 50*time.Millisecond
	assert.GreaterOrEqual(t, takeover.At, lo)
	assert.LessOrEqual(t, takeover.At, hi)
	assert.EqualValues(t, 1, takeover.LeaseTransitions())

	rec, _, ok := s.Coord.LeaseObject("locks/leader")
	require.True(t, ok)
	assert.Equal(t, takeover.Owner(), rec.HolderIdentity)
	assert.Equal(t, 1, rec.LeaseTransitions)
	assert.Equal(t, 15, rec.LeaseDurationSeconds)
	assert.Empty(t, s.Trace.Filter(core.KindLeaseExpire), "the API server expired nothing")
	assert.Empty(t, s.Trace.Filter(core.KindLeaseGrant), "and granted no lease")
}

// The views' truth about a Kubernetes lock is the Lease's holder.
func TestKubeLockInfoIsTheLeaseHolder(t *testing.T) {
	s := kubeWorld(t, 10*time.Second)
	info := s.Coord.LockInfo("locks/leader")
	assert.Equal(t, "A", info.Holder)
	assert.Equal(t, core.KubeLeaseKey("locks/leader"), info.Key)
	assert.EqualValues(t, 0, info.Token)
}

// stateChanges returns actor's state transitions to (or from) a state.
func stateChanges(s *core.Sim, actor, to string) []core.Event {
	var out []core.Event
	for _, e := range s.Trace.Filter(core.KindState) {
		if e.Actor == actor && e.To() == to {
			out = append(out, e)
		}
	}
	return out
}

// lastRenewBefore is when actor's last successful renewal of the Lease
// (a put of a record it holds) was applied before t.
func lastRenewBefore(s *core.Sim, holder string, t time.Duration) time.Duration {
	var at time.Duration
	for _, e := range s.Trace.Filter(core.KindPut) {
		if e.At < t && e.Key() == core.KubeLeaseKey("locks/leader") {
			if r, err := core.ParseLeaseRecord(e.Value()); err == nil && r.HolderIdentity == holder {
				at = e.At
			}
		}
	}
	return at
}

// firstHolderBut is the first holder event of someone other than who.
func firstHolderBut(s *core.Sim, who string) core.Event {
	for _, e := range core.Holders(s.Trace) {
		if e.Owner() != who {
			return e
		}
	}
	return core.Event{}
}
