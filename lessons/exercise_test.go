package lessons

import (
	"slices"
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
	return core.ActionLog{core.At(at, core.Pause(proc, d))}
}

func TestRenewalWrongAnswers(t *testing.T) {
	checkWrong(t, "renew-ttl-pause", []wrongCase{
		{"safe because 9 < 12", func(a *Answer) { a.Choices["verdict"] = []string{"safe"} }, "Verdict", "How old can the lease"},
		{"pause right after a renewal", func(a *Answer) { a.Schedule = pauseAt(1*time.Second, 9*time.Second, "A") }, "Breaking schedule", "Start the pause later"},
		{"pause longer than seen", func(a *Answer) { a.Schedule = pauseAt(1*time.Second, 20*time.Second, "A") }, "Breaking schedule", "longest pause"},
		{"pause the follower", func(a *Answer) { a.Schedule = pauseAt(4500*time.Millisecond, 9*time.Second, "B") }, "Breaking schedule", "waiting process"},
		{"9 < 12 as the longest pause", func(a *Answer) { a.Numbers["pause-max"] = 9 }, "Longest pause survived", "too high"},
		{"rule's TTL as the simulator's", func(a *Answer) { a.Numbers["ttl-safe"] = 20 }, "TTL for 9 s pauses", "too high"},
		{"renew at TTL - pause - 1", func(a *Answer) { a.Numbers["renew-safe"] = 2 }, "Renewal interval for 9 s pauses", "too low"},
		{"chain without the pause", func(a *Answer) { a.Chain = []int{3, 41, 45} }, "Your chain of events", "why did A not renew in time?"},
	})
}

// TestRenewalWindow: only pauses that start late in the renewal cycle
// break the lease: some 9 s pauses are harmless, some are not.
func TestRenewalWindow(t *testing.T) {
	broke, held := 0, 0
	for ms := 1000; ms < 11000; ms += 250 {
		f, _ := judgeRenewalSchedule(pauseAt(time.Duration(ms)*time.Millisecond, 9*time.Second, "A"))
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
		{"no rival write", func(a *Answer) { a.Chain = []int{31, 34, 48, 52, 88} }, "Your chain of events", "what made storage's highest token newer than A's?"},
		{"short pause", func(a *Answer) { a.Schedule = pauseAt(4*time.Second, 5*time.Second, "A") }, "Schedule, fencing off then on", "longer than its 10 s lease"},
		{"fencing in the log", func(a *Answer) {
			a.Schedule = append(a.Schedule, core.At(30*time.Second, core.Fencing(true)))
		}, "Schedule, fencing off then on", "slider"},
		{"crash instead of pause", func(a *Answer) {
			a.Schedule = core.ActionLog{core.At(4*time.Second, core.Crash("A"))}
		}, "Schedule, fencing off then on", "neither pauses the leader"},
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

func TestShardDesignWrongAnswers(t *testing.T) {
	num := func(ttl, renew float64) func(a *Answer) {
		return func(a *Answer) { a.Numbers = map[string]float64{"ttl": ttl, "renew": renew} }
	}
	pick := func(q, o string) func(a *Answer) { return func(a *Answer) { a.Choices[q] = []string{o} } }
	checkWrong(t, "shard-design", []wrongCase{
		{"minute-long TTL", num(60, 20), "Failover", "Shorten the TTL"},
		{"renew every second", num(15, 1), "Coordinator load", "over the 500 bound"},
		{"greedy claims", pick("assignment", "greedy"), "Balance", "Greedy"},
		{"static hash", pick("assignment", "static"), "Failover", "static hash"},
		{"plain offset commits", pick("offsets", "plain"), "Stale owner", "offsets went backwards"},
		{"offsets in the coordinator", pick("place-offsets", "coordinator"), "Where the data lives", "too hot for a coordinator"},
		{"tokens in the database", pick("place-tokens", "store"), "Where the data lives", "issued by the coordinator"},
		{"renew after the lease", num(10, 12), "Design", "lapse"},
	})
}

func TestCompactionWrongAnswers(t *testing.T) {
	num := func(ttl, renew float64) func(a *Answer) {
		return func(a *Answer) { a.Numbers["ttl"], a.Numbers["renew"] = ttl, renew }
	}
	checkWrong(t, "compaction-ttl", []wrongCase{
		{"defaults 30/10: rule ok, failover too slow", num(30, 10), "Failover", "over the 30 s budget"},
		{"12/4 fails the rule", num(12, 4), "Policy rule", "16 s > 12 s"},
		{"10/5 duplicates", num(10, 5), "Duplicates", "duplicate compaction steps"},
		{"renew longer than ttl", num(10, 15), "Design", "lapses"},
	})
}

// TestCompactionCurve: the trade-off rows surround the learner's TTL and
// the row for a short TTL shows what it costs.
func TestCompactionCurve(t *testing.T) {
	r, err := exCompaction.Check(Answer{Numbers: map[string]float64{"ttl": 22, "renew": 4, "alt-ttl": 16, "alt-renew": 3, "est-failover": 22.5, "per-hour": 900}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Pass {
		t.Fatalf("22/4 fails:\n%s", r.Text())
	}
	text := strings.Join(r.Figures, "\n")
	for _, want := range []string{"> TTL 22 s, renew 4 s", "TTL 10 s", "TTL 30 s", "rule fails"} {
		if !strings.Contains(text, want) {
			t.Errorf("curve lacks %q:\n%s", want, text)
		}
	}
}

// TestCompactionJobSteps: the many-nights check advances in small steps
// with rising progress, so a front end can spread it over frames.
func TestCompactionJobSteps(t *testing.T) {
	j, err := exCompaction.Start(exCompaction.Reference)
	if err != nil {
		t.Fatal(err)
	}
	last, steps := -1.0, 0
	for !j.Step(25) {
		p := j.Progress()
		if p <= last || p >= 1 {
			t.Fatalf("step %d: progress %v after %v", steps, p, last)
		}
		last = p
		steps++
	}
	if steps < 40 || j.Progress() != 1 || !j.Result().Pass {
		t.Fatalf("%d steps, progress %v, pass %v", steps, j.Progress(), j.Result().Pass)
	}
}

// BenchmarkCompaction1000Nights is exercise 4's main check: 1,000 seeded
// nights of the model answer (the bound: 2 s natively).
func BenchmarkCompaction1000Nights(b *testing.B) {
	d := NightDesign{TTL: 25 * time.Second, Renew: 5 * time.Second}
	for b.Loop() {
		if _, err := RunNights(d, nightsChecked); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLogsWrongAnswers(t *testing.T) {
	checks := func(cs ...string) func(a *Answer) { return func(a *Answer) { a.Checks = cs } }
	checkWrong(t, "token-logs", []wrongCase{
		{"only the fence", checks(modelChecks[0]), "Incident 3", "A's own log"},
		{"only the lost lease", checks(modelChecks[1]), "Incident 1", "what storage did"},
		{"every stale token a bug", checks("bug if some write: token < highest"), "Hidden variants", "storage compares tokens"},
		{"a tautology beside the model", checks(append(slices.Clone(modelChecks), "bug unless count(write) >= 0")...), "Your checks", "true on every incident"},
	})
}

// TestLogsShowTokens15And16: every incident's generated log really shows
// both tokens reaching the database.
func TestLogsShowTokens15And16(t *testing.T) {
	for _, m := range exLogs.Materials {
		text := strings.Join(m.Lines(), "\n")
		for _, tok := range []string{"orders-db write from=A token=15", "token=16"} {
			if !strings.Contains(text, tok) {
				t.Errorf("%s lacks %q", m.ID, tok)
			}
		}
	}
}

// FuzzParseAnswer: whatever an answer file holds, every exercise either
// refuses it with an error or accepts one that validates and round-trips;
// huge schedules and overflowing times are refused (issue 19, item 4).
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"choices":{"cause":["stale-belief"]}}`, `{"numbers":{"ttl":1e308}}`,
		`{"schedule":[{"at":"1s","do":"pause","proc":"A","for":"20s"}]}`,
		`{"schedule":[{"at":9223372036854775,"do":"crash","proc":"A"}]}`,
		`{"schedule":[{"at":"2562047h","do":"crash","proc":"A"}]}`, `{"extra":1}`, `[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, e := range Exercises() {
			a, err := e.ParseAnswer(b)
			if err != nil {
				continue
			}
			if err := e.Validate(a); err != nil {
				t.Fatalf("%s: accepted an answer that does not validate: %v", e.ID, err)
			}
			if len(a.Schedule) > core.MaxActions {
				t.Fatalf("%s: accepted %d schedule entries", e.ID, len(a.Schedule))
			}
		}
	})
}
