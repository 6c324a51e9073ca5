package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clusterWorld is A (then B, C...) contending for locks/leader with etcd's
// KeepAlive client, on a coordinator of members members, 100 ms apart.
func clusterWorld(t *testing.T, members int, ttl time.Duration, names []string, script ActionLog) *Sim {
	t.Helper()
	w, err := ContentionConfig{Names: names, TTL: ttl, Stagger: 100 * time.Millisecond, RetryBase: time.Second}.World(1)
	require.NoError(t, err)
	w.Coordinator.Members = members
	w.Script = script
	s, err := w.Build()
	require.NoError(t, err)
	return s
}

// find returns the events of kind that pass keep, in order.
func find(tr *Trace, kind Kind, keep func(e *Event) bool) []*Event {
	var out []*Event
	for e := range tr.All() {
		if e.Kind == kind && (keep == nil || keep(e)) {
			out = append(out, e)
		}
	}
	return out
}

func owner(o string) func(e *Event) bool { return func(e *Event) bool { return e.Owner() == o } }

func TestAOneMemberWorldHasNoClusterAndRunsAsBefore(t *testing.T) {
	one := clusterWorld(t, 1, 5*time.Second, []string{"A", "B"}, nil)
	none := clusterWorld(t, 0, 5*time.Second, []string{"A", "B"}, nil)
	one.RunUntil(20 * time.Second)
	none.RunUntil(20 * time.Second)
	assert.Nil(t, one.Coord.Members())
	assert.Equal(t, none.Trace.Hash(), one.Trace.Hash())
	assert.Error(t, one.Apply(Crash("member-1")), "a world without members has no member to crash")
}

func TestAClusterIsRefusedWhereTheModelCannotRunIt(t *testing.T) {
	for _, c := range []CoordinatorSpec{{Members: MaxMembers + 1}, {Members: -1}, {Members: 3, System: SystemRedlock}, {Members: 3, DiskSync: -time.Second}} {
		err := World{Coordinator: c}.Validate()
		assert.Error(t, err, "%+v", c)
	}
	require.NoError(t, World{Coordinator: CoordinatorSpec{Members: 5}}.Validate())
	s := clusterWorld(t, 3, 5*time.Second, []string{"A"}, nil)
	assert.ErrorContains(t, s.Apply(Action{Do: VerbSlowDisk, Proc: "member-9", For: Duration(time.Second)}), "not a member")
	assert.ErrorContains(t, s.Apply(Write("member-2", "x")), "coordinator member")
	assert.ErrorContains(t, s.Apply(Partition("A", "member-2")), "clients")
	assert.Error(t, s.Apply(Restart("member-2")), "a member that is up cannot restart")
}

// The leader member crashes while the lock's holder is dead: the new leader
// re-arms every lease, so the lock is free one election timeout plus a
// whole TTL after the new leader, not a TTL after the last renewal
// (measured on three etcd 3.7.3 members: conform/ETCD_CLUSTER.md).
func TestANewLeaderReArmsEveryLease(t *testing.T) {
	ttl := 5 * time.Second
	s := clusterWorld(t, 3, ttl, []string{"A", "B"}, ActionLog{At(700*time.Millisecond, Crash("A")), At(3*time.Second, Crash("member-1"))})
	s.RunUntil(20 * time.Second)
	tr := s.Trace

	grant := find(tr, KindLeaseGrant, owner("A"))
	require.Len(t, grant, 1)
	leaders := find(tr, KindLeader, nil)
	require.Len(t, leaders, 2, "member-1 from the start, then the one elected after it crashed")
	elected := leaders[1]
	assert.NotEqual(t, "member-1", elected.Actor)
	assert.Greater(t, elected.Term(), leaders[0].Term())
	took := elected.At - 3*time.Second
	assert.GreaterOrEqual(t, took, 900*time.Millisecond, "an election timeout is 10 to 19 ticks after the last heartbeat")
	assert.Less(t, took, 2*time.Second)

	rearm := find(tr, KindLeaseRearm, owner("A"))
	require.Len(t, rearm, 1)
	assert.Equal(t, (elected.At + ElectionTimeout + ttl).Truncate(time.Millisecond), rearm[0].Expiry(), "the whole TTL again, plus one election timeout, from the promotion")
	assert.Equal(t, elected.Seq, rearm[0].Causes()[0], "the re-arm is caused by the election")

	expired := find(tr, KindLeaseExpire, owner("A"))
	require.Len(t, expired, 1)
	assert.GreaterOrEqual(t, expired[0].At, rearm[0].Expiry())
	assert.Less(t, expired[0].At, rearm[0].Expiry()+500*time.Millisecond, "found by the next sweep")
	assert.Greater(t, expired[0].At, grant[0].Expiry()+4*time.Second, "the dead holder kept the lock far past its TTL")
	holders := find(tr, KindHolder, owner("B"))
	require.Len(t, holders, 1)
	assert.Equal(t, expired[0].At, holders[0].At)
	checkCauses(t, "leader crash", tr)
}

// Without a quorum nothing expires: the clients' own deadlines pass, their
// keepalive streams end with "no leader", and the leases outlive their TTL
// until a leader is back, which re-arms them.
func TestWithoutAQuorumNothingExpires(t *testing.T) {
	ttl := 3 * time.Second
	s := clusterWorld(t, 3, ttl, []string{"A"}, ActionLog{
		At(1500*time.Millisecond, Crash("member-1")), At(1500*time.Millisecond, Crash("member-2")),
		At(8500*time.Millisecond, Restart("member-2"))})
	s.RunUntil(20 * time.Second)
	tr := s.Trace

	lost := find(tr, KindLeaseLost, nil)
	require.NotEmpty(t, lost)
	assert.Less(t, lost[0].At, 5*time.Second, "A's own deadline passed while the cluster had no leader")
	refused := find(tr, KindRefused, func(e *Event) bool { return e.Who() == "A" })
	require.NotEmpty(t, refused)
	assert.Equal(t, errNoLeader, refused[0].Why())

	leaders := find(tr, KindLeader, nil)
	require.Len(t, leaders, 2)
	back := leaders[1].At
	assert.Greater(t, back, 8500*time.Millisecond)
	for _, e := range find(tr, KindLeaseExpire, nil) {
		assert.Greater(t, e.At, back, "nothing expires without a leader: %s", e.Text())
	}
	rearmed := find(tr, KindLeaseRearm, owner("A"))
	require.Len(t, rearmed, 1, "the lease A held when the quorum went")
	expired := find(tr, KindLeaseExpire, func(e *Event) bool { return e.Lease() == rearmed[0].Lease() })
	require.Len(t, expired, 1)
	first := expired[0]
	assert.GreaterOrEqual(t, first.At-back, ElectionTimeout+ttl, "re-armed: one election timeout and a whole TTL after the new leader")
	assert.Less(t, first.At-back, ElectionTimeout+ttl+500*time.Millisecond)
	noLeader := find(tr, KindNoLeader, nil)
	require.Len(t, noLeader, 1, "the loss of the leader is told once")
	checkCauses(t, "no quorum", tr)
}

// A member cut off from its peers answers a serializable read from what it
// applied (the old owner), at once; a linearizable read there gives up after
// the request timeout, while the quorum's leader answers with the new owner.
func TestACutOffMemberAnswersAStaleSerializableRead(t *testing.T) {
	read := func(m string, lin bool) Action { return Action{Do: VerbRead, Proc: m, Key: "locks/leader", On: lin} }
	s := clusterWorld(t, 3, 5*time.Second, []string{"A", "B"}, ActionLog{
		At(time.Second, Partition("member-3", PeersOf)), At(2*time.Second, Release("A")),
		At(3*time.Second, read("member-3", false)), At(3*time.Second, read("member-3", true)), At(3*time.Second, read("member-1", true))})
	s.RunUntil(12 * time.Second)
	reads := find(s.Trace, KindRead, nil)
	require.Len(t, reads, 3)
	stale, current, failed := reads[0], reads[1], reads[2]

	assert.Equal(t, "member-3", stale.Actor)
	assert.Equal(t, "A", stale.Owner())
	assert.Equal(t, "serializable", stale.How())
	assert.Equal(t, "stale", stale.Result())
	assert.Equal(t, 3*time.Second, stale.At, "answered at once")

	assert.Equal(t, "member-1", current.Actor)
	assert.Equal(t, "B", current.Owner())
	assert.Equal(t, "current", current.Result())
	assert.Greater(t, current.Rev(), stale.Rev())
	assert.Less(t, current.At-3*time.Second, 50*time.Millisecond, "a round trip to the quorum")

	assert.Equal(t, "member-3", failed.Actor)
	assert.Equal(t, errRequestTimedOut, failed.Result())
	assert.Equal(t, 3*time.Second+RequestTimeout, failed.At)
	checkCauses(t, "stale read", s.Trace)
}

// A client whose member crashes opens its stream on another member after
// etcd's 500 ms retry wait; its lease never comes near expiring.
func TestAClientMovesToAnotherMemberWhenItsMemberCrashes(t *testing.T) {
	s := clusterWorld(t, 3, 5*time.Second, []string{"A", "B"}, ActionLog{At(3*time.Second, Crash("member-2"))})
	s.RunUntil(10 * time.Second)
	tr := s.Trace
	moved := find(tr, KindClientMember, func(e *Event) bool { return e.Actor == "B" })
	require.Len(t, moved, 2, "B first talks to member-2, then to another")
	assert.Equal(t, "member-2", moved[0].Member())
	assert.NotEqual(t, "member-2", moved[1].Member())
	assert.GreaterOrEqual(t, moved[1].At-3*time.Second, ClientRetryWait)
	assert.Empty(t, find(tr, KindLeaseLost, nil))
	assert.Empty(t, find(tr, KindLeaseExpire, nil))
	renewed := find(tr, KindLeaseRenew, owner("B"))
	require.NotEmpty(t, renewed)
	assert.Greater(t, renewed[len(renewed)-1].At, 8*time.Second, "B's keepalives go on through the other member")
}

// A write is committed only once a majority has it on disk: an acquisition
// on three members takes a quorum round trip and a disk sync longer than on
// one, and a slow disk on both followers slows every write by its sync.
func TestAWriteWaitsForTheQuorum(t *testing.T) {
	holdAt := func(members int, script ActionLog) time.Duration {
		s := clusterWorld(t, members, 5*time.Second, []string{"A"}, script)
		s.RunUntil(2 * time.Second)
		h := find(s.Trace, KindHolder, owner("A"))
		require.Len(t, h, 1)
		return h[0].At
	}
	one := holdAt(1, nil)
	three := holdAt(3, nil)
	slow := holdAt(3, ActionLog{At(0, Action{Do: VerbSlowDisk, Proc: "member-2", For: Duration(200 * time.Millisecond)}),
		At(0, Action{Do: VerbSlowDisk, Proc: "member-3", For: Duration(200 * time.Millisecond)})})
	assert.Greater(t, three, one)
	// Two proposals (the grant, the lock's transaction) and two reads.
	assert.GreaterOrEqual(t, slow-three, 2*(200*time.Millisecond-DefaultDiskSync))
	assert.Less(t, slow-three, 2*200*time.Millisecond+50*time.Millisecond)
}

// A cluster world is deterministic and clones mid-run like any other.
func TestAClusterRunReplaysAndClones(t *testing.T) {
	script := ActionLog{At(time.Second, Pause("member-1", 3*time.Second)), At(2*time.Second, Partition("member-2", ClientsOf)),
		At(6*time.Second, Heal("member-2", ClientsOf)), At(7*time.Second, Crash("member-3"))}
	a := clusterWorld(t, 3, 5*time.Second, []string{"A", "B", "C"}, script)
	b := clusterWorld(t, 3, 5*time.Second, []string{"A", "B", "C"}, script)
	a.RunUntil(4 * time.Second)
	c := a.Clone()
	a.RunUntil(30 * time.Second)
	b.RunUntil(30 * time.Second)
	c.RunUntil(30 * time.Second)
	assert.Equal(t, a.Trace.Hash(), b.Trace.Hash())
	assert.Equal(t, a.Trace.Hash(), c.Trace.Hash())
	leaders := find(a.Trace, KindLeader, nil)
	require.GreaterOrEqual(t, len(leaders), 2, "the paused leader is replaced")
	checkCauses(t, "member actions", a.Trace)
}

// systemWorld is A then B on a three-member coordinator of system sys.
func systemWorld(t *testing.T, sys System, ttl time.Duration, script ActionLog) *Sim {
	t.Helper()
	c := ContentionConfig{System: sys, Names: []string{"A", "B"}, TTL: ttl, Stagger: 500 * time.Millisecond, RetryBase: time.Second}
	if sys == SystemKubernetes {
		c.RenewDeadline, c.RetryBase = 10*time.Second, 2*time.Second
	}
	w, err := c.World(1)
	require.NoError(t, err)
	w.Coordinator.Members = 3
	w.Script = script
	s, err := w.Build()
	require.NoError(t, err)
	return s
}

// A ZooKeeper server that dies (or loses its leader) closes its clients'
// connections: each is Disconnected (SUSPENDED) and reconnects to another
// server with the same session, whose lock node is still there; the new
// leader gives every session a fresh timeout.
func TestAZooKeeperClientKeepsItsSessionThroughItsServersCrash(t *testing.T) {
	s := systemWorld(t, SystemZooKeeper, 10*time.Second, ActionLog{At(3*time.Second, Crash("member-1"))})
	s.RunUntil(10 * time.Second)
	tr := s.Trace
	states := find(tr, KindClientState, func(e *Event) bool { return e.Actor == "A" })
	require.Len(t, states, 3)
	assert.Equal(t, "SUSPENDED", states[1].Curator())
	assert.Equal(t, "RECONNECTED", states[2].Curator())
	assert.Equal(t, states[0].Session(), states[2].Session(), "the same session")
	assert.Less(t, states[2].At-3*time.Second, 2*time.Second+zkReconnectEvery)
	leaders := find(tr, KindLeader, nil)
	require.Len(t, leaders, 2)
	rearm := find(tr, KindLeaseRearm, owner("A"))
	require.Len(t, rearm, 1)
	assert.Equal(t, zkBucket(leaders[1].At+10*time.Second).Truncate(time.Millisecond), rearm[0].Expiry(), "a fresh session timeout from the new leader, in its tick bucket")
	assert.Contains(t, rearm[0].Why(), "fresh session timeout")
	holders := find(tr, KindHolder, nil)
	require.Len(t, holders, 1, "A keeps the lock: its node never went")
	assert.Equal(t, Leader, s.Process("A").State())
	checkCauses(t, "zookeeper", tr)
}

// Consul's new leader starts every session's TTL timer again, at twice
// the TTL: a dead holder's lock outlives its session's TTL by the failover.
func TestAConsulLeaderChangeRestartsEverySessionTimer(t *testing.T) {
	ttl := 10 * time.Second
	s := systemWorld(t, SystemConsul, ttl, ActionLog{At(time.Second, Crash("A")), At(15*time.Second, Crash("member-1"))})
	s.RunUntil(60 * time.Second)
	tr := s.Trace
	leaders := find(tr, KindLeader, nil)
	require.Len(t, leaders, 2)
	rearm := find(tr, KindLeaseRearm, owner("A"))
	require.Len(t, rearm, 1)
	assert.Equal(t, (leaders[1].At + ConsulTTLMultiplier*ttl).Truncate(time.Millisecond), rearm[0].Expiry())
	free := find(tr, KindFree, nil)
	require.NotEmpty(t, free)
	assert.GreaterOrEqual(t, free[0].At, rearm[0].Expiry(), "the lock is freed only when the new timer runs out")
	assert.Greater(t, free[0].At, time.Second+ConsulTTLMultiplier*ttl+5*time.Second, "past the dead holder's own 2 x TTL")
	checkCauses(t, "consul", tr)
}

// Kubernetes' Lease lives in etcd but expires by the candidates' clocks:
// without an etcd quorum no update commits, so the leader steps down after
// its renew deadline and no one can take over until the quorum is back.
func TestKubernetesLeaderElectionStopsSafelyWithoutAnEtcdQuorum(t *testing.T) {
	s := systemWorld(t, SystemKubernetes, 15*time.Second, ActionLog{
		At(3*time.Second, Crash("member-1")), At(6*time.Second, Crash("member-2")), At(20*time.Second, Restart("member-2"))})
	s.RunUntil(40 * time.Second)
	tr := s.Trace
	assert.Empty(t, find(tr, KindLeaseRearm, nil), "a Kubernetes Lease is no etcd lease: a new etcd leader re-arms nothing")
	down := find(tr, KindState, func(e *Event) bool { return e.Actor == "A" && e.To() == "stepping_down" })
	require.NotEmpty(t, down)
	assert.Contains(t, down[0].Why(), "renew deadline")
	holders := find(tr, KindHolder, nil)
	for _, h := range holders {
		assert.Equal(t, "A", h.Owner(), "B never took over during the outage")
	}
	assert.Equal(t, Leader, s.Process("A").State(), "A leads again once the quorum is back")
	assert.Empty(t, Check(tr, 40*time.Second).Violations)
}
