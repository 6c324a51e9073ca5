package core

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Messages a world sends again and again are made once and shared, and
// their payloads are cut from slabs (slab.go). These tests pin what that
// must never change: a run's trace, a clone's independence, and answers
// already sent.

// A clone and its original, run turn about while the clone goes another
// way, leave the original's trace that of a fresh run: neither hands out
// room in a slab the other still writes to.
func TestCloneRunTurnAboutLeavesTheOriginalAsAFreshRun(t *testing.T) {
	for _, perShard := range []bool{true, false} {
		cfg := ShardsConfig{Shards: 40, Workers: 5, TTL: 6 * time.Second, LeasePerShard: perShard,
			ScanEvery: 2 * time.Second, ScanJitter: 0.5, CommitEvery: time.Second, Fencing: true, Stagger: 100 * time.Millisecond}
		world := func() *Sim {
			w, err := cfg.World(7)
			require.NoError(t, err)
			w.Script = ActionLog{At(20*time.Second, Pause("worker-01", 10*time.Second)), At(35*time.Second, Crash("worker-02"))}
			s, err := BuildWorld(w, nil)
			require.NoError(t, err)
			return s
		}
		const end = 60 * time.Second
		fresh := world()
		fresh.RunUntil(end)

		s := world()
		s.RunUntil(10 * time.Second)
		cl := s.Clone()
		cl.Apply(Crash("worker-03")) // its shards move: new commits, new renewals
		cl.Apply(Action{Do: VerbPause, Proc: "worker-04", For: Duration(5 * time.Second)})
		for at := 10 * time.Second; at < end; {
			at = min(at+3*time.Millisecond, end) // short turns: messages in flight at each turn's end
			s.RunUntil(at)
			cl.RunUntil(at)
		}
		assert.Equal(t, fresh.Trace.Hash(), s.Trace.Hash(), "original, lease per shard %v", perShard)
		assert.Equal(t, fresh.Offsets.Offset, s.Offsets.Offset, "original's committed offsets, lease per shard %v", perShard)
		assert.NotEqual(t, fresh.Trace.Hash(), cl.Trace.Hash(), "the clone went another way, lease per shard %v", perShard)
	}
}

// A client renewing the same leases gets the answer it got last; once a
// lease is gone it gets a new answer, and the one it got before still says
// what it said.
func TestRenewingTheSameLeasesSharesTheAnswerUntilOneIsGone(t *testing.T) {
	s := NewSim(1)
	c := s.Coord
	ids := []LeaseID{c.Grant("w", 5*time.Second).ID, c.Grant("w", 5*time.Second).ID, c.Grant("w", 9*time.Second).ID}

	first := c.keepAliveMany("w", ids)
	again := c.keepAliveMany("w", ids)
	require.IsType(t, &keepAliveResp{}, first)
	assert.Same(t, first.(*keepAliveResp), again.(*keepAliveResp), "the same leases, the same TTLs: one shared answer")
	other := c.keepAliveMany("v", ids)
	assert.NotSame(t, first.(*keepAliveResp), other.(*keepAliveResp), "another client gets an answer of its own")

	c.Revoke(ids[1], false, "test")
	after := c.keepAliveMany("w", ids)
	want := []keepAliveResult{{Lease: ids[0], TTL: 5 * time.Second}, {Lease: ids[1]}, {Lease: ids[2], TTL: 9 * time.Second}}
	assert.Equal(t, want, after.(*keepAliveResp).Results)
	assert.Equal(t, 5*time.Second, first.(*keepAliveResp).Results[1].TTL, "an answer already sent never changes")
	fresh := c.keepAliveMany("w", slices.Clone(ids))
	assert.Equal(t, want, fresh.(*keepAliveResp).Results, "a new request for the same leases finds the same ones gone")
	c.Revoke(ids[0], false, "test")
	want[0].TTL = 0
	assert.Equal(t, want, c.keepAliveMany("w", ids).(*keepAliveResp).Results, "the request renewed before, its leases looked up then: the one gone since is gone")
}

// A worker's commits share one base while its shards and tokens stay the
// same, and each still commits the offsets the worker holds.
func TestCommitsShareABaseAndCommitTheOffsetsHeld(t *testing.T) {
	s := NewSim(1)
	w := s.AddShardWorker(ShardConfig{Name: "w", Shards: 3, TTL: 6 * time.Second, CommitEvery: time.Second})
	for sh, tok := range []int64{4, 9} {
		w.own.set(sh, &owned{token: tok, offset: int64(100 * sh), fetched: true})
	}
	w.own.set(2, &owned{token: 5}) // not fetched yet: not committed
	entries := func() []offsetEntry {
		m := new(offsetCommitReq)
		m.Base, m.Advance = w.commitBase(2)
		out := make([]offsetEntry, len(m.Base))
		for i := range out {
			out[i] = m.entry(i)
		}
		return out
	}
	assert.Equal(t, []offsetEntry{{Shard: 0, Offset: 0, Token: 4}, {Shard: 1, Offset: 100, Token: 9}}, entries())
	base := w.lastBase
	w.own.get(0).offset += 10
	w.own.get(1).offset += 10
	assert.Equal(t, []offsetEntry{{Shard: 0, Offset: 10, Token: 4}, {Shard: 1, Offset: 110, Token: 9}}, entries())
	assert.Same(t, &base[0], &w.lastBase[0], "the same shards moved on together: the same base")

	w.own.get(1).offset += 5 // shard 1 was fetched again: no longer in step
	assert.Equal(t, []offsetEntry{{Shard: 0, Offset: 10, Token: 4}, {Shard: 1, Offset: 115, Token: 9}}, entries())
	assert.NotSame(t, &base[0], &w.lastBase[0], "offsets out of step: a new base")
	assert.Equal(t, offsetEntry{Shard: 1, Offset: 100, Token: 9}, base[1], "a base already sent never changes")
}

// A scan's answer lists exactly the shards whose keys are absent, however
// the keys came and went, and answers are shared only while nothing
// changed.
func TestScanAnswerFollowsTheShardKeys(t *testing.T) {
	s := NewSim(1)
	c := s.Coord
	scan := func() listShardsResp {
		m := c.listShards(listShardsReq{Prefix: "s/", Count: 4})
		require.IsType(t, listShardsResp{}, m)
		return m.(listShardsResp)
	}
	require.NoError(t, c.Put("learner", "s/002", "x", 0))
	assert.Equal(t, []int{0, 1, 3}, scan().Free, "a key written before the first scan is not free")
	claim := c.claimShards("w", claimShardsReq{Prefix: "s/", Shards: []int{0, 3}, TTL: 5 * time.Second})
	require.Len(t, claim.Results, 2)
	assert.Equal(t, []int{1}, scan().Free)
	first := c.listShards(listShardsReq{Prefix: "s/", Count: 4})
	assert.Equal(t, first, c.listShards(listShardsReq{Prefix: "s/", Count: 4}), "nothing changed: the same answer")
	require.NoError(t, c.Delete("learner", "s/002"))
	require.NoError(t, c.Delete("learner", "s/000"))
	assert.Equal(t, []int{0, 1, 2}, scan().Free, "deleted keys are free again")
}
