package game

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// From the sandbox: a preset, a pause of the leader in a run, back to
// the setup, the system switched, then Compare systems: the same pause on
// every system, one play head, a line per system; Esc returns.
func TestCompareSystemsFromTheSandbox(t *testing.T) {
	r := newAppRig(t)
	r.click("sandbox")
	sb, ok := r.a.top().(*SandboxScene)
	require.True(t, ok)
	r.click("preset:leases")
	r.click("field:system")
	require.Equal(t, core.SystemZooKeeper, sb.Config().System, "one click steps etcd to ZooKeeper")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "System: ZooKeeper")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "Recipe: etcd fair queue (not used) ZooKeeper's own recipe")
	r.shot("sandbox-system-zookeeper.png")

	r.click("start")
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	r.click("proc:A")
	r.click("action:pause")
	require.Len(t, sb.Run.Lab.Log(), 1)
	r.key(ui.IntentBack)
	require.Equal(t, "sandbox-setup", r.a.Inspect().Name)

	r.click("compareSystems")
	info := r.a.Inspect()
	require.Equal(t, "compare-systems", info.Name)
	require.NotNil(t, info.Systems)
	assert.Equal(t, core.SystemNames(), info.Systems.Systems, "the leases preset fits every system")
	for i, line := range info.Systems.Lines {
		assert.Contains(t, line, "A paused at 3 s", "%s replays the learner's pause", info.Systems.Systems[i])
	}
	assert.Equal(t, []string{"etcd", "zookeeper"}, info.Systems.Shown, "etcd beside the setup's system")
	for _, sys := range core.SystemNames() {
		r.region("systemsShow:" + sys)
	}
	r.click("systemsShow:redlock")
	assert.Equal(t, []string{"zookeeper", "redlock"}, r.a.Inspect().Systems.Shown, "a name shows its world beside the last one")
	r.region("systemsPane:redlock")
	for range 20 {
		r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentStep)})
	}
	now := r.a.Inspect().Systems.Now
	assert.Positive(t, now, "stepping moves the play head")
	v := r.a.top().(*SandboxScene).scenes.Top().(*systemsView)
	for i, lb := range v.m.Runs {
		assert.Equal(t, now, lb.Now().Seconds(), "%s at the one play head", v.m.Systems[i])
	}
	lab.SystemsClock(v.m.Runs).Seek(14 * time.Second) // where B has taken over on most systems
	r.tick(ui.Input{})
	r.shot("compare-systems.png")

	r.click("systemsBack")
	assert.Equal(t, "sandbox-setup", r.a.Inspect().Name)
	assert.True(t, strings.Contains(r.a.Inspect().Mirror.Text, "System: ZooKeeper"), "the setup is as it was")
}
