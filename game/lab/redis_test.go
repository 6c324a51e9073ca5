package lab

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// redisFromTrace replays a Redlock run's node events up to now: for each
// node, whose value it holds for key and when its PX ends. It is the
// oracle the world view's nodes are checked against.
func redisFromTrace(tr *core.Trace, key string, now time.Duration) map[string]RedisView {
	type held struct {
		owner string
		ends  time.Duration
	}
	on := map[string]held{}
	down := map[string]bool{}
	for e := range tr.All() {
		if e.At > now {
			break
		}
		switch e.Kind {
		case core.KindRedisSet:
			if e.Key() == key {
				on[e.Actor] = held{core.RedlockOwner(e.Value()), e.At + e.PX()}
			}
		case core.KindRedisExpire, core.KindRedisDel:
			if e.Key() == key {
				delete(on, e.Actor)
			}
		case core.KindRedisDown:
			down[e.Actor] = true
			delete(on, e.Actor)
		case core.KindRedisUp:
			down[e.Actor] = false
		case core.KindRedisJump:
			if h, ok := on[e.Actor]; ok {
				h.ends -= e.Ahead()
				on[e.Actor] = h
			}
		}
	}
	out := map[string]RedisView{}
	for name, h := range on {
		if h.ends > now {
			out[name] = RedisView{Name: name, Owner: h.owner, Left: h.ends - now}
		}
	}
	for name, d := range down {
		if d {
			out[name] = RedisView{Name: name, Down: true}
		}
	}
	return out
}

// redlockLab is the redlock preset on n Redis nodes with its pause (A
// freezes 20 s at 60 s) and log.
func redlockLab(t *testing.T, n int, log ...core.Timed) *Lab {
	t.Helper()
	p, err := sandbox.FindPreset("redlock")
	require.NoError(t, err)
	c := p.Config
	c.RedisNodes = n
	c.Actions = append(core.ActionLog{sandbox.SystemPause}, log...)
	lb, err := NewSandbox("redlock", c)
	require.NoError(t, err)
	return lb
}

// A Redlock world's view has one entry per Redis node, and each says what
// the node itself holds: the client whose value is on it and how long its
// PX has left, as the trace of SETs, extends, expiries and deletes says.
// Before the pause A holds all five (a majority is 3); during it A's keys
// run out node by node and another client holds a majority of its own.
func TestTheWorldViewDrawsEachRedisNodesKeyAndPX(t *testing.T) {
	lb := redlockLab(t, 5, core.At(50*time.Second, core.Crash(core.RedisNodeName(5))))
	check := func(at time.Duration) WorldView {
		lb.Seek(at)
		v := lb.World()
		require.Len(t, v.Redis, 5)
		assert.Equal(t, 3, v.Quorum)
		want := redisFromTrace(lb.Sim().Trace, "locks/leader", lb.Now())
		for i, r := range v.Redis {
			assert.Equal(t, core.RedisNodeName(i+1), r.Name)
			w := want[r.Name]
			assert.Equal(t, w.Owner, r.Owner, "%s at %s", r.Name, at)
			assert.Equal(t, w.Left, r.Left, "%s at %s", r.Name, at)
			assert.Equal(t, w.Down, r.Down, "%s at %s", r.Name, at)
			assert.Equal(t, 8*time.Second, r.PX, "the preset's expiry")
		}
		return v
	}

	v := check(59 * time.Second)
	assert.Equal(t, 4, v.RedisHolds("A"), "A holds the four live nodes")
	assert.Equal(t, "A holds 4 of 5 (a majority is 3)", v.RedisSummary())
	assert.True(t, v.Redis[4].Down)
	assert.Empty(t, v.Redis[4].Owner, "a crashed node holds nothing")
	a := v.Procs[0]
	require.Equal(t, "A", a.Name)
	assert.Positive(t, a.BeliefLeft, "A's own validity")
	assert.LessOrEqual(t, a.BeliefLeft, 8*time.Second)
	assert.Positive(t, a.TruthLeft, "A's keys stay on a majority for a while")

	// Mid-pause: A still believes, but its keys are gone from every node
	// and someone else holds a majority.
	v = check(75 * time.Second)
	a = v.Procs[0]
	require.True(t, a.Believes, "frozen A still believes it holds the lock")
	assert.Zero(t, v.RedisHolds("A"))
	assert.Zero(t, a.TruthLeft, "A holds no majority")
	other := v.Lock.Holder
	require.NotEmpty(t, other)
	require.NotEqual(t, "A", other)
	assert.GreaterOrEqual(t, v.RedisHolds(other), v.Quorum, "%s holds a majority of its own", other)
	assert.Contains(t, v.RedisSummary(), other+" holds ")
}

// MajorityLeft is the Quorum-th longest PX among the nodes holding a
// client's value: when the last majority of its keys runs out.
func TestMajorityLeftIsWhenTheLastMajorityOfKeysRunsOut(t *testing.T) {
	v := WorldView{Quorum: 3, Redis: []RedisView{
		{Owner: "A", Left: 5 * time.Second}, {Owner: "A", Left: 2 * time.Second}, {Owner: "B", Left: 7 * time.Second},
		{Owner: "A", Left: 4 * time.Second}, {Down: true},
	}}
	assert.Equal(t, 2*time.Second, v.MajorityLeft("A"))
	assert.Equal(t, 3, v.RedisHolds("A"))
	assert.Zero(t, v.MajorityLeft("B"), "one node is no majority")
	assert.Zero(t, v.MajorityLeft(""), "an empty node belongs to nobody")
	assert.Zero(t, v.RedisHolds(""))
	assert.Equal(t, "nobody holds 3 of 5", v.RedisSummary(), "the lock's holder is the majority core computes, none here")
}

// Outside a Redlock world there are no Redis nodes to draw.
func TestAnEtcdWorldHasNoRedisNodes(t *testing.T) {
	p, err := sandbox.FindPreset("etcd")
	require.NoError(t, err)
	lb, err := NewSandbox("etcd", p.Config)
	require.NoError(t, err)
	lb.Seek(5 * time.Second)
	assert.Empty(t, lb.World().Redis)
	assert.Zero(t, lb.World().Quorum)
}
