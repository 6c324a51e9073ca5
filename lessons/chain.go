package lessons

import (
	"slices"
	"strconv"

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
		if r.is(tr.At(s)) {
			return true
		}
	}
	return false
}

// gapAround finds the learner's events either side of where role r's
// first event in the run sits (nil where the chain has none).
func gapAround(tr *core.Trace, r chainRole, evs []*core.Event) (before, after *core.Event) {
	at := -1
	for i := range tr.Len() {
		if r.is(tr.At(i)) {
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
