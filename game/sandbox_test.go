package game

import (
	"leaselab/game/lesson"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/sandbox"
	"leaselab/game/ui"
)

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
