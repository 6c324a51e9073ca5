package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/lessons"
)

var shareLink = regexp.MustCompile(`#share=[A-Za-z0-9_-]+`)

// writeAnswer writes a as an answer file.
func writeAnswer(t *testing.T, a lessons.Answer) string {
	t.Helper()
	b, err := json.Marshal(a)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "answer.json")
	require.NoError(t, os.WriteFile(p, b, 0o644))
	return p
}

// wrongButComplete is e's model answer with one choice changed: every part
// answered, a real attempt, and it fails.
func wrongButComplete(t *testing.T, e *lessons.Exercise) lessons.Answer {
	t.Helper()
	for _, q := range e.Questions {
		for _, o := range q.Options {
			a := e.Reference.Clone()
			if a.Chose(q.ID, o.ID) {
				continue
			}
			a.Choices[q.ID] = []string{o.ID}
			if r, err := e.Check(a); err == nil && !r.Pass && e.RealAttempt(a) {
				return a
			}
		}
	}
	t.Fatalf("%s: no failing complete answer one choice away from the model", e.ID)
	return lessons.Answer{}
}

// A learner shares a passing answer; the instructor's --verify grades it
// again from scratch and reports what the learner's lab recorded about
// help: here, a pass before any model answer.
func TestShareAndVerifyAPassingAnswer(t *testing.T) {
	e, err := lessons.FindExercise("renew-ttl-pause")
	require.NoError(t, err)
	prog := filepath.Join(t.TempDir(), "progress.json")
	out, errOut, code := labctl(t, "", "exercise", e.ID, "--answer", writeAnswer(t, e.Reference), "--share", "--progress", prog)
	require.Equal(t, exitOK, code, errOut)
	link := shareLink.FindString(out)
	require.NotEmpty(t, link, out)

	out, errOut, code = labctl(t, "", "exercise", e.ID, "--verify", "http://127.0.0.1:8080/"+link)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "Graded again from scratch: PASS. The share says PASS too.")
	assert.Contains(t, out, "recorded a pass before the model answer was shown")

	// The same share as a file, and from stdin.
	f := filepath.Join(t.TempDir(), "share.txt")
	require.NoError(t, os.WriteFile(f, []byte(link+"\n"), 0o644))
	_, _, code = labctl(t, "", "exercise", e.ID, "--verify", f)
	assert.Equal(t, exitOK, code)
	_, _, code = labctl(t, link, "exercise", e.ID, "--verify", "-")
	assert.Equal(t, exitOK, code)
}

// A pass after the model answer was shown is shared as such.
func TestVerifySaysTheModelAnswerWasShownBeforeThePass(t *testing.T) {
	e, err := lessons.FindExercise("renew-ttl-pause")
	require.NoError(t, err)
	prog := filepath.Join(t.TempDir(), "progress.json")
	_, _, code := labctl(t, "", "exercise", e.ID, "--answer", writeAnswer(t, wrongButComplete(t, e)), "--progress", prog)
	require.Equal(t, exitNo, code, "a real attempt that fails")
	_, _, code = labctl(t, "", "exercise", e.ID, "--reference", "--progress", prog)
	require.Equal(t, exitOK, code, "the model answer, shown")
	out, _, code := labctl(t, "", "exercise", e.ID, "--answer", writeAnswer(t, e.Reference), "--share", "--progress", prog)
	require.Equal(t, exitOK, code)
	out, _, code = labctl(t, "", "exercise", e.ID, "--verify", shareLink.FindString(out))
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "The model answer had been shown before this pass.")
	assert.Contains(t, out, "answers checked: 2")
}

// A share whose claimed verdict is not its answer's is caught: the answer
// is graded, not believed.
func TestVerifyCatchesAForgedVerdict(t *testing.T) {
	e, err := lessons.FindExercise("renew-ttl-pause")
	require.NoError(t, err)
	out, _, code := labctl(t, "", "exercise", e.ID, "--answer", writeAnswer(t, wrongButComplete(t, e)), "--share", "--progress", filepath.Join(t.TempDir(), "p.json"))
	require.Equal(t, exitNo, code)
	s, err := lessons.ParseShare(shareLink.FindString(out))
	require.NoError(t, err)
	require.False(t, s.Pass)
	s.Pass, s.PassedClean = true, true
	forged, err := json.Marshal(s)
	require.NoError(t, err)
	out, _, code = labctl(t, "", "exercise", e.ID, "--verify", "#share="+base64.RawURLEncoding.EncodeToString(forged))
	assert.Equal(t, exitNo, code)
	assert.Contains(t, out, "Graded again from scratch: FAIL. The share says PASS: it does not hold the verdict its answer gets.")
}

func TestVerifyRefusesWhatIsNoShareOfThisExercise(t *testing.T) {
	e, err := lessons.FindExercise("renew-ttl-pause")
	require.NoError(t, err)
	out, _, code := labctl(t, "", "exercise", e.ID, "--answer", writeAnswer(t, e.Reference), "--share", "--progress", filepath.Join(t.TempDir(), "p.json"))
	require.Equal(t, exitOK, code)
	link := shareLink.FindString(out)
	for name, args := range map[string][]string{
		"another exercise's":   {"exercise", "no-fencing", "--verify", link},
		"junk":                 {"exercise", e.ID, "--verify", "#share=!!!"},
		"base64 of junk":       {"exercise", e.ID, "--verify", "#share=" + base64.RawURLEncoding.EncodeToString([]byte("{\"v\":1"))},
		"an unknown field":     {"exercise", e.ID, "--verify", "{\"v\":1,\"exercise\":\"renew-ttl-pause\",\"answer\":{},\"extra\":1}"},
		"a later version":      {"exercise", e.ID, "--verify", "{\"v\":2,\"exercise\":\"renew-ttl-pause\",\"answer\":{}}"},
		"a directory":          {"exercise", e.ID, "--verify", t.TempDir()},
		"--share without one":  {"exercise", e.ID, "--share"},
		"--verify and --hint":  {"exercise", e.ID, "--verify", link, "--hint", "1"},
		"an answer that is no": {"exercise", e.ID, "--verify", "{\"v\":1,\"exercise\":\"renew-ttl-pause\",\"answer\":{\"numbers\":{\"nope\":1}}}"},
	} {
		_, errOut, code := labctl(t, "", args...)
		assert.Equal(t, exitBadInput, code, name)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%s: one clear line, got %q", name, errOut)
	}
}
