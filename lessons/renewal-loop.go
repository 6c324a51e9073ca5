package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// Leadership flapping with nobody paused: the leader's renewal runs on the
// same loop as its work, so under load it waits behind a unit of work and
// the lease lapses. Two report processes elect a leader on etcd; the
// leader does a unit of work every 10 s that keeps its loop busy for the
// "work" knob's seconds, and renews every 2 s (a loop around KeepAliveOnce).
const (
	loopLock    = "locks/report"
	loopRenew   = 2 * time.Second
	loopWorkGap = 10 * time.Second
	loopMinute  = 60 * time.Second
	loopWork    = 7.0                    // the brief's work unit, in seconds: the fix must keep it
	loopPrompt  = 50 * time.Millisecond  // a renewal on its own task leaves within this of its due time
	loopTTL     = 6.0                    // the default TTL, in seconds
	loopStart   = 300 * time.Millisecond // report-2 starts campaigning this long after report-1
	loopFreeze  = 8 * time.Second        // the pause button's freeze: longer than the default TTL
)

var loopNames = []string{"report-1", "report-2"}

func renewalLoopWorld(seed uint64, k Knobs) (core.World, error) {
	ttl := k.Seconds("ttl")
	if ttl <= loopRenew {
		return core.World{}, fmt.Errorf("a %s TTL with renewals every %s: every lease would lapse before its renewal", secs(ttl), secs(loopRenew))
	}
	w := core.World{Seed: seed, Resources: []core.Resource{core.RegisterResource("reports", true)}}
	for i, n := range loopNames {
		w.Processes = append(w.Processes, core.ProcessConfig{
			Name: n, Lock: loopLock, TTL: ttl, RenewEvery: loopRenew, Target: "reports",
			StartAt:   time.Duration(i) * loopStart,
			WorkEvery: loopWorkGap, WorkTakes: k.Seconds("work"), RenewOnWorkLoop: k["task"] < 1,
		})
	}
	return w, nil
}

// renewalDelays reads the renewals of the first minute from the trace:
// the longest one waited past its due time (counting one still waiting
// at the play head), whether one never went out, and how many ran.
type renewalDelays struct {
	Worst time.Duration
	Never int
	Count int
}

func loopDelays(w *World) renewalDelays {
	return cached(w, "renewal-delays", func() renewalDelays {
		var d renewalDelays
		for e := range w.ofKind(core.KindRenewal) {
			if e.At > loopMinute {
				break
			}
			d.Count++
			d.Worst = max(d.Worst, e.Late())
			if e.Result() == core.RenewalNever {
				d.Never++
			}
		}
		if w.Sim.Now() <= loopMinute {
			for _, p := range w.Sim.Processes() {
				if wait, ok := p.RenewalWaiting(); ok {
					d.Worst = max(d.Worst, wait.Truncate(time.Millisecond))
				}
			}
		}
		return d
	})
}

// loopHolders counts the times the report lock changed hands (or fell
// free) in the first minute, after its first holder.
func loopHolders(w *World) int {
	return cached(w, "report-holders", func() int {
		n := 0
		for e := range w.Sim.Trace.All() {
			if e.At > loopMinute {
				break
			}
			if (e.Kind == core.KindHolder || e.Kind == core.KindFree) && e.Lock() == loopLock {
				n++
			}
		}
		return max(0, n-1)
	})
}

var renewalLoop = &Lesson{
	ID:        "renewal-loop",
	Title:     "Leadership flapping: a renewal stuck behind work",
	Objective: "Find why the leader keeps losing its lease with nobody paused, and fix the cause.",
	Summary:   "Under load the leader loses its lease although it never froze. Measure the renewals.",
	Minutes:   8,
	Intro: []string{
		"report-1 and report-2 elect a leader for the report job on etcd with a 6 s lease, renewed every 2 s. The leader does a unit of work every 10 s, and under today's load each unit keeps it busy for 7 s. Nobody pauses and nothing crashes, yet the lock keeps moving from one process to the other: leadership flaps.",
		"Look at when each renewal leaves. The application calls its renewal from the same loop that runs the work, so a renewal that falls due during a unit waits until the unit ends. To the coordinator a late renewal looks exactly like a frozen process: 2 s after the last one, plus 7 s of waiting, is longer than the TTL, so the lease expires while its owner is busy and alive.",
		"The goals show the worst delay measured in this run. A longer TTL hides the delay until the load grows again; splitting the work changes the application. The lasting fix is to renew from a small task of its own that nothing else can hold up, which is what etcd's own KeepAlive does in its goroutine. The sliders set the TTL, how long a unit of work takes, and where the renewal runs.",
	},
	Recap: "The leader flapped because its renewals waited behind its own work: each unit of work held the renewal back for seconds, and the coordinator cannot tell a late renewal from a frozen or dead process. A renewal on its own task left on time whatever the load, so one leader kept the lock with the TTL unchanged. Measure renewal delay directly: it shows the cause before the lease is lost, where a longer TTL only hides it.",
	World: renewalLoopWorld,
	Knobs: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 3, Max: 30, Step: 1, Default: loopTTL},
		{ID: "work", Label: "Work unit takes", Unit: "s", Min: 1, Max: 9, Step: 0.5, Default: loopWork},
		{ID: "task", Label: "Renew: work loop 0 / own task 1", Unit: "", Min: 0, Max: 1, Step: 1, Default: 0},
	},
	KnobCheck: func(k Knobs) (bool, string) {
		ttl, work, own := k.Seconds("ttl"), k.Seconds("work"), k["task"] >= 1
		if ttl <= loopRenew {
			return false, "The TTL must be over the 2 s renewal period."
		}
		if own {
			return true, fmt.Sprintf("Renewals on their own task leave on time: every %s, whatever the %s units of work, against a %s TTL.", secs(loopRenew), secs(work), secs(ttl))
		}
		gap := loopRenew + work
		if gap >= ttl {
			return false, fmt.Sprintf("On the work loop a renewal can wait %s behind a unit: up to %s without one, against a %s TTL.", secs(work), secs(gap), secs(ttl))
		}
		return false, fmt.Sprintf("On the work loop a renewal can wait %s behind a unit: up to %s without one, under the %s TTL, but the delay is still there.", secs(work), secs(gap), secs(ttl))
	},
	SolutionKnobs: Knobs{"task": 1},
	Solution:      core.ActionLog{core.At(65*time.Second, core.Pause("report-1", loopFreeze))},
	Duration:      90 * time.Second,
	Controls:      []Control{CtlPause, CtlCrash},
	PauseFor:      loopFreeze,
	Goals: []Goal{
		{
			ID:     "steady",
			Text:   "Stop the flapping: one report leader for the whole first minute, with units of work still taking 7 s or more.",
			Proved: "One leader held the lock for the whole minute under the full load.",
			Met: func(w *World) bool {
				return w.Sim.Now() >= loopMinute && w.Knobs["work"] >= loopWork && loopHolders(w) == 0
			},
			Measure: func(w *World) string {
				switch n := loopHolders(w); n {
				case 0:
					return ""
				case 1:
					return "the lock changed hands once so far"
				default:
					return fmt.Sprintf("the lock changed hands %d times so far", n)
				}
			},
		},
		{
			ID:     "prompt",
			Text:   "Fix the cause: in that minute, every renewal leaves within 50 ms of falling due.",
			Proved: "Every renewal left on time: nothing the leader did could hold it up.",
			Met: func(w *World) bool {
				d := loopDelays(w)
				return w.Sim.Now() >= loopMinute && w.Knobs["work"] >= loopWork && d.Count > 0 && d.Never == 0 && d.Worst <= loopPrompt
			},
			Measure: func(w *World) string {
				d := loopDelays(w)
				switch {
				case d.Count == 0:
					return ""
				case d.Never > 0:
					return fmt.Sprintf("worst renewal delay %s; %d never left", durText(d.Worst), d.Never)
				}
				return "worst renewal delay " + durText(d.Worst)
			},
		},
		{
			ID:     "frozen",
			Text:   "Then, after the minute, freeze the leader for longer than its TTL: a renewal task cannot renew for a frozen process.",
			Proved: "The frozen leader's renewal task froze with it, the lease expired and the lock moved: a dedicated task cures starvation, not a stop-the-world pause, which still needs fencing.",
			Met: func(w *World) bool {
				for _, sp := range pauses(w) {
					end := sp.To
					if end < 0 {
						end = w.Sim.Now()
					}
					if sp.Leader && sp.From >= loopMinute && sp.For > w.Knobs.Seconds("ttl") && lockChanged(w, loopLock, sp.From, end) {
						return true
					}
				}
				return false
			},
		},
	},
	Hints: []string{
		"Look at the renewals around each lease expiry: when did the last one before it leave, and what was the leader doing meanwhile?",
		"Each unit of work holds the renewal back for as long as the unit runs. A TTL over 2 s + 7 s stops the expiries but not the delay. Where else could the renewal run?",
		"Set the renewal to its own task (1) and leave the TTL and the work as they are, then play past 60 s. At 65 s pause report-1 (8 s, longer than the 6 s TTL).",
	},
}

// durText writes a measured delay to the millisecond below a second, and
// to a tenth of a second above.
func durText(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
