package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commands are every labctl command with the arguments that print its
// help.
var commands = []string{"run", "presets", "policy", "lessons", "lesson", "exercises", "exercise", "explore", "serve", "why"}

func helpOf(t *testing.T, cmd string) string {
	t.Helper()
	out, errs, code := labctl(t, "", cmd, "--help")
	require.Equal(t, 0, code, "labctl %s --help", cmd)
	return out + errs
}

var flagRE = regexp.MustCompile(`(?m)(?:^|[\s\[|(])--([a-z][a-z-]*)`)

// Every flag a command's help lists is one the command takes: given alone
// it may lack its value or the command a name, but it is never "not
// defined" (run's help listed --trace, which run did not take).
func TestEveryFlagAHelpListsIsTaken(t *testing.T) {
	for _, cmd := range commands {
		help := helpOf(t, cmd)
		var flags []string
		for _, m := range flagRE.FindAllStringSubmatch(help, -1) {
			if !slices.Contains(flags, m[1]) && m[1] != "help" {
				flags = append(flags, m[1])
			}
		}
		for _, f := range flags {
			// A name that is not there (and, for serve, a directory
			// that is not there) keeps each command from doing work.
			args := []string{cmd, "--" + f}
			if cmd == "serve" {
				args = append([]string{cmd, "--dir", filepath.Join(t.TempDir(), "none")}, "--"+f)
			}
			_, errs, code := labctl(t, "", args...)
			assert.NotContains(t, errs, "not defined", "labctl %s: its help lists --%s", cmd, f)
			assert.NotEqual(t, exitInternal, code, "labctl %s --%s", cmd, f)
		}
		if cmd == "run" {
			assert.Contains(t, flags, "trace")
		}
	}
}

// Exit 1 means one thing everywhere, a verdict of no, as labctl help says:
// each command that can give it gives it for its own "no", and each says
// so in its help.
func TestExitOneIsAVerdictOfNoForEveryCommand(t *testing.T) {
	help, _, code := labctl(t, "", "help")
	require.Equal(t, 0, code)
	assert.Contains(t, help, "1  a verdict of no")

	noAnswer := filepath.Join(t.TempDir(), "answer.json")
	require.NoError(t, os.WriteFile(noAnswer, []byte("{}"), 0o600))
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"a run that broke no invariant", []string{"run", "fenced-register", "--format", "summary"}, exitOK},
		{"a run whose stale write was accepted", []string{"run", "fenced-register", "--fencing", "off", "--format", "summary"}, exitNo},
		{"the same as JSON Lines", []string{"run", "fenced-register", "--fencing", "off", "--format", "jsonl"}, exitNo},
		{"a run whose jobs ran twice", []string{"run", "scheduler", "--idempotency", "off", "--format", "summary"}, exitNo},
		{"a preset whose woken leader wrote unchecked", []string{"run", "--preset", "kubernetes", "--format", "summary"}, exitNo},
		{"a preset that broke nothing", []string{"run", "--preset", "etcd", "--format", "summary"}, exitOK},
		{"a safe policy", []string{"policy", "--ttl", "33s", "--renew", "10s", "--pause", "12s"}, exitOK},
		{"an unsafe policy", []string{"policy", "--ttl", "30s", "--renew", "10s", "--pause", "12s"}, exitNo},
		{"a lesson's solution", []string{"lesson", "fenced-writes", "--solve"}, exitOK},
		{"an answer that fails", []string{"exercise", "renew-ttl-pause", "--answer", noAnswer}, exitNo},
		{"a break found", []string{"explore", "fenced-writes", "--no-fencing"}, exitNo},
		{"bad input", []string{"run", "fenced-register", "--procs", "65"}, exitBadInput},
		{"serve on a directory that is not there", []string{"serve", "--dir", filepath.Join(t.TempDir(), "none")}, exitBadInput},
	} {
		out, errs, code := labctl(t, "", c.args...)
		assert.Equal(t, c.code, code, "%s: labctl %s\n%.400s%s", c.name, strings.Join(c.args, " "), out, errs)
	}
	for _, cmd := range []string{"run", "policy", "lesson", "exercise", "explore"} {
		assert.Regexp(t, `(?i)exit[^\n]*\b1\b|\b1:`, helpOf(t, cmd), "labctl %s --help says what exit 1 means", cmd)
	}
}
