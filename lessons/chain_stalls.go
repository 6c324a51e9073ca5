package lessons

import (
	"slices"

	"leaselab/core"
)

// The stalls of a run: spans in which a process could not act or be heard,
// the links a chain of a failover needs between a renewal and an expiry.

// stall is a span during which a process could not act or be heard: a
// pause, a crash (until it restarts), a cut from the coordinator (until it
// heals), a hold of what it sends, or one message the network held.
type stall struct {
	proc string
	// start is the stall's event; end is the Seq of the event that ended
	// it, or -1 while it lasts.
	start, end int
	// toCoordinator reports a stall that kept the process's keepalives
	// from the coordinator.
	toCoordinator bool
	// held marks one held message (its send).
	held bool
}

func (s stall) covers(e *core.Event) bool { return e.Seq > s.start && (s.end < 0 || e.Seq < s.end) }
func (s stall) ends(e *core.Event) bool   { return s.end >= 0 && e.Seq == s.end }

// stallOf reads e as a stall: a pause of a process (or the action that
// made it), a hold of what it sends (or that action), or a message the
// network held; or as the end of one (a wake, a held message landing).
func stallOf(w *World, e *core.Event) (stall, bool) {
	tr := w.Sim.Trace
	if e.Kind == core.KindAction {
		for _, i := range directEffects(tr, e) {
			if k := tr.At(i).Kind; k == core.KindPause || k == core.KindHold || k == core.KindCrash || k == core.KindPartition {
				return stallOf(w, tr.At(i))
			}
		}
		return stall{}, false
	}
	for _, s := range allStalls(w) {
		if s.start == e.Seq || s.end == e.Seq {
			return s, true
		}
	}
	return stall{}, false
}

// stallsOf lists proc's stalls.
func stallsOf(w *World, proc string) []stall {
	var out []stall
	for _, s := range allStalls(w) {
		if s.proc == proc {
			out = append(out, s)
		}
	}
	return out
}

// allStalls lists the run's stalls in order of their start.
func allStalls(w *World) []stall {
	return cached(w, "stalls", func() []stall {
		var out []stall
		for _, p := range pauses(w) {
			out = append(out, stall{proc: p.Proc, start: p.Seq, end: p.ToSeq, toCoordinator: true})
		}
		tr := w.Sim.Trace
		for e := range w.ofKind(core.KindHold) {
			s := stall{proc: e.From(), start: e.Seq, end: -1, toCoordinator: e.To() == "" || e.To() == core.CoordinatorName}
			for i := e.Seq + 1; i < tr.Len(); i++ {
				if tr.At(i).At >= e.Until() {
					s.end = i
					break
				}
			}
			out = append(out, s)
		}
		for e := range w.ofKind(core.KindCrash) {
			s := stall{proc: e.Actor, start: e.Seq, end: -1, toCoordinator: true}
			for r := range w.ofKind(core.KindRestart) {
				if r.Seq > e.Seq && r.Actor == e.Actor {
					s.end = r.Seq
					break
				}
			}
			out = append(out, s)
		}
		for e := range w.ofKind(core.KindPartition) {
			proc := cutFromCoordinator(e)
			if proc == "" {
				continue
			}
			s := stall{proc: proc, start: e.Seq, end: -1, toCoordinator: true}
			for h := range w.ofKind(core.KindHeal) {
				if h.Seq > e.Seq && cutFromCoordinator(h) == proc {
					s.end = h.Seq
					break
				}
			}
			out = append(out, s)
		}
		for e := range w.ofKind(core.KindSend) {
			if e.Held() <= 0 {
				continue
			}
			s := stall{proc: e.Actor, start: e.Seq, end: -1, toCoordinator: e.To() == core.CoordinatorName, held: true}
			for i := e.Seq + 1; i < tr.Len(); i++ {
				if cs := tr.At(i).Causes(); len(cs) > 0 && cs[0] == e.Seq {
					s.end = i
					break
				}
			}
			out = append(out, s)
		}
		slices.SortFunc(out, func(a, b stall) int { return a.start - b.start })
		return out
	})
}
