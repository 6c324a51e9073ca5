package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// A lesson is playable in the terminal: your own actions (here lesson 14's,
// on the coordinator's members), each goal met with what it proved or
// open with how far the run got, and the goals met kept in the progress
// file, as the desktop keeps them.
func TestALessonPlayedWithYourOwnActions(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "progress.json")
	first := `[{"at":"2s","do":"crash","proc":"A"},{"at":"3s","do":"crash","proc":"member-1"}]`
	out, errs, code := labctl(t, first, "lesson", "coordinator-cluster", "--actions", "-", "--progress", prog)
	require.Equal(t, 1, code, errs)
	assert.Contains(t, out, "your 2 actions")
	assert.Contains(t, out, "raft.leader term=3")
	assert.Contains(t, out, "[met  ] Crash the holder, then the leading member")
	assert.Contains(t, out, "The new leader gave the dead holder's lease its whole TTL again")
	assert.Contains(t, out, "[OPEN ] Slow two disks")
	assert.Contains(t, out, "so far: slowest write")
	assert.NotContains(t, out, "Lesson complete")
	saved, err := os.ReadFile(prog)
	require.NoError(t, err)
	assert.Contains(t, string(saved), `"goalsMet":["outlive"]`)

	l, err := lessons.Find("coordinator-cluster")
	require.NoError(t, err)
	sol, err := json.Marshal(l.Solution)
	require.NoError(t, err)
	out, errs, code = labctl(t, string(sol), "lesson", "coordinator-cluster", "--actions", "-", "--progress", prog)
	require.Equal(t, 0, code, errs)
	assert.NotContains(t, out, "[OPEN ]")
	assert.Contains(t, out, "Lesson complete. The lock is only as steady as the cluster behind it.")

	for name, c := range map[string]struct {
		stdin string
		args  []string
		want  string
	}{
		"a malformed log":          {`[{"at":"2s","do":"crash"`, nil, "unexpected EOF"},
		"an unknown verb":          {`[{"at":"2s","do":"explode","proc":"A"}]`, nil, "unknown action"},
		"an action past the end":   {`[{"at":"101s","do":"crash","proc":"A"}]`, nil, "past the lesson's end"},
		"a knob the lesson lacks":  {`[]`, []string{"--knob", "ttl=5"}, "has no knob"},
		"a knob that is no number": {`[]`, []string{"--knob", "ttl=fast"}, "is not a number"},
		"--actions with --solve":   {`[]`, []string{"--solve"}, "give one of"},
	} {
		args := append([]string{"lesson", "coordinator-cluster", "--actions", "-", "--progress", prog}, c.args...)
		_, errs, code := labctl(t, c.stdin, args...)
		assert.Equal(t, 2, code, name)
		assert.Contains(t, errs, c.want, name)
	}
}
