package lessons

import (
	"slices"
	"time"

	"leaselab/core"
)

// redlockPause breaks Redlock with the pause that fenced writes survived:
// the store's check is on, but there is no token to check.
var redlockPause = &Lesson{
	ID:        "redlock-pause",
	Title:     "Redlock: a lock with no token to fence with",
	Objective: "See a paused Redlock holder's late write accepted: with no token, storage cannot refuse it.",
	Summary:   "Three independent Redis servers, a majority lock and a pause that gives it two holders.",
	Minutes:   6,
	Intro: []string{
		"A and B share a lock built the Redlock way, on three Redis servers that know nothing of each other. To lock, a client writes its own random value to the lock's key on every server with a 10 second expiry. It holds the lock if at least two of the three said yes, and only for the expiry minus the time the round took, less a 1 % margin for clocks that drift. A keeps the lock by extending its key on the servers every 3 seconds, and writes to storage every 2 seconds.",
		"Look at what a client gets when it wins: a yes from two servers and a deadline. No number. Each server only knows its own copy of the key, and none of them knows what the others said, so nobody is in a position to count the holders and hand out a token that only grows.",
		"Storage checks tokens, as in the fenced-writes lesson: it refuses any write whose token is lower than the highest it has seen. Click A and choose Pause (or press 1, then Z) to freeze it for 20 seconds, longer than its validity, and watch what the check can do this time.",
		"The servers can fail too, and no client hears of it. Click one to crash it (it comes back empty: these servers keep no keys on disk) or to jump its clock ahead, which ends its keys early. Jump the clocks of two servers and B wins a majority while A, not frozen at all, still believes it holds the lock; crash two and nobody can win until they are back.",
	},
	Recap: "The token check in storage was on the whole time, and it still took A's late write: every write carried token 0, because Redlock had no number to give. A fencing token has to come from the one place that decides who owns the lock and numbers each decision, the way etcd's revision, ZooKeeper's zxid or Consul's lock index do. Independent servers that each know only their own key cannot give one. So any pause, clock jump or server that restarts empty which outlasts the validity lets two clients act as the holder, and nothing downstream can tell them apart.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		return core.ContentionConfig{
			Names: []string{"A", "B"}, System: core.SystemRedlock, RedisNodes: 3,
			TTL: 10 * time.Second, RenewEvery: 3 * time.Second, RetryBase: time.Second,
			Stagger: 500 * time.Millisecond, Fencing: true, WorkEvery: 2 * time.Second,
		}.World(seed)
	},
	Duration: 60 * time.Second,
	Controls: []Control{CtlPause, CtlCrash, CtlFencing, CtlDelay, CtlClockJump},
	PauseFor: 20 * time.Second,
	Goals: []Goal{
		{
			ID:     "two-holders",
			Text:   "Pause A for longer than its validity, so that B wins the lock while A, frozen, still believes it holds it.",
			Proved: "A's keys expired on every server during the pause and B won two of three: two clients believed they held the lock, and the servers never knew.",
			Met:    func(w *World) bool { return believedTogether(w, "A", "B") },
		},
		{
			ID:     "late-write",
			Text:   "Let A wake with the token check on: its late write lands after B's, and storage accepts it.",
			Proved: "Storage took A's write after B's: with every token 0, the check had nothing to compare, so the fence could not stop the old holder.",
			Met:    lateWriteThroughTheFence,
		},
	},
	Hints: []string{
		"The lock's validity is just under 10 s, and A extends it every 3 s. A pause shorter than that changes nothing.",
		"Pause A for 20 s. The three servers at the top each show whose key they hold and how long its expiry has left: watch A's keys run out while it is frozen and B win two of three, then wait for A to wake.",
		"Pause A (20 s) at about 4 s and leave the token check on. When A wakes at about 24 s, its write goes out before it notices its validity ran out, and storage accepts it after B's.",
	},
	Solution: core.ActionLog{
		core.At(4*time.Second, core.Pause("A", 20*time.Second)),
	},
}

// believedTogether reports a span in which a and b both believed they led.
func believedTogether(w *World, a, b string) bool {
	for _, iv := range core.Check(w.Sim.Trace, w.Sim.Now()).Overlaps {
		if iv.What == "leader" && slices.Contains(iv.Who, a) && slices.Contains(iv.Who, b) {
			return true
		}
	}
	return false
}

// lateWriteThroughTheFence reports an accepted write from A after one
// from B, decided while the store's token check was on.
func lateWriteThroughTheFence(w *World) bool {
	fencing, bWrote := true, false
	for e := range w.Sim.Trace.All() {
		switch {
		case e.Kind == core.KindSetting && e.Name() == "fencing":
			fencing = e.Value() == "on"
		case e.Kind == core.KindWrite && e.Result() == core.Accepted:
			switch e.From() {
			case "B":
				bWrote = true
			case "A":
				if bWrote && fencing {
					return true
				}
			}
		}
	}
	return false
}
