package lessons

import (
	"fmt"
	"strconv"
	"strings"

	"leaselab/core"
)

// A chain's words and its common roles: how feedback says an event of the
// learner's run, and the roles (the last renewal, the stall, the
// acquisition) the exercises and the recaps ask for.

// chainWords says one of the learner's events for feedback: its number,
// what it was and when.
func chainWords(b *because, w *World, e *core.Event) string {
	n := b.cite(strconv.Itoa(e.Seq), "answer", nil, 0)
	at := b.at(*e)
	var what string
	switch e.Kind {
	case core.KindPause:
		what = e.Actor + " froze"
	case core.KindResume:
		what = e.Actor + " woke"
	case core.KindHold:
		what = "the network began holding what " + e.From() + " sends"
	case core.KindAction:
		what = "your action (" + e.Words() + ")"
	case core.KindLeaseGrant:
		what = "the coordinator granted " + e.Owner() + " its lease"
	case core.KindLeaseRenew:
		what = "the coordinator renewed " + e.Owner() + "'s lease"
	case core.KindLeaseRenewed:
		what = e.Actor + " heard its lease was renewed"
	case core.KindLeaseExpire:
		what = "the coordinator expired " + e.Owner() + "'s lease"
	case core.KindLeaseLost:
		what = e.Actor + " learned it lost its lease"
	case core.KindHolder:
		what = e.Owner() + " took the lock"
	case core.KindState:
		what = fmt.Sprintf("%s became %s", e.Actor, strings.ReplaceAll(e.To(), "_", " "))
	case core.KindSend:
		what = fmt.Sprintf("%s sent %s to %s", e.Actor, e.Msg(), e.To())
	case core.KindWrite:
		verdict := "accepted"
		if e.Result() != core.Accepted {
			verdict = "refused"
		}
		what = fmt.Sprintf("%s %s %s's write with token %s", e.Actor, verdict, e.From(), b.cite(e.Format(core.FToken), "trace", e, core.FToken))
	case core.KindStale:
		what = fmt.Sprintf("%s took %s's stale write", e.Actor, e.From())
	case core.KindMember:
		what = fmt.Sprintf("%s %s", e.Actor, e.State())
	case core.KindCrash:
		what = e.Actor + " crashed"
	case core.KindRestart:
		what = e.Actor + " restarted"
	case core.KindPartition:
		what = fmt.Sprintf("the network cut %s off from %s", e.A(), e.B())
	case core.KindHeal:
		what = fmt.Sprintf("the link between %s and %s healed", e.A(), e.B())
	case core.KindFree:
		what = fmt.Sprintf("%s fell free (%s had it)", e.Lock(), e.Was())
	case core.KindDelete:
		what = fmt.Sprintf("%s deleted %s", e.Actor, e.Key())
	case core.KindWatchFire:
		what = fmt.Sprintf("the deletion of %s woke %s", e.Key(), e.Watcher())
	case core.KindRedisExpire:
		what = fmt.Sprintf("%s's copy of %s ran out", e.Actor, e.Key())
	case core.KindEnqueue:
		what = fmt.Sprintf("%s decided %s's job %s: %s", e.Actor, e.From(), e.Idem(), e.Result())
	case core.KindOffset:
		what = fmt.Sprintf("%s decided %s's offset commit: %s", e.Actor, e.From(), e.Result())
	case core.KindShardOwn:
		what = fmt.Sprintf("%s took shard %s", e.Actor, e.Format(core.FShard))
	default:
		what = e.Actor + " " + e.Kind.String()
	}
	return fmt.Sprintf("event %s (%s at %s)", n, what, at)
}

// lastExpiryBefore is the coordinator's last expiry of proc's lease before
// event seq, or nil.
func lastExpiryBefore(w *World, proc string, seq int) *core.Event {
	var out *core.Event
	for e := range w.ofKind(core.KindLeaseExpire) {
		if e.Seq < seq && e.Owner() == proc {
			out = e
		}
	}
	return out
}

// renewalRole is the link "the renewal the lapsed lease last had": the
// coordinator's grant or renewal that the expiry answered (its first
// cause), or proc hearing of that one.
func renewalRole(w *World, proc string, expiry *core.Event, ask string) chainRole {
	last := -1
	if cs := expiry.Causes(); len(cs) > 0 {
		last = cs[0]
	}
	tr := w.Sim.Trace
	return chainRole{ask: ask, is: func(e *core.Event) bool {
		switch {
		case e.Seq == last:
			return true
		case e.Kind == core.KindLeaseRenewed && e.Actor == proc && last >= 0:
			return causedBy(tr, last, e)
		}
		return false
	}}
}

// stallRole is the link "the stall that let the lease run out": a stall
// of proc (or the action that made it) that began after the lapsed lease's
// last renewal was sent and before it was expired, and that kept proc's
// keepalives from the coordinator.
func stallRole(w *World, proc string, expiry *core.Event, ask string) chainRole {
	sent := -1
	if cs := expiry.Causes(); len(cs) > 0 {
		if r := w.Sim.Trace.Event(cs[0]); r != nil {
			if rc := r.Causes(); len(rc) > 0 {
				sent = rc[0]
			}
		}
	}
	return chainRole{ask: ask, is: func(e *core.Event) bool {
		s, ok := stallOf(w, e)
		return ok && (e.Seq == s.start || e.Kind == core.KindAction) &&
			s.proc == proc && s.toCoordinator && !s.held && s.start > sent && s.start < expiry.Seq
	}}
}

// is matches one event.
func isEvent(e *core.Event) func(*core.Event) bool {
	return func(x *core.Event) bool { return x.Seq == e.Seq }
}

// acquisitionRole is the link "the rival took the lock": the coordinator
// handing it the lock at h, or the rival learning it leads with h's token.
func acquisitionRole(h *core.Event, ask string) chainRole {
	return chainRole{ask: ask, is: func(e *core.Event) bool {
		return e.Seq == h.Seq || e.Kind == core.KindState && e.Actor == h.Owner() && e.To() == core.Leader.String() && e.Token() == h.Token() && e.Seq > h.Seq
	}}
}
