package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The exercise list numbers the five exercises, each with the task it
// sets and about how long it takes.
func TestExercisesListsFive(t *testing.T) {
	out, _, code := labctl(t, "", "exercises")
	require.Equal(t, 0, code, out)
	assert.Equal(t, 10, strings.Count(out, "\n"), "two lines each:\n%s", out)
	assert.Contains(t, out, "1. renew-ttl-pause")
	assert.Contains(t, out, "5. token-logs")
	assert.Equal(t, 5, strings.Count(out, " min)\n"), out)
}

// TestExerciseReferencesPassWithExit0: after a real attempt, every
// exercise's model answer passes.
func TestExerciseReferencesPassWithExit0(t *testing.T) {
	path := progressFile(t)
	for _, id := range []string{"renew-ttl-pause", "shard-design", "no-fencing", "compaction-ttl", "token-logs"} {
		attempt(t, path, id)
		out, errb, code := labctl(t, "", "exercise", id, "--reference", "--progress", path)
		if code != 0 || !strings.HasPrefix(out, "Passed") || !strings.Contains(out, "Model answer:") {
			t.Errorf("%s: exit %d\n%s%s", id, code, out, errb)
		}
	}
}

func TestExerciseWrongAnswerExplainsAndExits1(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.json")
	ans := `{"choices":{"verdict":["safe"]},"numbers":{"left":7,"min-ttl":20,"pause-max":7.5,"ttl-safe":14,"renew-safe":3.2},
	 "schedule":[{"at":"4.5s","do":"pause","proc":"A","for":"9s"}], "chain":[3,31,41,45]}`
	if err := os.WriteFile(f, []byte(ans), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := labctl(t, "", "exercise", "renew-ttl-pause", "--answer", f)
	if code != 1 || !strings.Contains(out, "✗ Verdict: 9 s is less than 12 s") || !strings.Contains(out, "✓ Breaking schedule") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// The same answer, corrected, from stdin.
	out, _, code = labctl(t, strings.Replace(ans, `"safe"`, `"unsafe"`, 1), "exercise", "renew-ttl-pause", "--answer", "-")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestExerciseBadInputExit2(t *testing.T) {
	for _, c := range []struct {
		stdin string
		args  []string
		says  string
	}{
		{`{`, []string{"exercise", "no-fencing", "--answer", "-"}, "not valid JSON"},
		{`{"choices":{"verdict":["aliens"]}}`, []string{"exercise", "renew-ttl-pause", "--answer", "-"}, `no option "aliens"`},
		{`{"chain":[1.5]}`, []string{"exercise", "no-fencing", "--answer", "-"}, `chain[0]: want an event number`},
		{`{"chain":["31"]}`, []string{"exercise", "no-fencing", "--answer", "-"}, `chain[0]: want an event number`},
		{`{"chain":[99999999999999999999]}`, []string{"exercise", "no-fencing", "--answer", "-"}, `chain[0]: 99999999999999999999 is no event number`},
		{`{"chain":[1]}`, []string{"exercise", "token-logs", "--answer", "-"}, `takes no chain`},
		{`{"numbers":{"ttl":-3}}`, []string{"exercise", "compaction-ttl", "--answer", "-"}, "outside"},
		{``, []string{"exercise", "nope"}, "unknown exercise"},
		{``, []string{"exercise", "token-logs", "--answer", "/does/not/exist"}, "reading the answer"},
		{``, []string{"exercise", "token-logs", "--answer", "-", "--reference"}, "not both"},
		{``, []string{"exercises", "x"}, "takes no arguments"},
	} {
		out, errb, code := labctl(t, c.stdin, c.args...)
		if code != 2 || !strings.Contains(errb, c.says) || strings.Count(strings.TrimSpace(errb), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and one line with %q", c.args, code, errb, out, c.says)
		}
	}
}

func TestExerciseHelpDocumentsTheAnswerFormat(t *testing.T) {
	out, _, code := labctl(t, "", "exercise", "token-logs", "--help")
	if code != 0 || !strings.Contains(out, "Answer format for token-logs") || !strings.Contains(out, `"checks": [`) || !strings.Contains(out, "bug if CONDITION") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, _, _ = labctl(t, "", "exercise", "token-logs")
	if !strings.Contains(out, "Incident 1 (case-1):") || !strings.Contains(out, "orders-db write from=A token=15") {
		t.Fatalf("the exercise does not show its logs:\n%s", out)
	}
}

// TestExerciseHintLadder: every exercise prints its hints rung by rung
// (the last after a real attempt), and a rung out of range is a usage
// error naming the flag.
func TestExerciseHintLadder(t *testing.T) {
	path := progressFile(t)
	for _, id := range []string{"renew-ttl-pause", "shard-design", "no-fencing", "compaction-ttl", "token-logs"} {
		out, errb, code := labctl(t, "", "exercise", id, "--hint", "1", "--progress", path)
		require.Equal(t, 0, code, errb)
		assert.Contains(t, out, "Hint 1 of 3:")
		assert.NotContains(t, out, "Hint 2 of 3:", "rung 1 shows only the nudge")
		_, errb, code = labctl(t, "", "exercise", id, "--hint", "2", "--progress", path)
		require.Equal(t, 0, code, errb)
		attempt(t, path, id)
		out, _, code = labctl(t, "", "exercise", id, "--hint", "3", "--progress", path)
		require.Equal(t, 0, code)
		assert.Contains(t, out, "Hint 3 of 3:")
		assert.NotContains(t, out, "Model answer", "hints are not the answer")
	}
	_, errb, code := labctl(t, "", "exercise", "token-logs", "--hint", "4")
	assert.Equal(t, 2, code)
	assert.Contains(t, errb, "--hint")
	_, errb, code = labctl(t, "", "exercise", "token-logs", "--hint", "1", "--reference")
	assert.Equal(t, 2, code)
	assert.Contains(t, errb, "not both")
}

// TestExerciseStrictInputExit2: input JSON alone would let through is a
// usage error (exit 2) on one line that names the field.
func TestExerciseStrictInputExit2(t *testing.T) {
	for _, c := range []struct{ id, in, names string }{
		{"renew-ttl-pause", `{"schedule":[{"at":"4.5s","do":"pause","proc":"A","for":18446744082709}]}`, "18446744082709"},
		{"renew-ttl-pause", `{"schedule":[{"at":"4.5s","do":"pause","proc":"coordinator","for":"9s"}]}`, "schedule[0].proc"},
		{"renew-ttl-pause", `{"Choices":{"verdict":["unsafe"]}}`, "Choices"},
		{"shard-design", `{"choices":{"granularity":null}}`, "choices.granularity"},
		{"token-logs", `{"choices":{"case-1-evidence":["line-1","line-1"]}}`, "case-1-evidence"},
		// Exercise 5's checks are queries: one that cannot be read is
		// refused with its index, the position and what was wanted.
		{"token-logs", `{"checks":["bug if some write: token highest"]}`, "checks[0]: at character 26: want a comparison (= != < <= > >=) after the value, found \x60highest\x60"},
		{"token-logs", `{"checks":["count(write) == 2"]}`, "checks[0]: at character 1: want \x60bug if\x60 or \x60bug unless\x60"},
		{"token-logs", `{"checks":["bug if some write: token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1 and token > 1"]}`, "more than the 240 a check may have"},
		{"no-fencing", `{"checks":["bug if some write"]}`, "exercise no-fencing takes no checks"},
		// Finding 11: every refusal names its field, in the learner's terms.
		{"renew-ttl-pause", `{"schedule":[{"at":"4.5s","do":"pause","proc":"A","for":18446744082709}]}`, "schedule[0].for"},
		{"no-fencing", `{"schedule":[{"at":"4s","do":"pause","proc":"A","for":"soon"}]}`, "schedule[0].for"},
		{"no-fencing", `{"schedule":[{"at":"later","do":"pause","proc":"A","for":"5s"}]}`, "schedule[0].at"},
		{"compaction-ttl", `{"numbers":{"ttl":"25","renew":5,"est-failover":25.5,"per-hour":720}}`, "numbers.ttl: want a number"},
		{"compaction-ttl", `{"numbers":{"ttl":12.5,"renew":2,"est-failover":13,"per-hour":1800}}`, "numbers.ttl: 12.5 is not a whole number: etcd grants leases in whole seconds"},
		{"token-logs", `{"choices":{"case-1-evidence":"line-1"}}`, "choices.case-1-evidence: want a list"},
	} {
		_, errb, code := labctl(t, c.in, "exercise", c.id, "--answer", "-")
		assert.Equal(t, 2, code, c.in)
		assert.Contains(t, errb, c.names, c.in)
		assert.Equal(t, 0, strings.Count(strings.TrimSpace(errb), "\n"), "one line: %q", errb)
		assert.NotContains(t, errb, "Go struct", "no decoder internals: %q", errb)
	}
}

// TestExerciseHelpExampleIsNoAnswer: every exercise's help shows an
// example of the answer format that says it is no answer, and checking it
// as printed fails (finding 14: each example was the model answer).
func TestExerciseHelpExampleIsNoAnswer(t *testing.T) {
	for _, id := range []string{"renew-ttl-pause", "shard-design", "no-fencing", "compaction-ttl", "token-logs"} {
		out, _, code := labctl(t, "", "exercise", id, "--help")
		require.Equal(t, 0, code)
		const says = "An example of the format, not an answer"
		require.Contains(t, out, says, id)
		example := out[strings.Index(out, says):]
		example = example[strings.Index(example, "{") : strings.Index(example, "\n}")+2]
		res, errb, code := labctl(t, example, "exercise", id, "--answer", "-")
		assert.Equal(t, 1, code, "%s: the help's example checks as %d:\n%s%s", id, code, res, errb)
	}
}

// TestExerciseHelpStatesTheWholeSecondsRule: exercise 4's help says its
// TTL is whole seconds before an answer is refused for it (finding 11).
func TestExerciseHelpStatesTheWholeSecondsRule(t *testing.T) {
	out, _, code := labctl(t, "", "exercise", "compaction-ttl", "--help")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "whole seconds")
}

// TestExerciseTakesTheListsNumber: labctl exercises numbers the list, and
// labctl exercise takes that number as well as the id (finding 15).
func TestExerciseTakesTheListsNumber(t *testing.T) {
	byNumber, _, code := labctl(t, "", "exercise", "1")
	require.Equal(t, 0, code)
	byID, _, _ := labctl(t, "", "exercise", "renew-ttl-pause")
	assert.Equal(t, byID, byNumber)
	out, _, code := labctl(t, "", "exercise", "4", "--help")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Answer format for compaction-ttl")
	_, errb, code := labctl(t, "", "exercise", "6")
	assert.Equal(t, 2, code)
	assert.Contains(t, errb, "unknown exercise")
}

// TestExerciseDefenceIsKeptAndComparedAfterAPass: a written defence comes
// back with the verdict; the key points follow only a pass.
func TestExerciseDefenceIsKeptAndComparedAfterAPass(t *testing.T) {
	pass := `{"chain":[31,34,48,52,63,83,88],"schedule":[{"at":"4s","do":"pause","proc":"A","for":"20s"}],"defence":"The lease ran out while A slept."}`
	out, _, code := labctl(t, pass, "exercise", "no-fencing", "--answer", "-")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "Your defence (kept with your answer):\n  The lease ran out while A slept.")
	assert.Contains(t, out, "[ ] The lock never had two holders")
	fail := strings.Replace(pass, "52,63", "63", 1)
	out, _, code = labctl(t, fail, "exercise", "no-fencing", "--answer", "-")
	require.Equal(t, 1, code)
	assert.Contains(t, out, "Your defence")
	assert.NotContains(t, out, "[ ] ", "the key points are the answer: not before a pass")
}

// A learner in a terminal gets the numbers their chain takes from their
// own run: --events prints the run their answer's schedule makes, each
// event with its number (the model chain's steps among them: A's last
// renewal, its expiry, B's grant), and says why where it cannot: an
// exercise with no chain, a schedule the run refuses, a path that is no
// file. Nothing is graded and nothing recorded.
func TestExerciseEventsListsTheRunAChainIsBuiltFrom(t *testing.T) {
	path := progressFile(t)
	schedule := `{"schedule":[{"at":"4.5s","do":"pause","proc":"A","for":"9s"}]}`
	out, errb, code := labctl(t, schedule, "exercise", "renew-ttl-pause", "--events", "-", "--progress", path)
	require.Equal(t, 0, code, errb)
	assert.Contains(t, out, "give a chain as these numbers")
	for _, step := range []string{"#3 t=0.005s coordinator lease.grant", "A pause", "lease.expire", "B state from=candidate to=leader"} {
		assert.Contains(t, out, step, "the run the schedule makes")
	}
	assert.NotContains(t, out, " send ", "messages sent are not steps of a chain")
	_, err := os.Stat(path)
	assert.True(t, os.IsNotExist(err), "listing events records no attempt")

	_, errb, code = labctl(t, schedule, "exercise", "shard-design", "--events", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errb, "asks for no chain")
	_, errb, code = labctl(t, `{"schedule":[{"at":"1s","do":"fly"}]}`, "exercise", "no-fencing", "--events", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errb, `unknown action "fly"`)
	_, errb, code = labctl(t, "", "exercise", "no-fencing", "--events", t.TempDir())
	assert.Equal(t, 2, code)
	assert.Contains(t, errb, "not a regular file")
	_, errb, code = labctl(t, schedule, "exercise", "no-fencing", "--events", "-", "--answer", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errb, "not both")
}
