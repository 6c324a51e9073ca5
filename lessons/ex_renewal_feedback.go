package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// Exercise 1's feedback: the verdict, the thresholds, the breaking
// schedule and the learner's chain, each judged on its own.

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
