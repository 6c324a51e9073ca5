package game

import (
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// appRig drives the whole App tick by tick, as Game does.
type appRig struct {
	t  *testing.T
	a  *App
	st State
}

func newAppRig(t *testing.T) *appRig {
	r := &appRig{t: t, a: NewApp(nil)}
	r.st.Window = ui.Rect{W: 1280, H: 800}
	r.st.Style = draw.NewStyle(ui.UnitFor(1280, 800, 1))
	r.tick(ui.Input{})
	return r
}

func (r *appRig) tick(in ui.Input) {
	r.t.Helper()
	in.Scale = 1
	in.WindowW, in.WindowH = r.st.Window.W, r.st.Window.H
	if in.Cursor == (ui.Point{}) {
		in.Cursor = ui.Point{X: -1, Y: -1}
	}
	hostIntents(&in) // as the Game does
	r.st.Input = in
	r.st.Tick++
	if err := Step(r.a, &r.st); err != nil {
		r.t.Fatal(err)
	}
}

func (r *appRig) region(name string) ui.Rect {
	r.t.Helper()
	reg, ok := r.a.Inspect().Regions[name]
	if !ok {
		r.t.Fatalf("no region %q in scene %q", name, r.a.Inspect().Name)
	}
	return reg
}

func (r *appRig) click(name string) {
	r.t.Helper()
	r.tick(ui.Input{}) // lay out for a window the test may have resized
	c := r.region(name).Center()
	r.tick(ui.Input{Cursor: c, MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: c, MouseJustUp: true})
}

func TestFencedLessonPlayedWithTheMouse(t *testing.T) {
	r := newAppRig(t)
	if r.a.Inspect().Name != "menu" {
		t.Fatal("the app should open on the menu")
	}
	r.click("lesson:fenced-writes")
	sc, ok := r.a.top().(*lesson.Scene)
	if !ok {
		t.Fatal("clicking the lesson did not open it")
	}
	if _, laidOut := r.a.Inspect().Regions["proc:A"]; !laidOut {
		t.Fatal("a scene opened by a click must be laid out before it is drawn")
	}
	sc.Lab.Advance(4 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	if !sc.Lab.World().Procs[0].Paused {
		t.Fatalf("A not paused; log %v", sc.Lab.Log())
	}
	sc.Lab.Advance(22 * time.Second)
	r.tick(ui.Input{})
	run := r.a.Inspect().Run
	if run.Holder != "B" || run.Token != 8 {
		t.Fatalf("holder %s token %d", run.Holder, run.Token)
	}
	rejected := false
	for _, w := range run.Writes {
		rejected = rejected || (w.From == "A" && w.Token == 7 && !w.Accepted)
	}
	if !rejected {
		t.Fatalf("no rejected write from A with 7: %+v", run.Writes)
	}
	mirror := strings.Join(r.a.Inspect().Mirror.Narration, "\n")
	for _, want := range []string{"B acquired locks/leader with token 8", "storage rejected A's write with token 7", "Goal met:"} {
		if !strings.Contains(mirror, want) {
			t.Errorf("narration lacks %q:\n%s", want, mirror)
		}
	}
	goals := r.a.Inspect().Mirror.Goals
	if !goals[0].Met || !goals[1].Met || goals[2].Met {
		t.Fatalf("goals %+v", goals)
	}
	// The fencing switch and the keyboard: T turns fencing off.
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentFencing)})
	if sc.Lab.World().Store.Fencing {
		t.Fatal("T did not switch fencing off")
	}
	r.click("fencing")
	if !sc.Lab.World().Store.Fencing {
		t.Fatal("clicking the switch did not turn fencing back on")
	}
	// Esc goes back to the menu, which shows the progress.
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	if r.a.Inspect().Name != "menu" || !strings.Contains(r.a.Inspect().Mirror.Text, "2 of 3 goals") {
		t.Fatalf("menu after Esc: %q %q", r.a.Inspect().Name, r.a.Inspect().Mirror.Text)
	}
}

// Holding what the leader sends, from its action menu: it never pauses,
// yet B takes over and the leader's held token-7 writes are refused.
func TestHoldALeadersMessagesFromItsMenu(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	sc.Lab.Advance(time.Second)
	r.click("proc:A")
	r.shot("menu-hold.png")
	r.click("act:A:delay")
	if w := sc.Lab.World(); w.Procs[0].HeldUntil != 21*time.Second || w.Procs[0].Paused {
		t.Fatalf("A held until %s, paused %v; log %v", w.Procs[0].HeldUntil, w.Procs[0].Paused, sc.Lab.Log())
	}
	sc.Lab.Advance(20*time.Second + 100*time.Millisecond)
	r.tick(ui.Input{})
	r.shot("after-hold.png")
	run := r.a.Inspect().Run
	rejected := 0
	for _, w := range run.Writes {
		if w.From == "A" && w.Token == 7 && !w.Accepted {
			rejected++
		}
	}
	if run.Holder != "B" || run.Token != 8 || rejected == 0 {
		t.Fatalf("holder %s token %d, %d of A's writes rejected: %+v", run.Holder, run.Token, rejected, run.Writes)
	}
	if n := strings.Join(r.a.Inspect().Mirror.Narration, "\n"); !strings.Contains(n, "the network holds what A sends until t=21.000s") {
		t.Errorf("narration lacks the hold:\n%s", n)
	}
}

func TestKeyboardSelectsAndPausesAProcess(t *testing.T) {
	r := newAppRig(t)
	r.tick(ui.Input{Digit: 3}) // the third lesson from the menu
	sc := r.a.top().(*lesson.Scene)
	if sc.Lab.Lesson.ID != "fenced-writes" {
		t.Fatalf("digit 3 opened %s", sc.Lab.Lesson.ID)
	}
	sc.Lab.Advance(time.Second)
	r.tick(ui.Input{Digit: 1})
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentPauseProc)})
	if !sc.Lab.World().Procs[0].Paused {
		t.Fatal("1 then Z did not pause A")
	}
	r.tick(ui.Input{Digit: 1}) // an action closes the menu: select again
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentPauseProc)})
	if sc.Lab.World().Procs[0].Paused {
		t.Fatal("1 then Z again did not resume A")
	}
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentHelp)})
	if !sc.Player.HelpShown() {
		t.Fatal("? did not open the help")
	}
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	if sc.Player.HelpShown() || r.a.Inspect().Name != "lesson" {
		t.Fatal("a key should close the help, not leave the lesson")
	}
}

func TestShowSolutionCompletesTheLesson(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	r.click("solution")
	sc := r.a.top().(*lesson.Scene)
	if !sc.Player.Playing() {
		t.Fatal("show solution should play")
	}
	for sc.Lab.Now() < sc.Lab.Length() {
		sc.Lab.Advance(500 * time.Millisecond)
		r.tick(ui.Input{})
	}
	if !r.a.Inspect().Run.Complete || !strings.Contains(strings.Join(r.a.Inspect().Mirror.Narration, " "), "Lesson complete") {
		t.Fatal("the solution did not complete the lesson in the player")
	}
}
