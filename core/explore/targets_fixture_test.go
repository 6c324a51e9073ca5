package explore

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// The explorer's tests search the worlds of the named targets the lessons
// declare (lessons/targets.go), rebuilt here from core's own parts: core's
// tests cannot import the lessons, and they pin the explorer's behaviour
// on fixed worlds however a lesson is later tuned. lessons' own tests check
// the declared targets.

// fencedConfig is the fenced-writes lesson's world (lessons/fenced.go).
var fencedConfig = core.ContentionConfig{
	Names: []string{"A", "B"}, FirstToken: 7, TTL: 10 * time.Second,
	Stagger: 500 * time.Millisecond, Fencing: true, WorkEvery: 2 * time.Second,
}

// schedulerConfig is the scheduler lesson's world (lessons/scheduler.go).
var schedulerConfig = core.SchedulerContention(5, 10*time.Second, false)

// settled returns inv whose search stops runs once f holds.
func settled(inv Invariant, f func(*core.Sim) bool) Invariant {
	inv.Settled = f
	return inv
}

// shardsExploreConfig is a small shard fleet: big enough for ownership to
// move, small enough to search.
var shardsExploreConfig = core.ShardsConfig{
	Shards: 8, Workers: 3, TTL: 15 * time.Second, LeasePerShard: true,
	ScanEvery: 3 * time.Second, CommitEvery: 2 * time.Second, Fencing: true, Stagger: 200 * time.Millisecond,
}

// shardPause is the shard targets' fault space: worker-00 paused once.
var shardPause = Bounds{Procs: []string{"worker-00"}, Kinds: []string{FaultPause}, From: 5 * time.Second, To: 20 * time.Second, Step: time.Second,
	MinLen: time.Second, MaxLen: 30 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 60 * time.Second}

var targets = []*Target{
	{
		Name: "fenced-writes", Lesson: "fenced-writes", Protects: core.VerbFencing,
		Title:     "A pause of the leader against the fenced register (tokens 7, 8)",
		Invariant: settled(NoStaleWrite, FencedForGood),
		// The benchmark space: 300 starts x 300 lengths.
		Bounds: Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause}, From: 0, To: 30 * time.Second, Step: 100 * time.Millisecond,
			MinLen: 100 * time.Millisecond, MaxLen: 30 * time.Second, LenStep: 100 * time.Millisecond, MaxFaults: 1, Horizon: 60 * time.Second},
		World: fencedConfig.World,
	},
	{
		Name: "scheduler", Lesson: "scheduler", Protects: core.VerbIdempotency,
		Title:     "The invoice scheduler's leader fails mid-batch; its successor redoes the batch",
		Invariant: settled(AtMostDuplicateJobs(0), IdempotentForGood),
		Bounds: Bounds{Procs: []string{"api-1"}, Kinds: []string{FaultCrash, FaultPause}, From: 0, To: 10 * time.Second, Step: 500 * time.Millisecond,
			MinLen: time.Second, MaxLen: 20 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 40 * time.Second},
		World: schedulerConfig.World,
	},
	{
		Name: "shards", Protects: core.VerbFencing,
		Title:     "A shard worker stalls; its shards move; does a stale offset commit land?",
		Invariant: NoStaleOffset, Bounds: shardPause, World: shardsExploreConfig.World,
	},
	{
		// The same world and faults as "shards", watched for belief: a
		// stalled worker's overlap with its successor is found with
		// fencing on, because fencing cannot prevent it, only defuse it.
		Name: "shard-owners", Protects: core.VerbFencing, AboutBelief: true,
		Title:     "A shard worker stalls; do two workers ever believe they own one shard at once?",
		Invariant: OneOwnerPerShard, Bounds: shardPause, World: shardsExploreConfig.World,
	},
	// The fenced-writes world on ZooKeeper and on Consul, for Find a break:
	// the same pause of A breaks an unfenced register on every system, only
	// the length it takes differs. ZooKeeper expires the session a tick
	// after its 10 s timeout; Consul invalidates it at 2 x TTL and then
	// holds the lock free for its 15 s lock-delay, so only a far longer
	// pause lets B in while A sleeps. With fencing on, czxid and LockIndex
	// tokens refuse A's late write.
	systemTarget("zookeeper-pause", core.SystemZooKeeper, "ZooKeeper: the holder pauses; does its late write land after B's?", 30*time.Second, 60*time.Second),
	systemTarget("consul-pause", core.SystemConsul, "Consul: the holder pauses; does its late write land after B's?", 60*time.Second, 90*time.Second),
}

func systemTarget(name string, sys core.System, title string, maxLen, horizon time.Duration) *Target {
	cfg := fencedConfig
	cfg.System, cfg.FirstToken = sys, 0
	if sys == core.SystemConsul {
		cfg.LockDelay = core.ConsulDefaultLockDelay
	}
	return &Target{
		Name: name, Protects: core.VerbFencing, Title: title,
		Invariant: settled(NoStaleWrite, FencedForGood),
		Bounds: Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause}, From: 0, To: 30 * time.Second, Step: time.Second,
			MinLen: time.Second, MaxLen: maxLen, LenStep: time.Second, MaxFaults: 1, Horizon: horizon},
		World: cfg.World,
	}
}

// FindTarget returns the named test target.
func FindTarget(name string) (*Target, error) {
	for _, t := range targets {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no test target %q", name)
}

// The fixtures are what the explorer's tests search: each has its own
// name, builds a world that runs, and protects with the switch its invariant
// depends on.
func TestTheFixtureTargetsBuildTheirWorlds(t *testing.T) {
	seen := map[string]bool{}
	for _, tg := range targets {
		assert.False(t, seen[tg.Name], "%s twice", tg.Name)
		seen[tg.Name] = true
		s, err := tg.Build(1)
		require.NoError(t, err, tg.Name)
		s.RunUntil(5 * time.Second)
		assert.NotZero(t, s.Trace.Len(), "%s: its world runs", tg.Name)
		assert.Contains(t, []core.Verb{core.VerbFencing, core.VerbIdempotency}, tg.Protects, tg.Name)
	}
	_, err := FindTarget("nope")
	assert.Error(t, err)
}
