package lab

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// handsOn is the hands-on lab's scenario: A writes, freezes for 30 s and
// writes late, B writes in between.
func handsOn(t *testing.T) sandbox.Config {
	t.Helper()
	p, err := sandbox.FindPreset("hands-on-lab")
	require.NoError(t, err)
	c := p.Config
	c.Duration = 2 * time.Minute
	return c
}

var number = regexp.MustCompile(`\d+(\.\d+)? s`)

// Each pane's line is told from that pane's trace: every number in it is
// the time of the trace event its clause points at, and each clause says
// what that event was.
func TestEachSystemsLineIsToldFromItsTrace(t *testing.T) {
	c, err := NewSystemsComparison(handsOn(t), nil, nil, 20*time.Second)
	require.NoError(t, err)
	require.Len(t, c.Runs, 5, "the hands-on lab fits every system: %v", c.Refused)
	for i, st := range c.Stories {
		sys := c.Systems[i]
		assert.Equal(t, 20*time.Second, c.Runs[i].Now(), "one play head")
		end := c.Runs[i].Sim().Clone()
		end.RunUntil(c.Runs[i].Length())
		tr := end.Trace
		line := st.Line()
		t.Log(line)
		require.True(t, strings.HasPrefix(line, sys.Title()+": "), line)
		require.GreaterOrEqual(t, len(st.Clauses), 2, "%s: the pause, who led next", sys)
		total := 0
		for _, cl := range st.Clauses {
			e := tr.At(cl.Seq)
			require.Equal(t, e.At, cl.At, "%s: %q points at its event", sys, cl.Text)
			nums := number.FindAllString(cl.Text, -1)
			require.Len(t, nums, 1, "%s: %q has one time", sys, cl.Text)
			assert.Equal(t, Tenths(e.At), nums[0], "%s: %q is the time of %s", sys, cl.Text, e.Text())
			total++
			switch {
			case strings.Contains(cl.Text, "paused"):
				assert.Equal(t, core.KindPause, e.Kind)
			case strings.Contains(cl.Text, "late write"):
				assert.Equal(t, core.KindWrite, e.Kind)
				assert.Equal(t, e.Result() == core.Accepted, strings.Contains(cl.Text, "accepted"), e.Text())
			case strings.Contains(cl.Text, "expired"), strings.Contains(cl.Text, "disconnected"):
				assert.Equal(t, core.KindClientState, e.Kind)
			default:
				assert.Equal(t, core.KindState, e.Kind, cl.Text)
			}
		}
		assert.Len(t, number.FindAllString(line, -1), total, "no number in the line that no clause accounts for")
	}
	lines := map[core.System]string{}
	for i, st := range c.Stories {
		lines[c.Systems[i]] = st.Line()
	}
	// What differs, system by system, in the same 30 s pause of A.
	assert.Contains(t, lines[core.SystemZooKeeper], "A learns it expired on reconnect at")
	assert.Contains(t, lines[core.SystemZooKeeper], "A disconnected (suspended) at")
	assert.Contains(t, lines[core.SystemRedlock], "(A still thinks it leads)")
	assert.Contains(t, lines[core.SystemRedlock], "its late write accepted", "no token: nothing refuses it")
	assert.Contains(t, lines[core.SystemEtcd], "its late write refused")
	assert.NotEqual(t, lines[core.SystemEtcd][len("etcd"):], lines[core.SystemConsul][len("Consul"):], "Consul's lock-delay changes the story")

	// A checklist row says the story's end in a few words (issue 29: the
	// whole story, four lines at 1024x640, was cut in the compare panel).
	for i, st := range c.Stories {
		out := st.Outcome()
		assert.Less(t, len(out), 45, "%s: %q", c.Systems[i], out)
		if strings.Contains(st.Line(), "late write") {
			assert.Contains(t, out, "A's late write", c.Systems[i])
		} else {
			assert.Equal(t, c.Systems[i].Title()+": no late write", out)
		}
	}
	assert.Regexp(t, `^Redlock: A's late write accepted at \d`, c.Stories[slices.Index(c.Systems, core.SystemRedlock)].Outcome())
}

// A pair of systems, and the learner's own actions replayed on both; a
// system the setup does not fit is left out and says why.
func TestAChosenPairReplaysTheLearnersActions(t *testing.T) {
	cfg := handsOn(t)
	cfg.Actions = nil
	log := core.ActionLog{core.At(5*time.Second, core.Pause("A", 25*time.Second))}
	c, err := NewSystemsComparison(cfg, log, []core.System{core.SystemEtcd, core.SystemRedlock}, 0)
	require.NoError(t, err)
	require.Len(t, c.Runs, 2)
	for i, lb := range c.Runs {
		assert.Equal(t, log, lb.Log())
		assert.Contains(t, c.Stories[i].Line(), "A paused at 5 s", c.Systems[i])
	}
	clock := SystemsClock(c.Runs)
	clock.Apply(SeekTo(12 * time.Second))
	assert.Equal(t, 12*time.Second, c.Runs[1].Now(), "the second follows the first")

	cfg.TTL = 5 * time.Second
	c, err = NewSystemsComparison(cfg, nil, []core.System{core.SystemEtcd, core.SystemConsul}, 0)
	require.NoError(t, err)
	assert.Equal(t, []core.System{core.SystemEtcd}, c.Systems)
	require.Len(t, c.Refused, 1)
	assert.Contains(t, c.Refused[0], "Consul: ")
	_, err = NewSystemsComparison(cfg, nil, []core.System{core.SystemConsul}, 0)
	assert.Error(t, err, "nothing left to compare")
}

// A sandbox run compared: the scenario it was started from, with its
// seed and the learner's pause, on every system, each run at the run's
// play head; a found run shown instead of the learner's is compared with
// its own actions.
func TestARunIsComparedWithItsOwnScenarioActionsAndPlayHead(t *testing.T) {
	p, err := sandbox.FindPreset("leases")
	require.NoError(t, err)
	cfg := p.Config
	cfg.Seed = 7
	lb, err := NewSandbox("leases", cfg)
	require.NoError(t, err)
	lb.Advance(3 * time.Second)
	require.NoError(t, lb.Do(core.Pause("A", 20*time.Second)))
	lb.Advance(9 * time.Second)
	require.Equal(t, 12*time.Second, lb.Now())

	c, err := lb.CompareRun(cfg)
	require.NoError(t, err)
	assert.Len(t, c.Systems, len(core.SystemNames()), "the leases preset fits every system")
	for i, run := range c.Runs {
		assert.Equal(t, lb.Log(), run.Log(), c.Systems[i])
		assert.Equal(t, lb.Now(), run.Now(), "%s at the run's play head", c.Systems[i])
		assert.Equal(t, lb.Seed, run.Seed, c.Systems[i])
		assert.Contains(t, c.Stories[i].Line(), "A paused at 3 s", c.Systems[i])
	}
	etcd := c.Runs[0]
	require.Equal(t, core.SystemEtcd, c.Systems[0])
	assert.Equal(t, lb.Sim().Trace.Len(), etcd.Sim().Trace.Len(), "etcd's run is the run itself, replayed")

	found := core.ActionLog{core.At(5*time.Second, core.Pause("B", 20*time.Second))}
	require.NoError(t, lb.ShowFound(lb.Knobs(), found))
	c, err = lb.CompareRun(cfg)
	require.NoError(t, err)
	assert.Equal(t, found, c.Runs[0].Log(), "the run on show is the one compared")
}
