package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

var whyStep = regexp.MustCompile(`\[(\d+)\] at ([0-9.]+) s`)

// Every step labctl why prints is an event of the run, at the time the
// trace gives it, and each is a cause of the one printed before it.
func TestWhyPrintsTheChainTheTraceHolds(t *testing.T) {
	sc, err := sandbox.FindScenario("fenced-register")
	require.NoError(t, err)
	r, err := sc.Run(sandbox.Params{Seed: 1})
	require.NoError(t, err)
	tr := r.Sim.Trace

	out, errOut, code := labctl(t, "", "why", "fenced-register")
	require.Equal(t, exitOK, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.True(t, strings.HasPrefix(lines[0], "Why? "), out)
	assert.Contains(t, lines[0], "rejected A's write with token 7", "by default the last decision of the store")
	prev := -1
	for _, l := range lines {
		if !strings.HasPrefix(l, "Why?") && !strings.HasPrefix(l, "  because") {
			continue
		}
		if strings.Contains(l, "… the same") {
			prev = -1 // a loop told once: the steps it leaves out are causes in turn
			continue
		}
		m := whyStep.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		seq, _ := strconv.Atoi(m[1])
		e := tr.Event(seq)
		require.NotNil(t, e, l)
		assert.Equal(t, core.Seconds(e.At), m[2]+" s", l)
		if prev >= 0 {
			assert.Contains(t, tr.Event(prev).Causes(), seq, "%s is a cause of event %d", l, prev)
		}
		prev = seq
	}
	assert.Contains(t, out, "It all began with the action at 2.1 s: pause A")
	assert.Contains(t, out, "accepted B's write with token 8 (a cause of event", "the verdict's second cause: the write that set the highest token")
}

func TestWhyRefusesAnEventTheRunDoesNotHave(t *testing.T) {
	for _, args := range [][]string{
		{"why", "fenced-register", "--event", "99999"},
		{"why", "fenced-register", "--event", "-1"},
		{"why", "fenced-register", "--event", "no.such.kind"},
		{"why", "--preset", "etcd", "--event", "stale.accepted"},
		{"run", "fenced-register", "--event", "3"},
	} {
		_, errOut, code := labctl(t, "", args...)
		assert.Equal(t, exitBadInput, code, "%v", args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one clear line for %v: %q", args, errOut)
	}
}

// A retry loop in the chain is told once, then how often it went round,
// and what is printed around it are still the trace's own events.
func TestWhyTellsARetryLoopOnce(t *testing.T) {
	out, _, code := labctl(t, "", "why", "--preset", "kubernetes")
	require.Equal(t, exitOK, code)
	assert.Regexp(t, `… the same \d+ more times, back to [0-9.]+ s`, out)
	assert.Less(t, strings.Count(out, "\n"), 30, "a loop of dozens of retries is not printed in full")
}

func TestWhyOfAnEventByNumberAndKind(t *testing.T) {
	out, _, code := labctl(t, "", "why", "--preset", "etcd", "--event", "lock.holder")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "acquired")
	out, _, code = labctl(t, "", "why", "fenced-register", "--event", "0")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "It all began with the world's start")
}
