package explore

import (
	"time"

	"leaselab/core"
)

// run is one world under observation and how many of its events matched
// the invariant so far.
type run struct {
	s       *core.Sim
	matched int
	bad     *core.Event
}

func (r *run) clone() *run { return &run{s: r.s.Clone(), matched: r.matched} }

// cloneRun is r.clone reusing a recycled run (see recycle) if there is one.
func (x *Explorer) cloneRun(r *run) *run {
	n := len(x.spares)
	if n == 0 {
		return r.clone()
	}
	d := x.spares[n-1]
	x.spares = x.spares[:n-1]
	*d = run{s: r.s.CloneInto(d.s), matched: r.matched}
	return d
}

// recycle takes back a run whose verdict is in and that nothing refers
// to any more: the next cloneRun overwrites its world (Sim.CloneInto).
func (x *Explorer) recycle(r *run) {
	if len(x.spares) < maxSpares {
		x.spares = append(x.spares, r)
	}
}

// maxSpares bounds the recycled runs an explorer keeps: one per level of
// nesting (the start's world, the pause's, the schedule's) is enough.
const maxSpares = 4

// check reads the trace events not yet seen and reports a violation. A
// search world keeps no trace: checked events (and their fields) are
// dropped at once (nothing in a world reads its own trace), so clones copy
// no trace prefix and runs allocate none. The replay of a counterexample
// has the full trace.
func (r *run) check(inv *Invariant) bool {
	t := r.s.Trace
	bad := false
	for i := range t.Len() {
		if inv.matchIn(r.s, t.At(i)) {
			r.matched++
			if r.matched > inv.Allow {
				e := t.At(i).Detached()
				r.bad, bad = &e, true
				break
			}
		}
	}
	t.Drop()
	return bad
}

// advance fires events due before t (or at t too, when inclusive),
// stopping at the first violation, which it reports.
func (r *run) advance(inv *Invariant, t time.Duration, inclusive bool) bool {
	s := r.s
	for {
		at, ok := s.NextEventAt()
		if !ok || at > t || at == t && !inclusive {
			break
		}
		s.Step()
		if r.check(inv) {
			return true
		}
	}
	if inclusive {
		// No event is due by t any more: this only moves the clock to t.
		s.RunUntil(t)
	}
	return false
}
