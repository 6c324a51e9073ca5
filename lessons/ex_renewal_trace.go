package lessons

import (
	"time"

	"leaselab/core"
)

// Exercise 1's reading of a run: the lease in force during a pause, when
// it ran out, the step-down and the handover that followed.

// leaseExpiryAt returns the coordinator's grant or renewal of proc's lease
// in force at time t: the last one before t, whose expiry_ms is when the
// lease runs out unless renewed again.
func leaseExpiryAt(w *World, proc string, t time.Duration) (core.Event, bool) {
	var last core.Event
	found := false
	for e := range w.Sim.Trace.All() {
		if e.At > t {
			break
		}
		if (e.Kind == core.KindLeaseGrant || e.Kind == core.KindLeaseRenew) && e.Owner() == proc && e.Format(core.FExpiry) != "" {
			last, found = *e, true
		}
	}
	return last, found
}

// leaseDuring returns the coordinator's grant or renewal of p.Proc's lease
// in force when pause p ended (or at the end of the run): the one in force
// when it froze, or a renewal the process sent before freezing that
// reached the coordinator during the pause, before the lease ran out, and
// moved its end.
func leaseDuring(w *World, p pauseSpan) (core.Event, bool) {
	g, ok := leaseExpiryAt(w, p.Proc, p.From)
	if !ok {
		return g, false
	}
	tr := w.Sim.Trace
	end := tr.Len()
	if p.ToSeq >= 0 {
		end = p.ToSeq
	}
	for e := range tr.Span(p.Seq+1, end) {
		if e.Kind == core.KindLeaseRenew && e.Owner() == p.Proc && e.Format(core.FExpiry) != "" &&
			e.At < expiryOf(g) && expiryOf(*e) > e.At {
			g = *e
		}
	}
	return g, true
}

// lostDuring reports whether pause p is the one that cost p.Proc the lease
// handed on at h: the lease that h followed ran out after p began, and no
// later pause of the process had begun by then. An earlier, harmless pause
// is never credited with a loss another pause caused.
func lostDuring(w *World, p pauseSpan, h *core.Event) bool {
	g, ok := leaseExpiryAt(w, p.Proc, h.At)
	if !ok {
		return false
	}
	lapse := expiryOf(g)
	if p.From >= lapse {
		return false
	}
	for _, q := range pauses(w) {
		if q.Proc == p.Proc && q.Seq > p.Seq && q.From < lapse {
			return false
		}
	}
	return true
}

func expiryOf(e core.Event) time.Duration {
	return e.Expiry()
}

// leaderPauseBreak finds a pause of a leader, no longer than limit, during
// which the coordinator gave the lock to someone else while the paused
// process still believed it led: the schedule that breaks the lease. It
// returns that pause, or the leader pause that came closest (and false) to
// explain a miss.
func leaderPauseBreak(w *World, limit time.Duration) (pauseSpan, bool, bool) {
	var first pauseSpan
	seen := false
	for _, p := range pauses(w) {
		if !p.Leader || p.For > limit {
			continue
		}
		if h := handoverWhileLeading(w, p); h != nil && lostDuring(w, p, h) {
			return p, true, true
		}
		// Explain the miss that came closest: the pause that left the
		// least lease time at its end.
		if !seen || slack(w, p) < slack(w, first) {
			first, seen = p, true
		}
	}
	return first, seen, false
}

// stepDown is p.Proc's first change of state away from leader after pause
// p began, or nil: from then on it no longer believed it led.
func stepDown(w *World, p pauseSpan) *core.Event {
	tr := w.Sim.Trace
	for e := range tr.Span(p.Seq+1, tr.Len()) {
		if e.Kind == core.KindState && e.Actor == p.Proc && e.From() == core.Leader.String() {
			return e
		}
	}
	return nil
}

// handoverWhileLeading is the first holder change of the leader lock to
// someone else after pause p began and before p.Proc stepped down, or nil.
// It goes by the trace's order, not its clock: a handover and a wake in
// the same millisecond overlap two leaders only if the handover came
// first, or the woken process had not yet noticed.
func handoverWhileLeading(w *World, p pauseSpan) *core.Event {
	end := w.Sim.Trace.Len()
	if d := stepDown(w, p); d != nil {
		end = d.Seq
	}
	for _, e := range handovers(w, "locks/leader") {
		if e.Seq > p.Seq && e.Seq < end && e.Owner() != p.Proc {
			return &e
		}
	}
	return nil
}

// slack is how long proc's lease outlived pause p (negative: it ran out
// before the process woke).
func slack(w *World, p pauseSpan) time.Duration {
	g, ok := leaseDuring(w, p)
	if !ok {
		return 1 << 62
	}
	return expiryOf(g) - p.wake(w)
}

// wake is when the pause ended, or the end of the run if it had not.
func (p pauseSpan) wake(w *World) time.Duration {
	if p.To < 0 {
		return w.Sim.Now()
	}
	return p.To
}
