package lessons

import (
	"fmt"
	"slices"

	"leaselab/core"
)

// Predict is a question a lesson asks at its key moment, before the run
// shows the answer: the player stops there and asks the learner what will
// happen next (the late write, who holds, how many wake). Answering is
// optional and costs nothing; the recap shows the prediction beside what
// happened. A run that never stops to ask (labctl, the solution tests)
// is the same run: a prediction changes nothing in the world.
type Predict struct {
	ID string
	// Question is asked at the key moment, in the run's own numbers.
	Question func(w *World) string
	Options  []Option
	// Due reports whether the key moment has come in the run so far. It
	// is asked only while Outcome is still unknown: a question whose
	// answer the run already shows is no prediction.
	Due func(w *World) bool
	// Outcome is the option the run shows happened and what happened in
	// words ("storage rejected A's write with token 7 at 24.5 s"), or ""
	// while the run has not shown it yet.
	Outcome func(w *World) (opt, said string)
}

// Option returns the label of option id ("" when there is none).
func (p *Predict) Option(id string) string {
	if i := slices.IndexFunc(p.Options, func(o Option) bool { return o.ID == id }); i >= 0 {
		return p.Options[i].Label
	}
	return ""
}

// Prediction returns the lesson's prediction with the given id, or nil.
func (l *Lesson) Prediction(id string) *Predict {
	for i := range l.Predictions {
		if l.Predictions[i].ID == id {
			return &l.Predictions[i]
		}
	}
	return nil
}

// Asking reports whether prediction p's key moment has come and its
// outcome is not shown yet: the moment to ask.
func (w *World) Asking(p *Predict) bool {
	if !p.Due(w) {
		return false
	}
	opt, _ := p.Outcome(w)
	return opt == ""
}

// rivalPause finds proc's first pause during which another process
// became a holder (of any lock): the pause the late-write question is
// about. open reports that the pause is still going on.
func rivalPause(w *World, proc string) (sp pauseSpan, open, ok bool) {
	for _, p := range pauses(w) {
		if p.Proc != proc || p.Crashed {
			continue
		}
		to := w.Sim.Now()
		if p.To >= 0 {
			to = p.To
		}
		for e := range w.ofKind(core.KindHolder) {
			if e.Owner() != proc && e.At >= p.From && e.At <= to && e.Seq > p.Seq {
				return p, p.To < 0, true
			}
		}
	}
	return pauseSpan{}, false, false
}

// lateWriteOutcome is what the store did with proc's first write after
// the pause sp ended: "accept" or "reject", and in words.
func lateWriteOutcome(w *World, proc string, sp pauseSpan) (string, string) {
	if sp.ToSeq < 0 {
		return "", ""
	}
	for e := range w.ofKind(core.KindWrite) {
		if e.From() != proc || e.Seq < sp.ToSeq {
			continue
		}
		if e.Result() == core.Accepted {
			return "accept", fmt.Sprintf("storage accepted %s's late write with token %d at %s", proc, e.Token(), instant(e.At))
		}
		return "reject", fmt.Sprintf("storage rejected %s's late write with token %d at %s", proc, e.Token(), instant(e.At))
	}
	return "", ""
}

// latePrediction is the question before a frozen holder wakes, once a
// rival holds the lock: what will storage do with its late write?
func latePrediction(proc, question string, options []Option) Predict {
	return Predict{
		ID:       "late-write",
		Question: func(*World) string { return question },
		Options:  options,
		Due: func(w *World) bool {
			_, open, ok := rivalPause(w, proc)
			return ok && open
		},
		Outcome: func(w *World) (string, string) {
			sp, _, ok := rivalPause(w, proc)
			if !ok {
				return "", ""
			}
			return lateWriteOutcome(w, proc, sp)
		},
	}
}

// The lessons' questions at their key moments.
func init() {
	fencedWrites.Predictions = []Predict{latePrediction("A",
		"A is frozen, and B now holds the lock with a higher token. When A wakes, the write it had started goes to storage with its old token. What will storage do with it?",
		[]Option{{"accept", "Accept it"}, {"reject", "Refuse it"}})}
	redlockPause.Predictions = []Predict{latePrediction("A",
		"A is frozen, and B has won the lock on a majority of the servers. When A wakes, its write goes to storage, whose token check is on. What will storage do with it?",
		[]Option{{"accept", "Accept it"}, {"reject", "Refuse it"}})}
	leases.Predictions = []Predict{leasesPrediction}
	electionOrder.Predictions = []Predict{herdPrediction}
	scheduler.Predictions = []Predict{replayPrediction}
}

// firstLeaderPause is A's first pause while it led: the scripted one the
// leases lesson's question is about.
func firstLeaderPause(w *World) (pauseSpan, bool) {
	for _, sp := range pauses(w) {
		if sp.Proc == "A" && sp.Leader && !sp.Crashed {
			return sp, true
		}
	}
	return pauseSpan{}, false
}

// leasesPrediction asks, as the scripted pause freezes A, whether its
// lease runs out before it wakes.
var leasesPrediction = Predict{
	ID: "lease-runs-out",
	Question: func(w *World) string {
		sp, _ := firstLeaderPause(w)
		return fmt.Sprintf("A, the holder, has just frozen for %s, just before a renewal; its lease is %s, renewed every %s. Will B get the lock before A wakes?",
			secs(sp.For), secs(w.Knobs.Seconds("ttl")), secs(w.Knobs.Seconds("renew")))
	},
	Options: []Option{{"yes", "Yes, B gets it"}, {"no", "No, A keeps it"}},
	Due: func(w *World) bool {
		sp, ok := firstLeaderPause(w)
		return ok && sp.To < 0
	},
	Outcome: func(w *World) (string, string) {
		sp, ok := firstLeaderPause(w)
		if !ok || sp.To < 0 {
			return "", ""
		}
		if h := handoverDuring(w, leasesLock, "A", sp.From, sp.To); h != nil {
			return "yes", fmt.Sprintf("the coordinator gave B the lock at %s, while A was frozen", instant(h.At))
		}
		return "no", fmt.Sprintf("A woke at %s still holding the lock", instant(sp.To))
	},
}

// herdPrediction asks, once a holder of the left lock has crashed and
// before its key goes, how many waiters its deletion will wake.
var herdPrediction = Predict{
	ID: "herd-wakes",
	Question: func(w *World) string {
		return "The left lock's holder has crashed; its key goes when its lease lapses. Every waiter on the left watches the whole lock. How many of them will that deletion wake?"
	},
	Options: []Option{{"one", "Only the next in line"}, {"all", "Every waiter"}, {"none", "None"}},
	Due: func(w *World) bool {
		if len(wakes(w, herdLock)) > 0 {
			return false
		}
		for e := range w.ofKind(core.KindCrash) {
			if slices.Contains(herdNames, e.Actor) {
				return true
			}
		}
		return false
	},
	Outcome: func(w *World) (string, string) {
		ws := wakes(w, herdLock)
		if len(ws) == 0 {
			return "", ""
		}
		hw := ws[0]
		opt := "one"
		switch {
		case len(hw.Woken) == 0:
			opt = "none"
		case len(hw.Woken) == hw.Waiters && hw.Waiters > 1:
			opt = "all"
		case len(hw.Woken) > 1:
			opt = "some"
		}
		return opt, fmt.Sprintf("the key went at %s and woke %d of the %d waiters", instant(hw.At), len(hw.Woken), hw.Waiters)
	},
}

// replayPrediction asks, once a new scheduler leader has taken over from
// one that crashed mid-batch and before it replays anything, what the
// queue will do with an invoice the old leader had already sent.
var replayPrediction = Predict{
	ID: "replay",
	Question: func(w *World) string {
		_, next := crashedMidBatch(w)
		return fmt.Sprintf("api-1 crashed in the middle of its batch; %s now holds the lease with token %d and starts the batch again from the first customer. What will the queue do with an invoice api-1 had already sent?", next.Owner(), next.Token())
	},
	Options: []Option{{"twice", "Run it again"}, {"once", "Ignore the replay"}},
	Due: func(w *World) bool {
		_, next := crashedMidBatch(w)
		return next != nil
	},
	Outcome: func(w *World) (string, string) {
		_, next := crashedMidBatch(w)
		if next == nil {
			return "", ""
		}
		for e := range w.ofKind(core.KindEnqueue) {
			if e.Seq <= next.Seq || e.From() != next.Owner() {
				continue
			}
			switch e.Result() {
			case core.JobDuplicateExecuted:
				return "twice", fmt.Sprintf("the queue ran %s's replay of an invoice again at %s", next.Owner(), instant(e.At))
			case core.JobDuplicateIgnored:
				return "once", fmt.Sprintf("the queue ignored %s's replay of an invoice at %s", next.Owner(), instant(e.At))
			}
		}
		return "", ""
	},
}
