package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"leaselab/core"
)

// Explaining with the run: where an exercise asks the learner to explain
// or describe, they build the chain of events that leads from the cause to
// the failure by picking events of their own run, in order (Answer.Chain,
// event numbers: the trace's Seq). The checker accepts any chain that is
// valid in that run and holds every link the argument needs (chainRole);
// it never names a missing event, only the gap.
//
// A chain is valid when its events are in the run, each once, in the order
// they happened, and each consecutive pair is linked. Two events are linked
// when (chainLinked):
//
//   - cause: the first is among the causes of the second, directly or
//     through other events (core.Event.Causes, every cause an event
//     records, not only the first);
//   - lease in force: the first is the last grant or renewal of a
//     process's lease (the coordinator's, or the process hearing of it)
//     before the process stalled (froze, crashed, was cut off from the
//     coordinator, or the network began holding what it sends), the second
//     that stall; or the stall came first and the
//     renewal was one the process had sent before it, landing during it;
//   - during the stall: the first is a stall (a pause, the action that
//     made it, a hold of what a process sends, a message the network held)
//     and the second happened while the stall lasted;
//   - woke after: the first happened while a process was stalled and the
//     second ends that stall (the process woke or restarted, its link to
//     the coordinator healed, or a held message landed):
//     it resumed knowing nothing of the first;
//   - freed: the second is a lock's new holder and the first the lock
//     falling free just before it, or what freed it (an expiry, a
//     deletion, a Redis node's key running out);
//   - token: the first is an acquisition with token t, the second something
//     the new holder did or had decided with t (it believing it leads, its
//     writes and their sends);
//   - compared with: the second is a write's send, and the first is among
//     the causes of storage's verdict on that write (the write that set the
//     highest token the verdict compared it with, and those before it).
type chainRole struct {
	// is matches an event of the run that makes this link.
	is func(e *core.Event) bool
	// ask is the question the feedback asks where this link is missing:
	// it names the gap, never the event.
	ask string
}

// maxChain bounds a chain: an argument is a few steps, and a form adds
// one per press.
const maxChain = 64

// chainPart is the part of the verdict on the chain.
const chainPart = "Your chain of events"

// judgeChain checks chain against the run w, for an argument that needs
// roles. who names the processes in the feedback's questions.
func judgeChain(w *World, chain []int, roles []chainRole) Feedback {
	var b because
	tr := w.Sim.Trace
	if len(chain) == 0 {
		return Feedback{Part: chainPart, Why: "No chain yet: pick the events of your run that lead from the cause to the failure, in the order they happened."}
	}
	evs := make([]*core.Event, len(chain))
	for i, seq := range chain {
		e := tr.Event(seq)
		if e == nil {
			return b.feedback(chainPart, false, "Step %s of your chain, event %s, is not in your run: its events are numbered %s to %s. Pick from the list of your own run (it changes when your schedule does).",
				b.cite(strconv.Itoa(i+1), "answer", nil, 0), b.cite(strconv.Itoa(seq), "answer", nil, 0), b.cite("0", "run", nil, 0), b.cite(strconv.Itoa(tr.Len()-1), "run", nil, 0))
		}
		if j := slices.Index(chain, seq); j < i {
			return b.feedback(chainPart, false, "Event %s is in your chain twice: each step must move the story on.", b.cite(strconv.Itoa(seq), "answer", nil, 0))
		}
		evs[i] = e
	}
	for i := 1; i < len(evs); i++ {
		a, c := evs[i-1], evs[i]
		if c.Seq < a.Seq {
			return b.feedback(chainPart, false, "Your chain goes from %s back to %s, which happened before it: put the events in the order they happened.", chainWords(&b, w, a), chainWords(&b, w, c))
		}
		if !chainLinked(w, a, c) {
			ask := "what does the second follow from?"
			// A link the argument needs may sit between them.
			for _, r := range roles {
				if !slices.ContainsFunc(evs, r.is) && roleBetween(tr, r, a.Seq, c.Seq) {
					ask = r.ask
					break
				}
			}
			return b.feedback(chainPart, false, "Your chain goes from %s to %s, but nothing in your run leads from the first to the second: %s", chainWords(&b, w, a), chainWords(&b, w, c), ask)
		}
	}
	for _, r := range roles {
		if slices.ContainsFunc(evs, r.is) {
			continue
		}
		// Say where the gap is: between the learner's events around the
		// place the link would sit, without naming it.
		before, after := gapAround(tr, r, evs)
		switch {
		case before != nil && after != nil:
			return b.feedback(chainPart, false, "Your chain goes from %s to %s and leaves a step out: %s", chainWords(&b, w, before), chainWords(&b, w, after), r.ask)
		case after != nil:
			return b.feedback(chainPart, false, "Your chain starts at %s, but something before it matters: %s", chainWords(&b, w, after), r.ask)
		case before != nil:
			return b.feedback(chainPart, false, "Your chain stops at %s, before the story is told: %s", chainWords(&b, w, before), r.ask)
		}
		return Feedback{Part: chainPart, Why: "Your chain leaves a step out: " + r.ask}
	}
	return b.feedback(chainPart, true, "Right: each step of your %s-step chain leads to the next in your run, from %s to %s.",
		b.cite(strconv.Itoa(len(evs)), "answer", nil, 0), chainWords(&b, w, evs[0]), chainWords(&b, w, evs[len(evs)-1]))
}

// roleBetween reports whether the run has an event of role r between
// events from and to (exclusive).
func roleBetween(tr *core.Trace, r chainRole, from, to int) bool {
	for s := from + 1; s < to; s++ {
		if r.is(&tr.Events[s]) {
			return true
		}
	}
	return false
}

// gapAround finds the learner's events either side of where role r's
// first event in the run sits (nil where the chain has none).
func gapAround(tr *core.Trace, r chainRole, evs []*core.Event) (before, after *core.Event) {
	at := -1
	for i := range tr.Events {
		if r.is(&tr.Events[i]) {
			at = i
			break
		}
	}
	for _, e := range evs {
		if at >= 0 && e.Seq < at {
			before = e
		}
		if at >= 0 && e.Seq > at && after == nil {
			after = e
		}
	}
	if at < 0 && len(evs) > 0 {
		before = evs[len(evs)-1]
	}
	return before, after
}

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
		for _, c := range tr.Events[n].Causes() {
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
			if e := &tr.Events[i]; e.Kind == r.Kind && isRenewal(e, st.proc) {
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
	for i := a.Seq - 1; i >= 0 && tr.Events[i].At == a.At; i-- {
		e := &tr.Events[i]
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
			if k := tr.Events[i].Kind; k == core.KindPause || k == core.KindHold || k == core.KindCrash || k == core.KindPartition {
				return stallOf(w, &tr.Events[i])
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
			for i := e.Seq + 1; i < len(tr.Events); i++ {
				if tr.Events[i].At >= e.Until() {
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
			for i := e.Seq + 1; i < len(tr.Events); i++ {
				if cs := tr.Events[i].Causes(); len(cs) > 0 && cs[0] == e.Seq {
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
