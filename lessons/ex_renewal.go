package lessons

import (
	"time"

	"leaselab/core"
)

// The seed's first assessment: renew every 5 s, TTL 12 s, pauses up to 9 s.
const (
	exRenewEvery = 5 * time.Second
	exRenewTTL   = 12 * time.Second
	exRenewPause = 9 * time.Second
)

var exRenewal = &Exercise{
	ID:      "renew-ttl-pause",
	Title:   "Renew every 5 s, TTL 12 s, pauses of 9 s: safe?",
	Summary: "Judge a lease policy against a worst-case pause, and show the pause that breaks it.",
	Minutes: 10,
	Brief: []string{
		"A leader keeps its 12 s lease alive by renewing it every 5 s. Its runtime sometimes stops the world for garbage collection, and the longest pause anyone has seen is 9 s. The team argues that 9 is less than 12, so the lease can never lapse while the leader still thinks it leads.",
		"Decide whether that holds. The simulator runs the team's settings with fencing switched off. Pick a moment, click the leader and pause it (9 s, the longest pause seen). If you think it is unsafe, find a pause of at most 9 s that lets the lock change hands while the leader is frozen: that run is your evidence.",
		"Then say which measurements of the real system could change your verdict.",
	},
	Lab: &Lesson{
		ID:    "renew-ttl-pause",
		Title: "Renew every 5 s, TTL 12 s, pauses of 9 s",
		Intro: []string{"A leads with a 12 s lease that it renews every 5 s; B waits. A writes every second and storage does not check tokens. Pause A (9 s) at a moment of your choosing."},
		World: func(seed uint64, _ Knobs) (core.World, error) {
			return core.ContentionConfig{
				Names: []string{"A", "B"}, FirstToken: 1, TTL: exRenewTTL, RenewEvery: exRenewEvery,
				Stagger: 500 * time.Millisecond, WorkEvery: time.Second,
			}.World(seed)
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
			"The key step: pause A just before its first renewal is due, for the whole pause the brief allows. The lease granted at the start then runs out while A still sleeps.",
		},
		Solution: core.ActionLog{core.At(4500*time.Millisecond, core.Pause("A", exRenewPause))},
	},
	Numbers: []Knob{
		{ID: "left", Label: "Lease left when a pause begins just before a renewal", Unit: "s", Min: 0, Max: 12, Step: 0.5, Default: 6},
		{ID: "min-ttl", Label: "Smallest TTL the lease policy rule allows here (whole seconds)", Unit: "s", Min: 1, Max: 40, Step: 1, Default: 12},
		{ID: "pause-max", Label: "Longest pause this policy survives, at any start", Unit: "s", Min: 0, Max: 20, Step: 0.1, Default: 9},
		{ID: "ttl-safe", Label: "Smallest TTL safe for 9 s pauses, renewing every 5 s", Unit: "s", Min: 1, Max: 40, Step: 1, Default: 12,
			Whole: "etcd grants leases in whole seconds"},
		{ID: "renew-safe", Label: "Longest renewal interval safe for 9 s pauses, TTL 12 s", Unit: "s", Min: 0.1, Max: 12, Step: 0.1, Default: 5},
	},
	KeyPoints: []string{
		"A pause can begin when the last renewal is almost a whole interval old, so it races 7 s of lease, not 12 s.",
		"The lease policy rule asks for more than 2 × 5 + 9 = 19 s of TTL; 12 s fails it by 7 s.",
		"The verdict rests on the worst pause and the renewal path (pause tail, keepalive latency, coordinator delays, clock drift), not on averages.",
		"Fencing the resource turns a lapse into a rejected write.",
	},
	Hints: []string{
		"9 < 12 compares the pause with a fresh lease. Is the lease always fresh when a pause begins?",
		"The renewal before the pause sets the expiry. How long before the next renewal can a pause begin, and how much lease is left then?",
		"The key step: a pause that starts just before a renewal is due finds the lease a whole renewal interval old, so it has the TTL less one interval left, not the whole TTL. Compare that with the pause, and pause A late in a cycle, long enough to cover the coordinator's next sweep too.",
	},
	Questions: []Question{
		{ID: "verdict", Text: "Is the lease safe under these settings?", Options: []Option{
			{"safe", "Safe"},
			{"unsafe", "Unsafe"},
		}},
	},
	ChainText: "Explain with your run: pick, in order, the events of your breaking run that show how the lock changed hands while the leader slept.",
	Reference: Answer{
		Numbers:  map[string]float64{"left": 7, "min-ttl": 20, "pause-max": 7.5, "ttl-safe": 14, "renew-safe": 3.2},
		Choices:  map[string][]string{"verdict": {"unsafe"}},
		Schedule: core.ActionLog{core.At(4500*time.Millisecond, core.Pause("A", exRenewPause))},
		// A's lease as granted, A's pause, the coordinator's expiry, B's
		// acquisition (see TestRenewalReferenceChain).
		Chain: []int{3, 31, 41, 45},
	},
	Worked: []string{
		"Unsafe. A pause does not begin at the instant of a renewal. When it begins, the last successful renewal can already be almost 5 s old, so the lease has only about 7 s left, and a 9 s pause outlives it by 2 s. The coordinator then hands the lock to B while A, frozen, still believes it leads; when A wakes, its queued work runs before it notices anything.",
		"The lease policy rule (2 × renew + pause budget < TTL) says the same with margin: it needs more than 2 × 5 + 9 = 19 s, and the TTL is 12 s. Safe settings would be a TTL of 20 s or more with these renewals, or renewals every second with this TTL (2 × 1 + 9 = 11 s < 12 s).",
		"The simulator draws the lines, each found by trying every moment of the renewal cycle: the longest pause this policy survives is about 7.5 s (the 7 s of lease left at the worst moment, plus the coordinator's half-second sweep); 9 s pauses become safe with a TTL of 14 s when renewing every 5 s, or when renewing every 3.3 s or less with the 12 s TTL. The rule's 20 s is larger on purpose: it leaves room for a lost renewal.",
		"What could change the verdict is anything that moves the real worst case: the tail of the pause distribution (if 9 s was a fluke and the true maximum is 1 s), how long keepalives take and retry, delays inside the coordinator, and clock rate drift between client and coordinator. Averages, lease IDs and key counts say nothing about the worst moment.",
		"Whatever the numbers, fencing the protected resource turns a lapse like this from corruption into a rejected write.",
	},
	Format: `{
  "choices": {
    "verdict": ["safe" | "unsafe"]
  },
  "numbers": { "left": <seconds>, "min-ttl": <seconds>, "pause-max": <seconds>,
               "ttl-safe": <whole seconds>, "renew-safe": <seconds> },
  "schedule": [ {"at": "<time>", "do": "pause", "proc": "A" | "B", "for": "<up to 9s>"} ],
  "chain": [ <event number>, ... ],
  "defence": "your reasoning in a few sentences (kept, not graded)"
}
left: seconds of lease left when a pause begins just before a renewal is due;
min-ttl: the smallest TTL the lease policy rule allows for these renewals and
pauses.
pause-max, ttl-safe, renew-safe: what would change the verdict, as numbers
you work out: the longest pause this policy survives whenever it begins; the
smallest TTL with which 9 s pauses are safe, renewing every 5 s; the longest
renewal interval with which they are, TTL 12 s. Each is checked against the
threshold the lab finds by searching the simulator (every moment of the
renewal cycle), within 0.5 s.
chain: the event numbers (seq) of your run, in the order they happened, that
explain how the lock changed hands while the leader slept: each step must
lead to the next in your run, and the chain must hold every link the
argument needs. labctl exercise renew-ttl-pause --events FILE prints the
events your answer's schedule makes, each with its number; the page and the
desktop list your run's events.
The schedule is the run that breaks the lease: pauses only, each at most 9 s,
of process A or B, within the first 60 s.`,
}

func init() {
	exRenewal.start = checkRenewal
	exRenewal.ChainRun = func(log core.ActionLog) (*World, error) { return exRenewal.Lab.Evaluate(1, log) }
}

func checkRenewal(a Answer) Job {
	run, w := judgeRenewalSchedule(a.Schedule)
	parts := []Feedback{
		judgeRenewalVerdict(a, run.OK),
		run,
		judgeRenewalLeft(a),
		judgeRenewalMinTTL(a),
		judgeRenewalChain(a.Chain, w),
	}
	return &thresholdJob{a: a, parts: parts}
}

// thresholdJob judges exercise 1's thresholds one per step: each may need
// its search on the simulator first (about half a second, once), so a
// front end shows progress between them.
type thresholdJob struct {
	a     Answer
	parts []Feedback
	next  int
}

func (j *thresholdJob) Step(int) bool {
	if j.next < len(renewalThresholds) {
		j.parts = append(j.parts, judgeThreshold(j.a, renewalThresholds[j.next]))
		j.next++
	}
	return j.next == len(renewalThresholds)
}

func (j *thresholdJob) Progress() float64 {
	return float64(j.next) / float64(len(renewalThresholds))
}

func (j *thresholdJob) Result() Result { return result(j.parts) }
