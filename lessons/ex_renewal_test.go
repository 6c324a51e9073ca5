package lessons

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRenewalFeedbackTellsWhatTheRunShows: exercise 1's explanation of a
// pause that did not break the lease states only true comparisons and
// names what really saved the leader (defect 1): the coordinator's sweep,
// the refused late renewal, the end of the run.
func TestRenewalFeedbackTellsWhatTheRunShows(t *testing.T) {
	cases := []struct {
		name     string
		at, for_ time.Duration
		says     []string
		never    []string
	}{
		{"lease ran out, sweep came after the wake", 14900 * time.Millisecond, 7500 * time.Millisecond,
			[]string{"did run out", "sweep", "refused"}, []string{"longer than", "renewed in time"}},
		{"run ended before the lease ran out", 54900 * time.Millisecond, 9 * time.Second,
			[]string{"run ended"}, []string{"renewed in time"}},
		{"pause at the very end", 60 * time.Second, 9 * time.Second,
			[]string{"run ended"}, []string{"renewed in time"}},
		{"pause right after a renewal", 10100 * time.Millisecond, 9 * time.Second,
			[]string{"renewed in time", "Start the pause later"}, []string{"did run out"}},
	}
	for _, c := range cases {
		f, _ := judgeRenewalSchedule(pauseAt(c.at, c.for_, "A"))
		require.False(t, f.OK, "%s: marked as breaking", c.name)
		for _, s := range c.says {
			assert.Contains(t, f.Why, s, c.name)
		}
		for _, s := range c.never {
			assert.NotContains(t, f.Why, s, c.name)
		}
		for _, cl := range f.Claims {
			assert.True(t, cl.Holds(), "%s: states %v %s %v, which is false: %s", c.name, cl.L, cl.Op, cl.R, f.Why)
		}
	}
}

// TestRenewalSubQuestions: the numeric parts have one right value each,
// and an unanswered one is marked, not defaulted.
func TestRenewalSubQuestions(t *testing.T) {
	a := exRenewal.Reference.Clone()
	r, err := exRenewal.Check(a)
	require.NoError(t, err)
	require.True(t, r.Pass, r.Text())
	for _, c := range []struct {
		id   string
		v    float64
		part string
	}{{"left", 12, "Lease left at a late pause"}, {"left", 5, "Lease left at a late pause"}, {"min-ttl", 14, "Smallest safe TTL"}, {"min-ttl", 24, "Smallest safe TTL"}} {
		b := a.Clone()
		b.Numbers[c.id] = c.v
		r, err := exRenewal.Check(b)
		require.NoError(t, err)
		assert.False(t, r.Pass, "%s=%v passes", c.id, c.v)
		assert.False(t, part(r, c.part).OK, "%s=%v", c.id, c.v)
	}
	b := a.Clone()
	delete(b.Numbers, "min-ttl")
	r, err = exRenewal.Check(b)
	require.NoError(t, err)
	assert.Contains(t, part(r, "Smallest safe TTL").Why, "Not answered")
}

// part returns the feedback of the named part (zero if absent).
func part(r Result, name string) Feedback {
	for _, p := range r.Parts {
		if p.Part == name {
			return p
		}
	}
	return Feedback{}
}

// TestRenewalWrongTryGivesNothingAway: a wrong threshold is told its
// direction, measured in a run with the learner's own number, never the
// threshold the search found (defect 7, issue 31).
func TestRenewalWrongTryGivesNothingAway(t *testing.T) {
	a := exRenewal.Reference.Clone()
	a.Numbers["pause-max"], a.Numbers["ttl-safe"], a.Numbers["renew-safe"] = 9, 12, 5
	r, err := exRenewal.Check(a)
	require.NoError(t, err)
	for p, dir := range map[string]string{"Longest pause survived": "too high", "TTL for 9 s pauses": "too low", "Renewal interval for 9 s pauses": "too high"} {
		f := part(r, p)
		require.False(t, f.OK, p)
		assert.Contains(t, f.Why, dir, p)
		assert.Contains(t, f.Why, "in your run", "%s: the direction is measured in a run with the learner's number", p)
		for _, th := range renewalThresholds {
			v := th.value()
			for _, s := range []string{secs(v), fmt.Sprintf("%.1f s", v.Seconds())} {
				assert.NotContains(t, f.Why, s, "%s gives the threshold %s away", p, th.id)
			}
		}
	}
}

// TestCompleteAnswers: the model answers are complete; an empty answer or
// one missing a single part is not (it must not unlock the model answer).
func TestCompleteAnswers(t *testing.T) {
	for _, e := range Exercises() {
		assert.True(t, e.Complete(e.Reference), e.ID)
		assert.False(t, e.Complete(Answer{}), e.ID)
		if len(e.Questions) > 0 {
			a := e.Reference.Clone()
			delete(a.Choices, e.Questions[0].ID)
			assert.False(t, e.Complete(a), e.ID)
		}
		if len(e.Numbers) > 0 {
			// The numbers as a fresh form shows them, every other part
			// answered: the sliders were never moved, so no attempt.
			a := e.Reference.Clone()
			a.Numbers = map[string]float64{}
			for _, k := range e.Numbers {
				a.Numbers[k.ID] = k.Default
			}
			assert.False(t, e.Complete(a), "%s: numbers left at their defaults unlock nothing", e.ID)
		}
	}
}

// TestRenewalTieGoesByTraceOrder: when the leader wakes in the very
// millisecond the coordinator hands the lock on, what counts is the order
// of the two in the trace (finding 1 of the grading report). In these runs
// A woke, noticed its lease was gone and stepped down before B got the
// lock: no two leaders overlapped, so the schedule does not break the
// lease, and the feedback never says the lock went to B "while A slept".
func TestRenewalTieGoesByTraceOrder(t *testing.T) {
	for _, c := range []struct{ at, for_ time.Duration }{
		{3500 * time.Millisecond, 9 * time.Second},
		{4950 * time.Millisecond, 7550 * time.Millisecond},
	} {
		log := pauseAt(c.at, c.for_, "A")
		w, err := exRenewal.Lab.Evaluate(1, log)
		require.NoError(t, err)
		p, seen, broke := leaderPauseBreak(w, exRenewPause)
		require.True(t, seen)
		require.Equal(t, p.To, handovers(w, "locks/leader")[1].At, "%v: the wake and the handover share an instant", c)
		assert.False(t, broke, "%v: A stepped down before the handover", c)

		f, _ := judgeRenewalSchedule(log)
		assert.False(t, f.OK, "%v: %s", c, f.Why)
		assert.NotContains(t, f.Why, "gave the lock to B while A slept")
		assert.Contains(t, f.Why, "stepped down")
		assert.Contains(t, f.Why, "never both believed they led")
		for _, cl := range f.Claims {
			assert.True(t, cl.Holds(), "%v: states %v %s %v: %s", c, cl.L, cl.Op, cl.R, f.Why)
		}
	}
	f, _ := judgeRenewalSchedule(exRenewal.Reference.Schedule)
	assert.True(t, f.OK, "the model's pause still breaks the lease: %s", f.Why)
	assert.Contains(t, f.Why, "gave the lock to B while A slept")
}

// TestRenewalRefusedRenewalIsNamed: a leader that wakes a millisecond
// before its lease runs out still loses it when its renewal reaches the
// coordinator after the expiry (finding 2). The feedback says so, from the
// renewal's arrival and the coordinator's answer, and never "renewed in
// time".
func TestRenewalRefusedRenewalIsNamed(t *testing.T) {
	f, _ := judgeRenewalSchedule(pauseAt(3004*time.Millisecond, 9*time.Second, "A"))
	assert.False(t, f.OK)
	assert.NotContains(t, f.Why, "renewed in time")
	assert.Contains(t, f.Why, "woke at 12.004 s, before that")
	assert.Contains(t, f.Why, "reached the coordinator only at 12.009 s")
	assert.Contains(t, f.Why, "refused")
	for _, cl := range f.Claims {
		assert.True(t, cl.Holds(), "states %v %s %v: %s", cl.L, cl.Op, cl.R, f.Why)
	}
}

// TestRenewalSafeVerdictAgainstOwnRun: a "safe" verdict handed in with a
// schedule that broke the lease is told that its own run contradicts it
// (finding 12); with a schedule that broke nothing, it is not.
func TestRenewalSafeVerdictAgainstOwnRun(t *testing.T) {
	a := exRenewal.Reference.Clone()
	a.Choices["verdict"] = []string{"safe"}
	r, err := exRenewal.Check(a)
	require.NoError(t, err)
	require.True(t, part(r, "Breaking schedule").OK)
	v := part(r, "Verdict")
	assert.False(t, v.OK)
	assert.Contains(t, v.Why, "Your own schedule says otherwise")

	a.Schedule = pauseAt(10100*time.Millisecond, 9*time.Second, "A")
	r, err = exRenewal.Check(a)
	require.NoError(t, err)
	require.False(t, part(r, "Breaking schedule").OK)
	assert.NotContains(t, part(r, "Verdict").Why, "Your own schedule")
}

// claimsHold asserts that every comparison a feedback states is true.
func claimsHold(t *testing.T, f Feedback, name string) {
	t.Helper()
	for _, cl := range f.Claims {
		assert.True(t, cl.Holds(), "%s: states %v %s %v, which is false: %s", name, cl.L, cl.Op, cl.R, f.Why)
	}
}

// TestRenewalCreditsThePauseThatLostTheLease (issue 31): with a harmless
// 2 s pause at 1 s and a 9 s pause at 14.5 s, the lock goes to B during
// the second. The feedback credits that one, never the first ("A woke at
// 3 s … the lock went to B at 22.5 s").
func TestRenewalCreditsThePauseThatLostTheLease(t *testing.T) {
	log := append(pauseAt(time.Second, 2*time.Second, "A"), pauseAt(14500*time.Millisecond, 9*time.Second, "A")...)
	f, _ := judgeRenewalSchedule(log)
	require.True(t, f.OK, f.Why)
	assert.Contains(t, f.Why, "A froze at 14.5 s")
	assert.NotContains(t, f.Why, "froze at 1 s")
	assert.NotContains(t, f.Why, "woke at 3 s")
	assert.NotContains(t, f.Why, "2 s pause")
	claimsHold(t, f, "two pauses")

	// The order of the schedule does not matter, nor a harmless pause
	// after the one that broke the lease.
	later := append(pauseAt(14500*time.Millisecond, 9*time.Second, "A"), pauseAt(40*time.Second, 2*time.Second, "A")...)
	f, _ = judgeRenewalSchedule(later)
	require.True(t, f.OK, f.Why)
	assert.Contains(t, f.Why, "A froze at 14.5 s")
	claimsHold(t, f, "harmless pause after")
}

// TestRenewalNeverSaysARenewedLeaseEnded (issue 31): pauses back to back
// (5.5 s and 14.5 s, 9 s each). A renewal A sent as it woke at 14.5 s
// reached the coordinator at 14.505 s, during the second pause, and moved
// the lease to 26.505 s, after A woke again: the lease never lapsed. The
// feedback must not say it ended at 17.016 s, the expiry the renewal
// replaced; it tells the pause that came closest (the first, which A
// survived by 2.516 s) and the renewal that saved it.
func TestRenewalNeverSaysARenewedLeaseEnded(t *testing.T) {
	log := append(pauseAt(5500*time.Millisecond, 9*time.Second, "A"), pauseAt(14500*time.Millisecond, 9*time.Second, "A")...)
	f, _ := judgeRenewalSchedule(log)
	require.False(t, f.OK, f.Why)
	assert.NotContains(t, f.Why, "did run out")
	assert.NotContains(t, f.Why, "ended at 17.016 s")
	assert.NotContains(t, f.Why, "before one found it")
	assert.Contains(t, f.Why, "A froze at 5.5 s")
	assert.Contains(t, f.Why, "renewed in time: its renewal reached the coordinator at 14.505 s")
	claimsHold(t, f, "back to back")
}

// TestRenewalCountsARenewalInFlight: A sends a keepalive at about 5.011 s
// and freezes at 5.013 s; the keepalive reaches the coordinator at
// 5.016 s, while A sleeps, and moves the lease's end to 17.016 s, after A
// wakes at 14.013 s. The feedback says so, and never that the lease ended
// at 12.005 s, the expiry that renewal replaced.
func TestRenewalCountsARenewalInFlight(t *testing.T) {
	f, _ := judgeRenewalSchedule(pauseAt(5013*time.Millisecond, 9*time.Second, "A"))
	require.False(t, f.OK, f.Why)
	assert.NotContains(t, f.Why, "12.005 s")
	assert.NotContains(t, f.Why, "did run out")
	assert.Contains(t, f.Why, "5.016 s")
	assert.Contains(t, f.Why, "17.016 s")
	claimsHold(t, f, "renewal in flight")
}

// TestRealAttempt (issue 31): the model answer and the last hint open
// only after a real attempt: every part answered, and not the format
// example handed in as it stands (with or without its defence). The
// format example of exercises 3 and 5, which have no numbers, answered
// every part and so used to unlock the model answer.
func TestRealAttempt(t *testing.T) {
	for _, e := range Exercises() {
		x := e.FormatExample()
		assert.False(t, e.RealAttempt(x), "%s: the format example", e.ID)
		x.Defence = "my own words"
		assert.False(t, e.RealAttempt(x), "%s: the format example with a defence of one's own", e.ID)
		assert.False(t, e.RealAttempt(Answer{}), "%s: an empty answer", e.ID)
		assert.True(t, e.RealAttempt(e.Reference), "%s: the model answer, as a learner could hand it in", e.ID)
		if len(e.Questions) > 0 {
			// One choice changed from the example is the learner's own.
			y := e.FormatExample()
			q := e.Questions[len(e.Questions)-1]
			for _, o := range q.Options {
				if !slices.Contains(y.Choices[q.ID], o.ID) {
					y.Choices[q.ID] = []string{o.ID}
					break
				}
			}
			assert.Equal(t, e.Complete(y), e.RealAttempt(y), "%s: the example with a choice changed", e.ID)
			assert.False(t, e.IsFormatExample(y), e.ID)
		}
	}
	assert.True(t, exNoFencing.Complete(exNoFencing.FormatExample()), "the gap this closes: the example answers every part")
}

// Exercise 1's smallest TTL is the lab's one rule (issue 31): more than
// 2 × 5 + 9 = 19 s, so 20 s in whole seconds; 19 s leaves nothing to
// spare, and a retry that arrives at the expiry is refused.
func TestRenewalSmallestTTLFollowsTheOneRule(t *testing.T) {
	for got, ok := range map[float64]bool{19: false, 20: true, 21: false} {
		a := exRenewal.Reference.Clone()
		a.Numbers["min-ttl"] = got
		f := judgeRenewalMinTTL(a)
		assert.Equal(t, ok, f.OK, "%v: %s", got, f.Why)
	}
	a := exRenewal.Reference.Clone()
	a.Numbers["min-ttl"] = 19
	assert.Contains(t, judgeRenewalMinTTL(a).Why, "19 s leaves nothing to spare")
}
