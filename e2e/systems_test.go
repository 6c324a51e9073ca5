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
		Name    string `json:"name"`
		Systems *struct {
			Systems []string `json:"systems"`
			Lines   []string `json:"lines"`
			Shown   []string `json:"shown"`
			Now     float64  `json:"now"`
		} `json:"systems"`
	} `json:"scene"`
}

// TestBrowserCompareSystems opens the sandbox, loads the hands-on lab
// (A freezes 30 s and writes late), switches its system to ZooKeeper
// (the fields ZooKeeper does not use say why), then opens Compare
// systems: every system's line, ZooKeeper's world beside etcd's, then
// Redlock's shown instead, and the play head moved on all of them.
func TestBrowserCompareSystems(t *testing.T) {
	b := openBrowser(t, 1280, 760)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.click(t, "sandbox")
	b.until(t, "the sandbox setup", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox-setup" })
	b.click(t, "preset:hands-on-lab")
	b.untilText(t, "the preset on etcd", func(text string) bool { return strings.Contains(text, "System: etcd") })
	b.click(t, "field:system")
	text := b.untilText(t, "the system switched", func(text string) bool { return strings.Contains(text, "System: ZooKeeper") })
	require.Contains(t, text, "Recipe: etcd fair queue (not used) ZooKeeper's own recipe", "ZooKeeper's setup says what it does not use")
	require.False(t, strings.HasPrefix(text, "Cannot start"), "ZooKeeper's setup is refused:\n%s", text)
	b.screenshot(t, "browser-sandbox-zookeeper.png")

	b.click(t, "compareSystems")
	st := pollState(t, b, "the compare-systems view", 60*time.Second, func(s systemsState) bool {
		return s.Scene.Name == "compare-systems" && s.Scene.Systems != nil
	}, func(s systemsState) string { return "scene " + s.Scene.Name })
	sys := st.Scene.Systems
	require.Equal(t, []string{"etcd", "zookeeper", "consul", "kubernetes", "redlock"}, sys.Systems)
	require.Len(t, sys.Lines, 5, "one line per system")
	for i, line := range sys.Lines {
		t.Logf("%s", line)
		assert.Contains(t, line, "A paused at 2 s", "%s replays the scenario's pause", sys.Systems[i])
	}
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
