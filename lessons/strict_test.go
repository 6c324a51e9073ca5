package lessons

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnswerInputIsStrict: an answer that JSON alone would let through but
// means something the learner did not write is refused, and the error names
// the field (defect 6).
func TestAnswerInputIsStrict(t *testing.T) {
	cases := []struct{ exercise, in, names string }{
		{"renew-ttl-pause", `{"schedule":[{"at":"4.5s","do":"pause","proc":"A","for":18446744082709}]}`, "18446744082709"},
		{"renew-ttl-pause", `{"schedule":[{"at":"4.5s","do":"pause","proc":"C","for":"9s"}]}`, "schedule[0].proc"},
		{"renew-ttl-pause", `{"schedule":[{"at":"4.5s","do":"pause","proc":"coordinator","for":"9s"}]}`, "schedule[0].proc"},
		{"renew-ttl-pause", `{"choices":{"measurements":["pause-tail","pause-tail"]}}`, "choices.measurements"},
		{"renew-ttl-pause", `{"choices":{"verdict":null}}`, "choices.verdict"},
		{"renew-ttl-pause", `{"choices":null}`, "choices"},
		{"renew-ttl-pause", `null`, "answer"},
		{"renew-ttl-pause", `{"Choices":{"verdict":["unsafe"]}}`, `"choices"`},
		{"renew-ttl-pause", `{"schedule":[{"AT":"4.5s","do":"pause","proc":"A","for":"9s"}]}`, "schedule[0].AT"},
		{"compaction-ttl", `{"numbers":{"ttl":null}}`, "numbers.ttl"},
		{"no-fencing", `{"schedule":[{"at":"4s","do":"partition","proc":"A","peer":"Z"}]}`, "schedule[0].peer"},
	}
	for _, c := range cases {
		e, err := FindExercise(c.exercise)
		require.NoError(t, err)
		_, err = e.ParseAnswer([]byte(c.in))
		if assert.Error(t, err, "%s accepted", c.in) {
			assert.Contains(t, err.Error(), c.names, "the error for %s should name the field", c.in)
		}
	}
}

// TestAnswerInputStillTakesGoodAnswers: the strict reading refuses nothing
// a model answer or a documented format uses.
func TestAnswerInputStillTakesGoodAnswers(t *testing.T) {
	for _, e := range Exercises() {
		b, err := jsonMarshal(e.Reference)
		require.NoError(t, err)
		_, err = e.ParseAnswer(b)
		assert.NoError(t, err, e.ID)
	}
	e, _ := FindExercise("no-fencing")
	_, err := e.ParseAnswer([]byte(`{"schedule":[{"at":"4s","do":"partition","proc":"A","peer":"coordinator"}]}`))
	assert.NoError(t, err, "a partition from the coordinator names a real actor")
}

// TestTickedKeyPointsAreChecked: an answer's ticked key points name
// points the exercise has, each once.
func TestTickedKeyPointsAreChecked(t *testing.T) {
	ex, err := FindExercise("no-fencing")
	require.NoError(t, err)
	for in, want := range map[string]string{
		`{"points":[99]}`:  "no point 99",
		`{"points":[0,0]}`: "ticked twice",
		`{"points":[-1]}`:  "no point -1",
	} {
		_, err := ex.ParseAnswer([]byte(in))
		if assert.Error(t, err, in) {
			assert.Contains(t, err.Error(), want, in)
		}
	}
	a, err := ex.ParseAnswer([]byte(`{"points":[0,1],"defence":"the token was old"}`))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, a.Points)
	assert.Equal(t, "the token was old", a.Defence)
}

// TestAnswerTypeErrorsNameTheField: a value of the wrong type, a duration
// that cannot be read or overflows, is refused with the path of its field
// and what it should be, never the decoder's Go wording (finding 11).
func TestAnswerTypeErrorsNameTheField(t *testing.T) {
	cases := []struct{ exercise, in, says string }{
		{"renew-ttl-pause", `{"schedule":[{"at":"4.5s","do":"pause","proc":"A","for":18446744082709}]}`, "schedule[0].for: bad duration"},
		{"no-fencing", `{"schedule":[{"at":"4s","do":"delay","proc":"A","for":"soon"}]}`, `schedule[0].for: "soon" is not a duration: write one like "1.5s"`},
		{"no-fencing", `{"schedule":[{"at":"later","do":"delay","proc":"A","for":"5s"}]}`, `schedule[0].at: "later" is not a duration`},
		{"no-fencing", `{"schedule":[{"at":"4s","do":"pause","proc":"A","for":"5s","on":5}]}`, "schedule[0].on: want true or false, not a number"},
		{"no-fencing", `{"schedule":{"at":"4s"}}`, "schedule: want a list of actions, not an object"},
		{"compaction-ttl", `{"numbers":{"ttl":"25","renew":5,"est-failover":25.5,"per-hour":720}}`, "numbers.ttl: want a number, not a string"},
		{"compaction-ttl", `{"numbers":[25]}`, "numbers: want an object of number ids, not an array"},
		{"token-logs", `{"choices":{"case-1-evidence":"line-1"}}`, "choices.case-1-evidence: want a list of option ids"},
		{"token-logs", `{"checks":"bug if some write"}`, "checks: want a list of checks, each a string"},
		{"token-logs", `{"checks":[3]}`, "checks[0]: want a check written as a string"},
		{"token-logs", `{"choices":{"case-1-evidence":[3]}}`, "choices.case-1-evidence[0]: want an option id (a string), not a number"},
		{"token-logs", `{"points":["first"]}`, "points[0]: want a key point's number"},
		{"token-logs", `{"defence":42}`, "defence: want a string, not a number"},
		{"compaction-ttl", `{"numbers":{"ttl":61,"renew":5,"est-failover":25.5,"per-hour":720}}`, "numbers.ttl (Lease TTL): 61 is outside 2 to 60"},
	}
	for _, c := range cases {
		e, err := FindExercise(c.exercise)
		require.NoError(t, err)
		_, err = e.ParseAnswer([]byte(c.in))
		if assert.Error(t, err, "%s accepted", c.in) {
			assert.Contains(t, err.Error(), c.says, c.in)
			assert.NotContains(t, err.Error(), "Go struct", c.in)
		}
	}
}

// TestExercisesAreFoundByTheirNumber: the number labctl exercises shows
// finds the same exercise as its id (finding 15); no other number does.
func TestExercisesAreFoundByTheirNumber(t *testing.T) {
	for i, e := range Exercises() {
		got, err := FindExercise(fmt.Sprint(i + 1))
		require.NoError(t, err)
		assert.Same(t, e, got)
	}
	for _, bad := range []string{"0", "6", "01", "-1"} {
		_, err := FindExercise(bad)
		assert.Error(t, err, bad)
	}
}
