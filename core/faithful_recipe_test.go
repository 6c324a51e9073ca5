package core

// Tests that the recipes behave as the real ones do: who watches what,
// who holds, which token each holder gets, lock-delay and reserved
// prefixes (REFERENCE.md: Recipes, Ordering and fencing tokens).

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockKeys returns the lock's contender keys ordered by create revision.
func lockKeys(s *Sim, lock string) []*KeyValue {
	kvs := s.Coord.Range(lock + "/")
	slices.SortFunc(kvs, func(a, b *KeyValue) int { return int(a.CreateRev - b.CreateRev) })
	return kvs
}

// watchersOf lists who watches key exactly (not by prefix).
func watchersOf(c *Coordinator, key string) []string {
	var out []string
	for _, w := range c.watches {
		if w.key == key && !w.prefix {
			out = append(out, w.watcher)
		}
	}
	return out
}

// etcd Mutex and ZooKeeper lock: a waiter watches only the key just before
// its own (a fair queue, no herd); the naive recipe watches the whole lock.
func TestWaiterWatchesOnlyItsPredecessor(t *testing.T) {
	for _, r := range []Recipe{RecipeEtcd, RecipeZooKeeper} {
		t.Run(r.String(), func(t *testing.T) {
			s := mustContention(t, 1, ContentionConfig{Procs: 5, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond, Recipe: r})
			s.RunUntil(3 * time.Second)
			keys := lockKeys(s, "locks/leader")
			require.Len(t, keys, 5, "%d contender keys, want 5", len(keys))
			info := s.Coord.LockInfo("locks/leader")
			require.Equal(t, keys[0].Key, info.Key, "lock info %+v: want holder %s and 4 waiters", info, keys[0].Key)
			require.Len(t, info.Waiters, 4, "lock info %+v: want holder %s and 4 waiters", info, keys[0].Key)
			for i, kv := range keys {
				want := 1
				if i == len(keys)-1 {
					want = 0 // nobody queues behind the last contender
				}
				got := s.Coord.Watchers(kv.Key)
				assert.Equal(t, want, got, "key %d (%s) has %d watchers, want %d", i, kv.Key, got, want)
				if i > 0 {
					by := watchersOf(s.Coord, keys[i-1].Key)
					assert.Equal(t, []string{kv.Value}, by, "%s is watched by %v, want only its successor %s", keys[i-1].Key, by, kv.Value)
				}
			}
			prefix := s.Coord.Watchers("locks/leader/")
			assert.Zero(t, prefix, "%d prefix watches on the lock, want 0", prefix)
		})
	}
	t.Run("herd", func(t *testing.T) {
		s := mustContention(t, 1, ContentionConfig{Procs: 5, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond, Recipe: RecipeHerd})
		s.RunUntil(3 * time.Second)
		prefix := s.Coord.Watchers("locks/leader/")
		assert.Equal(t, 4, prefix, "%d waiters watch the whole lock, want 4", prefix)
		for _, kv := range lockKeys(s, "locks/leader") {
			got := s.Coord.Watchers(kv.Key)
			assert.Zero(t, got, "herd waiter watches key %s (%d watches), want prefix watches only", kv.Key, got)
		}
	})
}

// The herd effect: one change wakes every waiter of the naive recipe, but
// exactly one waiter of the fair queue. Same world, same crashes.
func TestHerdWakesEveryWaiterFairQueueWakesOne(t *testing.T) {
	run := func(r Recipe) (*Sim, int) {
		s := mustContention(t, 1, ContentionConfig{Procs: 10, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond, Recipe: r})
		s.Schedule(ActionLog{
			At(5*time.Second, Crash("A")),
			At(25*time.Second, Crash("B")),
		})
		s.RunUntil(60 * time.Second)
		wake := 0
		for _, p := range s.Processes() {
			wake += p.Wakeups
		}
		return s, wake
	}
	etcd, etcdWake := run(RecipeEtcd)
	herd, herdWake := run(RecipeHerd)
	assert.NotZero(t, etcdWake, "wake-ups: herd %d, etcd %d; want herd >> etcd > 0", herdWake, etcdWake)
	assert.GreaterOrEqual(t, herdWake, 5*etcdWake, "wake-ups: herd %d, etcd %d; want herd >> etcd > 0", herdWake, etcdWake)
	// Per deleted key: the fair queue fires one watch, the herd one per waiter.
	firesPerDelete := func(s *Sim) []int {
		var out []int
		for _, d := range s.Trace.Filter(KindDelete) {
			n := 0
			for _, w := range s.Trace.Filter(KindWatchFire) {
				if w.At == d.At && w.Key() == d.Key() {
					n++
				}
			}
			out = append(out, n)
		}
		return out
	}
	for i, n := range firesPerDelete(etcd) {
		assert.LessOrEqual(t, n, 1, "etcd recipe: delete %d woke %d watchers, want at most 1", i, n)
	}
	got := firesPerDelete(herd)
	assert.Equal(t, []int{9, 8}, got, "herd recipe: watch fires per delete %v, want [9 8]: every waiter at each crash", got)
	e, h := len(Holders(etcd.Trace)), len(Holders(herd.Trace))
	assert.Equal(t, 3, e, "holders: etcd %d, herd %d; want 3 each (A, then B, then C)", e, h)
	assert.Equal(t, 3, h, "holders: etcd %d, herd %d; want 3 each (A, then B, then C)", e, h)
}

// ZooKeeper: sequential children are named with a per-parent counter
// printed as 10 zero-padded digits; etcd keys carry the lease ID.
func TestLockKeyNames(t *testing.T) {
	zk := regexp.MustCompile(`^locks/leader/lock-(\d{10})$`)
	t.Run("zookeeper", func(t *testing.T) {
		s := mustContention(t, 1, ContentionConfig{Procs: 3, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond, Recipe: RecipeZooKeeper})
		require.NoError(t, s.Coord.Put("other", "unrelated", "bumps the global revision only", 0))
		s.RunUntil(2 * time.Second)
		for i, kv := range lockKeys(s, "locks/leader") {
			m := zk.FindStringSubmatch(kv.Key)
			require.NotNil(t, m, "key %q is not lock-<10 digits>", kv.Key)
			n, _ := strconv.Atoi(m[1])
			assert.Equal(t, i+1, n, "key %s has sequence %d, want %d (per-parent counter, not the revision)", kv.Key, n, i+1)
		}
	})
	t.Run("etcd", func(t *testing.T) {
		s := mustContention(t, 1, ContentionConfig{Procs: 3, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond})
		s.RunUntil(2 * time.Second)
		for _, p := range s.Processes() {
			key := "locks/leader/" + p.LeaseID().String()
			kv := s.Coord.Get(key)
			assert.True(t, kv != nil && kv.Value == p.Name() && kv.Lease == p.LeaseID(),
				"%s: key %s = %+v, want the contender's key on its own lease", p.Name(), key, kv)
		}
	})
}

// etcd and ZooKeeper: the holder is the contender with the smallest create
// revision, at every instant, as holders crash and new contenders queue.
func TestHolderIsSmallestCreateRevision(t *testing.T) {
	for _, r := range []Recipe{RecipeEtcd, RecipeZooKeeper, RecipeHerd} {
		t.Run(r.String(), func(t *testing.T) {
			s := mustContention(t, 3, ContentionConfig{Procs: 4, TTL: 4 * time.Second, Stagger: 300 * time.Millisecond, Recipe: r, RetryJitter: 0.5})
			s.Schedule(ActionLog{
				At(3*time.Second, Crash("A")),
				At(4*time.Second, Restart("A")),
				At(12*time.Second, Release("B")),
				At(20*time.Second, Pause("C", 10*time.Second)),
			})
			checks := 0
			for s.Now() < 45*time.Second && s.Step() {
				keys := lockKeys(s, "locks/leader")
				info := s.Coord.LockInfo("locks/leader")
				if len(keys) == 0 {
					require.Empty(t, info.Key, "t=%s: holder %s without any key", s.Now(), info.Key)
					continue
				}
				checks++
				require.Equal(t, keys[0].Key, info.Key, "t=%s: holder %q, want smallest create revision %s (rev %d)", s.Now(), info.Key, keys[0].Key, keys[0].CreateRev)
			}
			assert.NotZero(t, checks, "checked %d instants over %d holders; the script should produce at least 3", checks, len(Holders(s.Trace)))
			assert.GreaterOrEqual(t, len(Holders(s.Trace)), 3, "checked %d instants over %d holders; the script should produce at least 3", checks, len(Holders(s.Trace)))
		})
	}
}

// Chubby generation / Consul LockIndex: each new holder gets the previous
// token plus one, starting after SetGeneration.
func TestGenerationTokensAreConsecutivePerLock(t *testing.T) {
	s := mustContention(t, 1, ContentionConfig{Procs: 3, TTL: 5 * time.Second, Stagger: 200 * time.Millisecond})
	s.Coord.SetGeneration("locks/leader", 6)
	require.NoError(t, s.Coord.Put("other", "unrelated", "x", 0)) // the global revision moves; generations must not
	s.Schedule(ActionLog{
		At(2*time.Second, Crash("A")),
		At(12*time.Second, Release("B")),
	})
	s.RunUntil(20 * time.Second)
	var got []string
	for _, e := range Holders(s.Trace) {
		got = append(got, fmt.Sprintf("%s:%d", e.Owner(), e.Token()))
	}
	want := []string{"A:7", "B:8", "C:9"}
	assert.Equal(t, want, got, "holders %v, want %v", got, want)
	c := s.Process("C")
	assert.Equal(t, Leader, c.State(), "C is %s with token %d, want leader with token 9", c.State(), c.Token())
	assert.Equal(t, int64(9), c.Token(), "C is %s with token %d, want leader with token 9", c.State(), c.Token())
}

// etcd: the usable token is the holder key's create revision: monotonic,
// not consecutive, and never the lease ID.
func TestRevisionTokensAreCreateRevisions(t *testing.T) {
	s := mustContention(t, 1, ContentionConfig{Procs: 3, TTL: 5 * time.Second, Stagger: 200 * time.Millisecond, TokenSource: TokenRevision})
	// Unrelated writes between the contenders' creates open gaps.
	h := newHook(s, "test")
	h.do(100*time.Millisecond, func() { s.Coord.Put("other", "config/a", "1", 0) })
	h.do(300*time.Millisecond, func() { s.Coord.Put("other", "config/b", "2", 0) })
	s.Schedule(ActionLog{
		At(2*time.Second, Crash("A")),
		At(12*time.Second, Release("B")),
	})
	leaseOf := map[string]LeaseID{}
	for s.Now() < 20*time.Second && s.Step() {
		for _, p := range s.Processes() {
			if p.LeaseID() != 0 {
				leaseOf[p.Name()] = p.LeaseID()
			}
		}
	}
	hs := Holders(s.Trace)
	require.Len(t, hs, 3, "holders %v, want 3", texts(hs))
	gap := false
	for i, e := range hs {
		assert.Equal(t, e.CreateRev(), e.Token(), "holder %s: token %d, want its key's create revision %d", e.Owner(), e.Token(), e.CreateRev())
		assert.NotEqual(t, int64(leaseOf[e.Owner()]), e.Token(), "holder %s: token is its lease ID", e.Owner())
		if i > 0 {
			prev := hs[i-1].Token()
			assert.Greater(t, e.Token(), prev, "token %d after %d: not monotonic", e.Token(), prev)
			gap = gap || e.Token() > prev+1
		}
	}
	assert.True(t, gap, "tokens %v are consecutive; revisions should skip the unrelated writes", texts(hs))
}

// Consul/Chubby lock-delay: after a holder is invalidated, nobody may take
// the lock for LockDelay; a clean release does not arm it.
func TestLockDelayFollowsInvalidationNotCleanRelease(t *testing.T) {
	const delay = 5 * time.Second
	for _, tc := range []struct {
		name    string
		action  Action
		delayed bool
	}{
		{"forced expiry", Expire("A"), true},
		{"lease expiry after a pause", Pause("A", 30*time.Second), true},
		{"clean release", Release("A"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustContention(t, 1, ContentionConfig{Names: []string{"A", "B"}, TTL: 5 * time.Second, Stagger: 200 * time.Millisecond, LockDelay: delay})
			s.Schedule(ActionLog{At(3*time.Second, tc.action)})
			s.RunUntil(40 * time.Second)
			dels := s.Trace.Filter(KindDelete)
			require.NotEmpty(t, dels, "A's key was never deleted")
			freed := dels[0].At
			b := firstHolder(t, s.Trace, "B")
			armed := s.Trace.Filter(KindLockDelay)
			if tc.delayed {
				assert.True(t, len(armed) == 1 && armed[0].Num(FUntil) == (freed+delay).Milliseconds(),
					"lock.delay events %v, want one until %s", texts(armed), freed+delay)
				assert.GreaterOrEqual(t, b.At, freed+delay, "B took the lock at %s, before the lock-delay ended at %s", b.At, freed+delay)
				assert.LessOrEqual(t, b.At, freed+delay+time.Second, "B took the lock at %s, long after the lock-delay ended at %s", b.At, freed+delay)
			} else {
				assert.Empty(t, armed, "clean release armed lock-delay: %v", texts(armed))
				assert.Equal(t, freed, b.At, "B took the lock at %s, want at once when A's key went at %s", b.At, freed)
			}
			assert.Equal(t, Leader, s.Process("B").State(), "B is %s, want leader", s.Process("B").State())
		})
	}
}

// etcd roles / ZooKeeper ACLs: only listed principals may write under a
// reserved prefix; a refusal is traced with its reason.
func TestACLReservesPrefixForListedPrincipals(t *testing.T) {
	for _, tc := range []struct {
		who    string
		denied bool
	}{
		{"A", true},
		{"B", false},
	} {
		t.Run(tc.who, func(t *testing.T) {
			s := mustContention(t, 1, ContentionConfig{Names: []string{"A", "B"}, TTL: 10 * time.Second})
			s.Coord.ACL = []ACLRule{{Prefix: "config/", Principals: []string{"B", "admin"}}}
			require.NoError(t, s.Coord.Put("admin", "config/leader-hint", "B", 0))
			s.Schedule(ActionLog{At(time.Second, Action{Do: "delete", Proc: tc.who, Key: "config/leader-hint"})})
			s.RunUntil(2 * time.Second)
			denied := s.Trace.Filter(KindDenied)
			exists := s.Coord.Get("config/leader-hint") != nil
			if !tc.denied {
				assert.Empty(t, denied, "listed principal %s: denied %v, key still exists %t", tc.who, texts(denied), exists)
				assert.False(t, exists, "listed principal %s: denied %v, key still exists %t", tc.who, texts(denied), exists)
				return
			}
			require.Len(t, denied, 1, "denied events %v, want one", texts(denied))
			d := denied[0]
			want := "permission denied: A may not delete config/leader-hint (keys under config/ are reserved for B, admin)"
			assert.Equal(t, "A", d.Who(), "denied event %s, want who=A op=delete why=%q", d.Text(), want)
			assert.Equal(t, "delete", d.Op(), "denied event %s, want who=A op=delete why=%q", d.Text(), want)
			assert.Equal(t, want, d.Why(), "denied event %s, want who=A op=delete why=%q", d.Text(), want)
			assert.True(t, exists, "the denied delete removed the key")
			notes := eventsBy(s.Trace, KindNote, "A")
			assert.True(t, len(notes) > 0 && strings.Contains(notes[len(notes)-1].Words(), "refused: permission denied"),
				"A was not told of the refusal: %v", texts(notes))
		})
	}
}

// A contender that crashes while queued and restarts must not be woken by
// the watch of its earlier life, nor end up watching twice: each waiter
// watches exactly one key at any time.
func TestRestartedContenderLeavesNoStaleWatch(t *testing.T) {
	for _, r := range []Recipe{RecipeEtcd, RecipeZooKeeper} {
		t.Run(r.String(), func(t *testing.T) {
			s := mustContention(t, 1, ContentionConfig{Procs: 3, TTL: 3 * time.Second, Stagger: 200 * time.Millisecond, Recipe: r})
			s.Schedule(ActionLog{
				At(1*time.Second, Crash("B")), // B waits behind A
				At(1100*time.Millisecond, Restart("B")),
				At(8*time.Second, Release("A")),
			})
			for s.Now() < 20*time.Second && s.Step() {
				count := map[string]int{}
				for _, w := range s.Coord.watches {
					count[w.watcher]++
					require.LessOrEqual(t, count[w.watcher], 1, "t=%s: %s holds %d watches", s.Now(), w.watcher, count[w.watcher])
				}
			}
			b := s.Process("B")
			assert.Zero(t, b.Wakeups, "B woke %d times; nothing it waits on in its new life changed", b.Wakeups)
			info := s.Coord.LockInfo("locks/leader")
			assert.Equal(t, "C", info.Holder, "lock %+v, want C holding and B first in the queue", info)
			assert.True(t, len(info.Waiters) > 0 && info.Waiters[0] == "B", "lock %+v, want C holding and B first in the queue", info)

		})
	}
}
