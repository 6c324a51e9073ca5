package core

import (
	"fmt"
	"strings"
	"time"
)

// Target is a named search problem: a world with no fault of its own, the
// invariant it should keep, and default bounds. Targets match the lessons'
// worlds (fenced-writes, scheduler, shards), so a counterexample's log
// replays in the lesson player too.
type Target struct {
	Name, Title string
	// Lesson is the id of the lesson whose world Build makes.
	Lesson    string
	Invariant Invariant
	Bounds    Bounds
	build     func(seed uint64) (*Sim, error)
	// protects names the switch the invariant depends on: "fencing" or
	// "idempotency".
	protects string
	// belief marks an invariant about what processes believe: the switch
	// cannot keep it, only refuse what a stale believer sends.
	belief bool
}

// Belief reports an invariant about belief, which the target's protection
// defuses but cannot keep.
func (t *Target) Belief() bool { return t.belief }

// Build returns the target's world at time zero, without any action.
func (t *Target) Build(seed uint64) (*Sim, error) { return t.build(seed) }

// Link is the permalink that replays log (a counterexample's) in this
// target's world, observed until horizon (0: the target's own, which the
// link then leaves out).
func (t *Target) Link(seed uint64, log ActionLog, horizon time.Duration) RunLink {
	l := RunLink{Kind: LinkTarget, Name: t.Name, Seed: seed, Log: log}
	if horizon > 0 && horizon != t.Bounds.Horizon {
		l.Params = []Param{{Key: "horizon", Value: horizon.String()}}
	}
	return l
}

// LinkHorizon returns how long the run of a target link (see Link) is
// observed.
func (t *Target) LinkHorizon(l RunLink) (time.Duration, error) {
	h := t.Bounds.Horizon
	for _, p := range l.Params {
		if p.Key != "horizon" {
			return 0, fmt.Errorf("%w: a target link has no parameter %q", ErrPermalink, p.Key)
		}
		d, err := time.ParseDuration(p.Value)
		if err != nil || d <= 0 || d > time.Hour {
			return 0, fmt.Errorf("%w: horizon %q is not a duration from 1ns to 1h", ErrPermalink, p.Value)
		}
		h = d
	}
	return h, nil
}

// Protection returns the switch the target's invariant depends on.
func (t *Target) Protection() string { return t.protects }

// Problem returns the search problem with the given seed; the target's
// protection (fencing, idempotency) is switched on, or off if protectionOff,
// at time zero.
func (t *Target) Problem(seed uint64, protectionOff bool, b Bounds) Problem {
	// The switch is always in the log, so the log replays in the lesson
	// whatever the lesson's own default (the scheduler lesson starts with
	// idempotency off).
	base := ActionLog{At(0, Action{Do: Verb(t.protects), On: !protectionOff})}
	return Problem{
		Build: func() (*Sim, error) {
			s, err := t.build(seed)
			if err != nil {
				return nil, err
			}
			s.Schedule(base)
			return s, nil
		},
		Base:      base,
		Invariant: t.Invariant,
		Bounds:    b,
	}
}

// FencedWritesConfig is the fenced-writes lesson's world: A then B contend
// for one lock (tokens from 7), the leader writes every 2 s to a fenced
// register, TTL 10 s.
var FencedWritesConfig = ContentionConfig{
	Names: []string{"A", "B"}, FirstToken: 7, TTL: 10 * time.Second,
	Stagger: 500 * time.Millisecond, Fencing: true, WorkEvery: 2 * time.Second,
}

// SchedulerLessonConfig is the scheduler lesson's world (seed Example 1).
var SchedulerLessonConfig = SchedulerConfig{
	Instances: 5, FirstToken: 41, TTL: 10 * time.Second, Customers: 8, Date: "2026-11-29",
	JobEvery: time.Second, RetryJitter: 0.5,
}

// ShardsExploreConfig is a small shard fleet: big enough for ownership to
// move, small enough to search.
var ShardsExploreConfig = ShardsConfig{
	Shards: 8, Workers: 3, TTL: 15 * time.Second, LeasePerShard: true,
	ScanEvery: 3 * time.Second, CommitEvery: 2 * time.Second, Fencing: true, Stagger: 200 * time.Millisecond,
}

// settled returns inv whose search stops runs once f holds.
func settled(inv Invariant, f func(*Sim) bool) Invariant {
	inv.Settled = f
	return inv
}

var targets = []*Target{
	{
		Name: "fenced-writes", Lesson: "fenced-writes", protects: "fencing",
		Title:     "A pause of the leader against the fenced register (tokens 7, 8)",
		Invariant: settled(NoStaleWrite, FencedForGood),
		// The benchmark space: 300 starts x 300 lengths.
		Bounds: Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause}, From: 0, To: 30 * time.Second, Step: 100 * time.Millisecond,
			MinLen: 100 * time.Millisecond, MaxLen: 30 * time.Second, LenStep: 100 * time.Millisecond, MaxFaults: 1, Horizon: 60 * time.Second},
		build: func(seed uint64) (*Sim, error) { return NewContention(seed, FencedWritesConfig) },
	},
	{
		Name: "scheduler", Lesson: "scheduler", protects: "idempotency",
		Title:     "The invoice scheduler's leader fails mid-batch; its successor redoes the batch",
		Invariant: settled(AtMostDuplicateJobs(0), IdempotentForGood),
		Bounds: Bounds{Procs: []string{"api-1"}, Kinds: []string{FaultCrash, FaultPause}, From: 0, To: 10 * time.Second, Step: 500 * time.Millisecond,
			MinLen: time.Second, MaxLen: 20 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 40 * time.Second},
		build: func(seed uint64) (*Sim, error) { return NewScheduler(seed, SchedulerLessonConfig) },
	},
	{
		Name: "shards", protects: "fencing",
		Title:     "A shard worker stalls; its shards move; does a stale offset commit land?",
		Invariant: NoStaleOffset,
		Bounds: Bounds{Procs: []string{"worker-00"}, Kinds: []string{FaultPause}, From: 5 * time.Second, To: 20 * time.Second, Step: time.Second,
			MinLen: time.Second, MaxLen: 30 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 60 * time.Second},
		build: func(seed uint64) (*Sim, error) { return NewShards(seed, ShardsExploreConfig) },
	},
	{
		// The same world and faults as "shards", watched for belief: a
		// stalled worker's overlap with its successor is found with
		// fencing on, because fencing cannot prevent it, only defuse it.
		Name: "shard-owners", protects: "fencing", belief: true,
		Title:     "A shard worker stalls; do two workers ever believe they own one shard at once?",
		Invariant: OneOwnerPerShard,
		Bounds: Bounds{Procs: []string{"worker-00"}, Kinds: []string{FaultPause}, From: 5 * time.Second, To: 20 * time.Second, Step: time.Second,
			MinLen: time.Second, MaxLen: 30 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 60 * time.Second},
		build: func(seed uint64) (*Sim, error) { return NewShards(seed, ShardsExploreConfig) },
	},
}

// Targets lists the explorer's named problems.
func Targets() []*Target { return targets }

// FindTarget returns the named target or an error listing the names.
func FindTarget(name string) (*Target, error) {
	names := make([]string, len(targets))
	for i, t := range targets {
		if t.Name == name {
			return t, nil
		}
		names[i] = t.Name
	}
	return nil, fmt.Errorf("unknown explore target %q (known: %s)", name, strings.Join(names, ", "))
}
