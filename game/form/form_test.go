package form

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

func exercise(t *testing.T, id string) *lessons.Exercise {
	t.Helper()
	ex, err := lessons.FindExercise(id)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func TestSingleChoiceIsARadioAndMultiChoiceToggles(t *testing.T) {
	f := New(exercise(t, "renew-ttl-pause"))
	mustPick := func(q, o string, wantChange bool) {
		t.Helper()
		changed, err := f.Pick(q, o)
		if err != nil || changed != wantChange {
			t.Fatalf("Pick(%s, %s) = %v, %v; want changed=%v", q, o, changed, err, wantChange)
		}
	}
	mustPick("verdict", "safe", true)
	mustPick("verdict", "unsafe", true)
	mustPick("verdict", "unsafe", false) // the chosen radio stays chosen
	if f.Chosen("verdict", "safe") || !f.Chosen("verdict", "unsafe") {
		t.Fatalf("verdict = %v", f.Answer().Choices["verdict"])
	}

	// A multiple-choice question toggles (the curriculum's exercises keep
	// theirs in flux; this one is the form's own).
	f = New(&lessons.Exercise{ID: "multi", Questions: []lessons.Question{{ID: "measurements", Multi: true, Options: []lessons.Option{
		{ID: "pause-tail"}, {ID: "mean-pause"}, {ID: "clock-drift"}, {ID: "lease-id"}}}, {ID: "verdict", Options: []lessons.Option{{ID: "safe"}, {ID: "unsafe"}}}}})
	mustPick("verdict", "unsafe", true)
	mustPick("measurements", "clock-drift", true)
	mustPick("measurements", "pause-tail", true)
	mustPick("measurements", "lease-id", true)
	mustPick("measurements", "lease-id", true) // off again
	got := strings.Join(f.Answer().Choices["measurements"], ",")
	if got != "pause-tail,clock-drift" { // the question's order, not the clicks'
		t.Errorf("measurements = %s", got)
	}
	if f.Answered() != 2 {
		t.Errorf("answered %d of 2", f.Answered())
	}
	mustPick("measurements", "pause-tail", true)
	mustPick("measurements", "clock-drift", true)
	if _, ok := f.Answer().Choices["measurements"]; ok || f.Answered() != 1 {
		t.Errorf("unticking every box must leave the question unanswered: %v", f.Answer().Choices)
	}

	for _, bad := range [][2]string{{"nope", "safe"}, {"verdict", "maybe"}} {
		if _, err := f.Pick(bad[0], bad[1]); err == nil {
			t.Errorf("Pick(%q, %q) accepted", bad[0], bad[1])
		}
	}
	// The form hands out copies: editing one cannot reach into the form.
	a := f.Answer()
	a.Choices["verdict"][0] = "safe"
	if !f.Chosen("verdict", "unsafe") {
		t.Error("Answer() shares its maps with the form")
	}
}

func TestNumbersAreValidated(t *testing.T) {
	ex := &lessons.Exercise{ID: "n", Numbers: []lessons.Knob{{ID: "ttl", Label: "TTL", Min: 1, Max: 30, Step: 1, Default: 10}}}
	f := New(ex)
	if f.Number("ttl") != 10 {
		t.Errorf("default = %g", f.Number("ttl"))
	}
	if err := f.SetNumber("ttl", 19); err != nil || f.Number("ttl") != 19 {
		t.Fatalf("SetNumber(19): %v, now %g", err, f.Number("ttl"))
	}
	for _, v := range []float64{0, 31} {
		if err := f.SetNumber("ttl", v); err == nil {
			t.Errorf("SetNumber(%g) accepted", v)
		}
	}
	if err := f.SetNumber("renew", 3); err == nil {
		t.Error("an unknown number field was accepted")
	}
	if f.Number("ttl") != 19 {
		t.Errorf("a refused value changed the form: %g", f.Number("ttl"))
	}
}

func TestScheduleCarriesTheRunAndRestoreRefusesWhatNoLongerFits(t *testing.T) {
	ex := exercise(t, "renew-ttl-pause")
	f := New(ex)
	run := core.ActionLog{core.At(4500*time.Millisecond, core.Pause("A", 9*time.Second))}
	if err := f.SetSchedule(run); err != nil {
		t.Fatal(err)
	}
	run[0].Proc = "B" // the form keeps its own copy
	if s := f.Schedule(); len(s) != 1 || s[0].Proc != "A" {
		t.Fatalf("schedule = %v", s)
	}
	late := core.ActionLog{core.At(90*time.Second, core.Pause("A", time.Second))}
	if err := f.SetSchedule(late); err == nil || len(f.Schedule()) != 1 {
		t.Errorf("a run outside the lab's 60 s was carried: %v", err)
	}
	if _, err := f.Pick("verdict", "unsafe"); err != nil {
		t.Fatal(err)
	}
	saved, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}

	g := New(ex)
	if err := g.Restore(saved); err != nil {
		t.Fatalf("Restore(%s): %v", saved, err)
	}
	if !g.Chosen("verdict", "unsafe") || len(g.Schedule()) != 1 {
		t.Errorf("restored %+v", g.Answer())
	}
	for _, bad := range []string{`{"choices":{"verdict":["perhaps"]}}`, `{"choices":`, `{"colour":"red"}`, `{"choices":{"verdict":["safe","unsafe"]}}`} {
		h := New(ex)
		_, _ = h.Pick("verdict", "safe")
		if err := h.Restore([]byte(bad)); err == nil {
			t.Errorf("Restore(%s) accepted", bad)
		}
		if !h.Chosen("verdict", "safe") {
			t.Errorf("a refused restore changed the form")
		}
	}
}

// slowJob is a check of n steps whose every step takes a fake millisecond.
type slowJob struct {
	clock *fakeClock
	n, i  int
}

func (j *slowJob) Step(int) bool {
	j.clock.t = j.clock.t.Add(time.Millisecond)
	j.i++
	return j.i >= j.n
}
func (j *slowJob) Progress() float64 { return float64(j.i) / float64(j.n) }
func (j *slowJob) Result() lessons.Result {
	return lessons.Result{Pass: true, Parts: []lessons.Feedback{{Part: "All", OK: true, Why: "because"}}}
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestCheckSpreadsALongJobOverFrames(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	c := NewCheck(&slowJob{clock: clock, n: 100}, clock.now)
	last := -1.0
	frames := 0
	for !c.Frame() {
		frames++
		if p := c.Progress(); p <= last || p >= 1 {
			t.Fatalf("frame %d: progress %g after %g", frames, p, last)
		} else {
			last = p
		}
		if frames > 100 {
			t.Fatal("the check never finished")
		}
	}
	// 7 ms a frame at 1 ms a step: 7 steps a frame, 15 frames for 100.
	if c.Frames() != 15 || c.Steps() != 100 {
		t.Errorf("%d frames, %d steps; want 15 frames of at most 7 steps", c.Frames(), c.Steps())
	}
	if !c.Done() || c.Progress() != 1 || !c.Result().Pass {
		t.Errorf("done %v progress %g result %+v", c.Done(), c.Progress(), c.Result())
	}
	if c.Frame() != true || c.Steps() != 100 {
		t.Error("a finished check must do no more work")
	}
}

func TestCheckDoesAStepEvenWithNoBudgetAndCanBeCancelled(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	c := NewCheck(&slowJob{clock: clock, n: 10}, clock.now)
	c.Budget = 0
	c.Frame()
	c.Frame()
	if c.Steps() != 2 {
		t.Errorf("steps = %d, want one a frame", c.Steps())
	}
	c.Cancel()
	if c.Frame() || c.Steps() != 2 || !c.Cancelled() || c.Done() {
		t.Errorf("after Cancel: steps %d cancelled %v done %v", c.Steps(), c.Cancelled(), c.Done())
	}
}

func TestStartChecksTheRealExercise(t *testing.T) {
	ex := exercise(t, "no-fencing")
	f := New(ex)
	if err := f.Load(ex.Reference); err != nil {
		t.Fatal(err)
	}
	c, err := f.Start(time.Now)
	if err != nil {
		t.Fatal(err)
	}
	for !c.Frame() {
	}
	if r := c.Result(); !r.Pass {
		t.Errorf("the model answer failed:\n%s", r.Text())
	}
	// And a wrong answer is marked wrong, with the reason: a chain with
	// the rival's acquisition taken out.
	if err := f.RemoveFromChain(3); err != nil {
		t.Fatal(err)
	}
	c, _ = f.Start(time.Now)
	for !c.Frame() {
	}
	if r := c.Result(); r.Pass || !strings.Contains(r.Text(), "what let B act as the holder") {
		t.Errorf("a chain with a gap passed or was not explained:\n%s", r.Text())
	}
}

// BenchmarkCompactionCheck runs exercise 4's check (a thousand seeded
// nights) the way the screen does, a frame's budget at a time, and reports
// how many frames it takes and the longest single step, which bounds how
// far a frame can overrun its budget.
func BenchmarkCompactionCheck(b *testing.B) {
	ex, err := lessons.FindExercise("compaction-ttl")
	if err != nil {
		b.Fatal(err)
	}
	f := New(ex)
	if err := f.Load(ex.Reference); err != nil {
		b.Fatal(err)
	}
	var longest time.Duration
	frames := 0
	for i := 0; i < b.N; i++ {
		c, err := f.Start(time.Now)
		if err != nil {
			b.Fatal(err)
		}
		for {
			start := time.Now()
			done := c.Frame()
			longest = max(longest, time.Since(start))
			if done {
				break
			}
		}
		frames += c.Frames()
	}
	b.ReportMetric(float64(frames)/float64(b.N), "frames/op")
	b.ReportMetric(float64(longest.Microseconds())/1000, "max-frame-ms")
}

// A number the learner can see is an answer: every exercise's fresh form
// (and one restored from a draft saved before numbers were kept) holds
// each number field at the value its slider shows, and exercise 1's check
// grades those values (6 s and 12 s, both wrong), never "Not answered".
func TestNumbersShownAreAnsweredNeverNotAnswered(t *testing.T) {
	for _, ex := range lessons.Exercises() {
		fresh, restored := New(ex), New(ex)
		require.NoError(t, restored.Restore([]byte(`{}`)))
		for _, f := range []*Form{fresh, restored} {
			for _, k := range ex.Numbers {
				assert.True(t, f.IsSet(k.ID), "%s: %s is answered as shown", ex.ID, k.ID)
				assert.Equal(t, k.Default, f.Number(k.ID))
			}
		}
	}

	f := New(exercise(t, "renew-ttl-pause"))
	c, err := f.Start(time.Now)
	require.NoError(t, err)
	for !c.Frame() {
	}
	parts := map[string]string{}
	for _, p := range c.Result().Parts {
		parts[p.Part] = p.Why
	}
	assert.Contains(t, parts["Lease left at a late pause"], "6 s is too little")
	assert.Contains(t, parts["Smallest safe TTL"], "12 s is not enough")
	assert.Contains(t, parts["Verdict"], "Not answered", "a question with nothing picked is still unanswered")
}

// TestChainIsBuiltFromTheRunsEvents: the form lists the events of the
// learner's own run (the one their schedule produces), adds them to the
// chain in the order picked, refuses one twice, and takes steps out.
func TestChainIsBuiltFromTheRunsEvents(t *testing.T) {
	ex := exercise(t, "no-fencing")
	f := New(ex)
	require.Empty(t, f.ChainEvents(), "no run yet, nothing to list")
	require.NoError(t, f.SetSchedule(ex.Reference.Schedule))
	evs := f.ChainEvents()
	require.NotEmpty(t, evs)
	var seqs []int
	for _, e := range evs {
		seqs = append(seqs, e.Seq)
	}
	for _, want := range ex.Reference.Chain {
		assert.Contains(t, seqs, want, "the model chain's events are listed")
	}
	for _, seq := range ex.Reference.Chain {
		require.NoError(t, f.AddToChain(seq))
	}
	assert.Equal(t, ex.Reference.Chain, f.Chain())
	assert.Error(t, f.AddToChain(ex.Reference.Chain[0]), "an event twice")
	require.NoError(t, f.RemoveFromChain(0))
	assert.Equal(t, ex.Reference.Chain[1:], f.Chain())
	assert.Error(t, f.RemoveFromChain(10))
	require.NoError(t, f.ClearChain())
	assert.Empty(t, f.Chain())
	assert.Empty(t, New(exercise(t, "token-logs")).ChainEvents(), "an exercise without a chain lists nothing")
}
