package lessons

import (
	"time"

	"leaselab/core"
	"leaselab/core/explore"
)

// fencedWrites is the seed's Example 3: the paused leader and the fenced
// register, tokens 7 and 8.
// fencedConfig is the fenced-writes world: A then B contend for one lock
// (tokens from 7), the leader writes every 2 s to a fenced register, TTL
// 10 s. The explorer's fenced-writes target and its ZooKeeper and Consul
// cousins search it too (targets.go).
var fencedConfig = core.ContentionConfig{
	Names: []string{"A", "B"}, FirstToken: 7, TTL: 10 * time.Second,
	Stagger: 500 * time.Millisecond, Fencing: true, WorkEvery: 2 * time.Second,
}

var fencedWrites = &Lesson{
	ID:        "fenced-writes",
	Title:     "The paused leader and fenced writes",
	Objective: "See a paused leader's late write rejected by its token, and accepted once fencing is off.",
	Summary:   "A leader freezes past its lease; the store's token check stops its late write.",
	Minutes:   6,
	Intro: []string{
		"Within its first second, A takes the lock with fencing token 7; from then on it writes to storage every two seconds. B waits in line. The lease lasts 10 seconds, and A's client renews it the way etcd's does: a third of the TTL after each answer, on a loop that wakes every half second, so about every 3.5 seconds. (This coordinator numbers the lock's holders 7, 8, 9, like a Chubby sequencer or Consul's LockIndex; a real etcd would hand out the key's create revision, a number shared by every change in the store. Either works as a token: what matters is that it only grows.)",
		"A lease only says how long the coordinator will wait. It cannot reach into A and stop it. If A freezes (a long garbage-collection pause, a starved CPU, a suspended VM), the coordinator gives up on it, hands the lock to B with token 8, and A, frozen, notices nothing.",
		"When A thaws, the write it had already started goes out with token 7. Storage is the only party that sees it arrive, so storage must do the last check: remember the highest token it has accepted and refuse anything older.",
		"Press Play and let A take the lock (its badge says leader). Then click A and choose Pause (or press 1, then Z) to freeze it for 20 seconds and watch the lease ring run out while A's own belief stays full.",
	},
	Recap: "You saw both halves of the protocol. The coordinator decided who owns the lock (A, then B) and numbered each ownership (7, then 8). Storage enforced that order by refusing the late write carrying 7. Switch the check off and the same pause silently corrupts data, even though the lock service never made a mistake.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		return fencedConfig.World(seed)
	},
	Duration: 90 * time.Second,
	Controls: []Control{CtlPause, CtlCrash, CtlPartition, CtlExpire, CtlFencing, CtlDelay},
	PauseFor: 20 * time.Second,
	Search: &Search{Invariant: explore.NoStaleWrite, Protects: core.VerbFencing, Bounds: explore.Bounds{Procs: []string{"A"}, Kinds: []string{explore.FaultPause},
		From: 0, To: 30 * time.Second, Step: 500 * time.Millisecond,
		MinLen: 500 * time.Millisecond, MaxLen: 30 * time.Second, LenStep: 500 * time.Millisecond, MaxFaults: 1, Horizon: 60 * time.Second}},
	SandboxPreset: "fenced-register",
	Goals: []Goal{
		{
			ID:     "takeover",
			Text:   "Pause leader A for longer than its 10 s lease, so that B takes over with token 8.",
			Proved: "The coordinator expired A's lease on its own clock and gave B token 8 while A still believed it led.",
			Met:    func(w *World) bool { return holderWithToken(w, "B", 8) },
		},
		{
			ID:     "rejected",
			Text:   "Let A resume: its delayed write with token 7 must be rejected.",
			Proved: "Storage refused token 7 because it had already accepted 8: the fence stopped the old leader.",
			Met:    func(w *World) bool { return write(w, "A", 7, core.RejectedStale) },
		},
		{
			ID:     "unfenced",
			Text:   "Switch fencing off, then make the new leader stall the same way: the store now accepts a stale write.",
			Proved: "Without the token check the store took an older leader's write over a newer one: the lock alone did not protect the data.",
			Met:    staleAccepted,
		},
	},
	Hints: []string{
		"The lease is 10 s. A pause shorter than that changes nothing: A renews as soon as it wakes.",
		"Pause A for 20 s. Watch the coordinator's ring for A empty out and B's badge turn to leader, then wait for A to wake.",
		"Play until A leads (under a second), then pause A (20 s). After A's write with 7 is rejected, switch fencing off, wait until B leads steadily, then pause B for 20 s: when B wakes, its write with 8 lands after A's 9 and is accepted.",
	},
	Missteps: []Misstep{
		{Proc: "A", Why: "A has not acquired the lock yet: B will take it with token 7 and A never leads. Play until A leads, then pause it."},
		{Proc: "B", Why: "B is the one who takes over from A with token 8: with B out of the way, nobody does when A freezes. Play until A leads, then pause A, and leave B alone."},
	},
	Solution: core.ActionLog{
		core.At(4*time.Second, core.Pause("A", 20*time.Second)),
		core.At(30*time.Second, core.Fencing(false)),
		core.At(36*time.Second, core.Pause("B", 20*time.Second)),
	},
}
