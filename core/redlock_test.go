package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func redlockWorld(t *testing.T, until time.Duration, edit func(c *sandbox.Config), script ...core.Timed) (*core.Sim, core.Report) {
	t.Helper()
	p, err := sandbox.FindPreset("redlock")
	require.NoError(t, err)
	c := p.Config
	c.Actions, c.Duration = script, until
	if edit != nil {
		edit(&c)
	}
	s, rep, err := c.Run()
	require.NoError(t, err)
	return s, rep
}

// overlapOf returns the first belief overlap naming both a and b.
func overlapOf(r core.Report, a, b string) (core.Interval, bool) {
	for _, iv := range r.Overlaps {
		has := map[string]bool{}
		for _, w := range iv.Who {
			has[w] = true
		}
		if has[a] && has[b] {
			return iv, true
		}
	}
	return core.Interval{}, false
}

// The validity redsync computes: expiry - the round's duration - 1 % of
// the expiry (mutex.go: until = now + expiry - (now - start) - expiry x
// driftFactor), with no constant added.
func TestRedlockValidityIsExpiryMinusElapsedMinusDrift(t *testing.T) {
	assert.Equal(t, 7920*time.Millisecond, core.RedlockValidity(8*time.Second, 0, 0))
	assert.Equal(t, 17920*time.Millisecond, core.RedlockValidity(8*time.Second, 10*time.Second, 10030*time.Millisecond),
		"a round of 30 ms that ended at 10.03 s: valid 8 s - 30 ms - 80 ms from its end")

	p, _ := sandbox.FindPreset("redlock")
	s, err := p.Config.Build()
	require.NoError(t, err)
	s.RunUntil(2 * time.Second) // before A's first Extend
	a := s.Process("A")
	require.True(t, a.BelievesLeader())
	lead := stateChanges(s, "A", core.Leader.String())
	require.Len(t, lead, 1)
	// A's round began at 0 and ended when its last node answered.
	assert.Equal(t, core.RedlockValidity(core.RedlockExpiry, 0, lead[0].At), a.RedlockUntil())
	assert.Contains(t, lead[0].Why(), "3 of 3 nodes")
	assert.EqualValues(t, 0, a.Token(), "Redlock hands out no token")
}

// The difference from etcd: a holder paused past its validity wakes
// believing it holds the lock while another client holds it, and its
// write is accepted, because there is no token to refuse it by. The
// Redis majority itself never had two holders.
func TestRedlockPauseGivesTwoHoldersAndNoTokenToFenceWith(t *testing.T) {
	s, rep := redlockWorld(t, 2*time.Minute, func(c *sandbox.Config) { c.Fencing = true }, sandbox.SystemPause)
	require.True(t, rep.OK(), "the majority moved from A to its successor only after A's keys expired: %v", rep.Violations)
	next := firstHolderBut(s, "A")
	require.NotEmpty(t, next.Actor, "a second client acquired the lock during A's pause")
	wake := sandbox.SystemPause.At.D() + sandbox.SystemPause.Action.For.D()
	assert.Less(t, next.At, wake)
	assert.Empty(t, next.Format(core.FToken), "the holder event has no token: Redlock issues none")

	iv, ok := overlapOf(rep, "A", next.Owner())
	require.True(t, ok, "A and %s both believed they held the lock: %v", next.Owner(), rep.Overlaps)
	assert.LessOrEqual(t, iv.To, wake+time.Millisecond)

	late := 0
	for _, e := range core.Writes(s.Trace) {
		assert.EqualValues(t, 0, e.Token(), "no write carries a token")
		if e.From() == "A" && e.At >= wake && e.At < wake+time.Second {
			late++
			assert.Equal(t, core.Accepted, e.Result(), "fencing is on, yet there is nothing to compare")
		}
	}
	assert.Equal(t, 1, late, "A's overdue write lands after its successor's")
	assert.Empty(t, rep.Stale, "and the store cannot even tell that it was stale")
}

// A node that restarts without persistence forgets A's key: with A on
// two of three nodes (the third cut off from A), a restart of one of them
// lets B win redis-2 and redis-3 while A is still within its validity.
func TestRedlockNodeRestartWithoutPersistenceGivesTwoHolders(t *testing.T) {
	s, rep := redlockWorld(t, 20*time.Second, func(c *sandbox.Config) {
		c.Procs, c.Names, c.RenewEvery = 2, []string{"A", "B"}, 0
		c.RetryBase = 200 * time.Millisecond
	},
		core.At(0, core.Partition("A", core.RedisNodeName(3))),
		core.At(2*time.Second, core.Crash(core.RedisNodeName(2))),
		core.At(2500*time.Millisecond, core.Restart(core.RedisNodeName(2))),
	)
	lead := stateChanges(s, "A", core.Leader.String())
	require.NotEmpty(t, lead)
	assert.Contains(t, lead[0].Why(), "2 of 3 nodes")
	b := stateChanges(s, "B", core.Leader.String())
	require.NotEmpty(t, b, "B won a majority after the restart")
	assert.Less(t, b[0].At, core.RedlockValidity(core.RedlockExpiry, 0, lead[0].At), "while A's validity still ran")
	_, ok := overlapOf(rep, "A", "B")
	assert.True(t, ok)
	assert.NotEmpty(t, s.Trace.Filter(core.KindRedisDown))
}

func TestRedlockRefusesImpossibleNodeCounts(t *testing.T) {
	p, _ := sandbox.FindPreset("redlock")
	c := p.Config
	c.RedisNodes = 9
	errs := c.Validate()
	require.NotEmpty(t, errs)
	assert.Equal(t, sandbox.FieldSystem, errs[0].Field)
	assert.Contains(t, errs[0].Msg, "1 to 7 independent Redis nodes, got 9")
	c = p.Config
	c.Shards = 8
	assert.NotEmpty(t, c.Validate())
}

// Redlock worlds clone like any other: the explorer can search them.
func TestRedlockWorldClones(t *testing.T) {
	p, _ := sandbox.FindPreset("redlock")
	c := p.Config
	c.Duration = time.Minute
	s, err := c.Build()
	require.NoError(t, err)
	s.RunUntil(20 * time.Second)
	cl := s.Clone()
	s.RunUntil(time.Minute)
	cl.RunUntil(time.Minute)
	assert.Equal(t, s.Trace.Hash(), cl.Trace.Hash())
}

// Redlock waiters retry every 50-250 ms: the run budget counts that, so a
// crowd of them for an hour is refused before it runs, with the numbers.
func TestRedlockRetriesCountAgainstTheRunBudget(t *testing.T) {
	p, _ := sandbox.FindPreset("redlock")
	c := p.Config
	require.Empty(t, c.Validate(), "the preset fits")
	c.Procs, c.Duration = 12, time.Hour
	errs := c.Validate()
	require.NotEmpty(t, errs)
	assert.Equal(t, sandbox.FieldDuration, errs[len(errs)-1].Field)
	assert.Contains(t, errs[len(errs)-1].Msg, "renew leases about")
}

// The views' truth about a Redlock lock is the value a majority holds.
func TestRedlockLockInfoIsTheMajority(t *testing.T) {
	s, _ := redlockWorld(t, 10*time.Second, nil)
	info := s.Coord.LockInfo("locks/leader")
	assert.Equal(t, "A", info.Holder)
	assert.Contains(t, info.Key, "value A:")
	assert.Zero(t, info.Token)
}

// Without any pause: two of the three servers' wall clocks jump 10 s
// ahead, A's keys expire there at once, and B wins those two while A is
// still within the validity it computed.
func TestRedlockClockJumpGivesTwoHoldersWithoutAPause(t *testing.T) {
	s, rep := redlockWorld(t, 20*time.Second, func(c *sandbox.Config) {
		c.Procs, c.Names, c.RetryBase = 2, []string{"A", "B"}, 200*time.Millisecond
	},
		core.At(2*time.Second, core.Action{Do: "clock-jump", Proc: core.RedisNodeName(1), For: core.Duration(10 * time.Second)}),
		core.At(2*time.Second, core.Action{Do: "clock-jump", Proc: core.RedisNodeName(2), For: core.Duration(10 * time.Second)}),
	)
	require.Empty(t, s.ActionErrors())
	b := stateChanges(s, "B", core.Leader.String())
	require.NotEmpty(t, b, "B won the two jumped servers")
	assert.Less(t, b[0].At, 3*time.Second)
	_, ok := overlapOf(rep, "A", "B")
	assert.True(t, ok, "A still believed it held the lock: %v", rep.Overlaps)
	assert.Len(t, s.Trace.Filter(core.KindRedisJump), 2)

	err := s.Apply(core.Action{Do: "clock-jump", Proc: "A", For: core.Duration(time.Second)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a Redis node")
}

// What a front end reads of each node: the value it holds, whose it is
// and when its PX ends, redis-1 first; a crashed node holds nothing, and
// a clock jump brings a key's end nearer by the jump.
func TestRedisNodesShowEachNodesKeyAndItsExpiry(t *testing.T) {
	s, _ := redlockWorld(t, 10*time.Second, func(c *sandbox.Config) { c.RedisNodes = 5 },
		core.At(9500*time.Millisecond, core.Crash(core.RedisNodeName(4))),
		core.At(9500*time.Millisecond, core.Action{Do: "clock-jump", Proc: core.RedisNodeName(5), For: core.Duration(2 * time.Second)}))
	nodes := s.RedisNodes()
	require.Len(t, nodes, 5)
	assert.Equal(t, 3, core.RedlockQuorum(len(nodes)))
	sets := map[string]core.Event{} // node -> its last SET
	for e := range s.Trace.All() {
		if e.Kind == core.KindRedisSet {
			sets[e.Actor] = *e
		}
	}
	for i, r := range nodes {
		require.Equal(t, core.RedisNodeName(i+1), r.Name)
		v, ends := r.Entry("locks/leader")
		switch r.Name {
		case core.RedisNodeName(4):
			assert.True(t, r.Down())
			assert.Empty(t, v, "a crash forgets every key")
			assert.Zero(t, ends)
		default:
			set := sets[r.Name]
			require.NotEmpty(t, set.Actor, "%s stored the key", r.Name)
			require.Less(t, set.At, 9500*time.Millisecond, "%s's last SET came before the jump", r.Name)
			want := set.At + set.PX()
			if r.Name == core.RedisNodeName(5) {
				want -= 2 * time.Second
			}
			assert.Equal(t, set.Value(), v, r.Name)
			assert.Equal(t, "A", core.RedlockOwner(v), r.Name)
			assert.Equal(t, want, ends, r.Name)
		}
	}
	assert.Empty(t, core.NewSim(1).RedisNodes(), "a world without Redis nodes")
}
