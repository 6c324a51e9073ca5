package explore

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"leaselab/core"
)

// Explorer runs one search a budget at a time, so a front end can spread it
// over frames, show progress and cancel it.
type Explorer struct {
	p      Problem
	res    Result
	next   func() (struct{}, bool)
	stop   func()
	best   *candidate
	clock  func() time.Time
	start  time.Time
	random *rand.Rand
	sample int
	err    error
	// verdict, set by tests, receives every schedule's outcome and makes
	// the search go on past violations.
	verdict func(faults []Fault, bad *core.Event)
	// workers is how many goroutines Run may use for an exhaustive search
	// not yet stepped (parallel.go).
	workers int
	stepped bool
	// spares are finished runs whose worlds the next clones overwrite.
	spares []*run
}

type candidate struct {
	faults []Fault
	bad    core.Event
}

// New prepares an exhaustive search of p.
func New(p Problem, clock func() time.Time) (*Explorer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	x := &Explorer{p: p, clock: clock, workers: runtime.GOMAXPROCS(0)}
	x.res = Result{Bounds: p.Bounds, Total: p.Bounds.Count()}
	x.next, x.stop = iter.Pull(x.exhaustive)
	x.start = clock()
	return x, nil
}

// NewRandom prepares a seeded random search of n schedules, each
// with 1 to MaxFaults faults drawn uniformly from the bounds' grid.
func NewRandom(p Problem, n int, seed uint64, clock func() time.Time) (*Explorer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: random search needs at least one schedule", ErrBounds)
	}
	x := &Explorer{p: p, clock: clock, sample: n, random: rand.New(rand.NewPCG(seed, 0x5eed))}
	x.res = Result{Bounds: p.Bounds, Total: float64(n), Random: true}
	x.next, x.stop = iter.Pull(x.randomSearch)
	x.start = clock()
	return x, nil
}

// Step runs up to budget schedules and reports whether the search is over.
func (x *Explorer) Step(budget int) bool {
	if x.next == nil {
		return true
	}
	x.stepped = true
	for range budget {
		if _, ok := x.next(); !ok {
			x.finish(true)
			return true
		}
	}
	x.res.Elapsed = x.clock().Sub(x.start)
	return false
}

// Cancel ends the search; Result then reports what was covered.
func (x *Explorer) Cancel() {
	if x.next != nil {
		x.finish(false)
	}
}

func (x *Explorer) finish(complete bool) {
	x.stop()
	x.next = nil
	x.res.Complete = complete
	x.res.Elapsed = x.clock().Sub(x.start)
	if x.best != nil {
		x.res.Found, x.res.Faults, x.res.Violation = true, x.best.faults, x.best.bad
		x.res.Log = append(slices.Clone(x.p.Base), faultLog(x.best.faults)...)
	}
}

// Err returns a world-building error met during the search.
func (x *Explorer) Err() error { return x.err }

// Progress returns schedules tried and the size of the space.
func (x *Explorer) Progress() (tried int, total float64) { return x.res.Tried, x.res.Total }

// Result returns the verdict so far (final once Step reported the end).
func (x *Explorer) Result() Result { return x.res }

// Run searches to the end. An exhaustive search not yet stepped runs on
// GOMAXPROCS goroutines, with the same result as run sequentially.
func (x *Explorer) Run() (Result, error) {
	if x.workers > 1 && !x.stepped && x.next != nil && !x.res.Random && x.verdict == nil {
		x.parallel(x.workers)
		return x.res, x.err
	}
	for !x.Step(1 << 20) {
	}
	return x.res, x.err
}

// base builds the world and checks it up to the first fault start.
func (x *Explorer) base() *run {
	s, err := x.p.Build()
	if err != nil {
		x.err = err
		return nil
	}
	// Message sends are the bulk of a trace and no invariant reads them;
	// an invariant may say which few kinds it reads.
	s.Trace.Quiet = true
	if x.p.Invariant.Kinds != nil {
		s.Trace.Keep(x.p.Invariant.Kinds...)
	}
	s.Coord.NoLoadSeries()
	r := &run{s: s}
	if r.check(&x.p.Invariant) {
		x.best = &candidate{bad: *r.bad}
		return nil
	}
	return r
}
