package lessons

import (
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/explore"
)

// schedulerConfig is the seed's Example 1: five API instances, one
// invoice-scheduler lease whose first holder gets token 41, and a batch of
// invoices keyed invoice:customer:date. Idempotency starts off so the
// learner sees what the keys are for.
var schedulerConfig = core.SchedulerContention(5, 10*time.Second, false)

const schedulerLock = core.SchedulerLock

// crashedMidBatch finds a holder of the scheduler lock that crashed after
// enqueuing some of its batch but not all of it, and returns the crash time
// and the holder that came next (nil if none yet).
func crashedMidBatch(w *World) (time.Duration, *core.Event) {
	hs := handovers(w, schedulerLock)
	for i, h := range hs {
		owner, sent := h.Owner(), 0
	scan:
		for e := range w.Sim.Trace.Span(h.Seq, w.Sim.Trace.Len()) {
			switch {
			case e.Kind == core.KindEnqueue && e.From() == owner && e.Token() == h.Token():
				sent++
			case e.Kind == core.KindNote && e.Actor == owner && strings.HasPrefix(e.Words(), "batch complete"):
				break scan
			case e.Kind == core.KindCrash && e.Actor == owner:
				if sent > 0 && i+1 < len(hs) {
					return e.At, &hs[i+1]
				}
				break scan
			}
		}
	}
	return 0, nil
}

// enqueued reports whether the queue decided some job with result.
func enqueued(w *World, result string) bool {
	for e := range w.ofKind(core.KindEnqueue) {
		if e.Result() == result {
			return true
		}
	}
	return false
}

// idempotentReplay reports a takeover replay that the queue ignored, with
// no duplicate executed since idempotency was last switched on.
func idempotentReplay(w *World) bool {
	onAt := -1
	for e := range w.ofKind(core.KindSetting) {
		if e.Name() == "idempotency" && e.Actor == "learner" {
			onAt = -1
			if e.Value() == "on" {
				onAt = e.Seq
			}
		}
	}
	if onAt < 0 {
		return false
	}
	ignored := false
	for e := range w.Sim.Trace.Span(onAt, w.Sim.Trace.Len()) {
		if e.Kind != core.KindEnqueue {
			continue
		}
		switch e.Result() {
		case core.JobDuplicateExecuted:
			return false
		case core.JobDuplicateIgnored:
			ignored = true
		}
	}
	return ignored
}

var scheduler = &Lesson{
	ID:        "scheduler",
	Title:     "One scheduler of five: leases, idempotent jobs",
	Objective: "Crash a leader mid-batch and make the replayed jobs harmless with idempotency keys.",
	Summary:   "Five API instances, one invoice batch: failover and jobs that run twice.",
	Minutes:   8,
	Intro: []string{
		"Five API instances (api-1 to api-5) all run the same minute-by-minute scheduler, but only one of them may enqueue the day's invoices. Each asks for the invoice-scheduler lease; api-1 gets it with fencing token 41 and the others queue behind it, watching.",
		"The leader enqueues one invoice a second, each with an idempotency key built from what makes the invoice unique: invoice:customer:date. It renews its lease while it works. It never records that the batch is done, so a leader that takes over starts the batch again from the top.",
		"That is the point of the lesson: the lease prevents two schedulers deciding at once, but it cannot undo work a dead leader already did. When api-1 crashes halfway, its lease lapses after the TTL and the next instance takes over with token 42 and enqueues every invoice again. Only the queue, by refusing a key it has seen, can make that harmless.",
		"The queue starts with its idempotency check off.",
	},
	Recap: "Leader election gave you one scheduler at a time (tokens 41, 42, 43, one after another), not exactly-once invoices. A leader can die between doing work and recording it, and its successor must redo the batch. Idempotency keys turn those repeats into no-ops at the queue: the lease picks the scheduler, the keys absorb the crash boundary.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		return schedulerConfig.World(seed)
	},
	Duration: 60 * time.Second,
	Controls: []Control{CtlCrash, CtlIdem, CtlPause},
	PauseFor: 15 * time.Second,
	Search: &Search{Invariant: explore.AtMostDuplicateJobs(0), Protects: core.VerbIdempotency, Bounds: explore.Bounds{Procs: []string{"api-1"}, Kinds: []string{explore.FaultCrash, explore.FaultPause},
		From: 0, To: 10 * time.Second, Step: 500 * time.Millisecond,
		MinLen: time.Second, MaxLen: 20 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 40 * time.Second}},
	SandboxPreset: "scheduler",
	Goals: []Goal{
		{
			ID:     "takeover",
			Text:   "Crash the leader (api-1) in the middle of its batch and wait for another instance to take the lease with token 42.",
			Proved: "The coordinator let api-1's lease lapse and gave the lock to the next instance in line with token 42: one scheduler at a time, even across a crash.",
			Met: func(w *World) bool {
				_, next := crashedMidBatch(w)
				return next != nil && next.Token() == schedulerConfig.FirstToken+1
			},
		},
		{
			ID:     "duplicate",
			Text:   "With idempotency off, let the new leader replay the batch: an invoice runs twice.",
			Proved: "The new leader re-enqueued invoices api-1 had already sent and the queue ran them again: the lease alone does not stop duplicates.",
			Met:    func(w *World) bool { return enqueued(w, core.JobDuplicateExecuted) },
		},
		{
			ID:     "idempotent",
			Text:   "Switch idempotency on, crash the current leader mid-batch too, and check that its successor's replays are all ignored.",
			Proved: "Every replayed key was recognised and ignored: with idempotency keys, a takeover mid-batch costs nothing.",
			Met:    idempotentReplay,
		},
	},
	Hints: []string{
		"api-1 enqueues one invoice a second from about 1 s to 8 s. A crash in that window leaves the batch half done.",
		"Crash api-1 at about 4 s. Its 10 s lease lapses within one TTL, so api-2 takes over with token 42 and starts the batch again from customer 01.",
		"Crash api-1 at 4.5 s. Once api-2 has replayed a few invoices (about 18 s), switch idempotency on and crash api-2 at about 20 s: api-3 takes over with token 43 and every replay is ignored.",
	},
	Solution: core.ActionLog{
		core.At(4500*time.Millisecond, core.Crash("api-1")),
		core.At(19*time.Second, core.Idempotency(true)),
		core.At(20500*time.Millisecond, core.Crash("api-2")),
	},
}
