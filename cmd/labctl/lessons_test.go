package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"leaselab/lessons"
)

// The lesson list says what each lesson is about and how long it takes;
// a lesson opens with its objective, before the story.
func TestLessonsShowSummaryAndObjective(t *testing.T) {
	out, _, code := labctl(t, "", "lessons")
	assert.Equal(t, 0, code)
	for _, l := range lessons.All() {
		assert.Contains(t, out, l.Summary, l.ID)
	}
	assert.Contains(t, out, "(about 6 min)")
	out, _, code = labctl(t, "", "lesson", "fenced-writes")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "The paused leader and fenced writes\n\nObjective: See a paused leader's late write rejected")
}
