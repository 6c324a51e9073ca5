package explore

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// Problem is what to search: a world builder (fresh world with its own
// script and the base log scheduled), the invariant and the bounds.
type Problem struct {
	// Build returns a fresh world at time zero with every scheduled action
	// of the scenario in it, Base included.
	Build func() (*core.Sim, error)
	// Base is the part of the scenario's action log a counterexample must
	// repeat to replay (switches such as "fencing off" at time zero).
	Base      core.ActionLog
	Invariant Invariant
	Bounds    Bounds
}

// Validate checks p's bounds, and that every process they fault is in p's
// world: a fault of a process that does not exist is never applied, and a
// search of such faults would report "no violation" having tested nothing.
func (p Problem) Validate() error {
	if err := p.Bounds.Validate(); err != nil {
		return err
	}
	s, err := p.Build()
	if err != nil {
		return err
	}
	names := s.ClientNames()
	for _, name := range p.Bounds.Procs {
		if !slices.Contains(names, name) {
			return fmt.Errorf("%w: no process %q in this world (it has %s)", ErrBounds, name, strings.Join(names, ", "))
		}
	}
	return nil
}

// Replay runs the problem's world with the faults from time zero, with a
// full trace, until the bounds stop observing that schedule. It returns the
// world and the first event that broke the invariant (nil if none): the
// run a counterexample stands for, as the player and labctl show it.
func (p Problem) Replay(faults []Fault) (*core.Sim, *core.Event, error) {
	s, err := p.Build()
	if err != nil {
		return nil, nil, err
	}
	s.Schedule(faultLog(faults))
	s.RunUntil(p.Bounds.End(faults))
	return s, p.Invariant.First(s.Trace), nil
}

// Result is the outcome of a search.
type Result struct {
	// Found reports a counterexample: Faults, and Log (Base + faults) to
	// replay it; Violation is the first event that broke the invariant
	// (its Seq means nothing: search worlds keep no trace; Problem.Replay
	// gives the run with its full trace).
	Found     bool
	Faults    []Fault
	Log       core.ActionLog
	Violation core.Event
	// Tried counts schedules run; Total is the size of the space
	// (exhaustive) or the sample size (random). Complete reports that the
	// search ran to its end (found, or exhausted its bounds or sample)
	// rather than being cancelled.
	Tried int
	// Settled counts the schedules among Tried that were not simulated:
	// the world before their fault could no longer break the invariant
	// (Invariant.Settled), so they keep it.
	Settled  int
	Total    float64
	Complete bool
	Random   bool
	Elapsed  time.Duration
	Bounds   Bounds
}

// PerSecond returns schedules tried per second of wall time.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Tried) / r.Elapsed.Seconds()
}

// Summary is the verdict in one or two sentences.
func (r Result) Summary() string {
	how := "exhaustive"
	if r.Random {
		how = "random"
	}
	cover := fmt.Sprintf("%d schedules tried (%s search, %.0f schedules/s): %s", r.Tried, how, r.PerSecond(), r.Bounds)
	if r.Settled > 0 {
		cover += fmt.Sprintf("; %d of them simulated, %d settled without simulating (the invariant could no longer break before their fault)", r.Tried-r.Settled, r.Settled)
	}
	switch {
	case r.Found && len(r.Faults) == 0:
		return "the scenario breaks the invariant with no fault at all"
	case r.Found:
		fs := make([]string, len(r.Faults))
		for i, f := range r.Faults {
			fs[i] = f.String()
		}
		return fmt.Sprintf("violation found with %s; %s", strings.Join(fs, ", then "), cover)
	case !r.Complete:
		return "search cancelled: no violation in the " + cover
	case r.Random:
		return "no violation in a random sample: " + cover + " (a sample proves nothing)"
	}
	return "no violation within bounds: " + cover
}

// Refusals summarises what the protected resources refused in a trace:
// what fencing or idempotency did in a run that kept its invariant.
func Refusals(t *core.Trace) string {
	var writes, offsets, jobs int
	for e := range t.All() {
		switch {
		case e.Kind == core.KindWrite && e.Result() == core.RejectedStale:
			writes++
		case e.Kind == core.KindOffset && e.Result() == core.RejectedStale:
			offsets++
		case e.Kind == core.KindEnqueue && e.Result() == core.JobDuplicateIgnored:
			jobs++
		}
	}
	var parts []string
	for _, c := range []struct {
		n         int
		one, many string
	}{{writes, "stale write rejected", "stale writes rejected"}, {offsets, "stale offset commit rejected", "stale offset commits rejected"}, {jobs, "duplicate job ignored", "duplicate jobs ignored"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, plural(c.n, c.one, c.many)))
		}
	}
	if len(parts) == 0 {
		return "nothing needed refusing"
	}
	return strings.Join(parts, ", ")
}
