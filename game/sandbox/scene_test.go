package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/ui"
)

// The sandbox set up with the mouse: a preset, a field
// made invalid (Start refused, the message beside the field), made valid
// again, started, a leader paused, the invariant panel clicked to jump to
// the first break, and both exports saved.
func TestSandboxSetUpAndPlayedWithTheMouse(t *testing.T) {
	r := newRig(t, "", 1280, 800)
	sb := r.sb
	require.Equal(t, "sandbox-setup", r.Info().Name)
	r.Click("preset:kubernetes")
	if c := sb.Config(); c.System != core.SystemKubernetes || c.TTL != 15*time.Second || c.RetryBase != 2*time.Second || c.Fencing {
		t.Fatalf("kubernetes preset not loaded: %+v", c)
	}
	renewDraggedPastTheTTLIsRefused(t, r)
	keyboardBringsTheRenewBack(t, r)
	// The preset's own script freezes A for 20 s: more than the 15 s the
	// Lease lasts, so the verdict is not OK, and says why.
	if m := r.Info().Mirror.Text; !strings.Contains(m, "Policy not OK: ") || !strings.Contains(m, "the worst pause is the setup's own: A frozen for 20 s") {
		t.Fatalf("policy verdict missing:\n%s", m)
	}
	r.Click("start")
	if r.Info().Name != "sandbox" || sb.Run == nil {
		t.Fatalf("Start did not run the sandbox: %q", r.Info().Name)
	}
	lb := sb.Run.Lab
	lb.Advance(5 * time.Second)
	r.Click("proc:A")
	r.Click("act:A:pause")
	lb.Advance(25 * time.Second)
	r.Tick(ui.Input{})
	goals := r.Info().Mirror.Goals
	var belief int = -1
	for i, g := range goals {
		if strings.HasPrefix(g.Text, core.InvOneBeliever) {
			belief = i
		}
	}
	// Whichever candidate's own clock runs out first takes over (C here).
	if belief < 0 || goals[belief].Met || !strings.Contains(goals[belief].Text, "both believed") || !strings.Contains(goals[belief].Text, "A and ") {
		t.Fatalf("invariant panel: %+v", goals)
	}
	first := lb.Statuses()[belief].FirstBroke
	r.Click("inv:" + string(rune('0'+belief)))
	if lb.Now() != first {
		t.Fatalf("clicking the broken invariant moved to %s, want %s", lb.Now(), first)
	}
	bothExportsAreSaved(t, r)
	// Esc goes back to the setup, Esc again to the menu.
	r.Tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	if r.Info().Name != "sandbox-setup" {
		t.Fatalf("Esc from the run: %q", r.Info().Name)
	}
	r.Tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	assert.Equal(t, 1, r.toMenu, "Esc from the setup goes back to the menu")
}

// An open action menu lies over the finder's buttons and takes the click:
// in a short window the sandbox's long menu covers "Compare fencing
// on/off", and a click on Pause used to open the comparison instead.
func TestActionMenuLiesOverTheFinderButtons(t *testing.T) {
	r := newRig(t, "", 960, 617)
	// etcd's preset: its leader holds a lease, so its menu offers every
	// action (a Kubernetes process has no lease to expire).
	r.Click("preset:etcd")
	r.Click("start")
	sb := r.sb
	sb.Run.Lab.Advance(4 * time.Second)
	r.Click("proc:A")
	reg := r.Info().Regions
	if !reg["act:A:pause"].Overlaps(reg["compare"]) {
		t.Fatalf("the menu no longer covers the button (pause %+v, compare %+v): this test proves nothing", reg["act:A:pause"], reg["compare"])
	}
	r.Drawn("sandbox-menu-over-finder")
	r.Click("act:A:pause")
	if !sb.Run.Lab.World().Procs[0].Paused || sb.Run.Finder().Comparison() != nil {
		t.Fatalf("the click went past the menu: A paused %v, comparison open %v", sb.Run.Lab.World().Procs[0].Paused, sb.Run.Finder().Comparison() != nil)
	}
}

// renewDraggedPastTheTTLIsRefused drags the renew slider to its right
// end, 120 s, no less than the 15 s TTL: the message is beside the field
// and Start does not start.
func renewDraggedPastTheTTLIsRefused(t *testing.T, r *rig) {
	t.Helper()
	f := r.Region("field:renew")
	r.Tick(ui.Input{})
	r.Tick(ui.Input{Cursor: ui.Point{X: f.X + 1, Y: f.Center().Y}, MouseDown: true, MouseJustDown: true})
	r.Tick(ui.Input{Cursor: ui.Point{X: f.MaxX() + 50, Y: f.Center().Y}, MouseDown: true})
	r.Tick(ui.Input{Cursor: ui.Point{X: f.MaxX() + 50, Y: f.Center().Y}, MouseJustUp: true})
	info := r.Info()
	if !strings.Contains(info.Mirror.Text, "Renew every: 120 s - problem: renewing every 120 s with a TTL of 15 s lets the lease lapse") ||
		!strings.HasPrefix(info.Mirror.Text, "Cannot start:") {
		t.Fatalf("no message beside the renew field:\n%s", info.Mirror.Text)
	}
	r.Click("start")
	if r.Info().Name != "sandbox-setup" {
		t.Fatal("an invalid setup started")
	}
}

// keyboardBringsTheRenewBack: focus the renew slider, Home, then right,
// and the setup is valid again with a 1 s renewal.
func keyboardBringsTheRenewBack(t *testing.T, r *rig) {
	t.Helper()
	sb := r.sb
	for i := 0; i < 40 && r.Info().Focus != "field:renew"; i++ {
		r.Tick(ui.Input{Keys: ui.KeysOf(ui.IntentFocusNext)})
	}
	r.Tick(ui.Input{Keys: ui.KeysOf(ui.IntentHome)})
	r.Tick(ui.Input{Keys: ui.KeysOf(ui.IntentRight)})
	if c := sb.Config(); c.RenewEvery != time.Second || len(sb.Errors()) != 0 {
		t.Fatalf("renew %s, errors %v", c.RenewEvery, sb.Errors())
	}
}

// bothExportsAreSaved: the run's trace is saved as JSON lines and as a
// Mermaid sequence diagram.
func bothExportsAreSaved(t *testing.T, r *rig) {
	t.Helper()
	r.Click("exportJSONL")
	r.Click("exportMermaid")
	if len(r.saved) != 2 {
		t.Fatalf("saved %v", r.saved)
	}
	for name, data := range r.saved {
		if strings.HasSuffix(name, ".jsonl") && !strings.HasPrefix(data, `{"seq":0,`) ||
			strings.HasSuffix(name, ".mmd") && !strings.HasPrefix(data, "sequenceDiagram") {
			t.Fatalf("%s: %.80s", name, data)
		}
	}
}
