package lessons

import (
	"leaselab/core"
)

// The links of a chain: which event of a run follows from which (a
// message and its decision, a renewal and the lease it kept, a stall and
// what it let happen, a lock's fall and its next holder).

// chainLinked reports whether b follows from a in run w (see chainRole's
// package comment above for the links).
func chainLinked(w *World, a, b *core.Event) bool {
	if a.Seq >= b.Seq {
		return false
	}
	tr := w.Sim.Trace
	if causedBy(tr, a.Seq, b) {
		return true
	}
	// A learner's action and its direct effects ("crash member-1" and
	// "member-1 crashed", recorded just before it) are one step: what
	// either set going follows from both.
	if a.Kind == core.KindAction {
		for _, i := range directEffects(tr, a) {
			if causedBy(tr, i, b) {
				return true
			}
		}
	}
	if freedFor(w, a, b) {
		return true
	}
	if leaseInForce(w, a, b) || leaseInForce(w, b, a) {
		return true
	}
	if st, ok := stallOf(w, a); ok && st.covers(b) {
		return true
	}
	if st, ok := stallOf(w, b); ok && st.ends(b) {
		for _, s := range stallsOf(w, st.proc) {
			if s.start < a.Seq && s.covers(a) && s.ends(b) {
				return true
			}
		}
	}
	if a.Kind == core.KindHolder && b.Token() == a.Token() && (b.Actor == a.Owner() || b.From() == a.Owner()) {
		return true
	}
	if b.Kind == core.KindSend && b.Msg() == "Write" {
		if d := decisionOf(w, b); d != nil && causedBy(tr, a.Seq, d) {
			return true
		}
	}
	return false
}

// causedBy reports whether event seq is among e's causes, directly or
// through other events.
func causedBy(tr *core.Trace, seq int, e *core.Event) bool {
	seen := map[int]bool{}
	todo := []int{e.Seq}
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, c := range tr.At(n).Causes() {
			switch {
			case c == seq:
				return true
			case c > seq && c < n && !seen[c]:
				seen[c] = true
				todo = append(todo, c)
			}
		}
	}
	return false
}

// decisionOf is storage's verdict on the write send carried, or nil.
func decisionOf(w *World, send *core.Event) *core.Event {
	for e := range w.ofKind(core.KindWrite) {
		if cs := e.Causes(); len(cs) > 0 && cs[0] == send.Seq {
			return e
		}
	}
	return nil
}

// isRenewal reports a grant or renewal of proc's lease: the coordinator's,
// or proc hearing of it.
func isRenewal(e *core.Event, proc string) bool {
	switch e.Kind {
	case core.KindLeaseGrant, core.KindLeaseRenew:
		return e.Owner() == proc
	case core.KindLeaseRenewed:
		return e.Actor == proc
	}
	return false
}

// leaseInForce reports the lease-in-force link from r to s: r is the last
// renewal of its kind for s's process before the stall s began, or the
// stall came first and r is a renewal sent before it that landed during it.
func leaseInForce(w *World, r, s *core.Event) bool {
	st, ok := stallOf(w, s)
	if !ok || st.held || !isRenewal(r, st.proc) {
		return false
	}
	tr := w.Sim.Trace
	if r.Seq < st.start {
		for i := r.Seq + 1; i < st.start; i++ {
			if e := tr.At(i); e.Kind == r.Kind && isRenewal(e, st.proc) {
				return false // a later renewal was in force
			}
		}
		return true
	}
	// In flight: sent before the stall, landed during it.
	cs := r.Causes()
	return st.covers(r) && len(cs) > 0 && cs[0] < st.start
}

// directEffects are the events action a made directly: recorded just
// before its own event at the same instant, with no cause of their own,
// and traced by the core back to a (core.Trace.RootOf).
func directEffects(tr *core.Trace, a *core.Event) []int {
	var out []int
	for i := a.Seq - 1; i >= 0 && tr.At(i).At == a.At; i-- {
		e := tr.At(i)
		if e.Kind == core.KindAction || e.Kind == core.KindActionError {
			break
		}
		if len(e.Causes()) > 0 {
			continue
		}
		if root, act := tr.RootOf(e); root == core.RootAction && act.Seq == a.Seq {
			out = append(out, i)
		}
	}
	return out
}

// cutFromCoordinator is the process a partition or heal event cuts from
// (or joins to) the coordinator, or "" for any other link.
func cutFromCoordinator(e *core.Event) string {
	switch core.CoordinatorName {
	case e.A():
		return e.B()
	case e.B():
		return e.A()
	}
	return ""
}

// freedFor reports the freed link from a to b: b is a lock's new holder,
// and a is the lock falling free just before it (the coordinator's
// lock.free with no other holder between), or what freed it: an event
// among the causes of that lock.free, or a Redis node's key with the freed
// value expiring or being deleted before it (Redlock frees the lock when
// a majority of those have gone).
func freedFor(w *World, a, b *core.Event) bool {
	if b.Kind != core.KindHolder {
		return false
	}
	free := freeBefore(w, b)
	if free == nil || a.Seq > free.Seq {
		return false
	}
	for e := range w.ofKind(core.KindHolder) {
		if e.Seq > free.Seq && e.Seq < b.Seq && e.Lock() == b.Lock() {
			return false // the lock went to another first
		}
	}
	switch {
	case a.Seq == free.Seq, causedBy(w.Sim.Trace, a.Seq, free):
		return true
	case a.Kind == core.KindRedisExpire || a.Kind == core.KindRedisDel:
		return a.Value() == free.Value()
	}
	return false
}

// freeBefore is the last lock.free of holder h's lock before h, or nil.
func freeBefore(w *World, h *core.Event) *core.Event {
	var free *core.Event
	for e := range w.ofKind(core.KindFree) {
		if e.Seq > h.Seq {
			break
		}
		if e.Lock() == h.Lock() {
			free = e
		}
	}
	return free
}
