package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// systemsState is leaselab.state() with the compare-systems view.
type systemsState struct {
	Scene struct {
		Name    string       `json:"name"`
		Systems *systemsInfo `json:"systems"`
	} `json:"scene"`
}

// systemsInfo is the compare-systems view as leaselab.state() gives it.
type systemsInfo = struct {
	Systems []string `json:"systems"`
	Lines   []string `json:"lines"`
	Shown   []string `json:"shown"`
	Now     float64  `json:"now"`
}

// systemsOpened waits for the compare-systems view and checks that it
// has a line for every system, each replaying the pause it names.
func systemsOpened(t *testing.T, b *browser, pause string) *systemsInfo {
	t.Helper()
	st := pollState(t, b, "the compare-systems view", 60*time.Second, func(s systemsState) bool {
		return s.Scene.Name == "compare-systems" && s.Scene.Systems != nil
	}, func(s systemsState) string { return "scene " + s.Scene.Name })
	sys := st.Scene.Systems
	require.Equal(t, []string{"etcd", "zookeeper", "consul", "kubernetes", "redlock"}, sys.Systems)
	require.Len(t, sys.Lines, 5, "one line per system")
	for i, line := range sys.Lines {
		t.Logf("%s", line)
		assert.Contains(t, line, pause, "%s replays the pause", sys.Systems[i])
	}
	return sys
}

// onEtcd reports a setup on etcd.
func onEtcd(text string) bool { return strings.Contains(text, "System: etcd") }

// TestBrowserCompareSystems opens the sandbox, loads the hands-on lab
// (A freezes 30 s and writes late), switches its system to ZooKeeper
// (the fields ZooKeeper does not use say why), then opens Compare
// systems: every system's line, ZooKeeper's world beside etcd's, then
// Redlock's shown instead, and the play head moved on all of them.
func TestBrowserCompareSystems(t *testing.T) {
	b := openSandbox(t, "hands-on-lab", onEtcd)
	b.click(t, "field:system")
	text := b.untilText(t, "the system switched", func(text string) bool { return strings.Contains(text, "System: ZooKeeper") })
	require.Contains(t, text, "Recipe: etcd fair queue (not used). ZooKeeper's own recipe", "ZooKeeper's setup says what it does not use")
	require.False(t, strings.HasPrefix(text, "Cannot start"), "ZooKeeper's setup is refused:\n%s", text)
	b.screenshot(t, "browser-sandbox-zookeeper.png")

	b.click(t, "compareSystems")
	sys := systemsOpened(t, b, "A paused at 2 s")
	assert.Contains(t, sys.Lines[1], "A learns it expired on reconnect at", "ZooKeeper's line shows what differs")
	assert.Contains(t, sys.Lines[4], "its late write accepted", "Redlock's line shows what differs")
	assert.Equal(t, []string{"etcd", "zookeeper"}, sys.Shown, "etcd beside the setup's ZooKeeper")
	for range 3 {
		b.press(t, bracketRight)
	}
	b.press(t, pKey)
	pollState(t, b, "the play head past A's pause", 2*time.Minute, func(s systemsState) bool {
		return s.Scene.Systems != nil && s.Scene.Systems.Now > 14
	}, func(s systemsState) string { return "scene " + s.Scene.Name })
	b.press(t, pKey)
	b.screenshot(t, "browser-compare-systems.png")

	b.click(t, "systemsShow:redlock")
	pollState(t, b, "Redlock shown", 30*time.Second, func(s systemsState) bool {
		return s.Scene.Systems != nil && strings.Join(s.Scene.Systems.Shown, ",") == "zookeeper,redlock"
	}, func(s systemsState) string { return "scene " + s.Scene.Name })
	b.screenshot(t, "browser-compare-systems-redlock.png")

	b.click(t, "systemsBack")
	b.until(t, "back in the setup", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox-setup" })
}

// TestBrowserCompareSystemsFromARun plays the leases preset in the
// sandbox, pauses A at 3 s and moves the play head to 12 s, all with the
// page's controls, then presses the run's own Compare systems control:
// the comparison opens on the run's scenario with that pause, at 12 s on
// every system; its Back returns to the run where it was.
func TestBrowserCompareSystemsFromARun(t *testing.T) {
	b := openSandbox(t, "leases", onEtcd)
	b.useControl(t, "start")
	b.until(t, "the run", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox" && s.Scene.Run != nil })
	b.setControl(t, "scrub", 3)
	b.useControl(t, "act:A:pause")
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil && s.Scene.Run.Procs[0].Paused })
	b.setControl(t, "scrub", 12)
	b.until(t, "the play head at 12 s", 30*time.Second, func(s fullState) bool {
		return s.Scene.Run != nil && s.Scene.Run.Now > 11.9 && s.Scene.Run.Now < 12.1
	})
	b.screenshot(t, "browser-sandbox-run-compare-systems.png")

	b.useControl(t, "runCompareSystems")
	sys := systemsOpened(t, b, "A paused at 3 s")
	assert.InDelta(t, 12, sys.Now, 0.1, "every system at the run's play head")
	b.screenshot(t, "browser-compare-systems-from-run.png")

	b.useControl(t, "systemsBack")
	back := b.until(t, "back in the run", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox" && s.Scene.Run != nil })
	assert.InDelta(t, 12, back.Scene.Run.Now, 0.1, "the run where it was")
}
