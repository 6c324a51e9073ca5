package lessons

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// Every lesson says what it is for before its story: an objective that
// fits one line of the panel (and stays in view while the learner plays),
// a menu summary that adds to the title rather than repeating it, and
// about how long a first attempt takes.
func TestEveryLessonSaysWhatItIsFor(t *testing.T) {
	for _, l := range All() {
		t.Run(l.ID, func(t *testing.T) {
			for field, text := range map[string]string{"Objective": l.Objective, "Summary": l.Summary} {
				assert.NotEmpty(t, text, field)
				assert.NotContains(t, text, "\n", "%s is one line", field)
				assert.LessOrEqual(t, utf8.RuneCountInString(text), 95, "%s fits one line of the panel: %q", field, text)
				assert.True(t, strings.HasSuffix(text, "."), "%s is a sentence: %q", field, text)
				assert.NotContains(t, strings.ToLower(text), "seed", field)
			}
			assert.NotEqual(t, l.Title+".", l.Summary, "the summary adds to the title")
			assert.GreaterOrEqual(t, l.Minutes, 3, "minutes")
			assert.LessOrEqual(t, l.Minutes, 30, "minutes")
		})
	}
}

// The exercise menu says what each exercise asks and how long it takes.
func TestEveryExerciseSaysWhatItAsks(t *testing.T) {
	for _, e := range Exercises() {
		assert.NotEmpty(t, e.Summary, e.ID)
		assert.LessOrEqual(t, utf8.RuneCountInString(e.Summary), 95, "%s: %q", e.ID, e.Summary)
		assert.True(t, strings.HasSuffix(e.Summary, "."), e.ID)
		assert.GreaterOrEqual(t, e.Minutes, 5, e.ID)
		assert.LessOrEqual(t, e.Minutes, 40, e.ID)
	}
}
