package lessons

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// chainRolesOf are the links exercise e's argument needs in the run log
// produces (nil when the run has no failure to explain).
func chainRolesOf(t *testing.T, e *Exercise, log core.ActionLog) (*World, []chainRole) {
	t.Helper()
	w, err := e.ChainRun(log)
	require.NoError(t, err)
	switch e {
	case exRenewal:
		p, _, broke := leaderPauseBreak(w, exRenewPause)
		if !broke {
			return w, nil
		}
		return w, renewalChainRoles(w, p, handoverWhileLeading(w, p))
	case exNoFencing:
		st, _ := oldLeaderStale(w)
		if st == nil {
			return w, nil
		}
		return w, noFencingChainRoles(w, st)
	}
	t.Fatalf("%s takes no chain", e.ID)
	return nil, nil
}

// modelChain is a chain for the run log produces: the last event of each
// link the argument needs that comes before the next link's, in order.
// It must pass, which the callers check.
func modelChain(t *testing.T, e *Exercise, log core.ActionLog) []int {
	t.Helper()
	w, roles := chainRolesOf(t, e, log)
	require.NotEmpty(t, roles, "the run of %v has nothing to explain", log)
	var out []int
	for _, r := range roles {
		for i := range w.Sim.Trace.Len() {
			if ev := w.Sim.Trace.At(i); r.is(ev) && ev.Kind != core.KindAction {
				if !slices.Contains(out, ev.Seq) {
					out = append(out, ev.Seq)
				}
				break
			}
		}
	}
	slices.Sort(out)
	f := judgeChain(w, out, roles)
	require.True(t, f.OK, "the model chain %v of %v: %s", out, log, f.Why)
	return out
}

// chainVerdict checks answer a with chain c and returns the chain's part.
func chainVerdict(t *testing.T, e *Exercise, log core.ActionLog, c []int) Feedback {
	t.Helper()
	a := e.Reference.Clone()
	a.Schedule, a.Chain = log, c
	r, err := e.Check(a)
	require.NoError(t, err)
	f := part(r, chainPart)
	checkExplanation(t, e, fmt.Sprint(c), f)
	return f
}

// TestChainModelAnswers: each exercise's model chain is valid in the
// model run and passes (the numbers in the Reference are that run's).
func TestChainModelAnswers(t *testing.T) {
	for _, e := range []*Exercise{exRenewal, exNoFencing} {
		f := chainVerdict(t, e, e.Reference.Schedule, e.Reference.Chain)
		assert.True(t, f.OK, "%s: %s", e.ID, f.Why)
	}
}

// TestChainAcceptsRightChainsTheModelDidNotExpect: any chain valid in the
// learner's run that holds every link passes: extra valid steps, the
// learner's action instead of the pause it made, the client hearing of its
// renewal instead of the coordinator granting it, the hold of A's messages
// instead of a pause, the write's send instead of its landing.
func TestChainAcceptsRightChainsTheModelDidNotExpect(t *testing.T) {
	ex3Pause := noFencingLab.Solution
	for _, c := range []struct {
		name  string
		e     *Exercise
		log   core.ActionLog
		chain []int
	}{
		{"ex1 model", exRenewal, exRenewal.Reference.Schedule, []int{3, 31, 41, 45}},
		{"ex1 the action instead of the pause", exRenewal, exRenewal.Reference.Schedule, []int{3, 32, 41, 45}},
		{"ex1 A hearing of its grant", exRenewal, exRenewal.Reference.Schedule, []int{5, 31, 41, 45}},
		{"ex1 pause and action both", exRenewal, exRenewal.Reference.Schedule, []int{3, 31, 32, 41, 45}},
		{"ex1 on to B leading and A waking", exRenewal, exRenewal.Reference.Schedule, []int{3, 31, 41, 42, 43, 45, 50, 51}},
		{"ex1 through the delete and the watch", exRenewal, exRenewal.Reference.Schedule, []int{3, 31, 41, 42, 43, 45}},
		{"ex3 model", exNoFencing, ex3Pause, []int{31, 34, 48, 52, 63, 83, 88}},
		{"ex3 every step", exNoFencing, ex3Pause, []int{31, 35, 48, 52, 57, 62, 63, 82, 83, 87, 88}},
		{"ex3 landing as the late write", exNoFencing, ex3Pause, []int{31, 34, 48, 52, 63, 87}},
		{"ex3 B's send as its write", exNoFencing, ex3Pause, []int{31, 34, 48, 52, 62, 83, 87}},
		{"ex3 a later write of B's", exNoFencing, ex3Pause, []int{31, 34, 48, 52, 80, 83, 87}},
		{"ex3 hold: its held write first", exNoFencing, delayedWrite, []int{31, 34, 40, 67, 71, 87, 96}},
		{"ex3 hold: the action", exNoFencing, delayedWrite, []int{31, 35, 67, 71, 87, 96}},
		{"ex3 hold: the stale record", exNoFencing, delayedWrite, []int{31, 34, 67, 71, 87, 97}},
	} {
		f := chainVerdict(t, c.e, c.log, c.chain)
		assert.True(t, f.OK, "%s %v: %s", c.name, c.chain, f.Why)
	}
	// The network-delay forms pass with the chains their runs give.
	for _, log := range []core.ActionLog{delayedWrite, heldToStorage} {
		assert.True(t, chainVerdict(t, exNoFencing, log, modelChain(t, exNoFencing, log)).OK)
	}
	// Exercise 1 at every breaking pause start: its own run's chain passes.
	for ms := 3000; ms < 5100; ms += 150 {
		log := pauseAt(time.Duration(ms)*time.Millisecond, exRenewPause, "A")
		if _, roles := chainRolesOf(t, exRenewal, log); roles != nil {
			assert.True(t, chainVerdict(t, exRenewal, log, modelChain(t, exRenewal, log)).OK, "pause at %d ms", ms)
		}
	}
}

// TestChainFailsWithTheGapNeverTheAnswer: a chain with a link left out,
// a reversed pair, an event of another run, junk numbers, an event twice or
// nothing at all fails; the feedback names the gap and never the event
// left out: neither its number nor what it was.
func TestChainFailsWithTheGapNeverTheAnswer(t *testing.T) {
	type bad struct {
		name    string
		e       *Exercise
		log     core.ActionLog
		chain   []int
		missing []int // events left out, which the feedback must not name
		says    string
	}
	ex1, ex3 := exRenewal.Reference.Schedule, noFencingLab.Solution
	for _, c := range []bad{
		{"ex1 no renewal", exRenewal, ex1, []int{31, 41, 45}, []int{3}, "what set that time?"},
		{"ex1 no pause", exRenewal, ex1, []int{3, 41, 45}, []int{31}, "why did A not renew in time?"},
		{"ex1 no expiry", exRenewal, ex1, []int{3, 31, 45}, []int{41}, "what freed the lock?"},
		{"ex1 stops at the expiry", exRenewal, ex1, []int{3, 31, 41}, []int{45}, "who took the lock while A slept?"},
		{"ex1 reversed", exRenewal, ex1, []int{3, 41, 31, 45}, nil, "put the events in the order they happened"},
		{"ex1 an older renewal", exRenewal, pauseAt(14900*time.Millisecond, 9*time.Second, "A"), nil, nil, ""},
		{"ex1 empty", exRenewal, ex1, nil, []int{3, 31, 41, 45}, "No chain yet"},
		{"ex1 junk", exRenewal, ex1, []int{3, 31, 100000, 45}, []int{41}, "is not in your run"},
		{"ex1 negative", exRenewal, ex1, []int{-1, 31, 41, 45}, []int{3}, "is not in your run"},
		{"ex1 twice", exRenewal, ex1, []int{3, 31, 31, 41, 45}, nil, "twice"},
		{"ex1 unrelated step", exRenewal, ex1, []int{3, 31, 34, 41, 45}, nil, "nothing in your run leads from the first to the second"},
		{"ex3 pause to B's write", exNoFencing, ex3, []int{31, 34, 63, 83, 88}, []int{48, 52}, "what freed the lock?"},
		{"ex3 no rival write", exNoFencing, ex3, []int{31, 34, 48, 52, 83, 88}, []int{63}, "what made storage's highest token newer than A's?"},
		{"ex3 no verdict", exNoFencing, ex3, []int{31, 34, 48, 52, 63, 83}, []int{87, 88}, "what did storage do with it?"},
		{"ex3 no late write", exNoFencing, ex3, []int{31, 34, 48, 52, 63}, []int{83, 87, 88}, "which write of A's came too late?"},
		{"ex3 no acquisition", exNoFencing, ex3, []int{31, 34, 48, 63, 83, 88}, []int{52}, "what let B act as the holder"},
		{"ex3 no pause", exNoFencing, ex3, []int{31, 48, 52, 63, 83, 88}, []int{34, 35}, "why did A's lease stop being renewed?"},
		{"ex3 reversed", exNoFencing, ex3, []int{31, 34, 52, 48, 63, 83, 88}, nil, "put the events in the order they happened"},
		// Event numbers of the hold run, used against the pause run: 40
		// and 67 are other events here, so the chain breaks.
		{"ex3 events of another run", exNoFencing, ex3, []int{31, 34, 40, 67, 71, 87, 96}, nil, "nothing in your run leads"},
		{"ex3 a harmless pause", exNoFencing, append(pauseAt(1*time.Second, 2*time.Second, "A"), pauseAt(4*time.Second, 20*time.Second, "A")...), nil, nil, ""},
	} {
		if c.chain == nil && c.says == "" {
			// Credit the earlier, harmless pause instead of the one that
			// lost the lease.
			w, roles := chainRolesOf(t, c.e, c.log)
			require.NotEmpty(t, roles, c.name)
			good := modelChain(t, c.e, c.log)
			var early *core.Event
			for ev := range w.Sim.Trace.All() {
				if (ev.Kind == core.KindPause || isRenewal(ev, "A") && ev.Kind != core.KindLeaseRenewed) && ev.Seq < good[0] {
					early = ev
				}
			}
			require.NotNil(t, early, c.name)
			wrong := append([]int{early.Seq}, good[1:]...)
			if early.Kind != core.KindPause {
				wrong = append([]int{early.Seq}, good...)[0:1]
				wrong = append(wrong, good[1:]...)
			}
			f := chainVerdict(t, c.e, c.log, wrong)
			assert.False(t, f.OK, "%s %v: %s", c.name, wrong, f.Why)
			continue
		}
		f := chainVerdict(t, c.e, c.log, c.chain)
		assert.False(t, f.OK, "%s: %s", c.name, f.Why)
		assert.Contains(t, f.Why, c.says, c.name)
		w, err := c.e.ChainRun(c.log)
		require.NoError(t, err)
		for _, m := range c.missing {
			ev := w.Sim.Trace.Event(m)
			require.NotNil(t, ev)
			assert.NotContains(t, f.Why, fmt.Sprintf("event %d ", m), "%s names the missing event", c.name)
			var b because
			words := chainWords(&b, w, ev)
			words = words[strings.Index(words, "(")+1 : strings.LastIndex(words, " at ")]
			assert.NotContains(t, f.Why, words, "%s says what the missing event was", c.name)
			if !slices.ContainsFunc(c.chain, func(s int) bool { return w.Sim.Trace.Event(s) != nil && w.Sim.Trace.Event(s).At == ev.At }) {
				assert.NotRegexp(t, `(^|[^0-9.])`+regexp.QuoteMeta(instant(ev.At)), f.Why, "%s gives the missing event's time", c.name)
			}
		}
	}
}

// TestChainLinksAreTheRunsOwn: every pair a passing chain links is linked
// in that run by a path of causes or by one of the documented links, and
// nothing links an event to one before it.
func TestChainLinksAreTheRunsOwn(t *testing.T) {
	w, err := noFencingLab.EvaluateWith(1, Knobs{"fencing": 0}, noFencingLab.Solution)
	require.NoError(t, err)
	tr := w.Sim.Trace
	// Causes: the verdict's second cause is the write that set the highest.
	assert.True(t, causedBy(tr, 63, tr.Event(87)), "B's first write is among the causes of the verdict on A's late write")
	assert.True(t, causedBy(tr, 48, tr.Event(52)), "the expiry freed the lock B took")
	assert.False(t, causedBy(tr, 52, tr.Event(63)), "B's acquisition is not a cause of its write in the trace: the token link covers it")
	for _, c := range [][2]int{{31, 34}, {34, 48}, {48, 52}, {52, 63}, {63, 83}, {83, 88}, {52, 57}, {63, 82}} {
		assert.True(t, chainLinked(w, tr.Event(c[0]), tr.Event(c[1])), "%v", c)
		assert.False(t, chainLinked(w, tr.Event(c[1]), tr.Event(c[0])), "%v reversed", c)
	}
	for _, c := range [][2]int{{8, 34}, {34, 31}, {27, 48}, {37, 48}, {52, 88}, {22, 34}} {
		assert.False(t, chainLinked(w, tr.Event(c[0]), tr.Event(c[1])), "%v: %s then %s", c, tr.Event(c[0]).Text(), tr.Event(c[1]).Text())
	}
}

// TestThresholdsMatchTheSimulator: each threshold the bisection found is
// where the simulator changes its mind: within the tolerance on one side
// every phase of the renewal cycle survives a pause, on the other the
// worst phase loses the lease.
func TestThresholdsMatchTheSimulator(t *testing.T) {
	base := renewalPolicy{ttl: exRenewTTL, renew: exRenewEvery}
	pause := thresholdOf("pause-max").value()
	assert.True(t, base.survives(pause-thresholdTol), "a pause of %s survives", pause-thresholdTol)
	assert.False(t, base.survives(pause+thresholdTol), "a pause of %s loses the lease at the worst phase", pause+thresholdTol)

	ttl := thresholdOf("ttl-safe").value()
	require.Equal(t, ttl.Truncate(time.Second), ttl, "TTLs are whole seconds")
	assert.True(t, renewalPolicy{ttl: ttl, renew: exRenewEvery}.survives(exRenewPause), "TTL %s", ttl)
	assert.False(t, renewalPolicy{ttl: ttl - time.Second, renew: exRenewEvery}.survives(exRenewPause), "TTL %s", ttl-time.Second)

	renew := thresholdOf("renew-safe").value()
	assert.True(t, renewalPolicy{ttl: exRenewTTL, renew: renew - thresholdTol}.survives(exRenewPause), "renew every %s", renew-thresholdTol)
	assert.False(t, renewalPolicy{ttl: exRenewTTL, renew: renew + thresholdTol}.survives(exRenewPause), "renew every %s", renew+thresholdTol)

	// The model answer's numbers and the worked text's are within the
	// tolerance of what the search found.
	for id, v := range map[string]time.Duration{"pause-max": pause, "ttl-safe": ttl, "renew-safe": renew} {
		got := time.Duration(exRenewal.Reference.Numbers[id] * float64(time.Second))
		assert.InDelta(t, v.Seconds(), got.Seconds(), thresholdTol.Seconds(), id)
	}
	worked := strings.Join(exRenewal.Worked, " ")
	assert.Contains(t, worked, fmt.Sprintf("about %.1f s", pause.Seconds()))
	assert.Contains(t, worked, fmt.Sprintf("a TTL of %s", secs(ttl)))
	assert.Contains(t, worked, fmt.Sprintf("every %.1f s or less", renew.Seconds()))
}

// TestThresholdFeedback: within the tolerance is right, either side of it
// is told its direction, measured in a run with the learner's number.
func TestThresholdFeedback(t *testing.T) {
	for _, c := range []struct {
		id   string
		v    float64
		ok   bool
		says string
	}{
		{"pause-max", 7, true, "Right"}, {"pause-max", 7.9, true, "Right"}, {"pause-max", 8.1, false, "too high"},
		{"pause-max", 6.9, false, "too low"}, {"pause-max", 12, false, "too high"}, {"pause-max", 0, false, "too low"},
		{"ttl-safe", 14, true, "Right"}, {"ttl-safe", 13, false, "too low"}, {"ttl-safe", 15, false, "too high"},
		{"ttl-safe", 20, false, "a shorter TTL is safe too"}, {"ttl-safe", 5, false, "too low"}, {"ttl-safe", 1, false, "cannot even run"},
		{"renew-safe", 3, true, "Right"}, {"renew-safe", 3.7, true, "Right"}, {"renew-safe", 2.7, false, "too low"},
		{"renew-safe", 4, false, "too high"}, {"renew-safe", 1, false, "a longer interval is safe too"}, {"renew-safe", 12, false, "too high"},
	} {
		a := exRenewal.Reference.Clone()
		a.Numbers[c.id] = c.v
		f := judgeThreshold(a, thresholdOf(c.id))
		assert.Equal(t, c.ok, f.OK, "%s %v: %s", c.id, c.v, f.Why)
		assert.Contains(t, f.Why, c.says, "%s %v", c.id, c.v)
		if !f.OK {
			assert.Contains(t, f.Why, "within 0.5 s", "the tolerance is stated")
		}
		checkExplanation(t, exRenewal, fmt.Sprintf("%s %v", c.id, c.v), f)
	}
}

// TestChainTooLongIsRefused: a chain longer than an answer may hold is
// refused with one line, as any malformed answer is (exit 2 in labctl).
func TestChainTooLongIsRefused(t *testing.T) {
	long := make([]string, maxChain+1)
	for i := range long {
		long[i] = fmt.Sprint(i)
	}
	_, err := exNoFencing.ParseAnswer([]byte(`{"chain":[` + strings.Join(long, ",") + `]}`))
	require.Error(t, err)
	assert.Equal(t, fmt.Sprintf("chain: %d events is more than the %d a chain may have", maxChain+1, maxChain), err.Error())
}
