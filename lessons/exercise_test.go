package lessons

import (
	"strings"
	"testing"
	"time"

	"leaselab/core"
)

// TestExerciseReferencesPass: every model answer passes, part by part.
func TestExerciseReferencesPass(t *testing.T) {
	for _, e := range Exercises() {
		r, err := e.Check(e.Reference)
		if err != nil {
			t.Fatalf("%s: reference invalid: %v", e.ID, err)
		}
		if !r.Pass {
			t.Errorf("%s: reference fails:\n%s", e.ID, r.Text())
		}
	}
}

// TestExerciseEmptyFails: an empty answer fails every exercise.
func TestExerciseEmptyFails(t *testing.T) {
	for _, e := range Exercises() {
		r, err := e.Check(Answer{})
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		if r.Pass {
			t.Errorf("%s: the empty answer passes", e.ID)
		}
	}
}

// wrongCase is a realistic wrong answer and the explanation it must get.
type wrongCase struct {
	name string
	edit func(a *Answer)
	part string // the part that must be marked wrong
	says string // a phrase its explanation must contain
}

func checkWrong(t *testing.T, id string, cases []wrongCase) {
	t.Helper()
	e, err := FindExercise(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		a := e.Reference.Clone()
		c.edit(&a)
		r, err := e.Check(a)
		if err != nil {
			t.Fatalf("%s/%s: %v", id, c.name, err)
		}
		if r.Pass {
			t.Errorf("%s/%s: wrong answer passes", id, c.name)
			continue
		}
		found := false
		for _, p := range r.Parts {
			if p.Part == c.part {
				found = true
				if p.OK {
					t.Errorf("%s/%s: part %q marked right", id, c.name, c.part)
				}
				if !strings.Contains(p.Why, c.says) {
					t.Errorf("%s/%s: part %q says %q, want it to mention %q", id, c.name, c.part, p.Why, c.says)
				}
			}
		}
		if !found {
			t.Errorf("%s/%s: no part %q in\n%s", id, c.name, c.part, r.Text())
		}
	}
}

func pauseAt(at, d time.Duration, proc string) core.ActionLog {
	return core.ActionLog{core.At(at, core.Action{Do: "pause", Proc: proc, For: core.Duration(d)})}
}

func TestRenewalWrongAnswers(t *testing.T) {
	checkWrong(t, "renew-ttl-pause", []wrongCase{
		{"safe because 9 < 12", func(a *Answer) { a.Choices["verdict"] = []string{"safe"} }, "Verdict", "5 + 9 = 14 s"},
		{"pause right after a renewal", func(a *Answer) { a.Schedule = pauseAt(1*time.Second, 9*time.Second, "A") }, "Breaking schedule", "Start the pause later"},
		{"pause longer than seen", func(a *Answer) { a.Schedule = pauseAt(1*time.Second, 20*time.Second, "A") }, "Breaking schedule", "longest pause"},
		{"pause the follower", func(a *Answer) { a.Schedule = pauseAt(4500*time.Millisecond, 9*time.Second, "B") }, "Breaking schedule", "waiting process"},
		{"mean pause", func(a *Answer) { a.Choices["measurements"] = append(a.Choices["measurements"], "mean-pause") }, "Measurements", "hides the one long pause"},
		{"forgot drift", func(a *Answer) { a.Choices["measurements"] = []string{"pause-tail", "renew-latency", "coord-latency"} }, "Measurements", "Clock drift"},
	})
}

// TestRenewalWindow: only pauses that start late in the renewal cycle
// break the lease: some 9 s pauses are harmless, some are not.
func TestRenewalWindow(t *testing.T) {
	broke, held := 0, 0
	for ms := 1000; ms < 11000; ms += 250 {
		f := judgeRenewalSchedule(pauseAt(time.Duration(ms)*time.Millisecond, 9*time.Second, "A"))
		if f.OK {
			broke++
		} else {
			held++
		}
	}
	if broke == 0 || held == 0 {
		t.Fatalf("9 s pauses: %d broke, %d held; want both", broke, held)
	}
	t.Logf("9 s pauses over 1-11 s: %d broke the lease, %d did not", broke, held)
}

func TestNoFencingWrongAnswers(t *testing.T) {
	checkWrong(t, "no-fencing", []wrongCase{
		{"blame the lock", func(a *Answer) { a.Choices["cause"] = []string{"two-holders"} }, "Cause", "never had two holders"},
		{"short pause", func(a *Answer) { a.Schedule = pauseAt(4*time.Second, 5*time.Second, "A") }, "Schedule, fencing off then on", "longer than its 10 s lease"},
		{"fencing in the log", func(a *Answer) {
			a.Schedule = append(a.Schedule, core.At(30*time.Second, core.Action{Do: "fencing", On: true}))
		}, "Schedule, fencing off then on", "slider"},
		{"crash instead of pause", func(a *Answer) {
			a.Schedule = core.ActionLog{core.At(4*time.Second, core.Action{Do: "crash", Proc: "A"})}
		}, "Schedule, fencing off then on", "no pause"},
	})
}

func TestExerciseMalformedAnswers(t *testing.T) {
	e, _ := FindExercise("renew-ttl-pause")
	for _, in := range []string{
		`{`, `[]`, `{"choices":{"verdict":["maybe"]}}`, `{"choices":{"nope":["safe"]}}`,
		`{"choices":{"verdict":["safe","unsafe"]}}`, `{"answer":1}`, `{"schedule":[{"at":"1s","do":"explode"}]}`,
		`{"schedule":[{"at":"999s","do":"pause","proc":"A","for":"9s"}]}`, `{} {}`,
	} {
		if _, err := e.ParseAnswer([]byte(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}
