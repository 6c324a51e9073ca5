package lessons

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// The seed's first assessment: renew every 5 s, TTL 12 s, pauses up to 9 s.
const (
	exRenewEvery = 5 * time.Second
	exRenewTTL   = 12 * time.Second
	exRenewPause = 9 * time.Second
)

// leaseExpiryAt returns the coordinator's grant or renewal of proc's lease
// in force at time t: the last one before t, whose expiry_ms is when the
// lease runs out unless renewed again.
func leaseExpiryAt(w *World, proc string, t time.Duration) (core.Event, bool) {
	var last core.Event
	found := false
	for _, e := range w.Sim.Trace.Events {
		if e.At > t {
			break
		}
		if (e.Kind == core.KindLeaseGrant || e.Kind == core.KindLeaseRenew) && e.Owner() == proc && e.Format(core.FExpiry) != "" {
			last, found = e, true
		}
	}
	return last, found
}

// leaseDuring returns the coordinator's grant or renewal of p.Proc's lease
// in force when pause p ended (or at the end of the run): the one in force
// when it froze, or a renewal the process sent before freezing that
// reached the coordinator during the pause, before the lease ran out, and
// moved its end.
func leaseDuring(w *World, p pauseSpan) (core.Event, bool) {
	g, ok := leaseExpiryAt(w, p.Proc, p.From)
	if !ok {
		return g, false
	}
	tr := w.Sim.Trace.Events
	end := len(tr)
	if p.ToSeq >= 0 {
		end = p.ToSeq
	}
	for i := p.Seq + 1; i < end; i++ {
		e := tr[i]
		if e.Kind == core.KindLeaseRenew && e.Owner() == p.Proc && e.Format(core.FExpiry) != "" &&
			e.At < expiryOf(g) && expiryOf(e) > e.At {
			g = e
		}
	}
	return g, true
}

// lostDuring reports whether pause p is the one that cost p.Proc the lease
// handed on at h: the lease that h followed ran out after p began, and no
// later pause of the process had begun by then. An earlier, harmless pause
// is never credited with a loss another pause caused.
func lostDuring(w *World, p pauseSpan, h *core.Event) bool {
	g, ok := leaseExpiryAt(w, p.Proc, h.At)
	if !ok {
		return false
	}
	lapse := expiryOf(g)
	if p.From >= lapse {
		return false
	}
	for _, q := range pauses(w) {
		if q.Proc == p.Proc && q.Seq > p.Seq && q.From < lapse {
			return false
		}
	}
	return true
}

func expiryOf(e core.Event) time.Duration {
	return e.Expiry()
}

// leaderPauseBreak finds a pause of a leader, no longer than limit, during
// which the coordinator gave the lock to someone else while the paused
// process still believed it led: the schedule that breaks the lease. It
// returns that pause, or the leader pause that came closest (and false) to
// explain a miss.
func leaderPauseBreak(w *World, limit time.Duration) (pauseSpan, bool, bool) {
	var first pauseSpan
	seen := false
	for _, p := range pauses(w) {
		if !p.Leader || p.For > limit {
			continue
		}
		if h := handoverWhileLeading(w, p); h != nil && lostDuring(w, p, h) {
			return p, true, true
		}
		// Explain the miss that came closest: the pause that left the
		// least lease time at its end.
		if !seen || slack(w, p) < slack(w, first) {
			first, seen = p, true
		}
	}
	return first, seen, false
}

// stepDown is p.Proc's first change of state away from leader after pause
// p began, or nil: from then on it no longer believed it led.
func stepDown(w *World, p pauseSpan) *core.Event {
	tr := w.Sim.Trace.Events
	for i := p.Seq + 1; i < len(tr); i++ {
		if e := &tr[i]; e.Kind == core.KindState && e.Actor == p.Proc && e.From() == core.Leader.String() {
			return e
		}
	}
	return nil
}

// handoverWhileLeading is the first holder change of the leader lock to
// someone else after pause p began and before p.Proc stepped down, or nil.
// It goes by the trace's order, not its clock: a handover and a wake in
// the same millisecond overlap two leaders only if the handover came
// first, or the woken process had not yet noticed.
func handoverWhileLeading(w *World, p pauseSpan) *core.Event {
	end := len(w.Sim.Trace.Events)
	if d := stepDown(w, p); d != nil {
		end = d.Seq
	}
	for _, e := range handovers(w, "locks/leader") {
		if e.Seq > p.Seq && e.Seq < end && e.Owner() != p.Proc {
			return &e
		}
	}
	return nil
}

// slack is how long proc's lease outlived pause p (negative: it ran out
// before the process woke).
func slack(w *World, p pauseSpan) time.Duration {
	g, ok := leaseDuring(w, p)
	if !ok {
		return 1 << 62
	}
	return expiryOf(g) - p.wake(w)
}

// wake is when the pause ended, or the end of the run if it had not.
func (p pauseSpan) wake(w *World) time.Duration {
	if p.To < 0 {
		return w.Sim.Now()
	}
	return p.To
}

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
argument needs. labctl run renew-ttl-pause --actions FILE --format jsonl
prints each event's seq; the page and the desktop list your run's events.
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

// judgeRenewalChain judges the learner's explanation in their own run:
// the links it needs are the lease's last renewal before the pause, the
// pause, the coordinator's expiry and the rival's acquisition.
func judgeRenewalChain(chain []int, w *World) Feedback {
	if w == nil {
		return Feedback{Part: chainPart, Why: "Your schedule gave no run to explain yet: build the run that breaks the lease first, then tell its story."}
	}
	p, _, broke := leaderPauseBreak(w, exRenewPause)
	if !broke {
		return Feedback{Part: chainPart, Why: "Your run did not lose the lease during a pause, so there is no failure to explain yet: build the breaking run first, then tell its story."}
	}
	return judgeChain(w, chain, renewalChainRoles(w, p, handoverWhileLeading(w, p)))
}

// renewalChainRoles are the links of exercise 1's argument in run w, in
// which the lock went to another at h during pause p.
func renewalChainRoles(w *World, p pauseSpan, h *core.Event) []chainRole {
	var roles []chainRole
	exp := lastExpiryBefore(w, p.Proc, h.Seq)
	if exp != nil {
		roles = append(roles, renewalRole(w, p.Proc, exp, fmt.Sprintf("until when could %s count on its lease, and what set that time?", p.Proc)))
	}
	roles = append(roles, chainRole{ask: fmt.Sprintf("why did %s not renew in time?", p.Proc), is: func(e *core.Event) bool {
		s, ok := stallOf(w, e)
		return ok && s.start == p.Seq && (e.Seq == p.Seq || e.Kind == core.KindAction)
	}})
	if exp != nil {
		roles = append(roles, chainRole{ask: "what freed the lock?", is: isEvent(exp)})
	}
	return append(roles, acquisitionRole(h, fmt.Sprintf("who took the lock while %s slept?", p.Proc)))
}

// judgeThreshold marks one of the thresholds the learner works out: right
// within thresholdTol of what the search on the simulator found; a wrong
// one is told its direction by a run with the learner's own number, never
// the threshold.
func judgeThreshold(a Answer, t *threshold) Feedback {
	parts := map[string]string{"pause-max": "Longest pause survived", "ttl-safe": "TTL for 9 s pauses", "renew-safe": "Renewal interval for 9 s pauses"}
	part := parts[t.id]
	got, ok := a.seconds(t.id)
	if !ok {
		return Feedback{Part: part, Why: "Not answered: work it out, then check it in the simulator."}
	}
	var b because
	want := t.value()
	tol := b.given(thresholdTol)
	if b.claimD(got, ">=", want-thresholdTol) && b.claimD(got, "<=", want+thresholdTol) {
		return b.feedback(part, true, "Right, within %s of the %s the lab found by trying every moment of the renewal cycle in the simulator.", tol, b.run(want))
	}
	high := got > want
	var pol renewalPolicy
	var pause time.Duration
	switch t.id {
	case "pause-max":
		pol, pause = renewalPolicy{ttl: exRenewTTL, renew: exRenewEvery}, got
	case "ttl-safe":
		pol, pause = renewalPolicy{ttl: got, renew: exRenewEvery}, exRenewPause
	default:
		pol, pause = renewalPolicy{ttl: exRenewTTL, renew: got}, exRenewPause
	}
	start, broke, err := pol.worstStartErr(pause)
	setting := map[string]string{
		"pause-max":  fmt.Sprintf("With your %s pause", b.given(got)),
		"ttl-safe":   fmt.Sprintf("With your TTL of %s, renewing every %s", b.given(got), b.given(exRenewEvery)),
		"renew-safe": fmt.Sprintf("Renewing every %s as you say, with the %s TTL", b.given(got), b.given(exRenewTTL)),
	}[t.id]
	dir := "too low"
	if high {
		dir = "too high"
	}
	switch {
	case err != nil:
		return b.feedback(part, false, "%s, the simulator cannot even run the lease. Your number is %s (the lab checks within %s).", setting, dir, tol)
	case broke:
		return b.feedback(part, false, "%s, a pause of %s that begins at %s in your run costs A its lease: the lock changes hands while A is frozen. Your number is %s (the lab checks within %s).",
			setting, b.given(pause), b.run(start), dir, tol)
	}
	more := map[string]string{"pause-max": "a longer pause is survived too", "ttl-safe": "a shorter TTL is safe too", "renew-safe": "a longer interval is safe too"}[t.id]
	if high == (t.id == "ttl-safe") {
		return b.feedback(part, false, "%s, a pause of %s leaves A its lease whenever it begins, in every run the lab tried across the renewal cycle. Your number is %s: %s (the lab checks within %s).",
			setting, b.given(pause), dir, more, tol)
	}
	return b.feedback(part, false, "%s, a pause of %s leaves A its lease whenever it begins; yet your number is %s (the lab checks within %s).", setting, b.given(pause), dir, tol)
}

// judgeRenewalVerdict marks the verdict; its arithmetic is the brief's.
// broke reports that the learner's own schedule broke the lease: a "safe"
// verdict beside it is contradicted by their own evidence, and is told so.
func judgeRenewalVerdict(a Answer, broke bool) Feedback {
	const part = "Verdict"
	var b because
	age, pause, ttl := b.given(exRenewEvery), b.given(exRenewPause), b.given(exRenewTTL)
	sum := b.derived(exRenewEvery + exRenewPause)
	b.claimD(exRenewEvery+exRenewPause, ">", exRenewTTL)
	switch a.choice("verdict") {
	case "":
		return Feedback{Part: part, Why: "Not answered. Decide whether a 9 s pause can outlive a 12 s lease renewed every 5 s."}
	case "safe":
		f := b.feedback(part, false, "%s is less than %s, but a pause need not start at a renewal. How old can the lease already be when the pause begins?", pause, ttl)
		if broke {
			f.Why += " Your own schedule says otherwise: in its run the lock changed hands while the frozen leader still believed it led."
		}
		return f
	}
	return b.feedback(part, true, "Right: the last renewal can be nearly %s old when a %s pause begins, and %s outlives the %s lease.", age, pause, sum, ttl)
}

// judgeRenewalLeft marks the sub-question: how much lease is left when a
// pause begins just before a renewal is due.
func judgeRenewalLeft(a Answer) Feedback {
	const part = "Lease left at a late pause"
	got, ok := a.seconds("left")
	if !ok {
		return Feedback{Part: part, Why: "Not answered: how much of the lease is left when a pause begins just before a renewal is due?"}
	}
	var b because
	want := exRenewTTL - exRenewEvery
	if got == want {
		return b.feedback(part, true, "Right: the lease was last renewed a whole interval ago, so %s of the %s remain, less than the %s pause.", b.derived(want), b.given(exRenewTTL), b.given(exRenewPause))
	}
	if b.claimD(got, ">", want) {
		return b.feedback(part, false, "%s is too much: the last renewal is almost %s old by then.", b.given(got), b.given(exRenewEvery))
	}
	return b.feedback(part, false, "%s is too little: the renewal before the pause did arrive, %s earlier at most.", b.given(got), b.given(exRenewEvery))
}

// judgeRenewalMinTTL marks the sub-question: the smallest TTL the lease
// policy rule allows for these renewals and pauses.
func judgeRenewalMinTTL(a Answer) Feedback {
	const part = "Smallest safe TTL"
	got, ok := a.seconds("min-ttl")
	if !ok {
		return Feedback{Part: part, Why: "Not answered: by the lease policy rule, what is the smallest TTL for renewals every 5 s and pauses of 9 s?"}
	}
	var b because
	need := 2*exRenewEvery + exRenewPause
	// The lab's one rule (core.LeasePolicy.Check): more than the sum, so
	// the smallest whole-second TTL is the first one past it.
	rule := func(ttl time.Duration) bool {
		return core.LeasePolicy{TTL: ttl, RenewEvery: exRenewEvery, PauseBudget: exRenewPause}.Check().OK
	}
	switch {
	case rule(got) && !rule(got-time.Second):
		return b.feedback(part, true, "Right: 2 × %s + %s = %s, and the TTL must exceed it. One renewal may be missed and the retry still lands after the longest pause.", b.given(exRenewEvery), b.given(exRenewPause), b.derived(need))
	case b.claimD(got, "<", exRenewEvery+exRenewPause):
		return b.feedback(part, false, "%s is not enough even without a lost renewal: a pause can begin when the lease is already %s old.", b.given(got), b.given(exRenewEvery))
	case b.claimD(got, "<", need):
		return b.feedback(part, false, "%s survives one late pause, but the rule also leaves room for one renewal that is lost.", b.given(got))
	case b.claimD(got, "==", need):
		return b.feedback(part, false, "%s leaves nothing to spare: after a lost renewal the retry reaches the coordinator just as the lease ends, and a renewal that arrives at the expiry is refused.", b.given(got))
	}
	return b.feedback(part, false, "%s is safe but not the smallest: what does the rule 2 × renew + pause budget < TTL give?", b.given(got))
}

// judgeRenewalSchedule replays the learner's schedule and says whether it
// broke the lease, and if not, what the run shows instead. Every time it
// gives is an event of that run. It returns the run too (nil if it did
// not run), in which the learner's chain is judged.
func judgeRenewalSchedule(log core.ActionLog) (Feedback, *World) {
	const part = "Breaking schedule"
	if len(log) == 0 {
		return Feedback{Part: part, Why: "No schedule: pause the leader in the simulator and use that run as your evidence."}, nil
	}
	for _, t := range log {
		if t.Do != "pause" {
			return Feedback{Part: part, Why: fmt.Sprintf("The schedule may only pause processes (it has %q): the question is what a pause alone can do.", t.Do)}, nil
		}
		if t.For.D() > exRenewPause {
			var b because
			return b.feedback(part, false, "A %s pause proves nothing here: the longest pause this system shows is %s.", b.given(t.For.D()), b.given(exRenewPause)), nil
		}
	}
	w, err := exRenewal.Lab.Evaluate(1, log)
	if err != nil {
		return Feedback{Part: part, Why: "The schedule could not run: " + err.Error()}, nil
	}
	p, seen, broke := leaderPauseBreak(w, exRenewPause)
	if !seen {
		return Feedback{Part: part, Why: "None of the pauses froze the leader: pausing a waiting process cannot break the leader's lease."}, w
	}
	return explainPause(w, p, broke), w
}

// explainPause tells what happened to p.Proc's lease during pause p, from
// the trace alone: when the lease was due to run out, when the process
// woke, whether its renewal after waking was accepted or refused, when the
// coordinator found the lease expired (its periodic sweep), and when the
// lock changed hands. Events in the same instant are told in the order the
// trace has them.
func explainPause(w *World, p pauseSpan, broke bool) Feedback {
	const part = "Breaking schedule"
	var b because
	tr := w.Sim.Trace.Events
	pauseEv := tr[p.Seq]
	froze := b.at(pauseEv)
	grant, ok := leaseDuring(w, p)
	if !ok {
		return Feedback{Part: part, Why: "The pause began before the leader's lease was granted. Pause it once it leads."}
	}
	exp := expiryOf(grant)
	// lease says when the lease was to run out, from the grant or renewal
	// in force: one that reached the coordinator while the process slept
	// (sent just before it froze) is told as such.
	lease := func(verb string) string {
		if grant.Seq < p.Seq {
			return fmt.Sprintf("with its lease %s %s, %s later", verb, b.ms(grant, core.FExpiry), b.diff(exp, p.From))
		}
		b.state(float64(p.Seq), "<", float64(grant.Seq))
		return fmt.Sprintf("just after sending a renewal, which reached the coordinator at %s, while %s slept, and moved the lease's end to %s, %s after it froze",
			b.at(grant), p.Proc, b.ms(grant, core.FExpiry), b.diff(exp, p.From))
	}
	var resume, expire, holder, refused, renewed *core.Event
	if p.ToSeq >= 0 {
		resume = &tr[p.ToSeq]
	}
	for i := p.Seq + 1; i < len(tr); i++ {
		e := &tr[i]
		switch {
		case expire == nil && e.Kind == core.KindLeaseExpire && e.Owner() == p.Proc:
			expire = e
		case holder == nil && e.Kind == core.KindHolder && e.Lock() == "locks/leader" && e.Owner() != p.Proc:
			holder = e
		case e.Kind == core.KindLeaseRenew && e.Owner() == p.Proc && e.Format(core.FExpiry) != "":
			if refused == nil && expiryOf(*e) <= e.At {
				refused = e
			}
			if renewed == nil && resume != nil && e.Seq > resume.Seq {
				renewed = e
			}
		}
	}
	down := stepDown(w, p)
	order := func(first, then *core.Event) { b.state(float64(first.Seq), "<", float64(then.Seq)) }
	if broke {
		holder = handoverWhileLeading(w, p)
		b.stateD(exp, "<", holder.At)
		head := fmt.Sprintf("%s froze at %s %s; the %s pause outlived it",
			p.Proc, froze, lease("due to run out at"), b.ms(pauseEv, core.FFor))
		if resume == nil || !b.claimD(exp, ">", resume.At) {
			b.stateD(exp, "<=", p.wake(w)) // "outlived it"
		} else {
			// It woke in time, but the renewal it then sent arrived
			// after the expiry: the pause left too little lease.
			head = fmt.Sprintf("%s froze at %s %s; it woke at %s, so close to that that the lease ran out before its renewal could land",
				p.Proc, froze, lease("due to run out at"), b.at(*resume))
			if renewed != nil && b.claimD(exp, "<=", renewed.At) {
				head += fmt.Sprintf(" (the renewal reached the coordinator at %s)", b.at(*renewed))
			}
		}
		switch {
		case resume == nil || holder.Seq < resume.Seq:
			if resume != nil {
				order(holder, resume)
			}
			if resume != nil && holder.At == resume.At {
				return b.feedback(part, true, "%s, and at %s, the very instant %s was due to wake but before it did, the coordinator gave the lock to %s.", head, b.at(*holder), p.Proc, holder.Owner())
			}
			b.stateD(holder.At, "<=", p.wake(w))
			return b.feedback(part, true, "%s, and at %s the coordinator gave the lock to %s while %s slept.", head, b.at(*holder), holder.Owner(), p.Proc)
		default:
			order(resume, holder)
			return b.feedback(part, true, "%s. %s woke at %s and, before it noticed, the coordinator gave the lock to %s at %s: for that moment both believed they led.", head, p.Proc, b.at(*resume), holder.Owner(), b.at(*holder))
		}
	}
	end := w.Sim.Now()
	if resume == nil {
		// The run ended with the process still frozen.
		if b.claimD(exp, ">", end) {
			return b.feedback(part, false, "%s froze at %s and was still frozen when the run ended at %s, but its lease ran until %s, after the end: nothing could change hands within the run. Pause it earlier.",
				p.Proc, froze, b.given(end), b.ms(grant, core.FExpiry))
		}
	}
	wake := p.wake(w)
	wakeText := b.given(end)
	if resume != nil {
		wakeText = b.at(*resume)
	}
	var out strings.Builder
	lateRenewal := false
	if b.claimD(exp, ">", wake) {
		if renewed == nil || expiryOf(*renewed) > renewed.At {
			fmt.Fprintf(&out, "%s froze at %s %s; it woke at %s, before that", p.Proc, froze, lease("good until"), wakeText)
			if renewed != nil && b.claimD(renewed.At, "<", exp) {
				fmt.Fprintf(&out, ", and renewed in time: its renewal reached the coordinator at %s", b.at(*renewed))
			}
			fmt.Fprintf(&out, ". Start the pause later in the %s renewal cycle, just before a renewal is due.", b.given(exRenewEvery))
			return b.feedback(part, false, "%s", out.String())
		}
		// It woke in time, but its renewal arrived too late.
		lateRenewal = true
		b.stateD(exp, "<=", renewed.At)
		fmt.Fprintf(&out, "%s froze at %s %s, and woke at %s, before that; but its renewal reached the coordinator only at %s, when the lease had already ended, and was refused. ",
			p.Proc, froze, lease("good until"), wakeText, b.at(*renewed))
	} else {
		// The lease ran out while the process slept, yet the lock did not
		// move before it woke.
		fmt.Fprintf(&out, "The lease did run out while %s slept: it froze at %s, and its lease ended at %s, %s later, ", p.Proc, froze, b.ms(grant, core.FExpiry), b.diff(exp, p.From))
		if b.claimD(exp, "==", wake) {
			fmt.Fprintf(&out, "the instant it woke at %s. ", wakeText)
		} else {
			b.stateD(exp, "<", wake)
			fmt.Fprintf(&out, "before it woke at %s. ", wakeText)
		}
	}
	switch {
	case expire == nil:
		fmt.Fprintf(&out, "The coordinator removes expired leases only on its periodic sweep, and the run ended at %s before one found it.", b.given(end))
	case resume != nil && expire.Seq > resume.Seq:
		order(resume, expire)
		fmt.Fprintf(&out, "The coordinator removes expired leases only on its periodic sweep, and the sweep that found it came at %s, after %s was awake.", b.at(*expire), p.Proc)
		if refused != nil && !lateRenewal {
			fmt.Fprintf(&out, " %s's late renewal reached it at %s and was refused: it arrived after the expiry.", p.Proc, b.at(*refused))
		}
	default:
		fmt.Fprintf(&out, "The coordinator expired it at %s.", b.at(*expire))
	}
	if holder != nil {
		switch {
		case down != nil && down.Seq < holder.Seq && holder.At == wake:
			order(down, holder)
			fmt.Fprintf(&out, " The lock changed hands at %s, the instant %s woke, but only after %s had noticed its lease was gone and stepped down: the two never both believed they led.", b.at(*holder), p.Proc, p.Proc)
		case down != nil && down.Seq < holder.Seq:
			order(down, holder)
			fmt.Fprintf(&out, " The lock changed hands at %s, after %s had stepped down at %s.", b.at(*holder), p.Proc, b.at(*down))
		default:
			b.stateD(holder.At, ">", wake)
			fmt.Fprintf(&out, " The lock changed hands at %s, when %s no longer slept.", b.at(*holder), p.Proc)
		}
	}
	out.WriteString(" For the handover to happen during the pause, the pause must also cover the sweep: start it a little later in the renewal cycle or make it longer.")
	return b.feedback(part, false, "%s", out.String())
}
