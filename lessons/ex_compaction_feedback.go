package lessons

import (
	"fmt"
	"math"
	"time"
)

// Exercise 3's feedback: the failover, the duplicates, the policy rule,
// the priority and the load, each judged on its own.

func judgeFailover(d NightDesign, st NightStats) Feedback {
	const part = "Failover"
	var b because
	switch {
	case st.Crashes == 0:
		return Feedback{Part: part, Why: "No night crashed the leader, so failover was never measured."}
	case st.Failed > 0:
		return b.feedback(part, false, "On %s of %s crash nights no compactor took over before the night ended.", b.runN(float64(st.Failed)), b.runN(float64(st.Crashes)))
	case b.claimD(st.Worst, "<=", nightFailover):
		return b.feedback(part, true, "Worst failover over %s crashes: %s, within %s. A successor waits out the rest of the lease, so the failover is bounded by the TTL plus the sweep.", b.runN(float64(st.Crashes)), b.run(st.Worst), b.given(nightFailover))
	}
	return b.feedback(part, false, "Worst failover over %s crashes: %s, over the %s budget. Survivors wait out the dead leader's remaining lease, up to the whole %s TTL: shorten it.", b.runN(float64(st.Crashes)), b.run(st.Worst), b.given(nightFailover), b.given(d.TTL))
}

func judgeDuplicates(d NightDesign, st NightStats) Feedback {
	const part = "Duplicates"
	var b because
	if st.Duplicates == 0 {
		return b.feedback(part, true, "No duplicate compaction step in %s nights: no pause outlived the lease.", b.runN(float64(st.Nights)))
	}
	var remedy string
	// A pause that begins right after a renewal finds the lease whole: if
	// the longest pause is as long as the TTL, renewing more often cannot
	// save it.
	if b.claimD(nightLongPause, ">=", d.TTL) {
		remedy = fmt.Sprintf("The longest pause (%s) is at least the whole %s TTL, so renewing more often cannot help: even a lease renewed just before the pause runs out. Only a longer TTL does.", b.given(nightLongPause), b.given(d.TTL))
	} else {
		remedy = ruleRemedy(&b, d)
	}
	return b.feedback(part, false, "%s duplicate compaction %s on %s of %s nights: a long pause outlived the lease, another compactor took over, and the paused one carried on when it woke. %s",
		b.runN(float64(st.Duplicates)), pluralS(st.Duplicates, "step", "steps"), b.runN(float64(st.DupNights)), b.runN(float64(st.Nights)), remedy)
}

// ruleRemedy says what the rule asks of a design whose pauses outlived
// the lease: the gap, in the design's own numbers, never a TTL or renewal
// interval that would pass (that would be the answer).
func ruleRemedy(b *because, d NightDesign) string {
	if d.RuleHolds() {
		return "Your design keeps the rule, so that night lost more than the one renewal the rule allows for: a longer TTL leaves more room."
	}
	pol := d.Policy()
	return fmt.Sprintf("The rule wants the TTL to exceed 2 × %s + %s = %s by more than the %s round trip, and yours is %s: a longer TTL or more frequent renewals close that gap, as long as failover stays within %s and keepalives within %s an hour.",
		b.given(d.Renew), b.given(nightLongPause), b.derived(pol.Need), b.given(nightRoundTrip), b.given(d.TTL), b.given(nightFailover), b.givenN(nightMaxPerHour))
}

func judgeRule(d NightDesign) Feedback {
	const part = "Policy rule"
	var b because
	pol := d.Policy()
	need := b.derived(pol.Need)
	switch {
	case b.claimD(pol.Need, ">", d.TTL):
		return b.feedback(part, false, "2 × %s + %s = %s > %s. Even if these nights were lucky, a pause starting just before a renewal that is then lost outlives the lease.", b.given(d.Renew), b.given(nightLongPause), need, b.given(d.TTL))
	case pol.OK:
		b.claimD(pol.Margin, ">", nightRoundTrip)
		return b.feedback(part, true, "2 × %s + %s = %s ≤ %s: %s to spare, more than the %s round trip, so a missed renewal and the longest pause still fit.", b.given(d.Renew), b.given(nightLongPause), need, b.given(d.TTL), b.derived(pol.Margin), b.given(nightRoundTrip))
	}
	b.stateD(pol.Need, "<=", d.TTL)
	than := "less than"
	if !b.claimD(pol.Margin, "<", nightRoundTrip) {
		b.stateD(pol.Margin, "==", nightRoundTrip)
		than = "no more than"
	}
	return b.feedback(part, false, "2 × %s + %s = %s ≤ %s, with %s to spare: %s the %s round trip. A renewal sent at the last moment reaches the coordinator at or after the expiry and is refused.", b.given(d.Renew), b.given(nightLongPause), need, b.given(d.TTL), b.derived(pol.Margin), than, b.given(nightRoundTrip))
}

// The band of TTLs the brief leaves open, whatever the renewal: from the
// shortest TTL the rule allows with the most frequent renewal the
// coordinator can spare, to the longest whose failover (the TTL, the
// sweep and a round trip) fits the budget. Both in whole seconds, as etcd
// grants leases.
func priorityBand() (low, high time.Duration) {
	fastest := time.Hour / nightMaxPerHour
	low = time.Second
	for !(NightDesign{TTL: low, Renew: fastest}).RuleHolds() {
		low += time.Second
	}
	high = (nightFailover - sweepEvery - nightRoundTrip).Truncate(time.Second)
	return low, high
}

// LeansLong reports whether the design follows the brief's priority: a
// duplicate costs more than a slow failover, so inside the band the
// other bounds leave, the TTL sits in the upper half, spending the
// failover the brief allows on margin against pauses and lost renewals.
// It judges the numbers, never the written defence: a design that picks
// the shortest TTL it can is choosing fast failover, whatever its
// defence says.
func (d NightDesign) LeansLong() bool {
	low, high := priorityBand()
	return 2*d.TTL >= low+high
}

func judgePriority(d NightDesign, st NightStats, alt NightDesign) Feedback {
	const part = "Priority"
	var b because
	low, high := priorityBand()
	if d.LeansLong() {
		b.claimD(2*d.TTL, ">=", low+high)
		return b.feedback(part, true, "Your %s TTL sits in the upper half of the band the brief leaves open, so it spends the failover the brief allows on margin against the expensive failure, duplicates. %s", b.given(d.TTL), againstAlternative(&b, d, alt, low+high))
	}
	b.stateD(2*d.TTL, "<", low+high)
	unused := ""
	if st.Crashes > 0 && st.Failed == 0 && st.Worst < nightFailover {
		unused = fmt.Sprintf(" Your worst failover was %s of the %s allowed: the rest went unused.", b.run(st.Worst), b.given(nightFailover))
	}
	return b.feedback(part, false, "Your %s TTL sits in the lower half of the band the brief leaves open (from the shortest TTL the rule allows with the most frequent renewal the coordinator can spare, to the longest whose failover fits %s). That buys fast failover, which the brief says may be slow, with margin against duplicates, which the brief says are expensive.%s %s Whatever the defence argues, the brief sets the priority.",
		b.given(d.TTL), b.given(nightFailover), unused, againstAlternative(&b, d, alt, low+high))
}

// againstAlternative says how the choice of d over the alternative reads
// by the same rule (the upper half of the band): one rule judges both.
func againstAlternative(b *because, d, alt NightDesign, band time.Duration) string {
	altLong := alt.LeansLong()
	if altLong {
		b.claimD(2*alt.TTL, ">=", band)
	} else {
		b.stateD(2*alt.TTL, "<", band)
	}
	switch {
	case d.LeansLong() && !altLong:
		return fmt.Sprintf("Your alternative's %s TTL sits in the lower half: choosing yours over it follows the brief.", b.given(alt.TTL))
	case d.LeansLong():
		return fmt.Sprintf("Your alternative's %s TTL sits in the upper half too: the priority does not choose between the two; the other bounds do.", b.given(alt.TTL))
	case altLong:
		return fmt.Sprintf("Your alternative's %s TTL sits in the upper half: by the brief's priority, you chose the wrong one of the two.", b.given(alt.TTL))
	}
	return fmt.Sprintf("Your alternative's %s TTL sits in the lower half too: neither of the two follows the brief's priority.", b.given(alt.TTL))
}

// perHour is how many keepalives an hour the leader sends.
func perHour(d NightDesign) float64 { return float64(time.Hour) / float64(d.Renew) }

func judgeLoad(d NightDesign) Feedback {
	const part = "Renewal load"
	var b because
	n := perHour(d)
	if b.claim(n, "<=", nightMaxPerHour) {
		return b.feedback(part, true, "Renewing every %s is %s keepalives an hour, within the %s the coordinator can spare.", b.given(d.Renew), b.derivedN(roundTo(n, 1)), b.givenN(nightMaxPerHour))
	}
	return b.feedback(part, false, "Renewing every %s is %s keepalives an hour, over the %s the coordinator can spare for one leader. Renew less often: the rule asks for a TTL long enough, not for frequent renewals.", b.given(d.Renew), b.derivedN(roundTo(n, 1)), b.givenN(nightMaxPerHour))
}

func judgePerHour(est float64, d NightDesign) Feedback {
	const part = "Keepalives per hour"
	var b because
	n := perHour(d)
	if b.claim(math.Abs(est-n), "<=", n/100) {
		if roundTo(est, 1) == roundTo(n, 1) {
			return b.feedback(part, true, "Right: an hour is %s renewal intervals of %s.", b.derivedN(roundTo(n, 1)), b.given(d.Renew))
		}
		// Accepted, but not the number: say how close, not "right".
		return b.feedback(part, true, "Close enough (within 1 %%): you said %s, and an hour is %s renewal intervals of %s.", b.givenN(est), b.derivedN(roundTo(n, 1)), b.given(d.Renew))
	}
	return b.feedback(part, false, "%s is not it: how many intervals of %s fit in an hour?", b.givenN(est), b.given(d.Renew))
}
