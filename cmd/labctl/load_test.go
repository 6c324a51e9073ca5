package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/permalink"
	"leaselab/core/sandbox"
	"leaselab/lessons"
)

// labctl run prints a permalink; --load with it reproduces the same trace.
func TestRunLoadReproducesARun(t *testing.T) {
	args := []string{"run", "hands-on-lab", "--seed", "4", "--stale-token", "3", "--fencing", "off", "--duration", "45s"}
	out, errs, code := labctl(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	i := strings.Index(out, "permalink: ")
	if i < 0 {
		t.Fatalf("no permalink printed:\n%s", out)
	}
	link := strings.TrimSpace(out[i+len("permalink: "):])
	again, errs, code := labctl(t, "", "run", "--load", link)
	if code != 0 {
		t.Fatalf("--load: exit %d: %s", code, errs)
	}
	if again != out {
		t.Errorf("the loaded run differs from the original")
	}
	// The fragment form, and the scenario name given as well.
	if again, _, _ := labctl(t, "", "run", "hands-on-lab", "--load", "http://x/#run="+link); again != out {
		t.Errorf("loading the fragment form differs")
	}
}

func TestRunLoadLessonAndTargetLinks(t *testing.T) {
	log := core.ActionLog{
		core.At(0, core.Fencing(false)),
		core.At(100*time.Millisecond, core.Pause("A", 12500*time.Millisecond)),
	}
	out, errs, code := labctl(t, "", "run", "--load", permalink.LessonLink("fenced-writes", 1, nil, log).Encode(), "--format", "summary")
	if code != 0 || !strings.Contains(out, "[met  ] Switch fencing off") || !strings.Contains(out, "# t=0.100s pause A for 12.5s") {
		t.Errorf("lesson link: exit %d %s\n%s", code, errs, out)
	}
	tg, _ := lessons.FindTarget("fenced-writes")
	out, errs, code = labctl(t, "", "run", "--load", tg.Link(1, log, 0).Encode(), "--format", "summary")
	if code != 0 || !strings.Contains(out, "VIOLATION of no stale write accepted: t=12.605s storage stale.accepted from=A token=7") {
		t.Errorf("target link: exit %d %s\n%s", code, errs, out)
	}
	// A search observed past the target's horizon: its replay link keeps
	// that horizon, so the replay shows the same break.
	out, _, _ = labctl(t, "", "explore", "fenced-writes", "--no-fencing", "--bounds", "start=62s..64s/1s,len=12s..14s/1s,horizon=120s")
	i := strings.Index(out, "replay: labctl run --load ")
	if i < 0 || !strings.Contains(out, "pause A at 62.000s") {
		t.Fatalf("no break past 60 s:\n%s", out)
	}
	replay := strings.Fields(out[i+len("replay: labctl run --load "):])[0]
	out, errs, code = labctl(t, "", "run", "--load", replay, "--format", "summary")
	if code != 0 || !strings.Contains(out, "VIOLATION of no stale write accepted") {
		t.Errorf("replay of a 120 s horizon: exit %d %s\n%s", code, errs, out)
	}
	// A link's format is checked like any run's.
	if _, errs, code = labctl(t, "", "run", "--load", replay, "--format", "bogus"); code != 2 || !strings.Contains(errs, "unknown format") {
		t.Errorf("--format bogus with a link: exit %d %s", code, errs)
	}
}

func TestRunLoadRefusesBadLinks(t *testing.T) {
	good := permalink.ScenarioLink("hands-on-lab", sandbox.Params{Seed: 2}).Encode()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--load", good[:len(good)-3]}, "checksum mismatch"},
		{[]string{"run", "--load", "%%%"}, "not a LeaseLab link"},
		{[]string{"run", "--load", good, "--ttl", "5s"}, "drop --ttl"},
		{[]string{"run", "shards", "--load", good}, `the link is for scenario "hands-on-lab"`},
		{[]string{"run", "--load", permalink.ScenarioLink("nowhere", sandbox.Params{}).Encode()}, `unknown scenario "nowhere"`},
		{[]string{"run", "--load", permalink.LessonLink("nowhere", 1, nil, nil).Encode()}, "nowhere"},
		{[]string{"run", "--load", permalink.LessonLink("fenced-writes", 1, map[string]float64{"warp": 9}, nil).Encode()}, "warp"},
	} {
		out, errs, code := labctl(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 and %q", c.args, code, errs, out, c.want)
		}
	}
}

// A sandbox run's link replays in the terminal: the same setup and the
// learner's actions, with the sandbox's invariants as the verdict.
func TestRunLoadReplaysASandboxLink(t *testing.T) {
	p, err := sandbox.FindPreset("zookeeper")
	require.NoError(t, err)
	c := p.Config
	c.TTL = 12 * time.Second
	log := core.ActionLog{core.At(3*time.Second, core.Crash("A"))}
	l, err := permalink.SandboxLink(p.Name, c, log)
	require.NoError(t, err)
	out, errs, code := labctl(t, "", "run", "--load", l.Encode())
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "sandbox run on ZooKeeper from preset zookeeper")
	assert.Contains(t, out, "# t=3.000s crash A")
	assert.Contains(t, out, "invariant ")

	bad := permalink.RunLink{Kind: permalink.LinkSandbox, Name: permalink.SandboxDefault, Params: []permalink.Param{{Key: "ttl", Value: "forever"}}}
	out, errs, code = labctl(t, "", "run", "--load", bad.Encode())
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `ttl="forever"`)
	assert.Empty(t, out)
}
