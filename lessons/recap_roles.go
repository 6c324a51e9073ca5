package lessons

import (
	"fmt"
	"strings"

	"leaselab/core"
)

// The links most recap questions share: a holder whose lease ran out
// while it could not renew (it froze, crashed or was cut off), the
// coordinator's expiry freeing the lock, and the next holder taking it.
// Each is read from the learner's run; none names an event in its ask.

// stallFilter picks the stalls a recap's story is about, by the event
// that began them (a pause, a crash, a partition).
type stallFilter func(start *core.Event) bool

// anyStall accepts every kind of stall.
func anyStall(*core.Event) bool { return true }

// stallKind accepts stalls begun by an event of one of kinds.
func stallKind(kinds ...core.Kind) stallFilter {
	return func(start *core.Event) bool {
		for _, k := range kinds {
			if start.Kind == k {
				return true
			}
		}
		return false
	}
}

// handover is one change of holder in run w: h took the lock from prev after the
// coordinator expired prev's lease at exp, which freed the lock through
// the events freed (exp first).
type handover struct {
	h     *core.Event
	prev  string
	exp   *core.Event
	freed []int
}

// handoverAfterExpiry reads h as a failover: the lock's previous holder
// (prev) lost it to the coordinator's expiry of its lease. It finds the
// expiry in the causes of the lock falling free before h (the lock.free
// the coordinator records), or of h itself (a waiter woken by the
// deletion). ok is false for a handover no expiry explains.
func handoverAfterExpiry(w *World, h *core.Event, prev string) (handover, bool) {
	from := h
	if free := lastFreeBefore(w, h); free != nil {
		from = free
	}
	back := w.Sim.Trace.Chain(from)
	for i, e := range back {
		if e.Kind != core.KindLeaseExpire {
			continue
		}
		if e.Owner() != prev {
			return handover{}, false
		}
		f := handover{h: h, prev: prev, exp: e}
		for j := i; j >= 0; j-- {
			if k := back[j].Kind; k == core.KindLeaseExpire || k == core.KindDelete || k == core.KindFree {
				f.freed = append(f.freed, back[j].Seq)
			}
		}
		return f, true
	}
	return handover{}, false
}

// failoversAfterStall lists, in order, the handovers of locks that lock
// accepts in which the previous holder's lease ran out during a stall
// that stalls accepts.
func failoversAfterStall(w *World, lock func(string) bool, stalls stallFilter) []handover {
	var out []handover
	prev := map[string]string{}
	for h := range w.ofKind(core.KindHolder) {
		p, seen := prev[h.Lock()]
		prev[h.Lock()] = h.Owner()
		if !seen || p == h.Owner() || !lock(h.Lock()) {
			continue
		}
		f, ok := handoverAfterExpiry(w, h, p)
		if ok && stallBefore(w, f, stalls) != nil {
			out = append(out, f)
		}
	}
	return out
}

// stallBefore is the event that began the stall of f's previous holder
// that let its lease run out (see stallRole), or nil.
func stallBefore(w *World, f handover, stalls stallFilter) *core.Event {
	r := stallRole(w, f.prev, f.exp, "")
	for i := range w.Sim.Trace.Len() {
		if e := w.Sim.Trace.At(i); e.Seq < f.exp.Seq && e.Kind != core.KindAction && r.is(e) && stalls(e) {
			return e
		}
	}
	return nil
}

// failoverRoles are the links of handover f: what prev's lease last rested
// on (if withRenewal), the stall that stopped its renewals, the expiry
// freeing the lock, and the next holder taking it.
func failoverRoles(w *World, f handover, stalls stallFilter, withRenewal bool, acquired string) []chainRole {
	var roles []chainRole
	if withRenewal {
		roles = append(roles, renewalRole(w, f.prev, f.exp, fmt.Sprintf("until when could %s count on its lease, and what set that time?", f.prev)))
	}
	st := stallRole(w, f.prev, f.exp, fmt.Sprintf("why did %s's lease stop being renewed?", f.prev))
	return append(roles,
		chainRole{ask: st.ask, is: func(e *core.Event) bool {
			if !st.is(e) {
				return false
			}
			if e.Kind == core.KindAction {
				for _, i := range directEffects(w.Sim.Trace, e) {
					if stalls(w.Sim.Trace.At(i)) {
						return true
					}
				}
				return false
			}
			return stalls(e)
		}},
		freedRole(f, "what freed the lock?"),
		holderRole(f.h, acquired))
}

// freedRole is the link "the lock was freed": the coordinator's expiry of
// the old lease, or the deletion or lock.free it caused.
func freedRole(f handover, ask string) chainRole {
	return chainRole{ask: ask, is: func(e *core.Event) bool {
		for _, s := range f.freed {
			if e.Seq == s {
				return true
			}
		}
		return false
	}}
}

// holderRole is the link "another took the lock": the coordinator handing
// it over at h, or the new holder learning it leads or owns its shard with
// h's token.
func holderRole(h *core.Event, ask string) chainRole {
	acq := acquisitionRole(h, ask)
	return chainRole{ask: ask, is: func(e *core.Event) bool {
		return acq.is(e) || e.Kind == core.KindShardOwn && e.Actor == h.Owner() && e.Token() == h.Token() && e.Seq > h.Seq &&
			strings.HasSuffix(h.Lock(), fmt.Sprintf("-%03d", e.Shard()))
	}}
}

// lastFreeBefore is the lock.free that made way for holder h (none other
// holding in between), or nil.
func lastFreeBefore(w *World, h *core.Event) *core.Event {
	if free := freeBefore(w, h); free != nil && freedFor(w, free, h) {
		return free
	}
	return nil
}
