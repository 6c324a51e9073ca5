package lessons

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// Two locks on one coordinator, five contenders each: the left lane runs
// the naive recipe where every waiter watches the whole lock; the right
// lane runs the recipe the knob picks (etcd by default).
const (
	herdLock  = "locks/herd"
	queueLock = "locks/queue"
)

var (
	herdNames  = []string{"H1", "H2", "H3", "H4", "H5"}
	queueNames = []string{"Q1", "Q2", "Q3", "Q4", "Q5"}
)

// handoverWake is what one holder's departure woke: the waiters whose
// watches fired when the holder's key was deleted.
type handoverWake struct {
	At      time.Duration
	Waiters int      // contenders still queued when the key went
	Woken   []string // watchers notified by that deletion
	Next    string   // the lock's next holder ("" if none yet)
}

// wakes lists, for every deletion of lock's holding key, who it woke.
func wakes(w *World, lock string) []handoverWake {
	var out []handoverWake
	holderKey, next := "", -1
	live := map[string]bool{}
	tr := w.Sim.Trace
	for e := range tr.All() {
		key := e.Key()
		switch {
		case e.Kind == core.KindPut && strings.HasPrefix(key, lock+"/"):
			live[key] = true
		case e.Kind == core.KindHolder && e.Lock() == lock:
			holderKey = key
			if next >= 0 {
				out[next].Next = e.Owner()
				next = -1
			}
		case e.Kind == core.KindDelete && strings.HasPrefix(key, lock+"/"):
			delete(live, key)
			if key != holderKey {
				continue
			}
			hw := handoverWake{At: e.At, Waiters: len(live)}
			// The deletion's notifications follow it at the same instant.
			for f := range tr.Span(e.Seq+1, tr.Len()) {
				if f.At != e.At || f.Kind == core.KindDelete {
					break
				}
				if f.Kind == core.KindWatchFire && f.Key() == key {
					hw.Woken = append(hw.Woken, f.Watcher())
				}
			}
			out = append(out, hw)
			next = len(out) - 1
		}
	}
	return out
}

// queueRecipe is the right lane's recipe.
func queueRecipe(k Knobs) core.Recipe { return core.Recipe(int(k["recipe"])) }

var electionOrder = &Lesson{
	ID:        "election-order",
	Title:     "Who wakes: predecessor watches, herds, fair queues",
	Objective: "Compare who wakes when a holder dies: everyone, or only the next in line.",
	Summary:   "Herds against predecessor watches, and the order a queue hands the lock on.",
	Minutes:   8,
	Intro: []string{
		"Two locks share one coordinator, five contenders on each. Each contender creates a key under the lock, tied to its session; the key created first holds the lock. The two lanes differ only in what the waiters watch while they wait.",
		"On the left, every waiter watches the whole lock. Any change wakes all of them, they all re-read the lock, and all but one go back to sleep: the herd effect. With thousands of clients that is thousands of requests for one handover.",
		"On the right, by default, is etcd's recipe: the key is <lock>/<lease id>, the holder is the key with the smallest create revision, and each waiter watches only the key created just before its own. ZooKeeper's recipe (recipe slider at 1) is the same idea with sequential nodes lock-0000000000, lock-0000000001...: each contender watches its predecessor. A departure wakes exactly one process, and the lock passes down the queue in the order the keys were created, a fair queue. Fairness is a bonus, not the point: many lock services do not promise first come, first served, since retries, watches and expiring sessions race, and what must always hold is safety: one holder at a time, each fenced by its token. Tokens here are create revisions, so they grow with every change on the coordinator, not by one.",
	},
	Recap: "Watching the predecessor makes each handover cost one wake-up and gives a first-come, first-served queue ordered by create revision (or sequence number). Watching the lock itself costs a wake-up per waiter per change and buys nothing. Either way the order and the token come from the coordinator's revisions, never from the clients.",
	World: func(seed uint64, k Knobs) (core.World, error) {
		w := core.World{Seed: seed, Coordinator: core.CoordinatorSpec{TokenSource: core.TokenRevision}}
		lanes := []struct {
			lock   string
			recipe core.Recipe
			names  []string
		}{{herdLock, core.RecipeHerd, herdNames}, {queueLock, queueRecipe(k), queueNames}}
		for _, lane := range lanes {
			for i, n := range lane.names {
				w.Processes = append(w.Processes, core.ProcessConfig{
					Name: n, Lock: lane.lock, Recipe: lane.recipe, TTL: 10 * time.Second,
					StartAt: time.Duration(i) * 200 * time.Millisecond,
				})
			}
		}
		return w, nil
	},
	Knobs: []Knob{
		{ID: "recipe", Label: "Right lane recipe (0 etcd, 1 ZooKeeper, 2 herd)", Min: 0, Max: 2, Step: 1, Default: 0},
	},
	KnobCheck: func(k Knobs) (bool, string) {
		r := queueRecipe(k)
		return r != core.RecipeHerd, fmt.Sprintf("right lane: %s recipe", r)
	},
	Duration:      45 * time.Second,
	Controls:      []Control{CtlCrash, CtlPause},
	PauseFor:      20 * time.Second,
	SandboxPreset: "election",
	Goals: []Goal{
		{
			ID:     "herd",
			Text:   "Crash the holder of the left lock (H1) and count who wakes when its key is deleted.",
			Proved: "One deleted key woke every waiter on the left: each re-read the lock and all but the next holder went back to sleep.",
			Met: func(w *World) bool {
				for _, hw := range wakes(w, herdLock) {
					if hw.Waiters >= 2 && len(hw.Woken) == hw.Waiters {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "one-wake",
			Text:   "Crash Q1, the right lock's holder: exactly one waiter should wake, the next holder.",
			Proved: "Only the successor was watching the deleted key, so one notification went out and it went to the new holder.",
			Met: func(w *World) bool {
				for _, hw := range wakes(w, queueLock) {
					if hw.Waiters >= 2 && len(hw.Woken) == 1 && hw.Woken[0] == hw.Next {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "fair",
			Text:   "Crash its new holder too: the lock passes down the queue by create revision.",
			Proved: "Three holders in a row, each the oldest key left, each fenced by its own create revision: etcd's fair queue.",
			Met: func(w *World) bool {
				hs := handovers(w, queueLock)
				if len(hs) < 3 {
					return false
				}
				for i, h := range hs {
					if h.Token() != h.CreateRev() || (i > 0 && h.CreateRev() <= hs[i-1].CreateRev()) {
						return false
					}
				}
				return true
			},
		},
	},
	Hints: []string{
		"A crashed holder's key disappears only when its lease lapses, up to 10 s later. Watch the wake-up counts at that moment.",
		"Crash H1 and Q1 early, then crash whoever holds the right lock next (Q2) once it leads.",
		"Keep the recipe at 0 (etcd). At 3 s crash H1 and Q1; at 20 s crash Q2. Q3 then holds with the next create revision.",
	},
	Solution: core.ActionLog{
		core.At(3*time.Second, core.Crash("H1")),
		core.At(3*time.Second, core.Crash("Q1")),
		core.At(20*time.Second, core.Crash("Q2")),
	},
}
