package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sample() Progress {
	p := New()
	p.SetLesson("fenced-writes", Lesson{
		Completed: true,
		GoalsMet:  []string{"stale-write-rejected", "token-increases"},
		HintsSeen: 2,
		Log:       json.RawMessage(`[{"at":"3s","pause":{"proc":"A","for":"9s"}}]`),
		Knobs:     map[string]float64{"ttl": 12, "renew": 5.5},
	})
	p.SetLesson("leases", Lesson{HintsSeen: 1})
	p.RecordAttempt("policy-check", true, false)
	p.RecordAttempt("policy-check", true, true)
	return p
}

func TestRoundTrip(t *testing.T) {
	p := sample()
	b, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatalf("Decode(Encode(p)): %v\n%s", err, b)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("round trip changed progress:\n got %+v\nwant %+v", got, p)
	}
	if e := got.Exercise("policy-check"); !e.Passed || e.Attempts != 2 {
		t.Errorf("exercise = %+v, want passed after 2 attempts", e)
	}
}

func TestEmptyInputIsFreshProgress(t *testing.T) {
	for _, in := range []string{"", " \n\t"} {
		p, err := Decode([]byte(in))
		if err != nil {
			t.Errorf("Decode(%q): %v", in, err)
		}
		if !reflect.DeepEqual(p, New()) {
			t.Errorf("Decode(%q) = %+v, want New()", in, p)
		}
	}
	var nilInput []byte
	if _, err := Decode(nilInput); err != nil {
		t.Errorf("Decode(nil): %v", err)
	}
}

func TestRefusedInputGivesFreshProgressAndReason(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	cases := []struct {
		name, in, reason string
	}{
		{"not JSON", `{"version":1,`, "not valid progress data"},
		{"garbage", "\xff\xfe\x00binary", "not text"},
		{"NUL", "\x00", "not valid progress data"},
		{"array", `[1,2,3]`, "not valid progress data"},
		{"no version", `{"lessons":{}}`, "no version"},
		{"string version", `{"version":"1"}`, "no version"},
		{"older version", `{"version":0,"lessons":{}}`, "version 0"},
		{"newer version", `{"version":2,"lessons":{}}`, "version 2; this LeaseLab reads version 1"},
		{"lessons wrong type", `{"version":1,"lessons":[]}`, "not valid progress data"},
		{"completed wrong type", `{"version":1,"lessons":{"a":{"completed":"yes"}}}`, "not valid progress data"},
		{"trailing data", `{"version":1} {"version":1}`, "not valid progress data"},
		{"NaN knob", `{"version":1,"lessons":{"a":{"knobs":{"ttl":NaN}}}}`, "not valid progress data"},
		{"huge knob", `{"version":1,"lessons":{"a":{"knobs":{"ttl":1e999}}}}`, "not valid progress data"},
		{"negative attempts", `{"version":1,"exercises":{"x":{"attempts":-1}}}`, "-1 attempts"},
		{"negative hints", `{"version":1,"lessons":{"a":{"hintsSeen":-3}}}`, "-3 hints"},
		{"empty id", `{"version":1,"lessons":{"":{}}}`, "lesson id"},
		{"empty goal", `{"version":1,"lessons":{"a":{"goalsMet":[""]}}}`, "goal id"},
		{"deep log", `{"version":1,"lessons":{"a":{"log":` + deep + `}}}`, "nested more than"},
		{"deep version", `{"version":` + deep + `}`, "nested more than"},
		{"too large", `{"version":1,"lessons":{"a":{"log":"` + strings.Repeat("x", MaxSize) + `"}}}`, "more than the"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Decode([]byte(c.in))
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DecodeError", err)
			}
			if !strings.Contains(de.Reason, c.reason) {
				t.Errorf("reason %q lacks %q", de.Reason, c.reason)
			}
			for _, jargon := range []string{"JSON", "invalid character", "unmarshal", "cannot unmarshal", "looking for"} {
				if strings.Contains(de.Reason, jargon) {
					t.Errorf("reason %q speaks the parser's language (%q), not the learner's", de.Reason, jargon)
				}
			}
			if !reflect.DeepEqual(p, New()) {
				t.Errorf("progress = %+v, want New()", p)
			}
		})
	}
}

func TestNullLogAndMissingMapsDecode(t *testing.T) {
	p, err := Decode([]byte(`{"version":1,"lessons":{"a":{"log":null}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Lessons["a"].Log != nil || p.Exercises == nil {
		t.Errorf("got %+v, want a nil log and non-nil maps", p)
	}
}

func TestEncodeRefusesWhatDecodeWould(t *testing.T) {
	p := New()
	p.SetLesson("a", Lesson{Log: json.RawMessage(`{not json`)})
	if _, err := Encode(p); err == nil {
		t.Error("Encode accepted an invalid action log")
	}
	p = New()
	p.SetLesson("a", Lesson{Log: json.RawMessage(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))})
	if _, err := Encode(p); err == nil {
		t.Error("Encode accepted a log nested past MaxDepth inside the document")
	}
	p = New()
	p.Exercises["x"] = Exercise{Attempts: -2}
	if _, err := Encode(p); err == nil {
		t.Error("Encode accepted negative attempts")
	}
	// Version is always the current one, and nil maps encode as objects.
	b, err := Encode(Progress{Version: 7})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"version":1,"lessons":{},"exercises":{}}`; string(b) != want {
		t.Errorf("Encode(zero) = %s, want %s", b, want)
	}
}

func TestMeetGoalOnce(t *testing.T) {
	var p Progress // the zero value works too
	if !p.MeetGoal("l", "g") || p.MeetGoal("l", "g") || !p.MeetGoal("l", "h") {
		t.Error("MeetGoal must report new goals once")
	}
	if got := p.Lesson("l").GoalsMet; !reflect.DeepEqual(got, []string{"g", "h"}) {
		t.Errorf("GoalsMet = %v", got)
	}
}

func TestOpen(t *testing.T) {
	t.Run("nothing saved", func(t *testing.T) {
		p, notice := Open(NewMemStore(nil, ""), nil)
		if notice != "" || !reflect.DeepEqual(p, New()) {
			t.Errorf("Open = %+v, %q", p, notice)
		}
	})
	t.Run("saved", func(t *testing.T) {
		s := NewMemStore(nil, "")
		if err := Save(s, sample()); err != nil {
			t.Fatal(err)
		}
		p, notice := Open(s, nil)
		if notice != "" || !reflect.DeepEqual(p, sample()) {
			t.Errorf("Open = %+v, %q", p, notice)
		}
	})
	t.Run("corrupt is kept", func(t *testing.T) {
		old := []byte(`{"version":1,"lessons":`)
		s := NewMemStore(old, "")
		p, notice := Open(s, nil)
		want := "Your saved progress could not be read (it is not valid progress data: damaged, or cut short); starting fresh. The old data was kept as memory backup 1."
		if notice != want {
			t.Errorf("notice\n got %q\nwant %q", notice, want)
		}
		if !reflect.DeepEqual(p, New()) {
			t.Errorf("progress = %+v", p)
		}
		if b := s.Backups(); len(b) != 1 || !bytes.Equal(b[0], old) {
			t.Errorf("backups = %q", b)
		}
	})
	t.Run("backup fails", func(t *testing.T) {
		s := NewMemStore([]byte(`{"version":9}`), "")
		s.BackupErr = errors.New("disk full")
		_, notice := Open(s, nil)
		want := "Your saved progress could not be read (it is version 9; this LeaseLab reads version 1); starting fresh. The old data could not be kept: disk full. Nothing will be saved over it."
		if notice != want {
			t.Errorf("notice\n got %q\nwant %q", notice, want)
		}
	})
	t.Run("load fails", func(t *testing.T) {
		s := NewMemStore(nil, "Progress lasts only until this tab closes.")
		s.LoadErr = errors.New("permission denied")
		_, notice := Open(s, nil)
		// Unreadable is kept aside like undecodable (issue 19, item 10):
		// the first save used to replace it.
		want := "Progress lasts only until this tab closes. Your saved progress could not be read (permission denied); starting fresh. The old data was kept as memory backup 1."
		if notice != want {
			t.Errorf("notice\n got %q\nwant %q", notice, want)
		}
	})
	t.Run("save fails", func(t *testing.T) {
		s := NewMemStore(nil, "")
		s.SaveErr = errors.New("quota exceeded")
		if err := Save(s, sample()); err == nil || !strings.Contains(err.Error(), "quota exceeded") {
			t.Errorf("Save = %v", err)
		}
	})
}

func FuzzDecode(f *testing.F) {
	good, _ := Encode(sample())
	for _, s := range []string{
		"", string(good), `{"version":1}`, `{"version":2}`, `{"version":1,"lessons":{"a":{"log":[[[]]]}}}`,
		`{"version":1,"lessons":{"a":{"knobs":{"x":-0}}}}`, `{"version":1,"exercises":{"x":{"attempts":2147483647}}}`,
		`{"version":1,"lessons":{"\u00e9":{"goalsMet":["a","a"],"log":"\"}"}}}`, `[`, `{"version":1e0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || de.Reason == "" {
				t.Fatalf("error %v is not a *DecodeError with a reason", err)
			}
			if !reflect.DeepEqual(p, New()) {
				t.Fatalf("refused input gave progress %+v", p)
			}
			return
		}
		// Whatever Decode accepts, Encode writes and Decode reads back.
		out, err := Encode(p)
		if err != nil {
			t.Fatalf("Encode of decoded progress: %v", err)
		}
		q, err := Decode(out)
		if err != nil {
			t.Fatalf("Decode(Encode(p)): %v\n%s", err, out)
		}
		out2, _ := Encode(q)
		if !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}

// A document saved before exercises kept their last answer still reads,
// unchanged; one saved after reads its answer back; an answer that is not
// JSON is refused like any other damage.
func TestExerciseAnswerIsAnOptionalAddition(t *testing.T) {
	old := `{"version":1,"lessons":{"leases":{"completed":true}},"exercises":{"no-fencing":{"passed":true,"attempts":2}}}`
	p, err := Decode([]byte(old))
	if err != nil {
		t.Fatalf("a save from before answers were kept: %v", err)
	}
	if e := p.Exercise("no-fencing"); !e.Passed || e.Attempts != 2 || e.Answer != nil {
		t.Errorf("old exercise progress = %+v", e)
	}

	answer := json.RawMessage(`{"choices":{"cause":["stale-belief"]}}`)
	p.SetAnswer("no-fencing", answer)
	p.SetAnswer("renew-ttl-pause", json.RawMessage(`{}`))
	b, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if e := got.Exercise("no-fencing"); string(e.Answer) != string(answer) || e.Attempts != 2 || !e.Passed {
		t.Errorf("after a round trip: %+v", e)
	}
	if e := got.Exercise("renew-ttl-pause"); e.Attempts != 0 || string(e.Answer) != "{}" {
		t.Errorf("an answer alone must not count as an attempt: %+v", e)
	}

	if p, err := Decode([]byte(`{"version":1,"exercises":{"x":{"answer":null}}}`)); err != nil || p.Exercise("x").Answer != nil {
		t.Errorf("a null answer: %+v, %v", p.Exercise("x"), err)
	}
	bad := New()
	bad.SetAnswer("x", json.RawMessage(`{"choices":`))
	if _, err := Encode(bad); err == nil {
		t.Error("Encode accepted an answer that is not JSON")
	}
	if _, err := Decode([]byte(`{"version":1,"exercises":{"x":{"answer":{"a":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}}}}`)); err == nil {
		t.Error("Decode accepted an answer nested past MaxDepth")
	}
}

// TestPassWithTheAnswerShownIsKeptApart: a pass after the model answer was
// revealed is recorded as such and never becomes a plain pass; one earned
// before stays earned (defect 7).
func TestPassWithTheAnswerShownIsKeptApart(t *testing.T) {
	p := New()
	p.RecordAttempt("token-logs", true, false)
	p.Reveal("token-logs")
	p.RecordAttempt("token-logs", true, true)
	e := p.Exercise("token-logs")
	assert.False(t, e.Passed)
	assert.True(t, e.PassedWithAnswer)
	assert.Equal(t, "passed with the answer shown", e.Status())

	p.RecordAttempt("no-fencing", true, true)
	p.Reveal("no-fencing")
	p.RecordAttempt("no-fencing", true, true)
	assert.Equal(t, "passed", p.Exercise("no-fencing").Status(), "earned before the reveal")

	b, err := Encode(p)
	require.NoError(t, err)
	q, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, p.Exercise("token-logs"), q.Exercise("token-logs"), "it survives a save")
}

// TestDraftResultAndHintsSurviveASave: what the exercise screen keeps
// between visits (defect 8).
func TestDraftResultAndHintsSurviveASave(t *testing.T) {
	p := New()
	p.SetAnswer("shard-design", []byte(`{"numbers":{"ttl":15}}`))
	p.SetResult("shard-design", []byte(`{"Pass":false}`))
	p.SeeHints("shard-design", 2)
	b, err := Encode(p)
	require.NoError(t, err)
	q, err := Decode(b)
	require.NoError(t, err)
	e := q.Exercise("shard-design")
	assert.JSONEq(t, `{"numbers":{"ttl":15}}`, string(e.Answer))
	assert.JSONEq(t, `{"Pass":false}`, string(e.Result))
	assert.Equal(t, 2, e.HintsSeen)
	_, err = Decode([]byte(`{"version":1,"exercises":{"x":{"result":"{"}}}`))
	assert.NoError(t, err, "a string is valid JSON")
	_, err = Decode([]byte(`{"version":1,"exercises":{"x":{"hintsSeen":-1}}}`))
	assert.Error(t, err)
}
