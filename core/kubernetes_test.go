package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kubeWorld is the kubernetes preset with a script of its own.
func kubeWorld(t *testing.T, until time.Duration, script ...Timed) *Sim {
	t.Helper()
	p, err := FindPreset("kubernetes")
	require.NoError(t, err)
	c := p.Config
	c.Actions, c.Duration = script, until
	s, err := c.Build()
	require.NoError(t, err)
	s.RunUntil(until)
	return s
}

// stateChanges returns actor's state transitions to (or from) a state.
func stateChanges(s *Sim, actor, to string) []Event {
	var out []Event
	for _, e := range s.Trace.Filter(KindState) {
		if e.Actor == actor && e.To() == to {
			out = append(out, e)
		}
	}
	return out
}

// lastRenewBefore is when actor's last successful renewal of the Lease
// (a put of a record it holds) was applied before t.
func lastRenewBefore(s *Sim, holder string, t time.Duration) time.Duration {
	var at time.Duration
	for _, e := range s.Trace.Filter(KindPut) {
		if e.At < t && e.Key() == KubeLeaseKey("locks/leader") {
			if r, err := ParseLeaseRecord(e.Value()); err == nil && r.HolderIdentity == holder {
				at = e.At
			}
		}
	}
	return at
}

// firstHolderBut is the first holder event of someone other than who.
func firstHolderBut(s *Sim, who string) Event {
	for _, e := range Holders(s.Trace) {
		if e.Owner() != who {
			return e
		}
	}
	return Event{}
}

func TestKubeDurationsAreValidatedAsClientGoDoes(t *testing.T) {
	require.NoError(t, CheckKubeDurations(KubeLeaseDuration, KubeRenewDeadline, KubeRetryPeriod), "client-go's defaults")
	err := CheckKubeDurations(10*time.Second, 10*time.Second, 2*time.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "leaseDuration must be greater than renewDeadline")
	err = CheckKubeDurations(15*time.Second, 2400*time.Millisecond, 2*time.Second)
	require.Error(t, err, "2.4 s is not more than 1.2 x 2 s")
	assert.Contains(t, err.Error(), "renewDeadline must be greater than retryPeriod*JitterFactor")

	p, _ := FindPreset("kubernetes")
	c := p.Config
	c.RenewDeadline = 20 * time.Second
	errs := c.Validate()
	require.Len(t, errs, 1)
	assert.Equal(t, FieldTTL, errs[0].Field)
	assert.Contains(t, errs[0].Msg, "leaseDuration must be greater than renewDeadline (lease 15 s, renew deadline 20 s)")
	c = p.Config
	c.TTL = 15500 * time.Millisecond
	errs = c.Validate()
	require.NotEmpty(t, errs)
	assert.Contains(t, errs[0].Msg, "whole seconds")
	_, err = c.Build()
	assert.ErrorIs(t, err, ErrInvalidSandbox, "a refused configuration is never built")
}

// The difference from etcd: nobody expires a Lease. When A cannot reach
// the API server, A itself stops leading RetryPeriod + RenewDeadline after
// its last successful renewal (the next poll starts a RetryPeriod later
// and gives up RenewDeadline after that), and a candidate takes over when
// its own observation of that renewal is LeaseDuration old.
func TestKubeHolderStepsDownAtRenewDeadlineAndACandidateTakesOverByItsOwnClock(t *testing.T) {
	cut := At(30*time.Second, Partition("A", CoordinatorName))
	s := kubeWorld(t, 70*time.Second, cut)

	last := lastRenewBefore(s, "A", 30*time.Second)
	require.Greater(t, last, 27*time.Second, "A renewed every 2 s up to the cut")
	down := stateChanges(s, "A", SteppingDown.String())
	require.Len(t, down, 1)
	assert.Contains(t, down[0].Why(), "renew deadline")
	// The poll that fails begins 2 s (RetryPeriod) after the renewal's
	// answer reached A and ends 10 s later.
	assert.InDelta(t, (last + KubeRetryPeriod + KubeRenewDeadline).Seconds(), down[0].At.Seconds(), 0.05)

	takeover := firstHolderBut(s, "A")
	require.NotEmpty(t, takeover.Actor, "someone took over")
	// Bounds from the algorithm: the candidate saw A's last record at one
	// of its polls, at most 2.2 x RetryPeriod after it was written, and
	// takes over at its first poll after that sighting + LeaseDuration,
	// again at most 2.2 x RetryPeriod late. Never before last + 15 s.
	lo := last + KubeLeaseDuration
	hi := lo + 2*time.Duration(2.2*float64(KubeRetryPeriod)) + 50*time.Millisecond
	assert.GreaterOrEqual(t, takeover.At, lo)
	assert.LessOrEqual(t, takeover.At, hi)
	assert.EqualValues(t, 1, takeover.LeaseTransitions())

	rec, _, ok := s.Coord.LeaseObject("locks/leader")
	require.True(t, ok)
	assert.Equal(t, takeover.Owner(), rec.HolderIdentity)
	assert.Equal(t, 1, rec.LeaseTransitions)
	assert.Equal(t, 15, rec.LeaseDurationSeconds)
	assert.Empty(t, s.Trace.Filter(KindLeaseExpire), "the API server expired nothing")
	assert.Empty(t, s.Trace.Filter(KindLeaseGrant), "and granted no lease")
}

// The same cut on etcd: there the coordinator expires A's lease itself.
func TestEtcdUnderTheSameCutExpiresOnTheCoordinator(t *testing.T) {
	p, _ := FindPreset("etcd")
	c := p.Config
	c.Actions, c.Duration = ActionLog{At(30*time.Second, Partition("A", CoordinatorName))}, 2*time.Minute
	s, _, err := RunSandbox(c)
	require.NoError(t, err)
	assert.NotEmpty(t, s.Trace.Filter(KindLeaseExpire), "etcd's server decides expiry")
}

// A woken holder that reads someone else's record still leads until its
// renew deadline: client-go's renew poll only gives up when its context
// ends. With fencing off, its writes in that window are accepted.
func TestKubeWokenHolderLeadsUntilItsRenewDeadline(t *testing.T) {
	s := kubeWorld(t, 2*time.Minute, SystemPause)
	down := stateChanges(s, "A", SteppingDown.String())
	require.NotEmpty(t, down)
	wake := SystemPause.At.D() + SystemPause.Action.For.D()
	assert.InDelta(t, (wake + KubeRenewDeadline).Seconds(), down[0].At.Seconds(), 0.05,
		"the poll that was due during the pause starts on waking and ends 10 s later")
	late := 0
	for _, e := range Writes(s.Trace) {
		if e.From() == "A" && e.At > wake && e.At < down[0].At {
			late++
			assert.Equal(t, Accepted, e.Result())
			assert.EqualValues(t, 0, e.Token(), "A's leaseTransitions")
		}
	}
	assert.Equal(t, 5, late, "one write every 2 s for 10 s")
}

// Optimistic concurrency: an Update with an old resourceVersion is a
// conflict, and the record does not change.
func TestKubeLeaseUpdateNeedsTheCurrentResourceVersion(t *testing.T) {
	s := NewSim(1)
	c := s.Coord
	rec := LeaseRecord{HolderIdentity: "A", LeaseDurationSeconds: 15}
	r := c.kubeLease("A", kubeLeaseReq{Op: kubeCreate, Lock: "locks/leader", Rec: rec})
	require.Empty(t, r.Err)
	r2 := c.kubeLease("A", kubeLeaseReq{Op: kubeCreate, Lock: "locks/leader", Rec: rec})
	assert.Contains(t, r2.Err, "already exists")
	b := LeaseRecord{HolderIdentity: "B", LeaseDurationSeconds: 15, LeaseTransitions: 1}
	ok := c.kubeLease("B", kubeLeaseReq{Op: kubeUpdate, Lock: "locks/leader", RV: r.RV, Rec: b})
	require.Empty(t, ok.Err)
	stale := c.kubeLease("C", kubeLeaseReq{Op: kubeUpdate, Lock: "locks/leader", RV: r.RV, Rec: LeaseRecord{HolderIdentity: "C"}})
	assert.Contains(t, stale.Err, "the object has been modified")
	got, rv, _ := c.LeaseObject("locks/leader")
	assert.Equal(t, b, got)
	assert.Equal(t, ok.RV, rv)
}

func TestLeaseRecordRoundTrips(t *testing.T) {
	r := LeaseRecord{HolderIdentity: "api-1", LeaseDurationSeconds: 15, AcquireTime: 1500 * time.Millisecond, RenewTime: 61234 * time.Millisecond, LeaseTransitions: 4}
	got, err := ParseLeaseRecord(r.encode())
	require.NoError(t, err)
	assert.Equal(t, r, got)
	_, err = ParseLeaseRecord("holder")
	assert.Error(t, err)
}

// "By its own clock": a candidate on a slow link (1 s each way) sees A's
// last renewal a second after it was written, and takes over no sooner
// than LeaseDuration after *that sighting*, not after the renewTime the
// record carries.
func TestKubeCandidateCountsFromItsOwnSighting(t *testing.T) {
	p, _ := FindPreset("kubernetes")
	c := p.Config
	c.Procs, c.Names, c.Duration = 2, []string{"A", "B"}, 80*time.Second
	c.Links = []LinkConfig{{A: "B", B: CoordinatorName, Delay: time.Second}}
	c.Actions = ActionLog{At(30*time.Second, Partition("A", CoordinatorName))}
	s, _, err := RunSandbox(c)
	require.NoError(t, err)
	last := lastRenewBefore(s, "A", 30*time.Second)
	rec, _, _ := s.Coord.LeaseObject("locks/leader")
	require.Equal(t, "B", rec.HolderIdentity)
	var sighting time.Duration
	for _, e := range s.Trace.Filter(KindSend) {
		if e.Actor == CoordinatorName && e.To() == "B" && e.Msg() == "LeaseGetResponse" && e.At > last {
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
	assert.GreaterOrEqual(t, takeover.At-3*time.Second, sighting+KubeLeaseDuration)
}

// The views' truth about a Kubernetes lock is the Lease's holder.
func TestKubeLockInfoIsTheLeaseHolder(t *testing.T) {
	s := kubeWorld(t, 10*time.Second)
	info := s.Coord.LockInfo("locks/leader")
	assert.Equal(t, "A", info.Holder)
	assert.Equal(t, KubeLeaseKey("locks/leader"), info.Key)
	assert.EqualValues(t, 0, info.Token)
}
