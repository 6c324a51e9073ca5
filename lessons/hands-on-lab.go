package lessons

import (
	"time"

	"leaselab/core"
	"leaselab/core/explore"
)

// lastAccepted returns the register's last accepted write: the value
// storage holds now.
func lastAccepted(w *World) *core.Event {
	ws := w.Sim.Trace.Filter(core.KindWrite)
	for i := len(ws) - 1; i >= 0; i-- {
		if ws[i].Result() == core.Accepted {
			return &ws[i]
		}
	}
	return nil
}

// forgedAccepted finds A's write with token 3 accepted over B's 2.
func forgedAccepted(w *World) *core.Event {
	for e := range w.ofKind(core.KindWrite) {
		if e.From() == "A" && e.Token() == 3 && e.Result() == core.Accepted && e.Highest() == 2 {
			return e
		}
	}
	return nil
}

// handsOnLab is the seed's hands-on lab in the simulator: a coordinator
// that numbers owners 1 and 2, storage that keeps the highest token, and
// A's late write, whose token the learner edits.
var handsOnLab = &Lesson{
	ID:        "hands-on-lab",
	Title:     "Hands-on: who decides that a token is stale?",
	Objective: "Learn that the store, not the writer, decides that a token is stale.",
	Summary:   "Write with old and new tokens yourself and see which ones the store keeps.",
	Minutes:   6,
	Intro: []string{
		"This is the course's hands-on lab, run live instead of as a script. The coordinator numbers each owner of the lock with a counter: A gets token 1, and later B gets token 2. (A real etcd would give them the key's create revision instead, 2 and 3 on a fresh store: every change bumps one store-wide revision.) Storage keeps the highest token it has accepted and turns away anything lower.",
		"The script: A writes \"from A\" with token 1 at 1 s, then freezes for 30 s. Its lease lapses, B takes over with token 2 and writes \"from B\" at 15 s.",
		"Your part is A's late write. Anything A decides while frozen leaves when it wakes at 32 s. First send it as A would, with its own token, and check that storage refuses it. Then edit the token to 3 (step 4 of the lab) and see what storage makes of a number it has no way to check.",
	},
	Recap: "Storage compares numbers; it cannot know where they came from. Token 1 lost to 2 because the coordinator issued them in that order. A made-up 3 beat the real 2 and then shut the rightful leader out. Fencing is only as strong as the source of its tokens: they must come from the coordinator, never be chosen or edited by a client.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		return core.ContentionConfig{
			Names: []string{"A", "B"}, FirstToken: 1, TTL: 10 * time.Second, Stagger: 500 * time.Millisecond, Fencing: true,
		}.World(seed)
	},
	Script: core.ActionLog{
		core.At(1*time.Second, core.Write("A", "from A")),
		core.At(2*time.Second, core.Pause("A", 30*time.Second)),
		core.At(15*time.Second, core.Write("B", "from B")),
	},
	Duration: 60 * time.Second,
	Controls: []Control{CtlWrite, CtlPause},
	PauseFor: 30 * time.Second,
	Search: &Search{Invariant: explore.NoStaleWrite, Protects: core.VerbFencing, Bounds: explore.Bounds{Procs: []string{"B"}, Kinds: []string{explore.FaultPause},
		From: 0, To: 30 * time.Second, Step: time.Second,
		MinLen: time.Second, MaxLen: 25 * time.Second, LenStep: time.Second, MaxFaults: 1, Horizon: 60 * time.Second}},
	SandboxPreset: "hands-on-lab",
	Goals: []Goal{
		{
			ID:     "rejected",
			Text:   "While A is frozen, make it write \"late A\" with its own token: when A wakes, storage must reject token 1.",
			Proved: "Storage had already accepted token 2 from B, so A's late write with 1 was refused: the lab's \"A late 1 reject\".",
			Met:    func(w *World) bool { return write(w, "A", 1, core.RejectedStale) },
		},
		{
			ID:     "accepted",
			Text:   "Now give one of A's late writes token 3: storage accepts it and it becomes the final value.",
			Proved: "3 is higher than 2, so storage took A's late write and kept it: a stale writer with a bigger number looks newer.",
			Met: func(w *World) bool {
				f, last := forgedAccepted(w), lastAccepted(w)
				return f != nil && last != nil && last.Seq == f.Seq
			},
		},
		{
			ID:     "locked-out",
			Text:   "After that, make B, the real leader, write again.",
			Proved: "B's token 2 is now below the forged 3, so storage refuses the rightful leader: a made-up token does not just slip through, it locks the owner out.",
			Met: func(w *World) bool {
				f := forgedAccepted(w)
				if f == nil {
					return false
				}
				for e := range w.Sim.Trace.Span(f.Seq, w.Sim.Trace.Len()) {
					if e.Kind == core.KindWrite && e.From() == "B" && e.Token() == 2 && e.Result() == core.RejectedStale {
						return true
					}
				}
				return false
			},
		},
	},
	Hints: []string{
		"A is frozen from 2 s to 32 s. A write you give it in that window is decided now and sent when it wakes, before it notices its lease is gone.",
		"Make A write twice while frozen: once with no token (it uses its own, 1) and once with token 3. Then, after 32 s, make B write.",
		"At 5 s, A writes \"late A\" (token left at 0, meaning its own). At 6 s, A writes \"late A\" with token 3. At 35 s, B writes \"from B again\".",
	},
	Solution: core.ActionLog{
		core.At(5*time.Second, core.Action{Do: core.VerbWrite, Proc: "A", Value: "late A", Label: "late"}),
		core.At(6*time.Second, core.Action{Do: core.VerbWrite, Proc: "A", Value: "late A", Label: "late", Token: 3}),
		core.At(35*time.Second, core.Write("B", "from B again")),
	},
}
