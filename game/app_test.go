package game

import (
	"leaselab/game/lesson"
	"strings"
	"testing"

	"leaselab/game/draw"
	"leaselab/game/ui"

	"boot.leaselab/progress"
)

func rigWith(t *testing.T, store progress.Store) *appRig {
	r := &appRig{t: t, a: NewApp(store)}
	r.st.Window = ui.Rect{W: 1280, H: 800}
	r.st.Style = draw.NewStyle(ui.UnitFor(1280, 800, 1))
	r.tick(ui.Input{})
	return r
}

func TestProgressSurvivesARestart(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	pausedRun(t, r)
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})

	// A new app on the same store: the menu shows the progress, and the
	// lesson reopens with the learner's pause replayed.
	r2 := rigWith(t, store)
	if text := r2.a.Inspect().Mirror.Text; !strings.Contains(text, "The paused leader and fenced writes (2 of 3 goals)") {
		t.Fatalf("menu after restart:\n%s", text)
	}
	r2.click("lesson:fenced-writes")
	sc2 := r2.a.top().(*lesson.Scene)
	if len(sc2.Lab.Log()) != 1 || sc2.Lab.Log()[0].Do != "pause" || !sc2.Lab.World().Procs[0].Paused {
		t.Fatalf("the saved run was not resumed: log %v now %s", sc2.Lab.Log(), sc2.Lab.Now())
	}
}

func TestCorruptProgressStartsFreshAndSaysWhy(t *testing.T) {
	store := progress.NewMemStore([]byte(`{"version": 1, "lessons": {"fenced-writes": {"goalsMet": 7}}`), "")
	r := rigWith(t, store)
	info := r.a.Inspect()
	if info.Name != "menu" || !strings.Contains(info.Mirror.Text, "could not") || strings.Contains(info.Mirror.Text, "goals)") {
		t.Fatalf("menu with corrupt progress:\n%s", info.Mirror.Text)
	}
	r.click("lesson:fenced-writes") // still playable
	if r.a.Inspect().Name != "lesson" {
		t.Fatal("a corrupt save must not block the lessons")
	}
}

func TestSavedRunThatNoLongerFitsIsDroppedWithAWord(t *testing.T) {
	p := progress.New()
	p.SetLesson("fenced-writes", progress.Lesson{Log: []byte(`[{"at":"5s","do":"pause","proc":"A"}]`)})
	b, err := progress.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	r := rigWith(t, progress.NewMemStore(b, ""))
	r.click("lesson:fenced-writes")
	n := r.a.Inspect().Mirror.Narration
	if r.a.Inspect().Name != "lesson" || len(n) == 0 || !strings.Contains(n[len(n)-1], "could not be replayed") {
		t.Fatalf("narration %v", n)
	}
}

// Issue 19, item 11: two windows (or tabs) on one store. A's completion
// reaches B when B refreshes (the browser's storage event) and survives
// B's next save; importing a file adds to the app's progress.
func TestTwoAppsOnOneStoreMergeTheirProgress(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	a, b := NewApp(store), NewApp(store)
	a.prog.SetLesson("leases", progress.Lesson{Completed: true, GoalsMet: []string{"lease-granted"}})
	a.save()
	b.prog.SetLesson("scheduler", progress.Lesson{Completed: true})
	b.save()
	if _, done := b.GoalsMet("leases"); !done {
		t.Error("B's save did not adopt A's completion")
	}
	a.Refresh()
	if _, done := a.GoalsMet("scheduler"); !done {
		t.Error("A's refresh did not bring in B's completion")
	}
	p, _ := progress.Open(store, nil)
	if !p.Lesson("leases").Completed || !p.Lesson("scheduler").Completed {
		t.Errorf("saved progress lost one: %+v", p.Lessons)
	}

	msg, err := a.ImportProgress([]byte(`{"version":1,"lessons":{"security":{"completed":true}}}`))
	if err != nil || !strings.Contains(msg, "Progress imported: 3 lessons") {
		t.Errorf("import: %q, %v", msg, err)
	}
	if _, err := a.ImportProgress([]byte("not progress")); err == nil {
		t.Error("a file that is not progress was imported")
	}
	if out, err := a.ExportProgress(); err != nil || !strings.Contains(string(out), `"security"`) {
		t.Errorf("export: %s, %v", out, err)
	}
}
