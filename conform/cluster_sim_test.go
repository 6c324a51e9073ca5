package conform

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// The simulator's side of the cluster scenarios in cluster_test.go: the
// same story on core's three-member coordinator (core/cluster.go), on ten
// seeds, so a real member's measurement can be held against the range the
// model gives. Each real test compares its figures with these, within a
// tolerance it states: the real members run in one process on a loaded
// machine, and a deletion is seen through a watch, so the real figure may
// come up to 1.2 s later than the model's and 0.2 s earlier.

const simSeeds = 10

// simRange is the lowest and highest of f over the simulator's seeds.
type simRange struct {
	lo, hi float64
	seeds  int
}

// simOne is the simulator's figure on seed 1 alone.
func simOne(v float64) simRange { return simRange{v, v, 1} }

func simOver(t *testing.T, f func(seed uint64) float64) simRange {
	t.Helper()
	r := simRange{lo: 1e9, hi: -1e9, seeds: simSeeds}
	for seed := uint64(1); seed <= simSeeds; seed++ {
		v := f(seed)
		r.lo, r.hi = min(r.lo, v), max(r.hi, v)
	}
	return r
}

// holds asserts that every real figure lies in the simulator's range,
// widened by early and late seconds.
func (r simRange) holds(t *testing.T, what string, real []float64, early, late float64) {
	t.Helper()
	t.Logf("%s: real %s, simulator %.2f-%.2f s (%d seeds)", what, secsList(real), r.lo, r.hi, r.seeds)
	for _, v := range real {
		assert.GreaterOrEqual(t, v, r.lo-early, "%s: real %.2f s below the simulator's %.2f-%.2f s", what, v, r.lo, r.hi)
		assert.LessOrEqual(t, v, r.hi+late, "%s: real %.2f s above the simulator's %.2f-%.2f s", what, v, r.lo, r.hi)
	}
}

func secsList(v []float64) string {
	out := ""
	for i, x := range v {
		if i > 0 {
			out += ", "
		}
		out += time.Duration(x * float64(time.Second)).Round(10 * time.Millisecond).String()
	}
	return out
}

// simWorld is contenders names on a three-member etcd, etcd's KeepAlive
// client (renew 0) unless renew is set for the last of them.
func simWorld(t *testing.T, seed uint64, ttl time.Duration, names []string) *core.Sim {
	t.Helper()
	w, err := core.ContentionConfig{Names: names, TTL: ttl, Stagger: 100 * time.Millisecond, RetryBase: time.Second}.World(seed)
	require.NoError(t, err)
	w.Coordinator.Members = 3
	s, err := w.Build()
	require.NoError(t, err)
	return s
}

func simEvents(s *core.Sim, kind core.Kind, keep func(e *core.Event) bool) []*core.Event {
	var out []*core.Event
	for i := range s.Trace.Len() {
		if e := s.Trace.At(i); e.Kind == kind && (keep == nil || keep(e)) {
			out = append(out, e)
		}
	}
	return out
}

func by(actor string) func(e *core.Event) bool {
	return func(e *core.Event) bool { return e.Actor == actor }
}

func simSecs(d time.Duration) float64 { return d.Seconds() }

// simRearm: the holder dies at its grant; the leader member crashes 3 s
// after the grant. It returns the election (new leader - crash) and the
// expiry after the new leader.
func simRearm(t *testing.T, seed uint64) (election, afterLeader float64) {
	const ttl = 5 * time.Second
	s := simWorld(t, seed, ttl, []string{"A"})
	s.RunUntil(100 * time.Millisecond)
	grant := simEvents(s, core.KindLeaseGrant, nil)
	require.Len(t, grant, 1)
	require.NoError(t, s.Apply(core.Crash("A")))
	crash := grant[0].At + 3*time.Second
	s.RunUntil(crash)
	require.NoError(t, s.Apply(core.Crash("member-1")))
	s.RunUntil(20 * time.Second)
	leaders := simEvents(s, core.KindLeader, nil)
	require.Len(t, leaders, 2)
	exp := simEvents(s, core.KindLeaseExpire, nil)
	require.Len(t, exp, 1)
	return simSecs(leaders[1].At - crash), simSecs(exp[0].At - leaders[1].At)
}

// simNoQuorum: A keeps a 3 s lease alive with KeepAlive; B calls
// KeepAliveOnce on its own 1 s timer. 1.5 s after A's grant two members
// (the leader among them) crash; one restarts restart after the grant. It
// returns how long after its last answer A's client gave up, how long B's
// KeepAliveOnce waited before the member refused it, and the expiry of
// A's lease after the new leader.
func simNoQuorum(t *testing.T, seed uint64, restart time.Duration) (gaveUp, once, afterLeader float64) {
	const ttl = 3 * time.Second
	w, err := core.ContentionConfig{Names: []string{"A", "B"}, TTL: ttl, Stagger: 100 * time.Millisecond, RetryBase: 30 * time.Second}.World(seed)
	require.NoError(t, err)
	w.Processes[1].RenewEvery = time.Second
	w.Coordinator.Members = 3
	s, err := w.Build()
	require.NoError(t, err)
	s.RunUntil(100 * time.Millisecond)
	grant := simEvents(s, core.KindLeaseGrant, nil)
	require.NotEmpty(t, grant)
	g := grant[0]
	s.RunUntil(g.At + 1500*time.Millisecond)
	require.NoError(t, s.Apply(core.Crash("member-1")))
	require.NoError(t, s.Apply(core.Crash("member-2")))
	s.RunUntil(g.At + restart)
	require.NoError(t, s.Apply(core.Restart("member-2")))
	s.RunUntil(g.At + restart + 15*time.Second)

	lost := simEvents(s, core.KindLeaseLost, by("A"))
	require.NotEmpty(t, lost)
	var last time.Duration
	for _, e := range simEvents(s, core.KindLeaseRenewed, by("A")) {
		if e.At < lost[0].At {
			last = e.At
		}
	}
	refused := simEvents(s, core.KindRefused, func(e *core.Event) bool { return e.Who() == "B" })
	require.NotEmpty(t, refused)
	send := refused[0]
	for send.Kind != core.KindSend {
		require.NotEmpty(t, send.Causes(), "the refusal's chain leads back to the keepalive sent")
		send = s.Trace.Event(send.Causes()[0])
		require.NotNil(t, send)
	}
	leaders := simEvents(s, core.KindLeader, nil)
	require.Len(t, leaders, 2)
	exp := simEvents(s, core.KindLeaseExpire, func(e *core.Event) bool { return e.Lease() == g.Lease() })
	require.Len(t, exp, 1)
	return simSecs(lost[0].At - last), simSecs(refused[0].At - send.At), simSecs(exp[0].At - leaders[1].At)
}

// simStaleRead: A holds; a follower is cut off from its peers; A lets go
// and B takes the lock; the cut-off member is read. It returns the owner
// its serializable read gave, how long that took, and how long its
// linearizable read waited before it failed.
func simStaleRead(t *testing.T, seed uint64) (owner string, ser, lin float64) {
	s := simWorld(t, seed, 5*time.Second, []string{"A", "B"})
	s.RunUntil(time.Second)
	require.NoError(t, s.Apply(core.Partition("member-3", core.PeersOf)))
	require.NoError(t, s.Apply(core.Release("A")))
	s.RunUntil(2 * time.Second)
	require.NoError(t, s.Apply(core.Action{Do: core.VerbRead, Proc: "member-3", Key: "locks/leader"}))
	require.NoError(t, s.Apply(core.Action{Do: core.VerbRead, Proc: "member-3", Key: "locks/leader", On: true}))
	s.RunUntil(12 * time.Second)
	reads := simEvents(s, core.KindRead, nil)
	require.Len(t, reads, 2)
	return reads[0].Owner(), simSecs(reads[0].At - 2*time.Second), simSecs(reads[1].At - 2*time.Second)
}

// simMoves: A and B keep 5 s leases alive; the member carrying one
// client's stream crashes 1.8 s after an answer to it: B's member (a
// follower), or A's (the leader). It returns how long after the crash the
// client's next answer came.
func simMoves(t *testing.T, seed uint64, leader bool) float64 {
	s := simWorld(t, seed, 5*time.Second, []string{"A", "B"})
	who, member := "B", "member-2"
	if leader {
		who, member = "A", "member-1"
	}
	s.RunUntil(4 * time.Second)
	renewed := simEvents(s, core.KindLeaseRenewed, by(who))
	require.NotEmpty(t, renewed)
	crash := renewed[len(renewed)-1].At + 1800*time.Millisecond
	s.RunUntil(crash)
	require.NoError(t, s.Apply(core.Crash(member)))
	s.RunUntil(crash + 10*time.Second)
	for _, e := range simEvents(s, core.KindLeaseRenewed, by(who)) {
		if e.At > crash {
			return simSecs(e.At - crash)
		}
	}
	require.FailNow(t, "no answer after the crash", "%s", who)
	return 0
}

// The simulator's own figures, without a real cluster: each story gives
// what the real members showed (conform/ETCD_CLUSTER.md) on every seed.
func TestTheSimulatorsClusterStories(t *testing.T) {
	election := simOver(t, func(seed uint64) float64 { e, _ := simRearm(t, seed); return e })
	rearm := simOver(t, func(seed uint64) float64 { _, r := simRearm(t, seed); return r })
	assert.GreaterOrEqual(t, election.lo, 0.9)
	assert.Less(t, election.hi, 2.0)
	assert.GreaterOrEqual(t, rearm.lo, 6.0, "1 s + TTL")
	assert.Less(t, rearm.hi, 6.5, "and the next sweep")
	owner, ser, lin := simStaleRead(t, 1)
	assert.Equal(t, "A", owner)
	assert.Zero(t, ser)
	assert.Equal(t, 7.0, lin)
	gave, once, after := simNoQuorum(t, 1, 8500*time.Millisecond)
	assert.GreaterOrEqual(t, gave, 3.0)
	assert.Less(t, gave, 4.0)
	assert.InDelta(t, 7.0, once, 0.05, "the request timeout, from the send")
	assert.GreaterOrEqual(t, after, 4.0)
	assert.Less(t, after, 4.5)
	follower := simOver(t, func(seed uint64) float64 { return simMoves(t, seed, false) })
	assert.GreaterOrEqual(t, follower.lo, 0.5)
	assert.Less(t, follower.hi, 0.6)
}

// conform --endpoints lists the cluster stories it skips by these names:
// each is a test of cluster_test.go.
func TestTheClusterStoriesAreTheSuitesTests(t *testing.T) {
	src, err := os.ReadFile("cluster_test.go")
	require.NoError(t, err)
	for _, c := range ClusterStories {
		assert.Contains(t, string(src), "func "+c.Test+"(t *testing.T)", c.Title)
	}
}

// simPausedHolder: A is granted a 5 s lease and pauses at once for 7 s;
// the leader member crashes crashAt after the grant (0: never). It
// returns whether the coordinator still had A's lease just before A woke, and
// the lease's expiry then (after the grant).
func simPausedHolder(t *testing.T, seed uint64, crashAt time.Duration) (alive bool, expiry time.Duration) {
	s := simWorld(t, seed, 5*time.Second, []string{"A"})
	s.RunUntil(100 * time.Millisecond)
	grant := simEvents(s, core.KindLeaseGrant, nil)
	require.Len(t, grant, 1)
	g := grant[0].At
	require.NoError(t, s.Apply(core.Pause("A", 7*time.Second-100*time.Millisecond)))
	if crashAt > 0 {
		s.RunUntil(g + crashAt)
		require.NoError(t, s.Apply(core.Crash("member-1")))
	}
	s.RunUntil(7*time.Second - 10*time.Millisecond) // just before A wakes
	for _, l := range s.Coord.Leases() {
		if l.Owner == "A" {
			return true, l.Expiry - g
		}
	}
	return false, 0
}
