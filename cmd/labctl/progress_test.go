package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/lessons"

	"boot.leaselab/progress"
)

// TestMain keeps every test away from the learner's real progress file:
// the default one (the desktop's) lives in a temporary config folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "labctl-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// progressFile is a fresh progress file for one test.
func progressFile(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "progress.json")
}

// savedExercise reads exercise id's progress from the file at path.
func savedExercise(t *testing.T, path, id string) progress.Exercise {
	t.Helper()
	p, notice := progress.Open(progress.NewFileStore(path), nil)
	require.Empty(t, notice)
	return p.Exercise(id)
}

// attempt checks the model answer of exercise id as the learner's own
// (it is one a learner could write), recording a real attempt in path.
func attempt(t *testing.T, path, id string) {
	t.Helper()
	e, err := lessons.FindExercise(id)
	require.NoError(t, err)
	f := filepath.Join(t.TempDir(), "answer.json")
	require.NoError(t, os.WriteFile(f, []byte(answerJSON(t, e.Reference)), 0o600))
	_, errb, code := labctl(t, "", "exercise", id, "--answer", f, "--progress", path)
	require.Contains(t, []int{exitOK, exitNo}, code, errb)
	require.True(t, savedExercise(t, path, id).Complete, "%s: the attempt was recorded", id)
}

// TestReferenceWaitsForARealAttempt (issue 31): labctl exercise ID
// --reference printed every model answer with no attempt. It now refuses
// (exit 2, one line) until the progress file records a real attempt of
// that exercise, from labctl --answer or the desktop, and the format
// example is none.
func TestReferenceWaitsForARealAttempt(t *testing.T) {
	for _, e := range lessons.Exercises() {
		path := progressFile(t)
		out, errb, code := labctl(t, "", "exercise", e.ID, "--reference", "--progress", path)
		assert.Equal(t, exitBadInput, code, e.ID)
		assert.Empty(t, out, "%s: nothing of the model answer is printed", e.ID)
		assert.Contains(t, errb, "opens after a real attempt", e.ID)
		assert.Equal(t, 1, countLines(errb), e.ID)

		// The format example, checked, is no attempt.
		out, _, code = labctl(t, answerJSON(t, e.FormatExample()), "exercise", e.ID, "--answer", "-", "--progress", path)
		assert.Equal(t, exitNo, code, "%s: the format example fails", e.ID)
		assert.Contains(t, out, "format example")
		assert.Equal(t, 1, savedExercise(t, path, e.ID).Attempts, "%s: counted as a check", e.ID)
		_, _, code = labctl(t, "", "exercise", e.ID, "--reference", "--progress", path)
		assert.Equal(t, exitBadInput, code, "%s: the format example opened the model answer", e.ID)

		attempt(t, path, e.ID)
		out, errb, code = labctl(t, "", "exercise", e.ID, "--reference", "--progress", path)
		assert.Equal(t, exitOK, code, "%s: %s", e.ID, errb)
		assert.Contains(t, out, "Model answer:")
		assert.True(t, savedExercise(t, path, e.ID).Revealed, "%s: the reveal is recorded", e.ID)
	}
}

// TestAnswerKeepsOtherProgress: recording an attempt keeps what the file
// held: lessons, other exercises, this exercise's saved answer and
// unknown fields of a newer LeaseLab.
func TestAnswerKeepsOtherProgress(t *testing.T) {
	path := progressFile(t)
	before := `{"version":1,"future":{"x":1},
	 "lessons":{"leases":{"completed":true,"goalsMet":["false-failover"],"hintsSeen":2,"knobs":{"ttl":30},"updated":5}},
	 "exercises":{"no-fencing":{"attempts":3,"answer":{"choices":{"cause":["reorder"]}},"hintsSeen":1,"updated":7},
	              "token-logs":{"passed":true,"attempts":1,"updated":3}}}`
	require.NoError(t, os.WriteFile(path, []byte(before), 0o600))
	attempt(t, path, "no-fencing")

	p, notice := progress.Open(progress.NewFileStore(path), nil)
	require.Empty(t, notice)
	assert.Equal(t, progress.Lesson{Completed: true, GoalsMet: []string{"false-failover"}, HintsSeen: 2, Knobs: map[string]float64{"ttl": 30}, Updated: 5}, p.Lesson("leases"))
	ex := p.Exercise("no-fencing")
	assert.Equal(t, 4, ex.Attempts)
	assert.True(t, ex.Passed, "the model answer, not shown before, passed as the learner's own")
	assert.JSONEq(t, `{"choices":{"cause":["reorder"]}}`, string(ex.Answer), "the desktop's saved answer is kept")
	assert.Equal(t, 1, ex.HintsSeen)
	assert.True(t, p.Exercise("token-logs").Passed)
	assert.Contains(t, p.Extra, "future")
}

// TestExerciseHintsOneRungAtATime (issue 31): --hint N shows one rung past
// those seen at most, records them, and keeps the last rung (the key
// step) for after a real attempt.
func TestExerciseHintsOneRungAtATime(t *testing.T) {
	path := progressFile(t)
	id := "no-fencing"
	_, errb, code := labctl(t, "", "exercise", id, "--hint", "2", "--progress", path)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errb, "see rung 1 first")
	out, _, code := labctl(t, "", "exercise", id, "--hint", "1", "--progress", path)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "Hint 1 of 3")
	out, _, code = labctl(t, "", "exercise", id, "--hint", "2", "--progress", path)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "Hint 2 of 3")
	assert.Equal(t, 2, savedExercise(t, path, id).HintsSeen)

	out, errb, code = labctl(t, "", "exercise", id, "--hint", "3", "--progress", path)
	assert.Equal(t, exitBadInput, code)
	assert.NotContains(t, out, "Hint 3")
	assert.Contains(t, errb, "the last hint, the key step, opens after a real attempt")

	attempt(t, path, id)
	out, _, code = labctl(t, "", "exercise", id, "--hint", "3", "--progress", path)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "Hint 3 of 3")
}

// TestLessonHintsOneRungAtATime (issue 31): labctl lesson ID printed every
// hint at once, the last being the solution. It now prints the rungs seen
// so far; --hint N shows one more rung at a time, recorded in the same
// progress file as the desktop's.
func TestLessonHintsOneRungAtATime(t *testing.T) {
	path := progressFile(t)
	l, err := lessons.Find("leases")
	require.NoError(t, err)
	out, _, code := labctl(t, "", "lesson", "leases", "--progress", path)
	require.Equal(t, exitOK, code)
	for _, h := range l.Hints {
		assert.NotContains(t, out, h, "a hint before it was asked for")
	}
	assert.Contains(t, out, "labctl lesson leases --hint 1")

	_, errb, code := labctl(t, "", "lesson", "leases", "--hint", "2", "--progress", path)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errb, "see rung 1 first")
	for n := 1; n <= len(l.Hints); n++ {
		out, errb, code = labctl(t, "", "lesson", "leases", "--hint", itoa(n), "--progress", path)
		require.Equal(t, exitOK, code, errb)
		assert.Contains(t, out, l.Hints[n-1])
		if n < len(l.Hints) {
			assert.NotContains(t, out, l.Hints[n])
		}
	}
	p, _ := progress.Open(progress.NewFileStore(path), nil)
	assert.Equal(t, len(l.Hints), p.Lesson("leases").HintsSeen)
	out, _, _ = labctl(t, "", "lesson", "leases", "--progress", path)
	assert.Contains(t, out, l.Hints[len(l.Hints)-1], "the rungs seen are shown again")
}

func answerJSON(t *testing.T, a lessons.Answer) string {
	t.Helper()
	b, err := json.Marshal(a)
	require.NoError(t, err)
	return string(b)
}

func countLines(s string) int { return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 }

func itoa(n int) string { return strconv.Itoa(n) }
