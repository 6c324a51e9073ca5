package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// Exercise 2's design as a world: the learner's numbers, what a run of
// it measures (balance, load, the crash and pause phases, the stale
// owner), its replay as a lesson, and its lease-policy verdict.

// ShardDesign is a learner's shard-ownership design.
type ShardDesign struct {
	TTL, Renew    time.Duration
	LeasePerShard bool
	Assign        core.AssignRule
	Fenced        bool
}

// CrashPhase is one crash moment of worker-07 and the failover it gave.
type CrashPhase struct {
	At time.Duration
	// Victim counts the shards the crashed worker owned when it crashed.
	Victim int
	// Reassign is how long its shards took to find new owners; Stuck
	// counts those that never did before the run ended. Expired is the
	// part of Reassign spent waiting for its leases: from the crash until
	// the coordinator expired the last of them (the TTL, less the time
	// since their last renewal); the rest is the survivors' scans finding
	// and claiming the freed shards.
	Reassign time.Duration
	Expired  time.Duration
	Stuck    int
}

// PausePhase is one start of worker-13's short pause and what it cost.
type PausePhase struct {
	At time.Duration
	// Owned counts the shards worker-13 owned when it froze; Lost those
	// taken from it because its leases lapsed in the pause, though it was
	// alive and meant to keep them (not ones it gave back to rebalance).
	Owned, Lost int
}

// ShardMeasure is what the simulator measured of a design.
type ShardMeasure struct {
	// Min and Max are the fewest and most shards a live worker owned
	// before any fault.
	Min, Max int
	// RenewRate is lease renewals per second at the coordinator, measured
	// over RenewWindow: a whole number of renewal intervals (at least
	// one), so the rate is not skewed by a partial round.
	RenewRate   float64
	RenewWindow time.Duration
	// Pauses are the short pause's starts over one renewal interval, and
	// WorstPause the index of the costliest (the earliest of equals).
	Pauses     []PausePhase
	WorstPause int
	// Crashes are the crash moments over one renewal interval, and Worst
	// the index of the slowest failover (the earliest of equals), or of
	// the first over the budget. The run goes on from the worst pause.
	Crashes []CrashPhase
	Worst   int
	// OverBudget reports that the sweep stopped at the first crash moment
	// whose shards went unowned for more than twice the budget (Worst):
	// the design fails there, and the moments after it are not tried.
	OverBudget bool
	// StaleCommits counts offset commits a paused, superseded owner made
	// that the offset store accepted; SleeperOwned the shards it owned
	// when it froze (a pause of a worker that owned nothing proves
	// nothing). Both from a run with the worst pause and crash, from
	// before the freeze to the end: the run offered to watch.
	StaleCommits, SleeperOwned int
}

// WorstCrash is the crash moment the failover verdict rests on.
func (m ShardMeasure) WorstCrash() CrashPhase { return m.Crashes[m.Worst] }

// WorstPausePhase is the pause start the false-failover verdict rests on.
func (m ShardMeasure) WorstPausePhase() PausePhase { return m.Pauses[m.WorstPause] }

// MeasureShardDesign runs the design: 1,000 shards, 40 workers; from 40 s
// worker-13 pauses for 2 s, at every start that matters over one renewal
// interval; once those pauses are over (from 60 s, or later for long
// renewals: crashFrom) worker-07 crashes, at every moment that matters over
// one renewal interval; at 100 s worker-21 freezes for the TTL plus 5 s.
func MeasureShardDesign(d ShardDesign) (ShardMeasure, error) {
	j := newShardSweep(d)
	for !j.step() {
	}
	return j.m, j.err
}

// shardWorld writes the design's world, before its faults.
func shardWorld(d ShardDesign) (core.World, error) {
	return core.ShardsConfig{
		Shards: designShards, Workers: designWorkers, TTL: d.TTL, RenewEvery: d.Renew,
		LeasePerShard: d.LeasePerShard, Assign: d.Assign, ScanJitter: 0.5,
		CommitEvery: time.Second, Fencing: d.Fenced, Stagger: 50 * time.Millisecond,
	}.World(1)
}

// ShardLesson is the design's run with the pause at pauseAt and the crash
// at crashAt, to watch in the player: the same world and faults the check
// simulated.
func ShardLesson(d ShardDesign, crashAt, pauseAt time.Duration) *Lesson {
	return &Lesson{
		ID:    "shard-design-run",
		Title: fmt.Sprintf("Your shard design, crash at %s", instant(crashAt)),
		Intro: []string{fmt.Sprintf("The checked run the verdict rests on: %s pauses for %s at %s; %s crashes at %s; at %s %s freezes past its TTL.",
			designGCWorker, secs(designGCPause), instant(pauseAt), designVictim, instant(crashAt), secs(designPauseAt), designSleeper)},
		World:    func(uint64, Knobs) (core.World, error) { return shardWorld(d) },
		Script:   designLog(d, crashAt, pauseAt),
		Duration: designEnd(d),
	}
}

// designLog is the faults every design meets: a short pause at pauseAt, a
// crash at crashAt, and a pause past the TTL.
func designLog(d ShardDesign, crashAt, pauseAt time.Duration) core.ActionLog {
	return core.ActionLog{
		core.At(pauseAt, gcPause()),
		core.At(crashAt, core.Crash(designVictim)),
		sleeperPause(d),
	}
}

func gcPause() core.Action {
	return core.Pause(designGCWorker, designGCPause)
}

func sleeperPause(d ShardDesign) core.Timed {
	return core.At(designPauseAt, core.Pause(designSleeper, d.TTL+5*time.Second))
}

// designEnd is when a design's run ends: after the frozen worker-21 woke.
func designEnd(d ShardDesign) time.Duration { return designPauseAt + d.TTL + 15*time.Second }

// crashFrom is when the crash sweep begins: at 60 s, unless worker-13's
// pauses, tried over one whole renewal interval from 40 s, have not all
// ended and settled by then; then right after the last could have.
func crashFrom(d ShardDesign) time.Duration {
	return max(designCrashAt, designGCAt+d.Renew+designGCPause+designPauseSettle)
}

// designRoundTrip is the slowest keepalive round trip of the design's
// world (its links are the default ones).
var designRoundTrip = core.DefaultLink.RoundTrip()

// Policy is the design's lease-policy verdict: the lab's one rule
// (core.LeasePolicy.Check, as exercise 4, the leases lesson and the
// sandbox judge it) with the 2 s pause as the budget and the world's
// round trip: 2 × renew + 2 s < TTL, with more than the round trip to
// spare.
func (d ShardDesign) Policy() core.PolicyVerdict {
	return core.LeasePolicy{TTL: d.TTL, RenewEvery: d.Renew, PauseBudget: designGCPause, RoundTrip: designRoundTrip}.Check()
}
