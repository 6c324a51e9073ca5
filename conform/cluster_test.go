package conform

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// What a three-member etcd 3.7.3 does to leases and clients when its
// members fail, measured on real members (embedded, in this process; see
// Cluster). Line numbers are etcd v3.7.3's, as served to this module:
// server/lease/lessor.go, lease.go; server/etcdserver/server.go,
// v3_server.go, api/v3rpc/interceptor.go; client/v3/lease.go. The figures
// are in ETCD_CLUSTER.md.

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
	var held, rearm, election []float64
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
		election = append(election, elected.Sub(crashed).Seconds())

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

	// The simulator, the same story (cluster_sim_test.go): the election
	// is polled here every few ms and may be noticed up to 0.5 s late on
	// a loaded machine; the deletion is seen through a watch, after a
	// commit.
	simOver(t, func(seed uint64) float64 { e, _ := simRearm(t, seed); return e }).holds(t, "new leader after the crash", election, 0.2, 0.5)
	simOver(t, func(seed uint64) float64 { _, r := simRearm(t, seed); return r }).holds(t, "lock free after the new leader", rearm, 0.2, 1.2)
}

// A cluster without a leader expires nothing. A holder keeps a 3 s lease
// alive with clientv3's KeepAlive through one member; 1.5 s after the grant
// the two others crash (the leader among them), so no quorum is left.
// What the holder's client sees, and the lease, until a member returns:
//
//   - a write waits for a leader that cannot be elected and fails when
//     the server's request timeout ends, ReqTimeout = 5 s + 2 x election
//     timeout = 7 s (config/config.go:320-323; the proposal's wait,
//     etcdserver/v3_server.go:1109-1131, and its "request timed out",
//     server.go:2359): the proposal goes to the last known leader or is
//     dropped, and no answer comes;
//   - a keepalive is answered by the leader only: the member forwards it
//     (v3_server.go:538-559), waits for a leader (waitLeader,
//     v3_server.go:785-803) and gives up when the same 7 s end, with "no
//     leader";
//   - the member drops the holder's keepalive stream once it has had no
//     leader for 3 election timeouts (api/v3rpc/interceptor.go:315-351), the
//     client opens it again every 500 ms (client/v3/lease.go:449-495), and
//     its KeepAlive channel closes when TTL has passed with no answer
//     (deadlineLoop, client/v3/lease.go:560-582, which looks once a
//     second): the holder's own deadline;
//   - nothing expires, however long this lasts: the surviving member's
//     lessor is not primary (Demote set expiry to forever, lessor.go:534-549,
//     and revokeExpiredLeases looks only when primary, lessor.go:642-650).
//
// When a member comes back the two elect a leader, which re-arms the lease
// (Promote, as in TestANewEtcdLeaderReArmsEveryLease): it is still alive
// then and is deleted at new leader + 1 s + TTL.
func TestAnEtcdClusterWithoutQuorumExpiresNothing(t *testing.T) {
	const ttl = 3 * time.Second
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	lead, _, err := c.WaitLeader(ctx)
	require.NoError(t, err)
	followers := c.others(lead)
	survivor, back := followers[0], followers[1]
	cli := clusterClient(t, c, survivor)

	g, err := cli.Grant(ctx, int64(ttl/time.Second))
	require.NoError(t, err)
	granted := time.Now()
	put, err := cli.Put(ctx, "/noquorum/lock", "holder", clientv3.WithLease(g.ID))
	require.NoError(t, err)
	kctx, kcancel := context.WithCancel(ctx)
	defer kcancel()
	kach, err := cli.KeepAlive(kctx, g.ID)
	require.NoError(t, err)
	ka := followKeepAlive(kach)

	// Half-way between two keepalives (due every TTL/3 = 1 s).
	time.Sleep(time.Until(granted.Add(1500 * time.Millisecond)))
	lost := time.Now()
	c.Crash(lead)
	c.Crash(back)

	results := writeAndKeepAlive(ctx, cli, "/noquorum/other", g.ID)
	noLeader := c.namesNoLeader(survivor, lost, 5*time.Second)
	r := <-results
	select {
	case <-ka.done:
	case <-time.After(5 * time.Second):
		require.FailNow(t, "the client's KeepAlive channel stayed open with no answer for TTL + 5 s")
	}
	lastAnswer, gaveUp := ka.lastAnswer, ka.gaveUp
	require.False(t, noLeader.IsZero(), "the surviving member still names a leader 5 s after losing the quorum")

	// Well past the TTL: the lease is still there.
	restarted := time.Now()
	require.NoError(t, c.Restart(back))
	newLead, elected, err := c.WaitLeader(ctx, survivor, back)
	require.NoError(t, err)
	get, err := cli.Get(ctx, "/noquorum/lock")
	require.NoError(t, err)
	left, err := cli.TimeToLive(ctx, g.ID)
	require.NoError(t, err)
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	expired := waitDeleted(t, cli.Watch(wctx, "/noquorum/lock", clientv3.WithRev(put.Header.Revision+1)), 15*time.Second)

	t.Logf("granted at 0; quorum lost at %.2f s; the survivor m%d named no leader from %.2f s", secsSince(granted, lost), survivor, secsSince(granted, noLeader))
	t.Logf("a write through it %v", r[0])
	t.Logf("a keepalive through it %v", r[1])
	t.Logf("the holder's last keepalive answer at %.2f s; its KeepAlive channel closed at %.2f s (last answer + %.2f s)",
		secsSince(granted, lastAnswer), secsSince(granted, gaveUp), gaveUp.Sub(lastAnswer).Seconds())
	t.Logf("m%d restarted at %.2f s, m%d leads at %.2f s; the key is there (%d) with %d s left; deleted at %.2f s = new leader + %.2f s",
		back, secsSince(granted, restarted), newLead, secsSince(granted, elected), get.Count, left.TTL, secsSince(granted, expired), expired.Sub(elected).Seconds())

	assert.Error(t, r[0].err, "a write without a quorum")
	assert.Error(t, r[1].err, "a keepalive without a leader")
	for _, a := range r {
		assert.InDelta(t, 7, a.took.Seconds(), 1.5, "given up at the server's request timeout, 7 s: %v", a)
	}
	assert.Contains(t, fmt.Sprint(r[1].err), "no leader")
	// deadlineLoop looks every second from its own start, so after TTL and
	// within a second more.
	assert.WithinRange(t, gaveUp, lastAnswer.Add(ttl), lastAnswer.Add(ttl+1200*time.Millisecond), "the client gives up a TTL after its last answer")
	assert.Greater(t, restarted.Sub(lastAnswer), ttl+3*time.Second, "the quorum came back long after the lease's TTL ran out")
	assert.Equal(t, int64(1), get.Count, "the lease outlived its TTL without a quorum: its key is still there")
	assert.GreaterOrEqual(t, left.TTL, int64(ttl/time.Second)-1, "and the new leader re-armed it")
	due := elected.Add(time.Second + ttl)
	assert.WithinRange(t, expired, due.Add(-200*time.Millisecond), due.Add(1200*time.Millisecond),
		"expiry = new leader + 1 s + TTL (due %.2f s, was %.2f s)", secsSince(granted, due), secsSince(granted, expired))

	noQuorumInTheSimulator(t, ttl, restarted.Sub(granted), gaveUp.Sub(lastAnswer), r[1].took, expired.Sub(elected))
}

// noQuorumInTheSimulator runs the story of
// TestAnEtcdClusterWithoutQuorumExpiresNothing in the simulator, restarted
// at the same moment, and holds the real figures against it: when the
// client gave up after its last answer, how long the KeepAliveOnce took to
// be refused, and when the lease was deleted after the new leader.
func noQuorumInTheSimulator(t *testing.T, ttl, restarted, gaveUp, refused, deleted time.Duration) {
	t.Helper()
	// The client's 1 s deadline check has its own phase on each side: the
	// model gives up between TTL and TTL + 1 s after the last answer, as
	// etcd's client does, at a point its seed decides.
	gave, once, after := simNoQuorum(t, 1, restarted)
	assert.GreaterOrEqual(t, gave, ttl.Seconds())
	assert.Less(t, gave, ttl.Seconds()+1)
	simRange{ttl.Seconds(), ttl.Seconds() + 1, 1}.holds(t, "the client gives up after its last answer (TTL, then its next 1 s check)", []float64{gaveUp.Seconds()}, 0.05, 0.2)
	simOne(once).holds(t, "a KeepAliveOnce refused", []float64{refused.Seconds()}, 0.5, 1.0)
	simOne(after).holds(t, "lease deleted after the new leader", []float64{deleted.Seconds()}, 0.2, 1.2)
}

// A member cut off from the quorum still answers a serializable read,
// from its own copy: the old owner. The lock's owner key says "A"; a
// follower is cut off from its two peers (raft traffic both ways); the
// two others, still a quorum, commit owner "B". A client of the cut-off
// member then reads:
//
//   - serializable: "A", at once. A serializable Range is served from the
//     member's local store without asking anyone (etcdserver/v3_server.go:
//     139-145 waits for LinearizableReadNotify only when !r.Serializable);
//   - linearizable (clientv3's default): the member must learn the
//     leader's commit index first (ReadIndex, retried every 500 ms,
//     etcdserver/read/read.go:148-225), which no leader answers; the server
//     gives up at its request timeout, 7 s (config/config.go:320-323), with
//     "request timed out" (read.go:225), whose gRPC code is Unavailable
//     (api/v3rpc/rpctypes/error.go:82), which clientv3 retries for reads
//     (client/v3/retry.go:54-75): the client waits until its own deadline.
//
// Healed, the member catches up and the serializable read says "B".
func TestACutOffEtcdMemberServesAStaleSerializableRead(t *testing.T) {
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	lead, _, err := c.WaitLeader(ctx)
	require.NoError(t, err)
	cut := c.others(lead)[0]
	quorum := c.others(cut)
	qc := clusterClient(t, c, quorum...)
	xc := clusterClient(t, c, cut)

	a, err := qc.Put(ctx, "/stale/owner", "A")
	require.NoError(t, err)
	// The cut-off member has A before the cut.
	require.Eventually(t, func() bool { return readsSerializable(ctx, xc, "/stale/owner", "A") }, 5*time.Second, 10*time.Millisecond)

	isolated := time.Now()
	c.Isolate(cut)
	b := try(ctx, 10*time.Second, func(ctx context.Context) error {
		_, err := qc.Put(ctx, "/stale/owner", "B")
		return err
	})
	require.NoError(t, b.err, "the two others are a quorum and commit B")

	var stale *clientv3.GetResponse
	ser := try(ctx, 5*time.Second, func(ctx context.Context) error {
		var err error
		stale, err = xc.Get(ctx, "/stale/owner", clientv3.WithSerializable())
		return err
	})
	require.NoError(t, ser.err, "a serializable read from the cut-off member")
	srv, lin := c.linearizableReads(ctx, cut, xc, "/stale/owner")
	leaderless := c.Members[cut].Leader() < 0

	healed := time.Now()
	c.Heal(cut)
	var caughtUp time.Time
	require.Eventually(t, func() bool {
		says := readsSerializable(ctx, xc, "/stale/owner", "B")
		caughtUp = time.Now()
		return says
	}, 10*time.Second, 10*time.Millisecond, "the healed member catches up")

	t.Logf("m%d cut off at 0; the quorum (m%d leads) committed B %s", cut, lead, b)
	t.Logf("serializable read from m%d %s: %q (mod revision %d, the member's revision %d)",
		cut, ser, stale.Kvs[0].Value, stale.Kvs[0].ModRevision, stale.Header.Revision)
	t.Logf("linearizable read from m%d: the member %s; the client (deadline 9 s) %s; the member named no leader at the end: %v", cut, srv, lin, leaderless)
	t.Logf("healed at %.2f s; its serializable read says B at %.2f s (%.2f s after healing)",
		secsSince(isolated, healed), secsSince(isolated, caughtUp), caughtUp.Sub(healed).Seconds())

	assert.Equal(t, "A", string(stale.Kvs[0].Value), "the stale owner")
	assert.Equal(t, a.Header.Revision, stale.Kvs[0].ModRevision)
	assert.Less(t, ser.took, 500*time.Millisecond, "served locally, at once")
	assert.Error(t, lin.err, "a linearizable read cannot be served without the quorum")
	assert.Greater(t, lin.took, 6*time.Second, "it waits rather than answering")
	assert.Contains(t, fmt.Sprint(srv.err), "request timed out", "the member gives up at its request timeout")
	assert.InDelta(t, 7, srv.took.Seconds(), 1, "ReqTimeout = 5 s + 2 x election timeout")
	assert.True(t, leaderless, "the cut-off member has lost its leader")
	assert.Less(t, caughtUp.Sub(healed), 5*time.Second)

	// The simulator, the same story: the stale owner, at once; the
	// linearizable read given up at the request timeout.
	owner, ser2, lin2 := simStaleRead(t, 1)
	assert.Equal(t, string(stale.Kvs[0].Value), owner, "the simulator's cut-off member answers the same stale owner")
	simOne(ser2).holds(t, "serializable read from the cut-off member", []float64{ser.took.Seconds()}, 0, 0.5)
	simOne(lin2).holds(t, "the member gives up a linearizable read", []float64{srv.took.Seconds()}, 0.5, 1.0)
}

// A client that loses its member moves to another. The holder's client
// knows all three members and keeps a 5 s lease alive (clientv3
// KeepAlive); its keepalive stream runs over one member's connection. That
// member crashes just before the next keepalive goes out: one is due TTL/3
// after the last answer (client/v3/lease.go:542-543) and sent at the send
// loop's next 500 ms wake-up, every 2.0 s for a 5 s TTL; the crash comes
// 1.8 s after an answer. Twice a follower, once the leader. What happens,
// from etcd's client and server:
//
//   - the stream ends at once (the connection closes); the client waits
//     retryConnWait = 500 ms and opens a new stream (client/v3/lease.go:
//     85-86, 465-515), which gRPC's round-robin balancer puts on a live
//     member; the overdue keepalive goes out at once on it
//     (sendKeepAliveLoop, client/v3/lease.go:586-620, looks every 500 ms);
//   - a follower forwards the keepalive to the leader (v3_server.go:538-559):
//     when the leader itself crashed, it first waits for an election
//     (waitLeader, v3_server.go:785-803), so the answer comes once a new
//     leader is elected;
//   - the lease survives: the gap between two answers stays well under the
//     TTL, and the new leader re-arms it anyway (Promote).
func TestAnEtcdClientMovesToAnotherMember(t *testing.T) {
	const ttl = 5 * time.Second
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cli := clusterClient(t, c)
	g, err := cli.Grant(ctx, int64(ttl/time.Second))
	require.NoError(t, err)
	_, err = cli.Put(ctx, "/failover/lock", "holder", clientv3.WithLease(g.ID))
	require.NoError(t, err)
	kach, err := cli.KeepAlive(ctx, g.ID)
	require.NoError(t, err)
	var ans answers
	go ans.follow(kach)

	var resumed []string
	var afterFollower, afterLeader []float64
	for run, crashLeader := range []bool{false, false, true} {
		lead, _, err := c.WaitLeader(ctx)
		require.NoError(t, err)
		m := c.streamMember(2 * time.Second)
		require.GreaterOrEqual(t, m, 0, "one member carries the keepalive stream")
		if crashLeader != (m == lead) {
			lead = c.makeLeaderOrNot(ctx, t, m, lead, crashLeader)
		}
		// 1.8 s after an answer, 0.2 s before the next is sent.
		fresh := ans.firstAfter(t, time.Now(), ttl, "keepalives are answered")
		period := fresh.Sub(func() time.Time { l, _ := ans.around(fresh); return l }())
		time.Sleep(time.Until(fresh.Add(1800 * time.Millisecond)))
		crashed := time.Now()
		c.Crash(m)
		next := ans.firstAfter(t, crashed, 10*time.Second, "a keepalive answered after the crash")
		// Right at the answer: TimeToLive truncates to whole seconds.
		left, err := cli.TimeToLive(ctx, g.ID)
		require.NoError(t, err)
		last, _ := ans.around(crashed)
		now := c.streamMember(2 * time.Second)
		role := "a follower"
		if m == lead {
			role = "the leader"
		}
		t.Logf("run %d: the stream's member m%d (%s) crashed %.2f s after the last answer; the next answer came %.2f s after the crash (%.2f s after the last, against %.2f s between answers before), when TimeToLive said %d s left; the stream is now on m%d",
			run, m, role, crashed.Sub(last).Seconds(), next.Sub(crashed).Seconds(), next.Sub(last).Seconds(), period.Seconds(), left.TTL, now)
		resumed = append(resumed, fmt.Sprintf("%.2f s (%s)", next.Sub(crashed).Seconds(), role))
		if crashLeader {
			afterLeader = append(afterLeader, next.Sub(crashed).Seconds())
		} else {
			afterFollower = append(afterFollower, next.Sub(crashed).Seconds())
		}

		assert.NotEqual(t, m, now, "the stream moved to a live member")
		// The crash came 1.8 s after an answer; after a leader's, an
		// election (1-2 s, randomized), the client's retry wait (0.5 s)
		// and a round trip come before the next: up to about 4.5 s after
		// the last answer, inside the 5 s TTL, and the new leader re-arms
		// the lease besides.
		assert.Less(t, next.Sub(last), ttl, "the lease was never at risk")
		assert.GreaterOrEqual(t, left.TTL, int64(ttl/time.Second)-1, "the lease is alive and renewed")
		if crashLeader {
			assert.Less(t, next.Sub(crashed), ttl-1800*time.Millisecond, "an election (1-2 s) and a reconnection, before the lease could run out")
		} else {
			// retryConnWait 500 ms, then one round trip through the leader.
			assert.InDelta(t, 0.5, next.Sub(crashed).Seconds(), 0.4, "the client's retry wait")
			require.NoError(t, c.Restart(m))
		}
	}
	assert.False(t, ans.isClosed(), "the KeepAlive channel stayed open throughout")
	get, err := cli.Get(ctx, "/failover/lock")
	require.NoError(t, err)
	assert.Equal(t, int64(1), get.Count, "the holder's key survived every crash")
	t.Logf("keepalives answered again after the crash of the stream's member: %s", strings.Join(resumed, ", "))

	// The simulator, the same story: the retry wait, or an election too.
	simOver(t, func(seed uint64) float64 { return simMoves(t, seed, false) }).holds(t, "answer after a follower's crash", afterFollower, 0.1, 0.4)
	simOver(t, func(seed uint64) float64 { return simMoves(t, seed, true) }).holds(t, "answer after the leader's crash", afterLeader, 0.3, 0.8)
}

// A leader change during a pause saves the paused holder's lease. The
// holder is granted a 5 s lease and then renews nothing for 7 s (a
// stop-the-world pause: no keepalive leaves it). Once alone, the lease is
// gone when the holder wakes (its KeepAliveOnce is refused: lease not
// found). With the leader member crashing 2 s into the pause, the new
// leader re-arms the lease to its promotion + 1 s + 5 s (the same
// lessor.Promote as TestANewEtcdLeaderReArmsEveryLease), so the holder
// wakes to a lease that is still alive and renews it: a coordinator
// failover can hide a pause that would otherwise have cost the lock.
func TestALeaderChangeDuringAPauseSavesThePausedHoldersLease(t *testing.T) {
	const ttl, pause = 5 * time.Second, 7 * time.Second
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cli := clusterClient(t, c)
	wake := func(crashAt time.Duration) (alive bool, elected time.Duration) {
		lead, _, err := c.WaitLeader(ctx)
		require.NoError(t, err)
		g, err := cli.Grant(ctx, int64(ttl/time.Second))
		require.NoError(t, err)
		granted := time.Now()
		if crashAt > 0 {
			time.Sleep(time.Until(granted.Add(crashAt)))
			c.Crash(lead)
			_, at, err := c.WaitLeader(ctx, c.others(lead)...)
			require.NoError(t, err)
			elected = at.Sub(granted)
			defer func() { require.NoError(t, c.Restart(lead)) }()
		}
		time.Sleep(time.Until(granted.Add(pause)))
		_, err = cli.KeepAliveOnce(ctx, g.ID)
		if err != nil {
			require.ErrorIs(t, err, rpctypes.ErrLeaseNotFound, "the only way a renewal on waking may fail")
		}
		return err == nil, elected
	}
	alone, _ := wake(0)
	saved, elected := wake(2 * time.Second)
	t.Logf("a %v lease, no renewal for %v after the grant: alone, the lease is alive on waking: %v; with the leader member crashed 2 s in (new leader at %.2f s), alive: %v",
		ttl, pause, alone, elected.Seconds(), saved)
	assert.False(t, alone, "without a leader change the lease ended during the pause")
	assert.True(t, saved, "the new leader re-armed it: alive when the holder woke")

	// The simulator, the same story: the coordinator's truth at the wake.
	simAlone, _ := simPausedHolder(t, 1, 0)
	simSaved, simExpiry := simPausedHolder(t, 1, 2*time.Second)
	assert.Equal(t, alone, simAlone)
	assert.Equal(t, saved, simSaved)
	t.Logf("simulator: alone alive %v; with the leader change alive %v, the lease now ends %.2f s after the grant", simAlone, simSaved, simExpiry.Seconds())
}
