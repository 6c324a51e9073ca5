package lessons

import (
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
		f := judgeRenewalSchedule(pauseAt(c.at, c.for_, "A"))
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

// TestRenewalWrongTryGivesNothingAway: a throw-away answer's feedback does
// not name the measurements it left out (defect 7).
func TestRenewalWrongTryGivesNothingAway(t *testing.T) {
	r, err := exRenewal.Check(Answer{Choices: map[string][]string{"measurements": {"mean-pause"}}})
	require.NoError(t, err)
	why := part(r, "Measurements").Why
	for _, label := range []string{"pause tail", "Keepalive", "Coordinator delays", "Clock drift"} {
		assert.NotContains(t, why, label)
	}
	assert.Contains(t, why, "average pause", "the wrong pick is still explained")
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

		f := judgeRenewalSchedule(log)
		assert.False(t, f.OK, "%v: %s", c, f.Why)
		assert.NotContains(t, f.Why, "gave the lock to B while A slept")
		assert.Contains(t, f.Why, "stepped down")
		assert.Contains(t, f.Why, "never both believed they led")
		for _, cl := range f.Claims {
			assert.True(t, cl.Holds(), "%v: states %v %s %v: %s", c, cl.L, cl.Op, cl.R, f.Why)
		}
	}
	f := judgeRenewalSchedule(exRenewal.Reference.Schedule)
	assert.True(t, f.OK, "the model's pause still breaks the lease: %s", f.Why)
	assert.Contains(t, f.Why, "gave the lock to B while A slept")
}

// TestRenewalRefusedRenewalIsNamed: a leader that wakes a millisecond
// before its lease runs out still loses it when its renewal reaches the
// coordinator after the expiry (finding 2). The feedback says so, from the
// renewal's arrival and the coordinator's answer, and never "renewed in
// time".
func TestRenewalRefusedRenewalIsNamed(t *testing.T) {
	f := judgeRenewalSchedule(pauseAt(3004*time.Millisecond, 9*time.Second, "A"))
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
