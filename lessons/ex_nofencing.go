package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// noFencingTTL is the lease of exercise 3's lock.
const noFencingTTL = 10 * time.Second

// noFencingLab is exercise 3's world: a strongly consistent lock service
// (etcd-style, never two holders in its own records) in front of storage
// whose token check is a knob.
var noFencingLab = &Lesson{
	ID:    "no-fencing",
	Title: "A strongly consistent lock, no fencing",
	Intro: []string{"A and B share an etcd-style lock (TTL 10 s) and write to storage every 2 s. The slider says whether storage checks tokens. Break it with fencing off (pause the leader, or hold what it sends in the network), then slide fencing on: the same schedule replays."},
	World: func(seed uint64, k Knobs) (core.World, error) {
		return core.ContentionConfig{
			Names: []string{"A", "B"}, FirstToken: 33, TTL: noFencingTTL,
			Stagger: 500 * time.Millisecond, WorkEvery: 2 * time.Second, Fencing: k["fencing"] >= 1,
		}.World(seed)
	},
	Knobs:    []Knob{{ID: "fencing", Label: "Storage checks tokens (0 no, 1 yes)", Min: 0, Max: 1, Step: 1, Default: 0}},
	Duration: 60 * time.Second,
	Controls: []Control{CtlPause, CtlDelay, CtlCrash, CtlPartition},
	PauseFor: 20 * time.Second,
	Goals: []Goal{
		{
			ID: "broken", Text: "With fencing off, make storage accept a stale write from an old leader (paused, or its write held in the network).",
			Proved: "The lock service never had two holders, yet storage took an old leader's write after the new leader's: consistency of the lock did not protect the data.",
			Met: func(w *World) bool {
				st, _ := oldLeaderStale(w)
				return w.Knobs["fencing"] < 1 && st != nil
			},
		},
		{
			ID: "fixed", Text: "Slide fencing on: the same schedule must now end with the stale write rejected.",
			Proved: "With the token check on, the same pause ended in a rejection: storage refused the older token.",
			Met: func(w *World) bool {
				return w.Knobs["fencing"] >= 1 && !staleAccepted(w) && staleRejected(w) && hasStall(w.Log)
			},
		},
	},
	Hints: []string{
		"The lock service is not the weak part. What happens to a leader that stops running for longer than its lease?",
		"Pause the leader for well over its TTL, and let it wake only after B has written.",
		"The key step: freeze the leader while it holds the lock and keep it frozen past the new leader's first write, so the write it makes on waking carries the old token and lands second. Then slide fencing to 1 and replay.",
	},
	Solution:      core.ActionLog{core.At(4*time.Second, core.Pause("A", 20*time.Second))},
	SolutionKnobs: Knobs{"fencing": 1},
}

// oldLeaderStale returns a stale write storage accepted from an old
// leader, and the write's send: either the process had been paused while
// leading, or the network held the write back (the delayed write). nil
// if there is none.
func oldLeaderStale(w *World) (*core.Event, *core.Event) {
	paused := map[string]bool{}
	for _, p := range pauses(w) {
		paused[p.Proc] = paused[p.Proc] || p.Leader
	}
	for e := range w.ofKind(core.KindStale) {
		send := writeSend(w, *e)
		if paused[e.From()] || send != nil && send.Num(core.FHeld) > 0 {
			return e, send
		}
	}
	return nil, nil
}

// writeSend finds the message that carried the write decided at stale: the
// last write from the same process, with the same token, that was due to
// arrive then.
func writeSend(w *World, stale core.Event) *core.Event {
	var out *core.Event
	for e := range w.ofKind(core.KindSend) {
		if e.At > stale.At {
			break
		}
		if e.Msg() == "Write" && e.Actor == stale.From() && e.To() == stale.Actor &&
			e.Token() == stale.Token() && e.Arrive() == stale.At.Truncate(time.Millisecond) {
			if out == nil {
				out = e
			}
		}
	}
	return out
}

// staleRejected reports a write refused because its token was old.
func staleRejected(w *World) bool {
	for e := range w.ofKind(core.KindWrite) {
		if e.Result() == core.RejectedStale {
			return true
		}
	}
	return false
}

// hasStall reports a pause or a network hold in the log: what makes a
// leader's write late.
func hasStall(log core.ActionLog) bool {
	for _, t := range log {
		if t.Do == "pause" || t.Do == "delay" {
			return true
		}
	}
	return false
}

// storageOnly reports a schedule whose only stalls are network holds to or
// from storage, and which cuts no link: the leader's keepalives flow.
func storageOnly(log core.ActionLog) bool {
	for _, t := range log {
		switch {
		case t.Do == core.VerbDelay && (t.Peer == "storage" || t.Proc == "storage"):
		case t.Do == core.VerbPause || t.Do == core.VerbDelay || t.Do == core.VerbPartition:
			return false
		}
	}
	return true
}

var exNoFencing = &Exercise{
	ID:      "no-fencing",
	Title:   "\"Our lock service is strongly consistent\"",
	Summary: "Show why a strongly consistent lock still lets a paused holder corrupt data.",
	Minutes: 12,
	Brief: []string{
		"A team says it needs no fencing tokens: its lock service is linearizable and has never granted one lock to two clients at once.",
		"Show them the run that still breaks their system. In the simulator the lock is etcd-style and storage does not check tokens. Build a schedule in which an old leader's write is accepted after the new leader's: pause the leader, or hold what it sends in the network so its write arrives late. Then slide fencing on: the same schedule replays, and the stale write must now be rejected.",
	},
	Lab: noFencingLab,
	ChainRun: func(log core.ActionLog) (*World, error) {
		return noFencingLab.EvaluateWith(1, Knobs{"fencing": 0}, log)
	},
	ChainText: "Explain with your run (fencing off): pick, in order, the events that lead from the old leader's stall to the stale write storage accepted.",
	Reference: Answer{
		Schedule: noFencingLab.Solution,
		// A's last renewal, its pause, the expiry, B's acquisition with
		// token 34, B's first write, A's late write and storage's verdict
		// (see TestNoFencingReferenceChain).
		Chain: []int{31, 34, 48, 52, 63, 83, 88},
	},
	Worked: []string{
		"Pause the leader A for longer than its 10 s lease (20 s at 4 s). The coordinator expires A's lease and, correctly, gives the lock to B with a higher token; B writes. A knows nothing of this: its next write was already decided before it froze, and it leaves when A wakes, carrying token 33 after B's 34. Storage without a token check accepts it and the newer data is overwritten.",
		"At no instant did the lock service have two holders. The failure is between the lock and the data: a lease tells the holder how long it was allowed to act, not whether it still is at the moment its write lands.",
		"With fencing, storage remembers the highest token it accepted (34) and refuses 33. Same schedule, same pause, no corruption: the resource has to take part in the protocol.",
	},
	Format: `The schedule is a list of actions, each with "at"
(a time of the run, like "1.5s"), "do", "proc" and, for a pause or a delay,
"for" (how long). The schedule may pause, delay (hold what a process sends),
crash, restart, partition or heal processes A and B within the first 60 s.
A delay, partition or heal may name a "peer" ("coordinator", "storage", or the
other process), and storage may be either end: {"at": "<time>", "do": "delay",
"proc": "A", "peer": "storage", "for": "<how long>"} holds A's writes in the network.
It is run twice: with fencing off it must let an old leader's stale write be
accepted; with fencing on the same schedule must end with that write
rejected.
chain: the event numbers (seq) of your fencing-off run, in the order they
happened, that lead from the cause to the stale write: each step must lead to
the next in your run, and the chain must hold every link the argument needs.
labctl exercise no-fencing --events FILE prints the events your answer's
schedule makes with fencing off, each with its number; the page and the
desktop list your run's events to pick from.`,
	KeyPoints: []string{
		"The lock never had two holders: the coordinator expired the lease and granted the next one correctly.",
		"The old leader's write was decided, or sent, under an ownership that had ended, and arrived late.",
		"Only the resource can tell: with the highest token kept, the same schedule ends in a rejection.",
	},
	Hints: []string{
		"The lock service is not the weak part. What can happen to a leader's write between the moment it decides to write and the moment storage receives it?",
		"Make the leader's write late: freeze the leader, or hold what it sends, for longer than its 10 s lease, so B takes over and writes first.",
		"The key step: the old leader's write must be made while it still holds the lock and reach storage after the new leader has written once. A stall that ends soon after the handover lets the old write land first, where it overwrites nothing; keep it going past the new leader's first write. Then slide fencing to 1: the same write is refused.",
	},
}

func init() { exNoFencing.start = checkNoFencing }

func checkNoFencing(a Answer) Job {
	sched, off := judgeNoFencingRuns(a.Schedule)
	return finished([]Feedback{sched, judgeNoFencingChain(a.Chain, off)})
}

// judgeNoFencingChain judges the learner's explanation in their own
// fencing-off run: the links the argument needs are the old leader's last
// renewal, its stall (a pause, or a hold of what it sends), the
// coordinator's expiry of its lease, the rival's acquisition with a higher
// token, the rival's write, the old leader's late write and storage's
// verdict on it.
func judgeNoFencingChain(chain []int, off *World) Feedback {
	if off == nil {
		return Feedback{Part: chainPart, Why: "Your schedule gave no run to explain yet: build the run that breaks the system first, then tell its story."}
	}
	st, _ := oldLeaderStale(off)
	if st == nil {
		return Feedback{Part: chainPart, Why: "Your run has no stale write accepted yet, so there is no failure to explain: build the run that breaks the system first, then tell its story."}
	}
	return judgeChain(off, chain, noFencingChainRoles(off, st))
}

// noFencingChainRoles are the links of exercise 3's argument in run w,
// whose stale write st storage accepted.
func noFencingChainRoles(w *World, st *core.Event) []chainRole {
	return lateWriteRoles(w, st, func(d *core.Event) bool { return d.Kind == core.KindStale || d.Result() == core.Accepted })
}

// lateWriteRoles are the links of the late-write argument in run w: the
// old leader's last renewal, its stall, the coordinator's expiry of its
// lease, the rival's acquisition with a higher token, the rival's write,
// the old leader's late write and storage's verdict st on it. verdict
// tells a verdict of the kind st is (accepted over a newer token, or
// refused).
func lateWriteRoles(w *World, st *core.Event, verdict func(d *core.Event) bool) []chainRole {
	old, tok := st.From(), st.Token()
	var h *core.Event
	for e := range w.ofKind(core.KindHolder) {
		if e.Seq < st.Seq && e.Owner() != old && e.Token() == st.Highest() {
			h = e
		}
	}
	var roles []chainRole
	if h != nil {
		if exp := lastExpiryBefore(w, old, h.Seq); exp != nil {
			roles = append(roles,
				renewalRole(w, old, exp, fmt.Sprintf("until when could %s count on its lease, and what set that time?", old)),
				stallRole(w, old, exp, fmt.Sprintf("why did %s's lease stop being renewed?", old)),
				chainRole{ask: "what freed the lock?", is: isEvent(exp)})
		}
		rival := h.Owner()
		roles = append(roles,
			acquisitionRole(h, fmt.Sprintf("what let %s act as the holder, and with which token?", rival)),
			chainRole{ask: fmt.Sprintf("what made storage's highest token newer than %s's?", old), is: func(e *core.Event) bool {
				return e.Seq > h.Seq && e.Seq < st.Seq && e.Token() == h.Token() &&
					(e.Kind == core.KindWrite && e.From() == rival && e.Result() == core.Accepted ||
						e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == rival)
			}})
	}
	late := func(e *core.Event) bool {
		switch {
		case e.Kind == core.KindStale && e.From() == old:
			return verdict(e)
		case e.Kind == core.KindWrite && e.From() == old && e.Token() == tok && e.Highest() > tok:
			return verdict(e)
		case e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == old && e.Token() == tok:
			d := decisionOf(w, e)
			return d != nil && d.Highest() > tok && verdict(d)
		}
		return false
	}
	return append(roles,
		chainRole{ask: fmt.Sprintf("which write of %s's came too late?", old), is: late},
		chainRole{ask: "what did storage do with it?", is: func(e *core.Event) bool { return late(e) && e.Kind != core.KindSend }})
}

// judgeNoFencingRuns runs the schedule with fencing off and on; it returns
// the fencing-off run (nil if it did not run) for the other parts.
func judgeNoFencingRuns(log core.ActionLog) (Feedback, *World) {
	const part = "Schedule, fencing off then on"
	if len(log) == 0 {
		return Feedback{Part: part, Why: "No schedule: build the breaking run in the simulator."}, nil
	}
	for _, t := range log {
		switch t.Do {
		case "pause", "delay", "crash", "restart", "partition", "heal", "resume":
		default:
			return Feedback{Part: part, Why: fmt.Sprintf("The schedule may only pause, delay, crash or cut processes off (it has %q): fencing is the slider, and forged writes are another lesson.", t.Do)}, nil
		}
	}
	if !hasStall(log) {
		return Feedback{Part: part, Why: "The schedule neither pauses the leader nor holds its messages: the claim is about a leader whose write arrives late."}, nil
	}
	off, err := noFencingLab.EvaluateWith(1, Knobs{"fencing": 0}, log)
	if err != nil {
		return Feedback{Part: part, Why: "The schedule could not run: " + err.Error()}, nil
	}
	st, _ := oldLeaderStale(off)
	if st == nil {
		return whyNoStaleWrite(part, off, log), off
	}
	on, err := noFencingLab.EvaluateWith(1, Knobs{"fencing": 1}, log)
	if err != nil {
		return Feedback{Part: part, Why: "The schedule could not run with fencing on: " + err.Error()}, off
	}
	if staleAccepted(on) || !staleRejected(on) {
		return Feedback{Part: part, Why: "With fencing on, the same schedule did not end in a rejected stale write."}, off
	}
	var b because
	return b.feedback(part, true, "Fencing off: storage accepted %s's write with token %s at %s although it had already seen %s. Fencing on: the same schedule ends with that write rejected.",
		st.From(), b.cite(st.Format(core.FToken), "trace", st, core.FToken), b.at(*st), b.cite(st.Format(core.FHighest), "trace", st, core.FHighest)), off
}

// whyNoStaleWrite says what the learner's fencing-off run did instead of
// letting a stale write through, read from its trace: the lock never
// changed hands during the stall, or the old leader wrote nothing more, or
// its write landed before the new leader had written anything, so it
// overwrote nothing.
func whyNoStaleWrite(part string, w *World, log core.ActionLog) Feedback {
	const none = "With fencing off, no stale write from an old leader was accepted. "
	var b because
	start, longest := log[0].At.D(), time.Duration(0)
	for _, t := range log {
		if t.Do == "pause" || t.Do == "delay" {
			start, longest = min(start, t.At.D()), max(longest, t.For.D())
		}
	}
	// The first handover after the stall began: the old owner, and the
	// event that gave the lock to another.
	var old string
	var handover *core.Event
	for e := range w.ofKind(core.KindHolder) {
		if e.At < start {
			old = e.Owner()
			continue
		}
		if old != "" && e.Owner() != old {
			handover = e
			break
		}
		old = e.Owner()
	}
	if handover == nil {
		const never = "In your run the lock never changed hands after the stall began, so no newer leader wrote and no write could be stale. "
		if b.claimD(longest, "<=", noFencingTTL) {
			return b.feedback(part, false, "%s%sYour longest stall was %s, no longer than the lease: freeze the leader, or hold what it sends, for longer than its %s lease.", none, never, b.given(longest), b.given(noFencingTTL))
		}
		if storageOnly(log) {
			return Feedback{Part: part, Why: none + never + "Your schedule held only what goes to or from storage: the leader's keepalives still reached the coordinator, so its lease never ran out. Its lease must run out while its write is still to come."}
		}
		return Feedback{Part: part, Why: none + never + "The stalled process must be the leader, and its lease must run out while its write is still to come."}
	}
	newOwner := handover.Owner()
	var oldWrite, newWrite *core.Event
	for e := range w.ofKind(core.KindWrite) {
		if e.Seq < handover.Seq || e.Result() != core.Accepted {
			continue
		}
		switch {
		case oldWrite == nil && e.From() == old && e.Token() < handover.Token():
			oldWrite = e
		case newWrite == nil && e.From() == newOwner:
			newWrite = e
		}
	}
	took := fmt.Sprintf("%s took the lock at %s with token %s", newOwner, b.at(*handover), b.cite(handover.Format(core.FToken), "trace", handover, core.FToken))
	switch {
	case oldWrite == nil:
		end := w.Lesson.Duration
		for _, t := range log {
			if (t.Do == "pause" || t.Do == "delay") && t.Proc == old && b.claimD(t.At.D()+t.For.D(), ">=", end) {
				// The stall outlasted the run: the late write never came.
				return b.feedback(part, false, "%s%s, but %s's stall from %s lasts until %s, and the run ends at %s: its late write would arrive only after the run, so storage never saw it. End the stall within the run.",
					none, took, old, b.given(t.At.D()), b.derived(t.At.D()+t.For.D()), b.given(end))
			}
		}
		return b.feedback(part, false, "%s%s, and after that storage accepted no write from %s with its old token: there was nothing stale to let through.", none, took, old)
	case newWrite != nil && newWrite.Seq < oldWrite.Seq:
		// oldLeaderStale did not count it: the writer neither paused as
		// leader nor had its write held.
		return b.feedback(part, false, "%s%s. %s's older write landed after it, but %s was not a leader you stalled: the claim is about a paused leader, or one whose write was held.", none, took, old, old)
	}
	if newWrite == nil {
		return b.feedback(part, false, "%s%s, but wrote nothing before the run ended, so %s's write with token %s at %s overwrote nothing.", none, took, old, b.cite(oldWrite.Format(core.FToken), "trace", oldWrite, core.FToken), b.at(*oldWrite))
	}
	when := "before"
	if !b.claimD(oldWrite.At, "<", newWrite.At) {
		b.stateD(oldWrite.At, "==", newWrite.At)
		when = "in the same millisecond as, but ahead of,"
	}
	return b.feedback(part, false, "%s%s, yet %s's write with token %s landed at %s, %s %s's first write at %s, so it overwrote nothing: storage had seen no newer token yet. The old write has to arrive after the new leader has written.",
		none, took, old, b.cite(oldWrite.Format(core.FToken), "trace", oldWrite, core.FToken), b.at(*oldWrite), when, newOwner, b.at(*newWrite))
}
