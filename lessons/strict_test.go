package lessons

import (
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
