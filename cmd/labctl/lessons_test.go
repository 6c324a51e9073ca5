package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// Once a run has told the lesson's story, the terminal asks its recap
// question too: --chain answers with event numbers of the run, judged as
// the page judges them (not a goal: the exit code is the goals').
func TestALessonsRecapChainInTheTerminal(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "progress.json")
	log := `[{"at":"2s","do":"crash","proc":"A"},{"at":"3s","do":"crash","proc":"member-1"}]`
	out, errs, code := labctl(t, log, "lesson", "coordinator-cluster", "--actions", "-", "--progress", prog)
	require.Equal(t, 1, code, errs)
	assert.Contains(t, out, "Recap question: Tell the story of the lock a dead holder kept past its TTL")
	assert.Contains(t, out, "answer with --chain")
	num := func(substr string) string { return eventNumber(t, out, substr) }
	crash := num("member-1 member state=crashed")
	leader := num("raft.leader term=3")
	rearm := num("lease.rearm lease=4885a22a2e88c101")
	expire := num("lease.expire lease=4885a22a2e88c101")
	holder := num("owner=B key=")
	right := strings.Join([]string{crash, leader, rearm, expire, holder}, ",")
	out, errs, code = labctl(t, log, "lesson", "coordinator-cluster", "--actions", "-", "--progress", prog, "--chain", right)
	require.Equal(t, 1, code, "the recap is no goal: the goals still decide the exit code: %s", errs)
	assert.Contains(t, out, "Your chain (right): Right: each step of your 5-step chain leads to the next in your run")
	gap := strings.Join([]string{crash, leader, expire, holder}, ",")
	out, _, _ = labctl(t, log, "lesson", "coordinator-cluster", "--actions", "-", "--progress", prog, "--chain", gap)
	assert.Contains(t, out, "Your chain (not yet):")
	assert.Contains(t, out, "what did the new leader do to A's lease?")

	_, errs, code = labctl(t, log, "lesson", "coordinator-cluster", "--actions", "-", "--progress", prog, "--chain", "3,x")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `"x" is not an event number`)
	_, errs, code = labctl(t, "", "lesson", "coordinator-cluster", "--chain", "3")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "go with --actions")
	quiet, _, _ := labctl(t, `[]`, "lesson", "coordinator-cluster", "--actions", "-", "--progress", prog, "--chain", "1")
	assert.Contains(t, quiet, "has not told the story")
}

// The recap chains of the other lessons are asked and judged in the
// terminal as well: Redlock's late write, told with the events --trace
// lists (the pause, the lock falling free, B winning it, B's write, A's
// late write accepted), is right; without the pause it is asked why A
// stopped extending its keys.
func TestTheRedlockRecapChainInTheTerminal(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "progress.json")
	log := `[{"at":"4s","do":"pause","proc":"A","for":"20s"}]`
	out, errs, code := labctl(t, log, "lesson", "redlock-pause", "--actions", "-", "--progress", prog, "--trace")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Recap question: Tell the story of the late write storage accepted")
	num := func(substr string) string { return eventNumber(t, out, substr) }
	pause := num("A pause for_ms=20000")
	free := num("redlock lock.free")
	holder := num("owner=B key=")
	bWrite := num("storage write from=B token=0 value=B-1 result=accepted")
	late := num("storage write from=A token=0 value=A-2 result=accepted")
	out, errs, code = labctl(t, log, "lesson", "redlock-pause", "--actions", "-", "--progress", prog, "--chain", strings.Join([]string{pause, free, holder, bWrite, late}, ","))
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Your chain (right): Right: each step of your 5-step chain leads to the next in your run")
	out, _, _ = labctl(t, log, "lesson", "redlock-pause", "--actions", "-", "--progress", prog, "--chain", strings.Join([]string{free, holder, bWrite, late}, ","))
	assert.Contains(t, out, "Your chain (not yet):")
	assert.Contains(t, out, "why did A stop extending its keys?")
	verdict := out[strings.Index(out, "Your chain"):]
	assert.NotContains(t, verdict, "froze", "the gap is asked about, not named")
	assert.NotContains(t, verdict, "#"+pause)
	assert.NotContains(t, verdict, "event "+pause)
	out, _, _ = labctl(t, log, "lesson", "redlock-pause", "--actions", "-", "--progress", prog, "--chain", pause+",99999")
	assert.Contains(t, out, "is not in your run")
}

// eventNumber is the number --trace gives the first event of out whose
// line holds substr.
func eventNumber(t *testing.T, out, substr string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, substr) {
			return strings.TrimPrefix(strings.Fields(line)[0], "#")
		}
	}
	require.FailNow(t, "no event", substr)
	return ""
}

// The troubleshooting lesson's solution, played in the terminal, meets
// every goal, the retry storm's too, and the progress file keeps them.
func TestTheTroubleshootingSolutionInTheTerminal(t *testing.T) {
	l, err := lessons.Find("troubleshooting")
	require.NoError(t, err)
	sol, err := json.Marshal(l.Solution)
	require.NoError(t, err)
	prog := filepath.Join(t.TempDir(), "progress.json")
	out, errs, code := labctl(t, string(sol), "lesson", "troubleshooting", "--actions", "-", "--progress", prog)
	require.Equal(t, 0, code, errs)
	assert.NotContains(t, out, "[OPEN ]")
	assert.Contains(t, out, "fix index-4: retry with jitter")
	assert.Contains(t, out, "[met  ] Retry storm: fix the indexers")
	assert.Contains(t, out, "the coordinator's grants to them came one at a time")
	saved, err := os.ReadFile(prog)
	require.NoError(t, err)
	for _, g := range l.Goals {
		assert.Contains(t, string(saved), `"`+g.ID+`"`, "the progress file keeps %s met", g.ID)
	}
	assert.Contains(t, string(saved), `"storm-spread"`)
}
