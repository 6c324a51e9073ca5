package lessons

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/explore"
)

// The explorer's named targets (labctl explore NAME, target permalinks):
// a world, the invariant it should keep and default bounds. The lesson
// worlds are the lessons' own (fencedConfig, schedulerConfig), so a
// counterexample's log replays in the lesson player; the shard targets
// search a fleet small enough to search.

// shardsExploreConfig is a small shard fleet: big enough for ownership to
// move, small enough to search.
var shardsExploreConfig = core.ShardsConfig{
	Shards: 8, Workers: 3, TTL: 15 * time.Second, LeasePerShard: true,
	ScanEvery: 3 * time.Second, CommitEvery: 2 * time.Second, Fencing: true, Stagger: 200 * time.Millisecond,
}

// settled returns inv whose search stops runs once f holds.
func settled(inv explore.Invariant, f func(*core.Sim) bool) explore.Invariant {
	inv.Settled = f
	return inv
}

// shardPause is the shard targets' fault space: worker-00 paused once.
var shardPause = explore.Bounds{Procs: []string{"worker-00"}, Kinds: []string{explore.FaultPause}, From: 5 * time.Second, To: 20 * time.Second, Step: time.Second,
	MinLen: time.Second, MaxLen: 30 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 60 * time.Second}

var targets = []*explore.Target{
	{
		Name: "fenced-writes", Lesson: fencedWrites.ID, Protects: core.VerbFencing,
		Title:     "A pause of the leader against the fenced register (tokens 7, 8)",
		Invariant: settled(explore.NoStaleWrite, explore.FencedForGood),
		// The benchmark space: 300 starts x 300 lengths.
		Bounds: explore.Bounds{Procs: []string{"A"}, Kinds: []string{explore.FaultPause}, From: 0, To: 30 * time.Second, Step: 100 * time.Millisecond,
			MinLen: 100 * time.Millisecond, MaxLen: 30 * time.Second, LenStep: 100 * time.Millisecond, MaxFaults: 1, Horizon: 60 * time.Second},
		World: fencedConfig.World,
	},
	{
		Name: "scheduler", Lesson: scheduler.ID, Protects: core.VerbIdempotency,
		Title:     "The invoice scheduler's leader fails mid-batch; its successor redoes the batch",
		Invariant: settled(explore.AtMostDuplicateJobs(0), explore.IdempotentForGood),
		Bounds: explore.Bounds{Procs: []string{"api-1"}, Kinds: []string{explore.FaultCrash, explore.FaultPause}, From: 0, To: 10 * time.Second, Step: 500 * time.Millisecond,
			MinLen: time.Second, MaxLen: 20 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 40 * time.Second},
		World: schedulerConfig.World,
	},
	{
		Name: "shards", Protects: core.VerbFencing,
		Title:     "A shard worker stalls; its shards move; does a stale offset commit land?",
		Invariant: explore.NoStaleOffset, Bounds: shardPause, World: shardsExploreConfig.World,
	},
	{
		// The same world and faults as "shards", watched for belief: a
		// stalled worker's overlap with its successor is found with
		// fencing on, because fencing cannot prevent it, only defuse it.
		Name: "shard-owners", Protects: core.VerbFencing, AboutBelief: true,
		Title:     "A shard worker stalls; do two workers ever believe they own one shard at once?",
		Invariant: explore.OneOwnerPerShard, Bounds: shardPause, World: shardsExploreConfig.World,
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

func systemTarget(name string, sys core.System, title string, maxLen, horizon time.Duration) *explore.Target {
	cfg := fencedConfig.OnSystem(sys)
	return &explore.Target{
		Name: name, Protects: core.VerbFencing, Title: title,
		Invariant: settled(explore.NoStaleWrite, explore.FencedForGood),
		Bounds: explore.Bounds{Procs: []string{"A"}, Kinds: []string{explore.FaultPause}, From: 0, To: 30 * time.Second, Step: time.Second,
			MinLen: time.Second, MaxLen: maxLen, LenStep: time.Second, MaxFaults: 1, Horizon: horizon},
		World: cfg.World,
	}
}

// Targets lists the explorer's named problems.
func Targets() []*explore.Target { return targets }

// FindTarget returns the named target or an error listing the names.
func FindTarget(name string) (*explore.Target, error) {
	names := make([]string, len(targets))
	for i, t := range targets {
		if t.Name == name {
			return t, nil
		}
		names[i] = t.Name
	}
	return nil, fmt.Errorf("unknown explore target %q (known: %s)", name, strings.Join(names, ", "))
}
