package game

import (
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
)

// The sandbox from the menu, set up with the mouse: a preset, a field
// made invalid (Start refused, the message beside the field), made valid
// again, started, a leader paused, the invariant panel clicked to jump to
// the first break, and both exports saved.
func TestSandboxSetUpAndPlayedWithTheMouse(t *testing.T) {
	r := newAppRig(t)
	saved := map[string]string{}
	r.a.Export = func(name string, data []byte) (string, error) {
		saved[name] = string(data)
		return "in memory", nil
	}
	r.click("sandbox")
	sb, ok := r.a.top().(*sandbox.Scene)
	if !ok || r.a.Inspect().Name != "sandbox-setup" {
		t.Fatalf("the menu's sandbox button opened %q", r.a.Inspect().Name)
	}
	r.click("preset:kubernetes")
	if c := sb.Config(); c.System != core.SystemKubernetes || c.TTL != 15*time.Second || c.RetryBase != 2*time.Second || c.Fencing {
		t.Fatalf("kubernetes preset not loaded: %+v", c)
	}
	// Drag the renew slider to its right end: 120 s >= the 15 s TTL.
	f := r.region("field:renew")
	r.tick(ui.Input{})
	r.tick(ui.Input{Cursor: ui.Point{X: f.X + 1, Y: f.Center().Y}, MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: ui.Point{X: f.MaxX() + 50, Y: f.Center().Y}, MouseDown: true})
	r.tick(ui.Input{Cursor: ui.Point{X: f.MaxX() + 50, Y: f.Center().Y}, MouseJustUp: true})
	info := r.a.Inspect()
	if !strings.Contains(info.Mirror.Text, "Renew every: 120 s - problem: renewing every 120 s with a TTL of 15 s lets the lease lapse") ||
		!strings.HasPrefix(info.Mirror.Text, "Cannot start:") {
		t.Fatalf("no message beside the renew field:\n%s", info.Mirror.Text)
	}
	r.click("start")
	if r.a.Inspect().Name != "sandbox-setup" {
		t.Fatal("an invalid setup started")
	}
	// The keyboard brings it back: focus the slider, Home, then right.
	for i := 0; i < 40 && r.a.Inspect().Focus != "field:renew"; i++ {
		r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentFocusNext)})
	}
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentHome)})
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentRight)})
	if c := sb.Config(); c.RenewEvery != time.Second || len(sb.Errors()) != 0 {
		t.Fatalf("renew %s, errors %v", c.RenewEvery, sb.Errors())
	}
	// The preset's own script freezes A for 20 s: more than the 15 s the
	// Lease lasts, so the verdict is not OK, and says why.
	if m := r.a.Inspect().Mirror.Text; !strings.Contains(m, "Policy not OK: ") || !strings.Contains(m, "the worst pause is the setup's own: A frozen for 20 s") {
		t.Fatalf("policy verdict missing:\n%s", m)
	}
	r.click("start")
	if r.a.Inspect().Name != "sandbox" || sb.Run == nil {
		t.Fatalf("Start did not run the sandbox: %q", r.a.Inspect().Name)
	}
	lb := sb.Run.Lab
	lb.Advance(5 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	lb.Advance(25 * time.Second)
	r.tick(ui.Input{})
	goals := r.a.Inspect().Mirror.Goals
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
	r.click("inv:" + string(rune('0'+belief)))
	if lb.Now() != first {
		t.Fatalf("clicking the broken invariant moved to %s, want %s", lb.Now(), first)
	}
	r.click("exportJSONL")
	r.click("exportMermaid")
	if len(saved) != 2 {
		t.Fatalf("saved %v", saved)
	}
	for name, data := range saved {
		if strings.HasSuffix(name, ".jsonl") && !strings.HasPrefix(data, `{"seq":0,`) ||
			strings.HasSuffix(name, ".mmd") && !strings.HasPrefix(data, "sequenceDiagram") {
			t.Fatalf("%s: %.80s", name, data)
		}
	}
	// Esc goes back to the setup, Esc again to the menu.
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	if r.a.Inspect().Name != "sandbox-setup" {
		t.Fatalf("Esc from the run: %q", r.a.Inspect().Name)
	}
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	if r.a.Inspect().Name != "menu" {
		t.Fatalf("Esc from the setup: %q", r.a.Inspect().Name)
	}
}

func TestLessonOpenedInSandboxKeepsTheRun(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	// Pause A from the keyboard this time: 1 selects it, Z pauses it.
	sc.Lab.Advance(4 * time.Second)
	r.tick(ui.Input{Digit: 1})
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentPauseProc)})
	sc.Lab.Advance(6 * time.Second)
	now := sc.Lab.Now()
	r.click("sandbox")
	sb, ok := r.a.top().(*sandbox.Scene)
	if !ok || sb.Run == nil {
		t.Fatalf("opened %q", r.a.Inspect().Name)
	}
	if sb.Run.Lab.Now() != now || len(sb.Run.Lab.Log()) != 1 || !sb.Run.Lab.World().Procs[0].Paused {
		t.Fatalf("the run was not carried over: now %s (want %s), log %v", sb.Run.Lab.Now(), now, sb.Run.Lab.Log())
	}
	if sb.Config().FirstToken != 7 {
		t.Fatalf("the setup behind it should show the fenced-register preset: %+v", sb.Config())
	}
	if _, ok := r.a.Inspect().Regions["sandbox"]; ok {
		t.Fatal("the sandbox run must not offer to open itself in the sandbox")
	}
}

// Every switch between setup and run draws at once without a crash: a
// scene must be laid out by its first update.
func TestSandboxDrawsRightAfterEverySwitch(t *testing.T) {
	r := newAppRig(t)
	screen := ebiten.NewImage(1280, 800)
	defer screen.Deallocate()
	r.click("sandbox")
	r.a.Draw(screen)
	r.click("start")
	if r.a.Inspect().Name != "sandbox" {
		t.Fatalf("start: %q", r.a.Inspect().Name)
	}
	r.a.Draw(screen)
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	r.a.Draw(screen)
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	// From a lesson straight into a run, then back to a setup never shown.
	r.click("lesson:hands-on-lab")
	r.click("sandbox")
	r.a.Draw(screen)
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	if r.a.Inspect().Name != "sandbox-setup" {
		t.Fatalf("Esc from a lesson's sandbox run: %q", r.a.Inspect().Name)
	}
	r.a.Draw(screen)
}

// An open action menu lies over the finder's buttons and takes the click:
// in a short window the sandbox's long menu covers "Compare fencing
// on/off", and a click on Pause used to open the comparison instead.
func TestActionMenuLiesOverTheFinderButtons(t *testing.T) {
	r := rigWith(t, nil)
	r.st.Window = ui.Rect{W: 960, H: 617}
	r.st.Style = draw.NewStyle(ui.UnitFor(960, 617, 1))
	r.tick(ui.Input{})
	r.click("sandbox")
	// etcd's preset: its leader holds a lease, so its menu offers every
	// action (a Kubernetes process has no lease to expire).
	r.click("preset:etcd")
	r.click("start")
	sb := r.a.top().(*sandbox.Scene)
	sb.Run.Lab.Advance(4 * time.Second)
	r.click("proc:A")
	reg := r.a.Inspect().Regions
	if !reg["act:A:pause"].Overlaps(reg["compare"]) {
		t.Fatalf("the menu no longer covers the button (pause %+v, compare %+v): this test proves nothing", reg["act:A:pause"], reg["compare"])
	}
	r.shot("sandbox-menu-over-finder.png")
	r.click("act:A:pause")
	if !sb.Run.Lab.World().Procs[0].Paused || sb.Run.Finder().Comparison() != nil {
		t.Fatalf("the click went past the menu: A paused %v, comparison open %v", sb.Run.Lab.World().Procs[0].Paused, sb.Run.Finder().Comparison() != nil)
	}
}
