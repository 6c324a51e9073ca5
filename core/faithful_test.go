package core

// Tests that the model behaves as the real systems do, one behaviour per
// test, each named after the fact in REFERENCE.md it checks. This file
// holds Leases and sessions and the helpers; faithful_recipe_test.go holds
// Recipes and Ordering and fencing tokens; faithful_failure_test.go holds
// Failure modes.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustContention builds a contention world or fails the test.
func mustContention(t testing.TB, seed uint64, c ContentionConfig) *Sim {
	t.Helper()
	s, err := BuildWorld(c.World(seed))
	require.NoError(t, err, "contention world: %v", err)
	return s
}

// eventsBy returns the events of kind whose actor is actor ("" for any).
func eventsBy(tr *Trace, kind Kind, actor string) []Event {
	var out []Event
	for _, e := range tr.Filter(kind) {
		if actor == "" || e.Actor == actor {
			out = append(out, e)
		}
	}
	return out
}

// transitions returns actor's state changes as "from->to", in order.
func transitions(tr *Trace, actor string) []string {
	var out []string
	for _, e := range eventsBy(tr, KindState, actor) {
		out = append(out, e.From()+"->"+e.To())
	}
	return out
}

// firstHolder returns the first holder event for owner, or fails.
func firstHolder(t *testing.T, tr *Trace, owner string) Event {
	t.Helper()
	for _, e := range Holders(tr) {
		if e.Owner() == owner {
			return e
		}
	}
	require.Failf(t, "no holder event", "%s never held the lock; holders: %v", owner, texts(Holders(tr)))
	return Event{}
}

func texts(es []Event) []string {
	out := make([]string, len(es))
	for i := range es {
		out[i] = es[i].Text()
	}
	return out
}

// etcd: revoking or expiring a lease deletes all its keys in ONE revision.
func TestLeaseEndDeletesAllAttachedKeysInOneRevision(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(s *Sim, id LeaseID)
		kind Kind
	}{
		{"expiry", func(s *Sim, id LeaseID) { s.RunUntil(10 * time.Second) }, KindLeaseExpire},
		{"revoke", func(s *Sim, id LeaseID) { s.Coord.Revoke(id, false, "released by owner") }, KindLeaseRevoke},
		{"forced revoke", func(s *Sim, id LeaseID) { s.Coord.Revoke(id, true, "expired by the learner") }, KindLeaseRevoke},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSim(1)
			l := s.Coord.Grant("client", 3*time.Second)
			keys := []string{"service/a", "service/b", "service/c"}
			for _, k := range keys {
				err := s.Coord.Put("client", k, "up", l.ID)
				require.NoError(t, err, "Put %s: %v", k, err)
			}
			require.NoError(t, s.Coord.Put("client", "unrelated", "stays", 0))
			got := l.Keys()
			require.Equal(t, keys, got, "attached keys = %v, want %v", got, keys)
			before := s.Coord.Rev
			tc.end(s, l.ID)

			assert.Equal(t, before+1, s.Coord.Rev, "revision went from %d to %d, want exactly one bump", before, s.Coord.Rev)
			dels := s.Trace.Filter(KindDelete)
			require.Len(t, dels, len(keys), "got %d delete events, want %d: %v", len(dels), len(keys), texts(dels))
			for i, e := range dels {
				assert.Equal(t, keys[i], e.Key(), "delete %d = %s, want key %s at rev %d", i, e.Text(), keys[i], before+1)
				assert.Equal(t, before+1, e.Rev(), "delete %d = %s, want key %s at rev %d", i, e.Text(), keys[i], before+1)
			}
			ends := s.Trace.Filter(tc.kind)
			assert.True(t, len(ends) == 1 && ends[0].Keys() == 3 && ends[0].Rev() == before+1,
				"%s events = %v, want one with keys=3 rev=%d", tc.kind, texts(ends), before+1)
			assert.Nil(t, s.Coord.Lease(l.ID), "lease or its keys survived the end of the lease")
			assert.Nil(t, s.Coord.Get("service/a"), "lease or its keys survived the end of the lease")
			assert.NotNil(t, s.Coord.Get("unrelated"), "a key without the lease was deleted with it")
		})
	}
}

// etcd: expired leases are found by a sweep every 500 ms, so expiry lands on
// the first multiple of 500 ms at or after grant + TTL.
func TestExpiredLeasesAreFoundByHalfSecondSweep(t *testing.T) {
	for _, grantAt := range []time.Duration{0, 120 * time.Millisecond, 500 * time.Millisecond, 730 * time.Millisecond, 1999 * time.Millisecond} {
		t.Run(grantAt.String(), func(t *testing.T) {
			s := NewSim(1)
			ttl := 3 * time.Second
			var l *Lease
			newHook(s, "test").do(grantAt, func() { l = s.Coord.Grant("client", ttl) })
			s.RunUntil(10 * time.Second)
			exp := s.Trace.Filter(KindLeaseExpire)
			require.Len(t, exp, 1, "expire events = %v, want one for %s", texts(exp), l.ID)
			require.Equal(t, l.ID.String(), exp[0].Lease(), "expire events = %v, want one for %s", texts(exp), l.ID)
			at, dead := exp[0].At, grantAt+ttl
			want := (dead + 499*time.Millisecond) / (500 * time.Millisecond) * (500 * time.Millisecond)
			assert.Equal(t, want, at, "expired at %s, want %s (first 500 ms tick at or after %s)", at, want, dead)
		})
	}
}

// etcd: a TTL below the minimum (2 s with default election timeout) is
// raised silently, both for a direct grant and for a client's request; the
// client's deadline then follows the first keepalive response, which goes
// out at once (conform/ checks both against a real etcd).
func TestMinTTLSilentlyRaisesShortTTLs(t *testing.T) {
	for _, tc := range []struct{ asked, got time.Duration }{
		{1 * time.Second, 2 * time.Second},
		{2 * time.Second, 2 * time.Second},
		{5 * time.Second, 5 * time.Second},
	} {
		t.Run(tc.asked.String(), func(t *testing.T) {
			s := NewSim(1)
			assert.Equal(t, tc.got, s.Coord.Grant("direct", tc.asked).TTL, "a direct grant")
			s = mustContention(t, 1, ContentionConfig{Names: []string{"A"}, TTL: tc.asked})
			s.RunUntil(100 * time.Millisecond)
			grants := s.Trace.Filter(KindLeaseGrant)
			require.Len(t, grants, 1)
			assert.Equal(t, tc.got.Milliseconds(), grants[0].Num(FTTL))
			assert.Empty(t, s.ActionErrors(), "raising the TTL is silent")
			assert.Empty(t, s.Trace.Filter(KindDenied), "raising the TTL is silent")
			renewed := eventsBy(s.Trace, KindLeaseRenewed, "A")
			require.Len(t, renewed, 2, "the grant, then the first keepalive's response")
			assert.Equal(t, "keepalive", renewed[1].How())
			assert.Less(t, renewed[1].At-renewed[0].At, 20*time.Millisecond, "the first keepalive leaves at once")
			assert.Equal(t, renewed[1].At+tc.got, s.Process("A").LocalDeadline())
		})
	}
}

// etcd's LeaseGrant takes whole seconds: a fractional TTL for the etcd
// recipe is refused with the two nearest TTLs it could ask for, and a
// grant that still carries one (from a caller that skipped validation) is
// rounded up. ZooKeeper's session timeouts are milliseconds.
func TestEtcdTTLsAreWholeSeconds(t *testing.T) {
	_, err := BuildWorld(ContentionConfig{Names: []string{"A"}, TTL: 2500 * time.Millisecond}.World(1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "etcd grants leases in whole seconds: a TTL of 2.5s cannot be asked for (use 2s or 3s)")
	_, err = BuildWorld(ContentionConfig{Names: []string{"A"}, TTL: 2500 * time.Millisecond, Recipe: RecipeZooKeeper}.World(1))
	assert.NoError(t, err, "ZooKeeper takes milliseconds")
	assert.Equal(t, 3*time.Second, WholeSeconds(2500*time.Millisecond))
	assert.Equal(t, 2*time.Second, WholeSeconds(2*time.Second))

	s := mustContention(t, 1, ContentionConfig{Names: []string{"A"}, TTL: 4 * time.Second})
	s.Schedule(ActionLog{At(time.Second, SetTTL("A", 4500*time.Millisecond))})
	s.RunUntil(2 * time.Second)
	require.Len(t, s.ActionErrors(), 1)
	assert.Contains(t, s.ActionErrors()[0].Error(), "set-ttl A: etcd grants leases in whole seconds")
}

// etcd's KeepAlive client: the next keepalive is due TTL/3 after each
// response and is sent by a loop that wakes every 500 ms, so the period is
// TTL/3 rounded up past the next half second (measured on etcd 3.7.3: TTL
// 5 s, 2.002 s). Lessons quote these: 3.5 s for TTL 10 s, 5.5 s for 16 s.
func TestKeepAliveCadenceFollowsResponses(t *testing.T) {
	for _, tc := range []struct{ ttl, every time.Duration }{
		{5 * time.Second, 2 * time.Second},
		{10 * time.Second, 3500 * time.Millisecond},
		{16 * time.Second, 5500 * time.Millisecond},
	} {
		s := mustContention(t, 1, ContentionConfig{Names: []string{"A"}, TTL: tc.ttl})
		s.RunUntil(4 * tc.ttl)
		var sent []time.Duration
		for _, e := range eventsBy(s.Trace, KindSend, "A") {
			if e.Msg() == "LeaseKeepAlive" {
				sent = append(sent, e.At)
			}
		}
		require.GreaterOrEqual(t, len(sent), 6)
		grant := eventsBy(s.Trace, KindLeaseRenewed, "A")[0].At
		assert.Equal(t, grant, sent[0], "TTL %s: the first keepalive leaves as the grant arrives", tc.ttl)
		for i := 1; i < len(sent); i++ {
			assert.Equal(t, tc.every, sent[i]-sent[i-1], "TTL %s: keepalive %d", tc.ttl, i)
		}
	}
}

// etcd's client looks at its deadline once a second: A, whose connection
// stalls, learns it lost the lease after B already holds the lock (measured
// on etcd 3.7.3: 0.62 s after). Checking at the deadline itself, which etcd
// does not do, would tell A first.
func TestStalledLeaderLearnsAfterTheRivalHolds(t *testing.T) {
	for _, tc := range []struct {
		check      time.Duration
		learnFirst bool
	}{{0, false}, {-1, true}} {
		s := NewSim(1)
		s.AddRegister("storage", true)
		for i, n := range []string{"A", "B"} {
			s.AddProcess(ProcessConfig{Name: n, Lock: "locks/leader", TTL: 5 * time.Second, StartAt: time.Duration(i) * 500 * time.Millisecond, Target: "storage", DeadlineCheck: tc.check})
		}
		s.Schedule(ActionLog{
			At(3*time.Second, Action{Do: "delay", Proc: "A", Peer: CoordinatorName, For: Duration(8 * time.Second)}),
			At(3*time.Second, Action{Do: "delay", Proc: CoordinatorName, Peer: "A", For: Duration(8 * time.Second)}),
		})
		s.RunUntil(12 * time.Second)
		lost := eventsBy(s.Trace, KindLeaseLost, "A")
		require.NotEmpty(t, lost)
		b := firstHolder(t, s.Trace, "B")
		assert.Equal(t, tc.learnFirst, lost[0].At < b.At, "deadline check %s: A learns at %s, B holds at %s", tc.check, lost[0].At, b.At)
	}
}

// etcd client: the local deadline is response arrival + TTL, later than the
// coordinator's expiry; a paused holder still believes it leads when the
// coordinator hands the lock on.
func TestPausedClientDeadlineIsLaterThanCoordinatorExpiry(t *testing.T) {
	s := mustContention(t, 1, ContentionConfig{Names: []string{"A", "B"}, TTL: 10 * time.Second, Stagger: 500 * time.Millisecond})
	// After A's first keepalive (at TTL/3), so the belief comes from a renewal.
	s.Schedule(ActionLog{At(5*time.Second, Pause("A", 30*time.Second))})
	a := s.Process("A")
	s.RunUntil(time.Second)
	id := a.LeaseID()
	var truth time.Duration
	for s.Coord.Lease(id) != nil && s.Step() {
		if l := s.Coord.Lease(id); l != nil {
			truth = l.Expiry
		}
	}
	belief := a.LocalDeadline()
	require.NotZero(t, truth, "coordinator expiry %s, A's local deadline %s: want the belief later than the truth", truth, belief)
	require.Greater(t, belief, truth, "coordinator expiry %s, A's local deadline %s: want the belief later than the truth", truth, belief)
	gap := belief - truth
	assert.LessOrEqual(t, gap, 20*time.Millisecond, "belief outlives truth by %s, want about one network hop", gap)
	kinds := eventsBy(s.Trace, KindLeaseRenewed, "A")
	require.GreaterOrEqual(t, len(kinds), 2, "A's renewals %v, want the last belief set by a keepalive", texts(kinds))
	require.Equal(t, "keepalive", kinds[len(kinds)-1].How(), "A's renewals %v, want the last belief set by a keepalive", texts(kinds))
	s.RunUntil(25 * time.Second)
	b := firstHolder(t, s.Trace, "B")
	assert.Less(t, b.At, 35*time.Second, "B took over at %s while A is %s (paused %t); want A still believing it leads", b.At, a.State(), a.Paused())
	assert.Equal(t, Leader, a.State(), "B took over at %s while A is %s (paused %t); want A still believing it leads", b.At, a.State(), a.Paused())
	assert.True(t, a.Paused(), "B took over at %s while A is %s (paused %t); want A still believing it leads", b.At, a.State(), a.Paused())
}

// etcd Mutex after waiting re-reads its key; gone => ErrSessionExpired. A
// queued contender whose session dies must notice and campaign again.
func TestSessionExpiryWhileQueuedIsNoticed(t *testing.T) {
	s := mustContention(t, 1, ContentionConfig{Names: []string{"A", "B"}, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond})
	s.Schedule(ActionLog{
		At(4*time.Second, Expire("B")),
		// A lets go before B's next keepalive: B's watch fires and its
		// re-read finds its own key gone.
		At(4100*time.Millisecond, Release("A")),
	})
	s.RunUntil(10 * time.Second)
	lost := eventsBy(s.Trace, KindSessionLost, "B")
	require.Len(t, lost, 1, "session.lost events of B = %v, want one saying %q", texts(lost), ErrSessionExpired)
	require.Equal(t, "mutex: session is expired", lost[0].Why(), "session.lost events of B = %v, want one saying %q", texts(lost), ErrSessionExpired)
	got := transitions(s.Trace, "B")
	want := []string{"follower->candidate", "candidate->follower", "follower->candidate", "candidate->leader"}
	require.Equal(t, want, got, "B's states %v, want %v", got, want)
	for _, e := range eventsBy(s.Trace, KindState, "B") {
		if e.To() == "follower" {
			assert.Equal(t, lost[0].At, e.At, "B fell back to follower at %s (%s), want at %s because the session expired", e.At, e.Why(), lost[0].At)
			assert.Contains(t, e.Why(), "session is expired", "B fell back to follower at %s (%s), want at %s because the session expired", e.At, e.Why(), lost[0].At)
		}
	}
	b := s.Process("B")
	assert.Equal(t, Leader, b.State(), "B is %s, want leader with a new session", b.State())
	assert.NotZero(t, b.LeaseID(), "B is %s, want leader with a new session", b.State())

}

// A client that keeps campaigning with its expired session (ReuseSession)
// is refused every time with etcd's "requested lease not found" and never
// leads again; a restart gives it a new session.
func TestReusedExpiredSessionIsRefusedForever(t *testing.T) {
	s := NewSim(1)
	s.AddProcess(ProcessConfig{Name: "A", Lock: "locks/job", TTL: 2 * time.Second, ReuseSession: true})
	s.Schedule(ActionLog{
		At(time.Second, Action{Do: "delay", Proc: "A", Peer: CoordinatorName, For: Duration(4 * time.Second)}),
		At(time.Second, Action{Do: "delay", Proc: CoordinatorName, Peer: "A", For: Duration(4 * time.Second)}),
	})
	s.RunUntil(12 * time.Second)
	refused := 0
	for _, e := range eventsBy(s.Trace, KindSessionLost, "A") {
		assert.Equal(t, ErrLeaseNotFound.Error(), e.Why())
		refused++
	}
	assert.GreaterOrEqual(t, refused, 5, "refused again and again")
	assert.Len(t, s.Trace.Filter(KindLeaseGrant), 1, "never a new session")
	assert.False(t, s.Process("A").BelievesLeader())
	s.Schedule(ActionLog{At(12*time.Second, Crash("A")), At(12500*time.Millisecond, Restart("A"))})
	s.RunUntil(14 * time.Second)
	assert.True(t, s.Process("A").BelievesLeader(), "a restart opens a new session")
}

// A fresh etcd store is at revision 1, so the first key written gets
// create revision 2 (measured on etcd 3.7.3; conform/ checks it).
func TestFreshStoreStartsAtRevisionOne(t *testing.T) {
	s := NewSim(1)
	require.Equal(t, int64(1), s.Coord.Rev)
	require.NoError(t, s.Coord.Put("admin", "k", "v", 0))
	assert.Equal(t, int64(2), s.Coord.Get("k").CreateRev)
}

// On one member, lease IDs increase with every grant (each takes two
// request IDs) and with every other proposal between them, and carry the
// member's ID in their top bits: increasing, so easily mistaken for
// tokens, though nothing orders them across members.
func TestLeaseIDsIncreaseOnOneMember(t *testing.T) {
	s := NewSim(7)
	a := s.Coord.Grant("a", 5*time.Second).ID
	b := s.Coord.Grant("b", 5*time.Second).ID
	require.NoError(t, s.Coord.Put("admin", "k", "v", 0))
	c := s.Coord.Grant("c", 5*time.Second).ID
	assert.Equal(t, a+2, b, "a grant takes two request IDs")
	assert.Equal(t, b+3, c, "a put between grants takes one more")
	assert.Positive(t, int64(a))
	assert.Equal(t, int64(a)>>48, int64(c)>>48, "one member's prefix")
	assert.Len(t, a.String(), 16, "printed as etcd prints them")
	assert.NotEqual(t, int64(NewSim(8).Coord.Grant("a", 5*time.Second).ID)>>48, int64(a)>>48, "another seed, another member")
}
