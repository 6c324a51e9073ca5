package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// The seed's first assessment: renew every 5 s, TTL 12 s, pauses up to 9 s.
const (
	exRenewEvery = 5 * time.Second
	exRenewTTL   = 12 * time.Second
	exRenewPause = 9 * time.Second
)

// leaseExpiryAt returns when proc's lease expired at the coordinator as of
// time t: the expiry its last grant or renewal before t set.
func leaseExpiryAt(w *World, proc string, t time.Duration) (time.Duration, bool) {
	var exp time.Duration
	found := false
	for _, e := range w.Sim.Trace.Events {
		if e.At > t {
			break
		}
		if (e.Kind == core.KindLeaseGrant || e.Kind == core.KindLeaseRenew) && e.Get("owner") == proc && e.Get("expiry_ms") != "" {
			exp, found = time.Duration(e.Int("expiry_ms"))*time.Millisecond, true
		}
	}
	return exp, found
}

// leaderPauseBreak finds a pause of a leader, no longer than limit, during
// which the coordinator gave the lock to someone else: the schedule that
// breaks the lease. It returns that pause, or the first leader pause (and
// false) to explain a miss.
func leaderPauseBreak(w *World, limit time.Duration) (pauseSpan, bool, bool) {
	var first pauseSpan
	seen := false
	for _, p := range pauses(w) {
		if !p.Leader || p.For > limit {
			continue
		}
		to := p.To
		if to < 0 {
			to = w.Sim.Now()
		}
		if handoverDuring(w, "locks/leader", p.Proc, p.From, to) != nil {
			return p, true, true
		}
		if !seen {
			first, seen = p, true
		}
	}
	return first, seen, false
}

var exRenewal = &Exercise{
	ID:    "renew-ttl-pause",
	Title: "Renew every 5 s, TTL 12 s, pauses of 9 s: safe?",
	Brief: []string{
		"A leader keeps its 12 s lease alive by renewing it every 5 s. Its runtime sometimes stops the world for garbage collection, and the longest pause anyone has seen is 9 s. The team argues that 9 is less than 12, so the lease can never lapse while the leader still thinks it leads.",
		"Decide whether that holds. The simulator runs the team's settings with fencing switched off. Pick a moment, click the leader and pause it (9 s, the longest pause seen). If you think it is unsafe, find a pause of at most 9 s that lets the lock change hands while the leader is frozen: that run is your evidence.",
		"Then say which measurements of the real system could change your verdict.",
	},
	Lab: &Lesson{
		ID:    "renew-ttl-pause",
		Title: "Renew every 5 s, TTL 12 s, pauses of 9 s",
		Intro: []string{"A leads with a 12 s lease that it renews every 5 s; B waits. A writes every second and storage does not check tokens. Pause A (9 s) at a moment of your choosing."},
		Setup: func(seed uint64, _ Knobs) (*core.Sim, error) {
			return core.NewContention(seed, core.ContentionConfig{
				Names: []string{"A", "B"}, FirstToken: 1, TTL: exRenewTTL, RenewEvery: exRenewEvery,
				Stagger: 500 * time.Millisecond, WorkEvery: time.Second,
			})
		},
		Duration: 60 * time.Second,
		Controls: []Control{CtlPause},
		PauseFor: exRenewPause,
		Goals: []Goal{
			{
				ID: "paused", Text: "Pause the leader for 9 s.",
				Proved: "The leader froze for 9 s. Whether that hurt depends on when the pause began.",
				Met: func(w *World) bool {
					_, seen, _ := leaderPauseBreak(w, exRenewPause)
					return seen
				},
			},
			{
				ID: "broken", Text: "Make the lock change hands while the frozen leader still believes it leads.",
				Proved: "The coordinator expired the lease during a pause of no more than 9 s and handed the lock on: two processes believed they led at once.",
				Met: func(w *World) bool {
					_, _, broke := leaderPauseBreak(w, exRenewPause)
					return broke
				},
			},
		},
		Hints: []string{
			"A pause that starts right after a renewal ends with 3 s of lease to spare. Which moment leaves the least?",
			"The last renewal before the pause sets the expiry. Start the pause late in the 5 s cycle.",
			"Pause A at about 4.5 s, just before its first renewal is due at 5 s: the lease granted at 0 s expires at 12 s, while A sleeps until 13.5 s.",
		},
		Solution: core.ActionLog{core.At(4500*time.Millisecond, core.Action{Do: "pause", Proc: "A", For: core.Duration(exRenewPause)})},
	},
	Questions: []Question{
		{ID: "verdict", Text: "Is the lease safe under these settings?", Options: []Option{
			{"safe", "Safe: a 9 s pause is shorter than the 12 s TTL"},
			{"unsafe", "Unsafe: a 9 s pause can outlive the lease"},
		}},
		{ID: "measurements", Multi: true, Text: "Which measurements of the real system could change the verdict? Pick every one that could.", Options: []Option{
			{"pause-tail", "The tail of the pause distribution (p99.9 and the maximum)"},
			{"mean-pause", "The average garbage-collection pause"},
			{"renew-latency", "Keepalive round-trip time, including retries"},
			{"coord-latency", "Coordinator-side delay: slow disk syncs, its own leader elections"},
			{"clock-drift", "How fast the client's clock runs against the coordinator's"},
			{"lease-id", "The lease IDs the coordinator hands out"},
			{"key-count", "How many keys the coordinator stores"},
		}},
	},
	Reference: Answer{
		Choices: map[string][]string{
			"verdict":      {"unsafe"},
			"measurements": {"pause-tail", "renew-latency", "coord-latency", "clock-drift"},
		},
		Schedule: core.ActionLog{core.At(4500*time.Millisecond, core.Action{Do: "pause", Proc: "A", For: core.Duration(exRenewPause)})},
	},
	Worked: []string{
		"Unsafe. A pause does not begin at the instant of a renewal. When it begins, the last successful renewal can already be almost 5 s old, so the lease has only about 7 s left, and a 9 s pause outlives it by 2 s. The coordinator then hands the lock to B while A, frozen, still believes it leads; when A wakes, its queued work runs before it notices anything.",
		"The seed's rule says the same with margin: 2 × renew + pause budget ≤ TTL needs 2 × 5 + 9 = 19 s, and the TTL is 12 s. Safe settings would be a TTL of at least 19 s with these renewals, or renewals every 1.5 s with this TTL.",
		"What could change the verdict is anything that moves the real worst case: the tail of the pause distribution (if 9 s was a fluke and the true maximum is 1 s), how long keepalives take and retry, delays inside the coordinator, and clock rate drift between client and coordinator. Averages, lease IDs and key counts say nothing about the worst moment.",
		"Whatever the numbers, fencing the protected resource turns a lapse like this from corruption into a rejected write.",
	},
	Format: `{
  "choices": {
    "verdict": ["safe" | "unsafe"],
    "measurements": [any of "pause-tail", "mean-pause", "renew-latency",
                     "coord-latency", "clock-drift", "lease-id", "key-count"]
  },
  "schedule": [ {"at": "4.5s", "do": "pause", "proc": "A", "for": "9s"} ]
}
The schedule is the run that breaks the lease: pauses only, each at most 9 s,
of process A or B, within the first 60 s.`,
}

func init() { exRenewal.start = checkRenewal }

func checkRenewal(a Answer) Job {
	parts := []Feedback{
		judgeChoice(a, "Verdict", "verdict", "unsafe", map[string]string{
			"":       "Decide whether a 9 s pause can outlive a 12 s lease renewed every 5 s.",
			"safe":   "9 s is less than 12 s, but the pause does not start at a renewal. The lease can be almost 5 s old when the pause begins, and 5 + 9 = 14 s is more than 12 s. The policy rule asks 2 × 5 + 9 = 19 s ≤ 12 s, which fails by 7 s.",
			"unsafe": "Right: the last renewal can be nearly 5 s old when a 9 s pause begins, and 5 + 9 = 14 s outlives the 12 s lease. The policy rule (2 × 5 + 9 = 19 s ≤ 12 s) fails by 7 s.",
		}),
		judgeRenewalSchedule(a.Schedule),
		judgeSet(a, "Measurements", "measurements", []string{"pause-tail", "renew-latency", "coord-latency", "clock-drift"}, map[string]string{
			"pause-tail":    "The pause tail: the verdict rests on the longest pause, so a different maximum changes it.",
			"mean-pause":    "The average pause: it hides the one long pause that does the damage.",
			"renew-latency": "Keepalive round trips: a slow or retried renewal makes the lease older when a pause begins.",
			"coord-latency": "Coordinator delays: a stalled coordinator renews late, or expires on a clock the client cannot see.",
			"clock-drift":   "Clock drift: the client times its lease with its own clock; if it runs slow, it believes in the lease longer than the coordinator does.",
			"lease-id":      "Lease IDs: they are random names, not times or an order.",
			"key-count":     "The key count: it does not move any deadline.",
		}),
	}
	return finished(parts)
}

// judgeRenewalSchedule replays the learner's schedule and says whether it
// broke the lease, and if not, why not.
func judgeRenewalSchedule(log core.ActionLog) Feedback {
	const part = "Breaking schedule"
	if len(log) == 0 {
		return Feedback{Part: part, Why: "No schedule: pause the leader in the simulator and use that run as your evidence."}
	}
	for _, t := range log {
		if t.Do != "pause" {
			return Feedback{Part: part, Why: fmt.Sprintf("The schedule may only pause processes (it has %q at %s): the question is what a pause alone can do.", t.Do, core.FormatTime(t.At.D()))}
		}
		if t.For.D() > exRenewPause {
			return Feedback{Part: part, Why: fmt.Sprintf("A %s pause proves nothing here: the longest pause this system shows is 9 s.", secs(t.For.D()))}
		}
	}
	w, err := exRenewal.Lab.Evaluate(1, log)
	if err != nil {
		return Feedback{Part: part, Why: "The schedule could not run: " + err.Error()}
	}
	p, seen, broke := leaderPauseBreak(w, exRenewPause)
	switch {
	case broke:
		exp, _ := leaseExpiryAt(w, p.Proc, p.From)
		return Feedback{Part: part, OK: true, Why: fmt.Sprintf("%s froze at %s with its lease due to expire at %s, only %s later; the %s pause outlived it and the lock changed hands while %s slept.",
			p.Proc, core.FormatTime(p.From), core.FormatTime(exp), secs(exp-p.From), secs(p.For), p.Proc)}
	case !seen:
		return Feedback{Part: part, Why: "None of the pauses froze the leader: pausing a waiting process cannot break the leader's lease."}
	default:
		exp, ok := leaseExpiryAt(w, p.Proc, p.From)
		if !ok {
			return Feedback{Part: part, Why: "The pause did not outlive the lease. Start it later in the renewal cycle, just before a renewal is due."}
		}
		return Feedback{Part: part, Why: fmt.Sprintf("%s froze at %s but its lease ran until %s, %s later, longer than the %s pause: it woke and renewed in time. Start the pause later in the 5 s renewal cycle, just before a renewal is due.",
			p.Proc, core.FormatTime(p.From), core.FormatTime(exp), secs(exp-p.From), secs(p.For))}
	}
}
