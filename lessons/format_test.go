package lessons

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFormatExampleIsNoAnswer: the answer-format example every exercise's
// help prints is an answer that runs and fails, sharing no number and no
// choice with the model answer, and help says it is no answer (finding 14:
// each help example was the model answer, exercise 4's passing 6 of 6).
func TestFormatExampleIsNoAnswer(t *testing.T) {
	for _, e := range Exercises() {
		text := e.FormatText()
		assert.True(t, strings.HasPrefix(text, "An example of the format, not an answer"), e.ID)
		start, end := strings.Index(text, "{"), strings.Index(text, "\n}")
		require.True(t, start >= 0 && end > start, "%s: no JSON example in\n%s", e.ID, text)
		a, err := e.ParseAnswer([]byte(text[start : end+2]))
		require.NoError(t, err, "%s: the example does not parse:\n%s", e.ID, text)
		r, err := e.Check(a)
		require.NoError(t, err)
		assert.False(t, r.Pass, "%s: the format example passes:\n%s", e.ID, r.Text())
		for id, ref := range e.Reference.Numbers {
			assert.NotEqual(t, ref, a.Numbers[id], "%s: the example gives the model's %s", e.ID, id)
		}
		for q, ref := range e.Reference.Choices {
			for _, o := range a.Choices[q] {
				assert.NotContains(t, ref, o, "%s: the example picks the model's %s for %s", e.ID, o, q)
			}
		}
		if len(e.Reference.Schedule) > 0 {
			assert.NotEqual(t, e.Reference.Schedule, a.Schedule, e.ID)
		}
		if e.Complete(a) {
			// Complete only if it answers every question; numbers at their
			// defaults (as a fresh form shows them) are no attempt.
			assert.Len(t, a.Choices, len(e.Questions), "%s: the example answers every field it can", e.ID)
		}
	}
}

// TestFormatNotesDropAWrittenExample: a JSON example written into Format is
// left out of the help in favour of the generated one; the prose after it
// stays.
func TestFormatNotesDropAWrittenExample(t *testing.T) {
	assert.Equal(t, "left: seconds.", formatNotes("{\n  \"numbers\": { \"left\": 7 }\n}\nleft: seconds."))
	assert.Equal(t, "", formatNotes(`{ "numbers": { "ttl": 15 } }`))
	assert.Equal(t, "ttl is whole seconds.", formatNotes("ttl is whole seconds."))
}

// secsRE matches "4 s", "20 s", "0.5 s" in a text.
var secsRE = regexp.MustCompile(`(?:^|[^\d.])(\d+(?:\.\d+)?) ?s\b`)

// TestLastHintGivesTheKeyStepNotTheModel: the hints (the exercise's and
// its simulator's) name no time of the model's schedule and none of its
// numbers: the last rung gives the key step, and the help promises hints
// "without the answer" (finding 14: "Pause A at 4 s for 20 s"). Exercises
// 1 and 2 are rewritten on another branch that owns their files.
func TestLastHintGivesTheKeyStepNotTheModel(t *testing.T) {
	for _, e := range []*Exercise{exRenewal, exShards, exNoFencing, exCompaction, exLogs} {
		var model []string
		for _, tm := range e.Reference.Schedule {
			model = append(model, secs(tm.At.D()), secs(tm.For.D()))
		}
		for id, v := range e.Reference.Numbers {
			if slices.ContainsFunc(e.Numbers, func(k Knob) bool { return k.ID == id && k.Unit == "s" }) {
				model = append(model, fmt.Sprintf("%gs", v))
			}
		}
		hints := slices.Clone(e.Hints)
		if e.Lab != nil {
			hints = append(hints, e.Lab.Hints...)
		}
		for _, h := range hints {
			for _, m := range secsRE.FindAllStringSubmatch(h, -1) {
				assert.NotContains(t, model, m[1]+"s", "%s: a hint gives the model's %s s: %q", e.ID, m[1], h)
			}
		}
		assert.Contains(t, e.Hints[len(e.Hints)-1], "key step", "%s: the last rung is the key step", e.ID)
	}
}
