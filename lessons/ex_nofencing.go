package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// noFencingLab is exercise 3's world: a strongly consistent lock service
// (etcd-style, never two holders in its own records) in front of storage
// whose token check is a knob.
var noFencingLab = &Lesson{
	ID:    "no-fencing",
	Title: "A strongly consistent lock, no fencing",
	Intro: []string{"A and B share an etcd-style lock (TTL 10 s) and write to storage every 2 s. The slider says whether storage checks tokens. Break it with fencing off, then slide fencing on: the same schedule replays."},
	Setup: func(seed uint64, k Knobs) (*core.Sim, error) {
		return core.NewContention(seed, core.ContentionConfig{
			Names: []string{"A", "B"}, FirstToken: 33, TTL: 10 * time.Second,
			Stagger: 500 * time.Millisecond, WorkEvery: 2 * time.Second, Fencing: k["fencing"] >= 1,
		})
	},
	Knobs:    []Knob{{ID: "fencing", Label: "Storage checks tokens (0 no, 1 yes)", Min: 0, Max: 1, Step: 1, Default: 0}},
	Duration: 60 * time.Second,
	Controls: []Control{CtlPause, CtlCrash, CtlPartition},
	PauseFor: 20 * time.Second,
	Goals: []Goal{
		{
			ID: "broken", Text: "With fencing off, make storage accept a stale write from a paused leader.",
			Proved: "The lock service never had two holders, yet storage took an old leader's write after the new leader's: consistency of the lock did not protect the data.",
			Met:    func(w *World) bool { return w.Knobs["fencing"] < 1 && pausedStale(w) != nil },
		},
		{
			ID: "fixed", Text: "Slide fencing on: the same schedule must now end with the stale write rejected.",
			Proved: "With the token check on, the same pause ended in a rejection: storage refused the older token.",
			Met: func(w *World) bool {
				return w.Knobs["fencing"] >= 1 && !staleAccepted(w) && staleRejected(w) && hasPause(w.Log)
			},
		},
	},
	Hints: []string{
		"The lock service is not the weak part. What happens to a leader that stops running for longer than its lease?",
		"Pause the leader for 20 s, twice its TTL, and wait for it to wake after B has written.",
		"Pause A at 4 s. B takes over with token 34 and writes; A wakes at 24 s and its write with 33 lands. Then slide fencing to 1.",
	},
	Solution:      core.ActionLog{core.At(4*time.Second, core.Action{Do: "pause", Proc: "A", For: core.Duration(20 * time.Second)})},
	SolutionKnobs: Knobs{"fencing": 1},
}

// pausedStale returns a stale write storage accepted from a process that
// had been paused while leading, or nil.
func pausedStale(w *World) *core.Event {
	paused := map[string]bool{}
	for _, p := range pauses(w) {
		paused[p.Proc] = paused[p.Proc] || p.Leader
	}
	for _, e := range w.Sim.Trace.Filter(core.KindStale) {
		if paused[e.Get("from")] {
			return &e
		}
	}
	return nil
}

// staleRejected reports a write refused because its token was old.
func staleRejected(w *World) bool {
	for _, e := range w.Sim.Trace.Filter(core.KindWrite) {
		if e.Get("result") == core.RejectedStale {
			return true
		}
	}
	return false
}

func hasPause(log core.ActionLog) bool {
	for _, t := range log {
		if t.Do == "pause" {
			return true
		}
	}
	return false
}

var exNoFencing = &Exercise{
	ID:    "no-fencing",
	Title: "\"Our lock service is strongly consistent\"",
	Brief: []string{
		"A team says it needs no fencing tokens: its lock service is linearizable and has never granted one lock to two clients at once.",
		"Show them the run that still breaks their system. In the simulator the lock is etcd-style and storage does not check tokens. Build a schedule in which a paused leader's write is accepted after the new leader's. Then slide fencing on: the same schedule replays, and the stale write must now be rejected.",
	},
	Lab: noFencingLab,
	Questions: []Question{
		{ID: "cause", Text: "What let the stale write through?", Options: []Option{
			{"two-holders", "The lock service granted the lock to two clients at once"},
			{"stale-belief", "The old leader acted on a lease it could no longer verify, and storage could not tell its write was old"},
			{"reorder", "The network reordered the two writes"},
			{"short-ttl", "The TTL was too short; a longer one prevents it"},
		}},
	},
	Reference: Answer{
		Choices:  map[string][]string{"cause": {"stale-belief"}},
		Schedule: noFencingLab.Solution,
	},
	Worked: []string{
		"Pause the leader A for longer than its 10 s lease (20 s at 4 s). The coordinator expires A's lease and, correctly, gives the lock to B with a higher token; B writes. A knows nothing of this: its next write was already decided before it froze, and it leaves when A wakes, carrying token 33 after B's 34. Storage without a token check accepts it and the newer data is overwritten.",
		"At no instant did the lock service have two holders. The failure is between the lock and the data: a lease tells the holder how long it was allowed to act, not whether it still is at the moment its write lands.",
		"With fencing, storage remembers the highest token it accepted (34) and refuses 33. Same schedule, same pause, no corruption: the resource has to take part in the protocol.",
	},
	Format: `{
  "choices": { "cause": ["two-holders" | "stale-belief" | "reorder" | "short-ttl"] },
  "schedule": [ {"at": "4s", "do": "pause", "proc": "A", "for": "20s"} ]
}
The schedule may pause, crash, restart, partition or heal processes A and B
within the first 60 s. It is run twice: with fencing off it must let a paused
leader's stale write be accepted; with fencing on the same schedule must end
with that write rejected.`,
}

func init() { exNoFencing.start = checkNoFencing }

func checkNoFencing(a Answer) Job {
	return finished([]Feedback{
		judgeNoFencingRuns(a.Schedule),
		judgeChoice(a, "Cause", "cause", "stale-belief", map[string]string{
			"":             "Say what let the stale write through.",
			"two-holders":  "The coordinator's records never had two holders: B got the lock only after A's lease expired. That is exactly why consistency of the lock is not enough.",
			"stale-belief": "Right: the lock service did its job; the frozen leader's write carried authority that had already ended, and storage had no way to see that.",
			"reorder":      "The writes arrived in the order they were sent. A's write was sent late, after it woke: no reordering is needed.",
			"short-ttl":    "Any TTL is beaten by a longer pause: a longer lease only moves the threshold, it does not close the gap.",
		}),
	})
}

// judgeNoFencingRuns runs the schedule with fencing off and on.
func judgeNoFencingRuns(log core.ActionLog) Feedback {
	const part = "Schedule, fencing off then on"
	if len(log) == 0 {
		return Feedback{Part: part, Why: "No schedule: build the breaking run in the simulator."}
	}
	for _, t := range log {
		switch t.Do {
		case "pause", "crash", "restart", "partition", "heal", "resume":
		default:
			return Feedback{Part: part, Why: fmt.Sprintf("The schedule may only pause, crash or cut processes off (it has %q at %s): fencing is the slider, and forged writes are another lesson.", t.Do, core.FormatTime(t.At.D()))}
		}
	}
	if !hasPause(log) {
		return Feedback{Part: part, Why: "The schedule has no pause: the claim is about a paused leader."}
	}
	off, err := noFencingLab.EvaluateWith(1, Knobs{"fencing": 0}, log)
	if err != nil {
		return Feedback{Part: part, Why: "The schedule could not run: " + err.Error()}
	}
	st := pausedStale(off)
	if st == nil {
		return Feedback{Part: part, Why: "With fencing off, no stale write from a paused leader was accepted. Pause the leader for longer than its 10 s lease and let it wake after the new leader has written."}
	}
	on, err := noFencingLab.EvaluateWith(1, Knobs{"fencing": 1}, log)
	if err != nil {
		return Feedback{Part: part, Why: "The schedule could not run with fencing on: " + err.Error()}
	}
	if staleAccepted(on) || !staleRejected(on) {
		return Feedback{Part: part, Why: "With fencing on, the same schedule did not end in a rejected stale write."}
	}
	return Feedback{Part: part, OK: true, Why: fmt.Sprintf("Fencing off: storage accepted %s's write with token %d at %s although it had already seen %d. Fencing on: the same schedule ends with that write rejected.",
		st.Get("from"), st.Int("token"), core.FormatTime(st.At), st.Int("highest"))}
}
