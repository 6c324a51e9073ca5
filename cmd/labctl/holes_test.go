//go:build unix

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each case is a hole issue 30 measured: a count allocated before it was
// checked, a token that wrapped, a FIFO that blocked until killed, a file
// a Windows editor wrote, a key given twice. Each now ends at once, with
// exit 2 and a line that says why, or (the byte-order mark) just works.

// --procs of billions was allocated, then refused (or never refused: out
// of memory, a makeslice panic). It is refused before anything is made.
func TestAProcessCountIsCheckedBeforeItIsAllocated(t *testing.T) {
	for _, c := range []struct{ scenario, procs, want string }{
		{"scheduler", "2147483648", "processes: want 1 to 64, got 2147483648"},
		{"scheduler", "9223372036854775807", "processes: want 1 to 64, got 9223372036854775807"},
		{"scheduler", "10000000", "processes: want 1 to 64, got 10000000"},
		{"election", "65", "processes: want 1 to 64, got 65"},
		{"shards", "1001", "processes: want 1 to 1000, got 1001"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, errs, code := labctl(t, "", "run", c.scenario, "--procs", c.procs)
		runtime.ReadMemStats(&after)
		assert.Equal(t, exitBadInput, code, c.procs)
		assert.Contains(t, errs, c.want)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "%s: refused without allocating the count", c.procs)
	}
	for _, n := range []string{"0", "-1"} {
		_, errs, code := labctl(t, "", "run", "--preset", "leases", "--procs", n)
		assert.Equal(t, exitBadInput, code, "--procs %s was taken as the preset's own count without a word", n)
		assert.Contains(t, errs, "--procs must be at least 1, got "+n)
	}
	_, errs, code := labctl(t, "", "run", "--preset", "redlock", "--procs", "9223372036854775807")
	assert.Equal(t, exitBadInput, code)
	assert.Equal(t, "labctl run --preset redlock: procs: want 1 to 12 processes, got 9223372036854775807\n", errs,
		"one line: no second complaint from a product that overflowed")
}

// A link whose first token was the largest int64 ran, its next token
// wrapped to -2^63, and the run said "tokens strictly increase" broke,
// with exit 0.
func TestAFirstTokenThatWouldWrapIsRefused(t *testing.T) {
	const link = "AVgHZGVmYXVsdAEEC2ZpcnN0X3Rva2VuEzkyMjMzNzIwMzY4NTQ3NzU4MDcGcGF1c2VzBWZpeGVkC3BhdXNlX2V2ZXJ5AzQ1cwxwYXVzZV9sZW5ndGgDMjBzAITavMY"
	out, errs, code := labctl(t, "", "run", "--load", link, "--format", "summary")
	assert.Equal(t, exitBadInput, code, out)
	assert.Contains(t, errs, "first_token: the first token must be 0 to 1000000000000, got 9223372036854775807")
}

// A FIFO given for a file blocked until the learner killed labctl.
func TestAFIFOForAFileIsRefusedAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for _, args := range [][]string{
		{"run", "hands-on-lab", "--actions", fifo},
		{"exercise", "no-fencing", "--answer", fifo},
		{"run", "hands-on-lab", "--actions", t.TempDir()},
	} {
		done := make(chan [2]string, 1)
		go func() {
			_, errs, code := labctl(t, "", args...)
			done <- [2]string{errs, string(rune('0' + code))}
		}()
		select {
		case r := <-done:
			assert.Equal(t, "2", r[1], args)
			assert.Regexp(t, `is a (named pipe \(FIFO\)|directory), not a regular file`, r[0], args)
			assert.Equal(t, 1, strings.Count(r[0], "\n"), "one line")
		case <-time.After(20 * time.Second):
			t.Fatalf("labctl %v blocked", args)
		}
	}
}

// A file saved by an editor that starts it with a byte-order mark was
// refused with "invalid character 'ï'"; it is read as the JSON it is.
func TestAFileWithAByteOrderMarkIsRead(t *testing.T) {
	dir := t.TempDir()
	actions := filepath.Join(dir, "actions.json")
	require.NoError(t, os.WriteFile(actions, []byte("\xEF\xBB\xBF"+`[{"at":"5s","do":"pause","proc":"A","for":"20s"}]`), 0o600))
	out, errs, code := labctl(t, "", "run", "hands-on-lab", "--actions", actions, "--format", "summary")
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "A 1 ok")

	answer := filepath.Join(dir, "answer.json")
	require.NoError(t, os.WriteFile(answer, []byte("\xEF\xBB\xBF{}"), 0o600))
	_, errs, code = labctl(t, "", "exercise", "renew-ttl-pause", "--answer", answer)
	assert.Equal(t, exitNo, code, "an empty answer read and graded: %s", errs)
}

// A key given twice was accepted, the last value silently winning: a
// pause "for" 20 s then "for" 1 s paused for 1 s.
func TestAKeyGivenTwiceIsRefused(t *testing.T) {
	_, errs, code := labctl(t, `[{"at":"5s","do":"pause","proc":"A","for":"20s","for":"1s"}]`, "run", "hands-on-lab", "--actions", "-")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, `the key "for" is given twice in [0]; keep one`)

	_, errs, code = labctl(t, `{"numbers":{"a":1,"a":2}}`, "exercise", "renew-ttl-pause", "--answer", "-")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, `the key "a" is given twice in numbers; keep one`)
}
