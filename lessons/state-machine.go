package lessons

import (
	"time"

	"leaselab/core"
)

// leaseLoss is one process learning that its lease is gone, and what it
// did next.
type leaseLoss struct {
	Proc string
	At   time.Duration
	// Zombie: the process logged the loss and carried on as leader.
	Zombie bool
	// SteppedDown: it left the leader state at the same instant.
	SteppedDown bool
	// WritesAfter counts its writes storage saw more than one network
	// delay after the loss, before it led again.
	WritesAfter int
}

// leaseLosses lists every lease loss of a process that was leading.
func leaseLosses(w *World) []leaseLoss {
	var out []leaseLoss
	tr := w.Sim.Trace
	state := map[string]string{}
	for e := range tr.All() {
		if e.Kind == core.KindState {
			state[e.Actor] = e.To()
		}
		if e.Kind != core.KindLeaseLost || state[e.Actor] != core.Leader.String() {
			continue
		}
		l := leaseLoss{Proc: e.Actor, At: e.At}
	scan:
		for f := range tr.Span(e.Seq+1, tr.Len()) {
			switch {
			case f.Actor == l.Proc && f.Kind == core.KindNote && f.At == l.At:
				l.Zombie = true
			case f.Actor == l.Proc && f.Kind == core.KindState:
				if f.To() == core.Leader.String() {
					break scan
				}
				l.SteppedDown = l.SteppedDown || (f.At == l.At && f.From() == core.Leader.String())
			case f.Kind == core.KindWrite && f.From() == l.Proc && f.At > l.At+50*time.Millisecond:
				l.WritesAfter++
			}
		}
		out = append(out, l)
	}
	return out
}

var stateMachine = &Lesson{
	ID:        "state-machine",
	Title:     "Losing leadership is a state, not a boolean",
	Objective: "Make a leader that has lost its lease stop writing at once.",
	Summary:   "Leadership as states: a cut-off leader that keeps writing, and one that steps down.",
	Minutes:   6,
	Intro: []string{
		"A, B and C contend for one lock; the leader writes to storage every second with its token. B and C run a real state machine: follower, candidate, leader, and stepping_down, the state a leader enters the moment it learns its lease is gone. In stepping_down it has already stopped working; it only releases what it holds before becoming a follower again.",
		"A runs the team's older client, which keeps an is_leader boolean. When the lease-loss callback fires, the code logs a warning and nothing resets the flag, so A carries on as leader (the slider turns the bug off).",
		"Cut a leader off from the coordinator and keep its path to storage open, one of the real failure modes: its renewals stop arriving, the coordinator expires the lease and promotes the next in line, and the cut-off process learns of it from its own local deadline.",
	},
	Recap: "A lease you cannot renew is a lease you no longer hold, and the client must act on that at once: stop work, then clean up. With a boolean, the loss became a log line and A went on writing as a zombie; only storage's token check kept its writes out. With stepping_down as a state of its own, B stopped the instant its deadline passed, before C took over.",
	World: func(seed uint64, k Knobs) (core.World, error) {
		w := core.World{Seed: seed, Resources: []core.Resource{core.RegisterResource("storage", true)}}
		for i, n := range []string{"A", "B", "C"} {
			w.Processes = append(w.Processes, core.ProcessConfig{
				Name: n, Lock: leasesLock, TTL: 6 * time.Second, StartAt: time.Duration(i) * 300 * time.Millisecond,
				WorkEvery: time.Second, Target: "storage", IgnoreLeaseLoss: n == "A" && k["boolean"] == 1,
			})
		}
		return w, nil
	},
	Knobs: []Knob{
		{ID: "boolean", Label: "A uses an is_leader boolean (1) or the state machine (0)", Min: 0, Max: 1, Step: 1, Default: 1},
	},
	SolutionKnobs: Knobs{"boolean": 1},
	Duration:      50 * time.Second,
	Controls:      []Control{CtlPartition, CtlPause, CtlExpire},
	PauseFor:      10 * time.Second,
	Goals: []Goal{
		{
			ID:     "zombie",
			Text:   "Cut A, the leader, off from the coordinator (not from storage) and watch it keep writing after it has learned its lease is gone.",
			Proved: "A's local deadline passed, it logged the loss, and its is_leader stayed true: it went on sending writes as a zombie leader.",
			Met: func(w *World) bool {
				for _, l := range leaseLosses(w) {
					if l.Zombie && l.WritesAfter >= 2 {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "step-down",
			Text:   "Then do the same to the next leader, B, which runs the state machine: it must step down at the moment of the loss and write nothing more.",
			Proved: "B moved from leader to stepping_down at the instant its lease was lost and sent no further write: loss of leadership handled as a transition.",
			Met: func(w *World) bool {
				for _, l := range leaseLosses(w) {
					if !l.Zombie && l.SteppedDown && l.WritesAfter == 0 && w.Sim.Now() >= l.At+5*time.Second {
						return true
					}
				}
				return false
			},
		},
	},
	Hints: []string{
		"A process learns that its lease is gone either from a refused renewal or from its own deadline passing. A partition from the coordinator gives it the second.",
		"Partition A from the coordinator early. After B takes over, partition B from the coordinator too and compare what each does when its deadline passes.",
		"At 5 s cut A <-> coordinator. At 20 s cut B <-> coordinator. A keeps writing with token 1 (storage refuses it once B has written with 2); B steps down when its own deadline passes, a few seconds later, and C takes over.",
	},
	Solution: core.ActionLog{
		core.At(5*time.Second, core.Partition("A", core.CoordinatorName)),
		core.At(20*time.Second, core.Partition("B", core.CoordinatorName)),
	},
}
