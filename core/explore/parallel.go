package explore

import (
	"sync"
	"sync/atomic"
	"time"
)

// Explorer.Run spreads an exhaustive search over worker goroutines (one per
// GOMAXPROCS; in wasm there is one, and Run stays sequential). Each Sim is
// still used by one goroutine only: a worker owns its clone of the base
// world and the clones it makes from it.
//
// The unit of work is one start of the first fault (with every fault after
// it), for one fault count at a time. Workers take units in increasing
// order, each advancing its own world to the unit's start, and record per
// unit how many schedules ran and the first that broke the invariant. The
// result is then read off the units in search order, exactly as the
// sequential search would have stopped: the simplest counterexample is the
// first in that order whichever worker found it, and Tried counts the
// schedules before it. A violation at unit i lets workers skip the units
// after i; every unit before i still runs to its end.

// parallel runs the whole exhaustive search on n workers.
func (x *Explorer) parallel(n int) {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	if r0 := x.base(); r0 != nil {
		probe := r0.clone()
		if !x.settled(r0) && probe.advance(inv, b.Horizon, true) {
			x.best = &candidate{bad: *probe.bad}
		}
		for k := 1; k <= b.MaxFaults && x.best == nil; k++ {
			x.parallelLevel(r0, k, n)
		}
	}
	x.finish(true)
}

// workerPanic carries a worker's panic value to the caller's goroutine.
type workerPanic struct{ value any }

// unitResult is what one unit of work found.
type unitResult struct {
	tried, settled int
	best           *candidate
}

// parallelLevel searches every k-fault schedule on n workers.
func (x *Explorer) parallelLevel(r0 *run, k, n int) {
	units := make([]unitResult, x.p.Bounds.starts())
	var next, limit atomic.Int64
	limit.Store(int64(len(units)))
	var wg sync.WaitGroup
	var crashed atomic.Pointer[workerPanic]
	for range n {
		w := r0.clone()
		wg.Go(func() {
			// A panic on a worker would end the program before any
			// caller could recover it; it is raised again on the
			// caller's goroutine instead, after the others stop.
			defer func() {
				if r := recover(); r != nil {
					crashed.CompareAndSwap(nil, &workerPanic{r})
					limit.Store(0)
				}
			}()
			x.work(w, k, units, &next, &limit)
		})
	}
	wg.Wait()
	if p := crashed.Load(); p != nil {
		panic(p.value)
	}
	for i := range units {
		x.res.Tried += units[i].tried
		x.res.Settled += units[i].settled
		if units[i].best != nil {
			x.best = units[i].best
			return
		}
	}
}

// work runs units on world w until none is left below limit.
func (x *Explorer) work(w *run, k int, units []unitResult, next, limit *atomic.Int64) {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	more := func(struct{}) bool { return true }
	for {
		i := next.Add(1) - 1
		if i >= limit.Load() {
			return
		}
		s := b.From + time.Duration(i)*b.Step
		u := &Explorer{p: x.p}
		switch {
		case w.advance(inv, s, true):
			u.brokenFrom(more, w, nil, s, k)
		case u.settled(w):
			u.restUntil(nil, s, s+b.Step, k, func(fs []Fault) bool { return u.settledClean(more, fs) })
		default:
			u.startAt(more, w, nil, s, k)
		}
		units[i] = unitResult{tried: u.res.Tried, settled: u.res.Settled, best: u.best}
		if u.best == nil {
			continue
		}
		// Units after i cannot hold the simplest counterexample; this
		// world may be broken, and every unit it would take is after i.
		for {
			l := limit.Load()
			if i+1 >= l || limit.CompareAndSwap(l, i+1) {
				return
			}
		}
	}
}
