package lessons

import (
	"sort"

	"leaselab/core"
)

// A lesson's goals are read once a frame while the lesson plays, and some
// of them follow one or two kinds of event through a trace of tens of
// thousands (the shards lesson: every offset commit, every holder change).
// A World keeps the positions of each kind's events, extended as the trace
// grows, so such a reading visits its own events and not the whole trace.

// kindIndex holds the trace positions of each kind's events, for the first
// n events.
type kindIndex struct {
	n   int
	pos map[core.Kind][]int
}

// positions returns the trace positions of the events of kind, in order.
// The slice is the index's own: callers only read it.
func (w *World) positions(kind core.Kind) []int {
	tr := w.Sim.Trace
	if w.index.pos == nil || tr.Len() < w.index.n {
		// A trace only grows during a World's life; anything else (a
		// budget-cut trace, say) is indexed again from the start.
		w.index = kindIndex{pos: map[core.Kind][]int{}}
	}
	for e := range tr.Span(w.index.n, tr.Len()) {
		w.index.pos[e.Kind] = append(w.index.pos[e.Kind], e.Seq)
	}
	w.index.n = tr.Len()
	return w.index.pos[kind]
}

// each calls fn with every event of the given kinds at trace position from
// or later, in trace order, until fn returns false.
func (w *World) each(from int, fn func(e *core.Event) bool, kinds ...core.Kind) {
	lists := make([][]int, 0, len(kinds))
	for _, k := range kinds {
		p := w.positions(k)
		lists = append(lists, p[sort.SearchInts(p, from):])
	}
	tr := w.Sim.Trace
	for {
		best := -1
		for i, l := range lists {
			if len(l) > 0 && (best < 0 || l[0] < lists[best][0]) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		at := lists[best][0]
		lists[best] = lists[best][1:]
		if !fn(tr.At(at)) {
			return
		}
	}
}

// ofKind ranges over the events of kind, in order: Trace.Filter without
// the scan of the whole trace and the copy.
func (w *World) ofKind(kind core.Kind) func(yield func(*core.Event) bool) {
	return func(yield func(*core.Event) bool) {
		tr := w.Sim.Trace
		for _, i := range w.positions(kind) {
			if !yield(tr.At(i)) {
				return
			}
		}
	}
}
