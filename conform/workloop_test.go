package conform

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"leaselab/core"
)

// The renewal-loop lesson's claim, on a real etcd: an application that
// renews its lease from the loop that also does its work (KeepAliveOnce
// between units) loses the lease when a unit outlasts the TTL's margin,
// though the process never froze; the same work with clientv3's KeepAlive,
// which renews from a goroutine of its own, keeps the lease. The simulator,
// given the same schedule, says the same for both.
const (
	wlTTL       = 3 * time.Second
	wlRenew     = time.Second
	wlWorkEvery = 6 * time.Second
	wlWork      = 5 * time.Second
	wlRun       = 14 * time.Second
)

// realWorkLoop runs the application for wlRun: a unit of work (wlWork of
// sleep, the loop held) every wlWorkEvery and, on the loop, a renewal
// every wlRenew. It returns the longest a renewal waited past its due time
// and whether etcd had expired the lease when a renewal finally went out.
func realWorkLoop(ctx context.Context, cli *clientv3.Client, lease clientv3.LeaseID, onLoop bool) (worst time.Duration, expired bool, err error) {
	start := time.Now()
	nextRenew, nextWork := start.Add(wlRenew), start.Add(wlWorkEvery)
	for time.Since(start) < wlRun {
		next := nextWork
		if onLoop && nextRenew.Before(next) {
			next = nextRenew
		}
		time.Sleep(time.Until(next))
		if !time.Now().Before(nextWork) {
			time.Sleep(wlWork) // the unit of work: nothing else on this loop runs
			nextWork = nextWork.Add(wlWorkEvery)
		}
		if onLoop && !time.Now().Before(nextRenew) {
			worst = max(worst, time.Since(nextRenew))
			if _, err := cli.KeepAliveOnce(ctx, lease); err != nil {
				if errors.Is(err, rpctypes.ErrLeaseNotFound) {
					return worst, true, nil
				}
				return worst, false, err
			}
			nextRenew = time.Now().Add(wlRenew)
		}
	}
	return worst, false, nil
}

// simWorkLoop runs the same schedule in the simulator: one process, the
// same TTL, renewal period and work.
func simWorkLoop(onLoop bool) (worst time.Duration, expired bool) {
	s := core.NewSim(1)
	s.AddRegister("storage", true)
	s.AddProcess(core.ProcessConfig{Name: "A", Lock: "l", TTL: wlTTL, RenewEvery: wlRenew, Target: "storage",
		WorkEvery: wlWorkEvery, WorkTakes: wlWork, RenewOnWorkLoop: onLoop})
	s.RunUntil(wlRun)
	for _, e := range s.Trace.Filter(core.KindRenewal) {
		worst = max(worst, e.Late())
	}
	return worst, len(s.Trace.Filter(core.KindLeaseExpire)) > 0
}

func TestARenewalOnTheWorkLoopLosesTheLeaseOnRealEtcd(t *testing.T) {
	t.Parallel()
	ctx, cli := freshClient(t)
	g, err := cli.Grant(ctx, int64(wlTTL/time.Second))
	require.NoError(t, err)
	worst, expired, err := realWorkLoop(ctx, cli, g.ID, true)
	require.NoError(t, err)
	assert.True(t, expired, "etcd expired the lease of a process that never froze")
	assert.Greater(t, worst, wlTTL-wlRenew, "a renewal waited longer than the TTL's margin over the period")

	simWorst, simExpired := simWorkLoop(true)
	assert.True(t, simExpired, "the simulator expires it too")
	assert.Greater(t, simWorst, wlTTL-wlRenew)
	t.Logf("worst renewal delay: etcd client %s, simulator %s", worst.Round(time.Millisecond), simWorst)
}

func TestKeepAliveRenewsFromItsOwnGoroutineOnRealEtcd(t *testing.T) {
	t.Parallel()
	ctx, cli := freshClient(t)
	g, err := cli.Grant(ctx, int64(wlTTL/time.Second))
	require.NoError(t, err)
	kctx, stop := context.WithCancel(ctx)
	defer stop()
	ch, err := cli.KeepAlive(kctx, g.ID)
	require.NoError(t, err)
	go func() {
		for range ch { // the responses go to their own reader, not the busy loop
		}
	}()
	_, _, err = realWorkLoop(ctx, cli, g.ID, false)
	require.NoError(t, err)
	ttl, err := cli.TimeToLive(ctx, g.ID)
	require.NoError(t, err)
	assert.Positive(t, ttl.TTL, "two 5 s units of work later the 3 s lease is still alive")

	simWorst, simExpired := simWorkLoop(false)
	assert.False(t, simExpired, "the simulator keeps it too")
	assert.Zero(t, simWorst, "and every renewal left on time")
}

// An application that renews with KeepAliveOnce on its own timer (the
// sandbox's renewal field on etcd, labctl --renew) keeps its own deadline:
// the last answer + TTL, looked at exactly then. When its renewals stop
// reaching etcd, it learns of the loss at that deadline, before (or within
// a round trip of) etcd deleting its key, which happens at the server's
// last renewal + TTL and the next 500 ms sweep. clientv3's KeepAlive, which
// looks at its deadline once a second, learns up to a second later
// instead (the stalled-connection scenario: 0.71 s after B already holds).
// The simulator's client of that kind, given the same schedule, shows the
// same order and gap.
func TestAKeepAliveOnceTimerClientLearnsOfItsLossAtItsDeadlineOnRealEtcd(t *testing.T) {
	t.Parallel()
	const ttl, every = 5 * time.Second, 1667 * time.Millisecond
	ctx, cli := freshClient(t)
	g, err := cli.Grant(ctx, int64(ttl/time.Second))
	require.NoError(t, err)
	granted := time.Now()
	put, err := cli.Put(ctx, "/once/lock", "A", clientv3.WithLease(g.ID))
	require.NoError(t, err)
	wch := cli.Watch(ctx, "/once/lock", clientv3.WithRev(put.Header.Revision+1))
	last := granted
	for i := 1; i <= 2; i++ {
		time.Sleep(time.Until(granted.Add(time.Duration(i) * every)))
		_, err := cli.KeepAliveOnce(ctx, g.ID)
		require.NoError(t, err)
		last = time.Now()
	}
	// Its renewals no longer get through from here on.
	deadline := last.Add(ttl)
	var deleted time.Time
	select {
	case resp := <-wch:
		require.NotEmpty(t, resp.Events)
		deleted = time.Now()
	case <-time.After(ttl + 5*time.Second):
		require.FailNow(t, "etcd kept the lease of a client that stopped renewing")
	}
	gap := deleted.Sub(deadline).Seconds()

	s := core.NewSim(1)
	s.AddRegister("storage", true)
	s.AddProcess(core.ProcessConfig{Name: "A", Lock: "l", TTL: ttl, RenewEvery: every, Target: "storage"})
	s.RunUntil(2*every + 100*time.Millisecond)
	require.NoError(t, s.Apply(core.Partition("A", core.CoordinatorName)))
	s.RunUntil(20 * time.Second)
	lost := s.Trace.Filter(core.KindLeaseLost)
	expired := s.Trace.Filter(core.KindLeaseExpire)
	require.NotEmpty(t, lost)
	require.NotEmpty(t, expired)
	simGap := (expired[0].At - lost[0].At).Seconds()
	t.Logf("etcd deleted the key %.3f s after the client's own deadline (last answer + TTL); the simulator's: %.3f s", gap, simGap)
	assert.GreaterOrEqual(t, gap, -0.05, "the client learns at its deadline, no later than etcd's deletion (within a round trip)")
	assert.Less(t, gap, 0.6, "etcd's next sweep")
	assert.GreaterOrEqual(t, simGap, 0.0)
	assert.Less(t, simGap, 0.6)
	assert.InDelta(t, gap, simGap, 0.6, "the same order and gap on both sides")
}
