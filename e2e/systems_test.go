package e2e

import (
	"strings"
	"testing"
	"time"
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
	if !strings.Contains(text, "Recipe: etcd fair queue (not used) ZooKeeper's own recipe") || strings.HasPrefix(text, "Cannot start") {
		t.Fatalf("ZooKeeper's setup does not say what it does not use, or is refused:\n%s", text)
	}
	b.screenshot(t, "browser-sandbox-zookeeper.png")

	b.click(t, "compareSystems")
	st := pollState(t, b, "the compare-systems view", 60*time.Second, func(s systemsState) bool {
		return s.Scene.Name == "compare-systems" && s.Scene.Systems != nil
	}, func(s systemsState) string { return "scene " + s.Scene.Name })
	sys := st.Scene.Systems
	if strings.Join(sys.Systems, ",") != "etcd,zookeeper,consul,kubernetes,redlock" || len(sys.Lines) != 5 {
		t.Fatalf("systems %v, lines %v", sys.Systems, sys.Lines)
	}
	for i, line := range sys.Lines {
		t.Logf("%s", line)
		if !strings.Contains(line, "A paused at 2 s") {
			t.Errorf("%s does not replay the scenario's pause: %s", sys.Systems[i], line)
		}
	}
	if !strings.Contains(sys.Lines[1], "A learns it expired on reconnect at") || !strings.Contains(sys.Lines[4], "its late write accepted") {
		t.Errorf("the lines do not show what differs:\n%s", strings.Join(sys.Lines, "\n"))
	}
	if strings.Join(sys.Shown, ",") != "etcd,zookeeper" {
		t.Errorf("shown %v, want etcd beside the setup's ZooKeeper", sys.Shown)
	}
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
