package lab

import (
	"slices"
	"time"

	"leaselab/core"
	"leaselab/core/explore"
	"leaselab/core/sandbox"
	"leaselab/lessons"
)

// SandboxSearch maps a sandbox setup onto an explorer search: a fenced
// register (or the job queue, or the shard fleet) the first leader writes
// to, paused on a grid scaled to the lease's TTL. A setup the explorer
// cannot break in a meaningful way gets the reason instead, so the button
// is never offered where it would find nothing by construction.
func SandboxSearch(c sandbox.Config) (*lessons.Search, string) {
	var spec lessons.Search
	// The first to campaign wins the lock (or the first shards): the
	// fault that matters is on it.
	switch {
	case c.Shards > 0:
		if c.Workers < 2 {
			return nil, "one worker: nobody else can take its shards"
		}
		spec = lessons.Search{Invariant: explore.NoStaleOffset, Protects: core.VerbFencing}
		spec.Bounds.Procs = []string{"worker-00"}
		spec.Bounds.Kinds = []string{explore.FaultPause}
	case c.Procs < 2:
		return nil, "one process: nobody else can take the lock"
	case c.WorkEvery <= 0 && !slices.ContainsFunc(c.Actions, func(a core.Timed) bool { return a.Do == core.VerbWrite }):
		return nil, "the leader does no work, so nothing can go stale"
	case c.Workload == sandbox.WorkloadJobs:
		spec = lessons.Search{Invariant: explore.AtMostDuplicateJobs(0), Protects: core.VerbIdempotency}
		spec.Bounds.Procs = c.ProcNames()[:1]
		spec.Bounds.Kinds = []string{explore.FaultCrash, explore.FaultPause}
	case !c.System.IssuesTokens():
		// Every token is 0 (Redlock's): no stale write can be told from
		// a fresh one, so the break to look for is two holders at once.
		spec = lessons.Search{Invariant: explore.OneBelieverPerLock, Protects: core.VerbFencing}
		spec.Bounds.Procs = c.ProcNames()[:1]
		spec.Bounds.Kinds = []string{explore.FaultPause}
	default:
		spec = lessons.Search{Invariant: explore.NoStaleWrite, Protects: core.VerbFencing}
		spec.Bounds.Procs = c.ProcNames()[:1]
		spec.Bounds.Kinds = []string{explore.FaultPause}
	}
	spec.Given = "the setup as it is (its own pauses and scripted actions)"
	// Starts over the first three TTLs, pauses up to three TTLs, on a grid
	// of a twentieth of the TTL: about 1800 schedules, seconds of search.
	grain := max(100*time.Millisecond, (c.TTL / 20).Round(100*time.Millisecond))
	span := min(3*c.TTL, c.Duration/2)
	b := &spec.Bounds
	b.From, b.To, b.Step = 0, span, grain
	b.MinLen, b.MaxLen, b.LenStep = 2*grain, span, 2*grain
	b.MaxFaults = 1
	b.Horizon = min(c.Duration, 2*span+2*c.TTL)
	if err := b.Validate(); err != nil {
		return nil, err.Error()
	}
	return &spec, ""
}
