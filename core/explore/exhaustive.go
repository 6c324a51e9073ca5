package explore

import (
	"slices"
	"time"

	"leaselab/core"
)

// exhaustive yields once per schedule run. It stops at the first violation:
// the order (fewest faults, then earliest starts, then shortest pauses, in
// Procs and Kinds order) makes that one the simplest.
func (x *Explorer) exhaustive(yield func(struct{}) bool) {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	r0 := x.base()
	if r0 == nil {
		return
	}
	// The scenario alone may already break the invariant.
	probe := r0.clone()
	if !x.settled(r0) && probe.advance(inv, b.Horizon, true) {
		x.best = &candidate{bad: *probe.bad}
		return
	}
	for k := 1; k <= b.MaxFaults; k++ {
		if !x.level(yield, r0, nil, k) || x.best != nil {
			return
		}
	}
}

// level enumerates the remaining k faults after prefix, on world r (at or
// before the earliest allowed start). It returns false to stop everything.
func (x *Explorer) level(yield func(struct{}) bool, r *run, prefix []Fault, k int) bool {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	from := b.From
	if len(prefix) > 0 {
		from = prefix[len(prefix)-1].At
	}
	w := x.cloneRun(r)
	for s := from; s < b.To; s += b.Step {
		if w.advance(inv, s, true) {
			return x.brokenFrom(yield, w, prefix, s, k)
		}
		if x.settled(w) {
			// Every schedule from here on keeps the invariant.
			return x.rest(prefix, s, k, func(fs []Fault) bool { return x.settledClean(yield, fs) })
		}
		if !x.startAt(yield, w, prefix, s, k) {
			return false
		}
	}
	x.recycle(w)
	return true
}

// brokenFrom handles a world w broken before start s by the faults placed
// so far (after their own run's observation window ended): every schedule
// from here on contains this violation, and the first of them is the
// simplest not yet tried.
func (x *Explorer) brokenFrom(yield func(struct{}) bool, w *run, prefix []Fault, s time.Duration, k int) bool {
	bad := *w.bad
	return x.rest(prefix, s, k, func(fs []Fault) bool { return x.record(yield, fs, bad) })
}

// startAt tries every next fault starting at s on world w (at s; it is
// left unchanged).
func (x *Explorer) startAt(yield func(struct{}) bool, w *run, prefix []Fault, s time.Duration, k int) bool {
	b := &x.p.Bounds
	for _, proc := range b.Procs {
		for _, kind := range b.Kinds {
			f := Fault{Kind: kind, Proc: proc, At: s}
			if kind == FaultCrash {
				c := x.cloneRun(w)
				c.s.ScheduleAction(s, f.Action().Action)
				if !x.finishRun(yield, c, append(prefix, f), k) {
					return false
				}
				x.recycle(c)
				continue
			}
			if kind == FaultDelay {
				if !x.eachLength(yield, w, prefix, f, k) {
					return false
				}
				continue
			}
			if !x.pauses(yield, w, prefix, f, k) {
				return false
			}
		}
	}
	return true
}

// eachLength tries every length of f (at f.At) on world w, each on its
// own clone of w, then the faults after it (finishRun): a fault whose
// length changes the world from its start (a delay holds messages from the
// first one sent) shares only the prefix.
func (x *Explorer) eachLength(yield func(struct{}) bool, w *run, prefix []Fault, f Fault, k int) bool {
	b := &x.p.Bounds
	for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
		c := x.cloneRun(w)
		f.For = l
		c.s.ScheduleAction(f.At, f.Action().Action)
		if !x.finishRun(yield, c, append(prefix, f), k) {
			return false
		}
		x.recycle(c)
	}
	return true
}

// settled reports that no schedule from world r can break the invariant.
func (x *Explorer) settled(r *run) bool {
	return x.p.Invariant.Settled != nil && x.p.Invariant.Settled(r.s)
}

// rest calls fn with every completion of prefix to k faults whose next
// start is at or after from, in search order, until fn returns false.
func (x *Explorer) rest(prefix []Fault, from time.Duration, k int, fn func([]Fault) bool) bool {
	return x.restUntil(prefix, from, x.p.Bounds.To, k, fn)
}

// restUntil is rest with the next start below to.
func (x *Explorer) restUntil(prefix []Fault, from, to time.Duration, k int, fn func([]Fault) bool) bool {
	if len(prefix) == k {
		return fn(prefix)
	}
	b := &x.p.Bounds
	for s := from; s < to; s += b.Step {
		for _, proc := range b.Procs {
			for _, kind := range b.Kinds {
				f := Fault{Kind: kind, Proc: proc, At: s}
				if kind == FaultCrash {
					if !x.rest(append(prefix, f), s, k, fn) {
						return false
					}
					continue
				}
				for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
					f.For = l
					if !x.rest(append(prefix, f), s, k, fn) {
						return false
					}
				}
			}
		}
	}
	return true
}

// pauses tries every pause length of f (at f.At) on world w.
func (x *Explorer) pauses(yield func(struct{}) bool, w *run, prefix []Fault, f Fault, k int) bool {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	if len(prefix)+1 < k {
		// More faults follow, possibly during this pause: place each
		// length exactly and go on from the pause's start.
		return x.eachLength(yield, w, prefix, f, k)
	}
	p := x.cloneRun(w)
	defer x.recycle(p)
	f.For = b.MaxLen
	before, known := p.s.Pauses(f.Proc)
	p.s.ScheduleAction(f.At, f.Action().Action)
	if p.advance(inv, f.At, true) {
		// The pause itself cannot break an invariant, but be exact.
		return x.record(yield, append(prefix, Fault{Kind: f.Kind, Proc: f.Proc, At: f.At, For: b.MinLen}), *p.bad)
	}
	if after, _ := p.s.Pauses(f.Proc); !known || after == before {
		// The pause did not apply (unknown, crashed or already paused
		// process): the lengths differ only in how long each run is
		// observed (Settle).
		for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
			f.For = l
			c := x.cloneRun(p)
			if !x.finishRun(yield, c, append(prefix, f), k) {
				return false
			}
			x.recycle(c)
		}
		return true
	}
	for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
		end := f.At + l
		if end > b.Horizon {
			// This pause and every longer one outlast the horizon: each
			// run is the paused world observed to the horizon.
			broken := p.advance(inv, b.Horizon, true)
			for ; l <= b.MaxLen; l += b.LenStep {
				f.For = l
				if broken && !x.record(yield, append(prefix, f), *p.bad) || !broken && !x.clean(yield, append(prefix, f)) {
					return false
				}
			}
			return true
		}
		if p.advance(inv, end, false) {
			// The world paused this long already broke the invariant: so
			// does every longer pause, whose runs are identical to here.
			for ; l <= b.MaxLen; l += b.LenStep {
				f.For = l
				if !x.record(yield, append(prefix, f), *p.bad) {
					return false
				}
			}
			return true
		}
		c := x.cloneRun(p)
		if l < b.MaxLen && !c.s.MovePauseEnd(f.Proc, end) {
			panic("explore: explorer lost a pause's resume event")
		}
		f.For = l
		if !x.finishRun(yield, c, append(prefix, f), k) {
			return false
		}
		x.recycle(c)
	}
	return true
}

// finishRun runs a schedule whose faults are all placed (k reached), or
// places the next one.
func (x *Explorer) finishRun(yield func(struct{}) bool, c *run, faults []Fault, k int) bool {
	if len(faults) < k {
		return x.level(yield, c, faults, k)
	}
	if c.advance(&x.p.Invariant, x.p.Bounds.End(faults), true) {
		return x.record(yield, faults, *c.bad)
	}
	return x.clean(yield, faults)
}

// clean counts a schedule that kept the invariant.
func (x *Explorer) clean(yield func(struct{}) bool, faults []Fault) bool {
	x.res.Tried++
	if x.verdict != nil {
		x.verdict(faults, nil)
	}
	return yield(struct{}{})
}

// settledClean counts a schedule that keeps the invariant without being
// simulated (see Result.Settled).
func (x *Explorer) settledClean(yield func(struct{}) bool, faults []Fault) bool {
	x.res.Settled++
	return x.clean(yield, faults)
}

// record notes a violating schedule and stops the search.
func (x *Explorer) record(yield func(struct{}) bool, faults []Fault, bad core.Event) bool {
	x.res.Tried++
	if x.verdict != nil {
		// Tests: every schedule's verdict, no stop.
		x.verdict(faults, &bad)
		return yield(struct{}{})
	}
	x.best = &candidate{faults: slices.Clone(faults), bad: bad}
	yield(struct{}{})
	return false
}
