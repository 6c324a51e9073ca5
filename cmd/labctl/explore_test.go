package main

import (
	"regexp"

	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const smallFenced = "start=0s..10s/500ms,len=500ms..20s/500ms"

func TestExploreFindsTheStaleWriteWithFencingOff(t *testing.T) {
	out, errs, code := labctl(t, "", "explore", "fenced-writes", "--no-fencing", "--bounds", smallFenced)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s%s", code, out, errs)
	}
	for _, want := range []string{"VIOLATION: no stale write accepted", "t=0.000s fencing off", "with fencing on, the same schedule keeps the invariant: 1 stale write rejected", "pause A for", `"do":"pause","proc":"A"`, "storage stale.accepted from=A token=7 highest=8", "A resume"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\r") {
		t.Errorf("progress bar drawn although stdout is not a terminal")
	}
}

func TestExploreProvesTheFixWithFencingOn(t *testing.T) {
	out, errs, code := labctl(t, "", "explore", "fenced-writes", "--bounds", smallFenced)
	if code != 0 {
		t.Fatalf("exit %d, want 0: %s%s", code, out, errs)
	}
	inOrder(t, out, `# explore fenced-writes (seed 1, fencing on): invariant "no stale write accepted"`)
	if !strings.Contains(out, "no violation within bounds: 800 schedules tried") || !strings.Contains(out, "pauses 0.500s to 20.000s every 0.500s") {
		t.Errorf("no coverage report:\n%s", out)
	}
}

func TestExploreOtherTargets(t *testing.T) {
	out, _, code := labctl(t, "", "explore", "scheduler", "--no-idempotency")
	if code != 1 || !strings.Contains(out, `result="duplicate executed"`) || !strings.Contains(out, "t=0.000s idempotency off") ||
		!strings.Contains(out, "with idempotency on, the same schedule keeps the invariant: 1 duplicate job ignored") {
		t.Errorf("scheduler, idempotency off: exit %d\n%s", code, out)
	}
	out, _, code = labctl(t, "", "explore", "scheduler")
	if code != 0 || !strings.Contains(out, "no violation within bounds") {
		t.Errorf("scheduler, idempotency on: exit %d\n%s", code, out)
	}
	out, _, code = labctl(t, "", "explore", "shards", "--no-fencing")
	if code != 1 || !strings.Contains(out, "offsets stale.accepted from=worker-00") {
		t.Errorf("shards, fencing off: exit %d\n%s", code, out)
	}
	// Delays instead of pauses: A's writes held in the network land
	// after B's; with fencing on they are refused.
	out, _, code = labctl(t, "", "explore", "fenced-writes", "--no-fencing", "--bounds", "kinds=delay,start=0s..10s/500ms,len=500ms..20s/500ms")
	if code != 1 || !strings.Contains(out, "violation found with delay what A sends at") || !strings.Contains(out, `"do":"delay","proc":"A"`) ||
		!strings.Contains(out, "storage stale.accepted from=A token=7 highest=8") || !strings.Contains(out, "with fencing on, the same schedule keeps the invariant") || strings.Contains(out, "A pause") {
		t.Errorf("fenced-writes, delays: exit %d\n%s", code, out)
	}
	// Belief overlaps even with fencing on; the story shows both owners
	// of the shard, and pauses within the lease's slack prove clean.
	out, _, code = labctl(t, "", "explore", "shard-owners")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "VIOLATION: no two workers believe they own one shard")
	assert.Contains(t, out, "fencing was on all along: it cannot stop a stalled owner believing")
	// The story shows the stalled worker's shard and its new owner.
	stale := regexp.MustCompile(`worker-00 shard\.own shard=(\d+) token=1`).FindStringSubmatch(out)
	require.NotNil(t, stale, out)
	assert.Regexp(t, `worker-0[1-9] shard\.own shard=`+stale[1]+` token=2`, out)
	out, _, code = labctl(t, "", "explore", "shard-owners", "--bounds", "len=1s..10s/1s")
	if code != 0 || !strings.Contains(out, "no violation within bounds: 150 schedules tried") {
		t.Errorf("shard-owners, pauses up to 10 s: exit %d\n%s", code, out)
	}
}

func TestExploreRandomAndProgress(t *testing.T) {
	out, _, code := labctl(t, "", "explore", "fenced-writes", "--no-fencing", "--random", "300", "--seed", "3", "--progress")
	if code != 1 || !strings.Contains(out, "random search") || !strings.Contains(out, "schedules/s") {
		t.Errorf("random: exit %d\n%s", code, out)
	}
	// The bar is drawn at most every 100 ms: a run this short may not
	// draw it, but when it does, it is cleared before the verdict.
	if i := strings.LastIndex(out, "\r"); i >= 0 && strings.Contains(out[i:], "[#") {
		t.Errorf("progress bar left on screen:\n%q", out)
	}
}

func TestExploreBadUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explore"}, "want exactly one target"},
		{[]string{"explore", "nowhere"}, `unknown explore target "nowhere"`},
		{[]string{"explore", "fenced-writes", "--no-idempotency"}, "protection is fencing"},
		{[]string{"explore", "fenced-writes", "--bounds", "start=5s..1s/1s"}, "start grid"},
		{[]string{"explore", "fenced-writes", "--bounds", "warp=9"}, "unknown key"},
		{[]string{"explore", "fenced-writes", "--random", "0"}, "--random wants"},
		{[]string{"explore", "fenced-writes", "--seed", "x"}, "invalid value"},
	} {
		out, errs, code := labctl(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 and %q", c.args, code, errs, out, c.want)
		}
	}
	out, _, code := labctl(t, "", "explore", "--help")
	if code != 0 || !strings.Contains(out, "fenced-writes") || !strings.Contains(out, "--no-fencing") {
		t.Errorf("help: %d\n%s", code, out)
	}
}
