package conform

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// What a three-member etcd 3.7.3 does to leases and clients when its
// members fail, measured on real members (embedded, in this process; see
// Cluster). Line numbers are etcd v3.7.3's, as served to this module:
// server/lease/lessor.go, lease.go; server/etcdserver/server.go,
// v3_server.go, api/v3rpc/interceptor.go; client/v3/lease.go. The figures
// are in ETCD_CLUSTER.md.

// startCluster starts three members for one test; they stop with it.
func startCluster(t *testing.T) *Cluster {
	t.Helper()
	c, err := StartCluster(3)
	require.NoError(t, err, "a three-member embedded etcd did not start; it needs go.etcd.io/etcd/server/v3 v3.7.3 (cd conform && go mod download) and free ports on 127.0.0.1")
	t.Cleanup(c.Close)
	return c
}

// clusterClient connects to the given members (all when none are given)
// without waiting for any of them to answer.
func clusterClient(t *testing.T, c *Cluster, members ...int) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints(members...), DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	require.NoError(t, err)
	t.Cleanup(func() { cli.Close() })
	return cli
}

// others are the members other than the given ones.
func (c *Cluster) others(not ...int) []int {
	var o []int
	for i := range c.Members {
		if !slices.Contains(not, i) {
			o = append(o, i)
		}
	}
	return o
}

// waitDeleted waits for the delete of a key on a watch and returns when
// it arrived.
func waitDeleted(t *testing.T, wch clientv3.WatchChan, within time.Duration) time.Time {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case wr, ok := <-wch:
			require.True(t, ok, "the watch ended before the key was deleted")
			require.NoError(t, wr.Err())
			for _, ev := range wr.Events {
				if ev.Type == mvccpb.DELETE {
					return time.Now()
				}
			}
		case <-deadline:
			require.FailNow(t, "the key was not deleted", "within %v", within)
		}
	}
}

func secsSince(t0, t time.Time) float64 { return t.Sub(t0).Seconds() }

// A new leader re-arms every lease. A holder is granted a 5 s lease and
// then dies (no keepalive ever again); 3 s later the leader member
// crashes. The lease does not end at grant + 5 s: the new leader gives it
// its whole TTL again, plus one election timeout, from the moment it
// takes over:
//
//   - the member that wins applies the empty entry of its term and calls
//     s.lessor.Promote(s.Cfg.ElectionTimeout()) (etcdserver/server.go:1961-1966);
//     ElectionTimeout is ElectionTicks x TickMs = 1 s (config/config.go:326);
//   - Promote refreshes every lease by that extend (lessor.go:480-492), and
//     refresh sets expiry = now + extend + the lease's TTL (lease.go:84-89),
//     the full TTL: the remaining TTL is kept only by checkpoints, scheduled
//     for leases with more than 5 minutes left (lessor.go:51-52, 758);
//   - followers never expire anything: Demote set every expiry to forever
//     (lessor.go:534-549) and only the primary looks for expired leases,
//     every 500 ms (lessor.go:620-660), so expiry lands up to 0.5 s after
//     the deadline, plus the revoke's commit.
//
// So the lock is held for about crash + election + 1 s + TTL, not TTL.
func TestANewEtcdLeaderReArmsEveryLease(t *testing.T) {
	const ttl = 5 * time.Second
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cli := clusterClient(t, c)
	var held, rearm []float64
	for run := range 3 {
		lead, _, err := c.WaitLeader(ctx)
		require.NoError(t, err)
		g, err := cli.Grant(ctx, int64(ttl/time.Second))
		require.NoError(t, err)
		granted := time.Now()
		key := fmt.Sprintf("/rearm/%d", run)
		put, err := cli.Put(ctx, key, "holder", clientv3.WithLease(g.ID))
		require.NoError(t, err)

		time.Sleep(time.Until(granted.Add(3 * time.Second)))
		crashed := time.Now()
		c.Crash(lead)
		survivors := c.others(lead)
		newLead, elected, err := c.WaitLeader(ctx, survivors...)
		require.NoError(t, err)
		// Watched from the survivors, from the put on: the delete cannot
		// be missed, and no reconnection delays it.
		sc := clusterClient(t, c, survivors...)
		wctx, wcancel := context.WithCancel(ctx)
		wch := sc.Watch(wctx, key, clientv3.WithRev(put.Header.Revision+1))
		left, err := clusterClient(t, c, newLead).TimeToLive(ctx, g.ID)
		require.NoError(t, err)
		expired := waitDeleted(t, wch, 15*time.Second)
		wcancel()

		t.Logf("run %d: granted at 0; leader m%d crashed at %.2f s; m%d leads at %.2f s (%.2f s after the crash), its TimeToLive says %d s left; the key was deleted at %.2f s = new leader + %.2f s",
			run, lead, secsSince(granted, crashed), newLead, secsSince(granted, elected), elected.Sub(crashed).Seconds(),
			left.TTL, secsSince(granted, expired), expired.Sub(elected).Seconds())
		held = append(held, secsSince(granted, expired))
		rearm = append(rearm, expired.Sub(elected).Seconds())

		// At the crash 2 s were left; the new leader says the whole TTL
		// (TimeToLive truncates to whole seconds: 5.99 s shows as 5).
		assert.GreaterOrEqual(t, left.TTL, int64(ttl/time.Second)-1, "the new leader re-armed the lease to its TTL")
		assert.Greater(t, expired.Sub(granted), ttl+2*time.Second, "the lock outlived its TTL by the failover")
		// Promotion + election timeout + TTL, then the 500 ms sweep and a
		// commit: allow 1.2 s late on a loaded machine, 0.2 s early for the
		// polling of who leads.
		due := elected.Add(time.Second + ttl)
		assert.WithinRange(t, expired, due.Add(-200*time.Millisecond), due.Add(1200*time.Millisecond),
			"expiry = new leader + 1 s + TTL (due %.2f s, was %.2f s)", secsSince(granted, due), secsSince(granted, expired))

		require.NoError(t, c.Restart(lead), "the crashed member restarts for the next run")
	}
	t.Logf("lease of %v, holder dead, leader crashed 3 s after the grant: deleted %.2f-%.2f s after the grant, %.2f-%.2f s after the new leader took over (runs %d)",
		ttl, slices.Min(held), slices.Max(held), slices.Min(rearm), slices.Max(rearm), len(held))
}
