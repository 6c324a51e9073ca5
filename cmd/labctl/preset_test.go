package main

import (
	"leaselab/core/sandbox"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunPresetKubernetesDeposesTheFrozenLeader(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "--preset", "kubernetes", "--format", "summary")
	require.Equal(t, 1, code, "the woken leader's write is accepted: a broken invariant is exit 1: %s", errs)
	for _, want := range []string{
		"preset kubernetes: ", "LeaseDuration 15 s",
		`invariant "one holder per lock": holds`,
		`invariant "no stale write accepted": broke at t=80.005s`,
		// C's own clock says A's last renewal (58 s) is 15 s old at its
		// poll at 76.9 s; A, woken at 80 s, leads until its renew deadline.
		`invariant "at most one believer per lock or shard": broke at t=76.856s (A and C both believed they held leader)`,
	} {
		assert.Contains(t, out, want)
	}
	// The same pause against etcd's 60 s session: nothing breaks.
	out, _, code = labctl(t, "", "run", "--preset", "etcd", "--format", "summary")
	assert.Equal(t, 0, code, "nothing broke: exit 0")
	assert.Contains(t, out, `invariant "at most one believer per lock or shard": holds`, "etcd keeps its leader through a 20 s pause")
	assert.Contains(t, out, "holder changes: 1;")
}

func TestRunPresetOverridesAndFormats(t *testing.T) {
	// Fencing switched on for Kubernetes (a store made to check
	// leaseTransitions): the five writes A makes between waking at 80 s
	// and its renew deadline at 90 s are refused.
	out, _, code := labctl(t, "", "run", "--preset", "kubernetes", "--fencing", "on", "--format", "summary")
	if code != 0 || !strings.Contains(out, `invariant "no stale write accepted": holds`) || !strings.Contains(out, "rejected 5") {
		t.Errorf("fencing on: exit %d\n%s", code, out)
	}
	out, _, code = labctl(t, "", "run", "--preset", "fenced-register", "--format", "mermaid", "--duration", "40s")
	if code != 0 || !strings.HasPrefix(out, "sequenceDiagram\n") || !strings.Contains(out, "rejected stale token") {
		t.Errorf("mermaid: exit %d\n%s", code, out)
	}
	out, _, code = labctl(t, "", "run", "--preset", "etcd", "--format", "jsonl", "--duration", "10s")
	if code != 0 || !strings.HasPrefix(out, `{"seq":0,"t_ms":0,`) {
		t.Errorf("jsonl: exit %d\n%.200s", code, out)
	}
	a, _, _ := labctl(t, "", "run", "--preset", "pause-storm", "--format", "jsonl", "--seed", "5", "--duration", "1m")
	b, _, _ := labctl(t, "", "run", "--preset", "pause-storm", "--format", "jsonl", "--seed", "5", "--duration", "1m")
	c, _, _ := labctl(t, "", "run", "--preset", "pause-storm", "--format", "jsonl", "--seed", "6", "--duration", "1m")
	if a != b || a == c {
		t.Error("same seed must give the same trace, another seed another")
	}
}

func TestRunPresetBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--preset", "nomad"}, "unknown preset \"nomad\""},
		{[]string{"--preset", "etcd", "--renew", "90s"}, "renew: renewing every 90 s with a TTL of 60 s lets the lease lapse"},
		{[]string{"--preset", "etcd", "--idempotency", "on"}, "idempotency: idempotency keys belong to the job queue"},
		{[]string{"--preset", "etcd", "--procs", "40"}, "procs: want 1 to 12 processes"},
		{[]string{"--preset", "etcd", "--fencing", "maybe"}, "want on or off"},
		{[]string{"--preset", "etcd", "--duration", "1s"}, "duration: a run lasts 10 s to 1 h, got 1 s"},
		{[]string{"--preset", "etcd", "hands-on-lab"}, "not both"},
		{[]string{"--preset", "etcd", "--stale-token", "3"}, "a scenario's own settings, not a preset's"},
		{[]string{"hands-on-lab", "--format", "mermaid"}, "mermaid with --preset"},
	} {
		_, errs, code := labctl(t, "", append([]string{"run"}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestPresetsListsEveryPreset(t *testing.T) {
	out, _, code := labctl(t, "", "presets")
	if code != 0 {
		t.Fatal(code)
	}
	for _, p := range sandbox.Presets() {
		if !strings.Contains(out, p.Name+" ") || !strings.Contains(out, p.Source) {
			t.Errorf("presets lacks %s", p.Name)
		}
	}
	help, _, _ := labctl(t, "", "run", "--help")
	if !strings.Contains(help, "kubernetes") || !strings.Contains(help, "--preset NAME") {
		t.Errorf("run --help does not list the presets:\n%s", help)
	}
}
