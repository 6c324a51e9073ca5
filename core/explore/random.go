package explore

import (
	"slices"
	"time"
)

// randomSearch runs sample schedules drawn from the grid and keeps the
// simplest violating one.
func (x *Explorer) randomSearch(yield func(struct{}) bool) {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	r0 := x.base()
	if r0 == nil {
		return
	}
	for i := 0; i < x.sample; i++ {
		fs := x.draw()
		c := x.cloneRun(r0)
		for _, f := range fs {
			c.s.ScheduleAction(f.At, f.Action().Action)
		}
		if c.advance(inv, b.End(fs), true) && (x.best == nil || simpler(fs, x.best.faults)) {
			x.best = &candidate{faults: fs, bad: *c.bad}
		}
		x.recycle(c)
		x.res.Tried++
		if !yield(struct{}{}) {
			return
		}
	}
}

func (x *Explorer) draw() []Fault {
	b := &x.p.Bounds
	fs := make([]Fault, 1+x.random.IntN(b.MaxFaults))
	for i := range fs {
		f := Fault{
			Kind: b.Kinds[x.random.IntN(len(b.Kinds))],
			Proc: b.Procs[x.random.IntN(len(b.Procs))],
			At:   b.From + time.Duration(x.random.IntN(b.starts()))*b.Step,
		}
		if lasts(f.Kind) {
			f.For = b.MinLen + time.Duration(x.random.IntN(b.lens()))*b.LenStep
		}
		fs[i] = f
	}
	slices.SortStableFunc(fs, func(a, b Fault) int { return int(a.At - b.At) })
	return fs
}

// simpler orders schedules: fewer faults, then earlier starts, then
// shorter pauses.
func simpler(a, b []Fault) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if a[i].At != b[i].At {
			return a[i].At < b[i].At
		}
		if a[i].For != b[i].For {
			return a[i].For < b[i].For
		}
	}
	return false
}
