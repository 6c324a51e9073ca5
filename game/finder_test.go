package game

import (
	"leaselab/game/lesson"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// runFinder clicks "Find a break" and ticks until the search ends,
// checking it never takes much more than a frame's budget per tick.
func runFinder(t *testing.T, r *appRig) (ticks int) {
	t.Helper()
	return searchRun(t, r, r.a.top().(*lesson.Scene).Finder())
}

// searchRun runs finder f's search (a lesson's or a sandbox run's).
func searchRun(t *testing.T, r *appRig, f *lesson.Finder) (ticks int) {
	t.Helper()
	r.click("explore")
	if !f.Searching() && f.Status() == "" {
		t.Fatal("no search started")
	}
	// Each frame runs a slice of the search within its budget
	// (lab.TestASliceOfSearchStopsAtItsBudget proves the slice).
	for f.Searching() { // (a small one may end in its first frame)
		r.tick(ui.Input{})
		if ticks++; ticks > 5000 {
			t.Fatal("search never ended")
		}
	}
	return ticks
}

func TestFindABreakLoadsTheCounterexample(t *testing.T) {
	r := rigWith(t, nil)
	sc := brokenFencedWrites(t, r)
	log := sc.Lab.Log()
	if len(log) != 2 || log[0].Do != "fencing" || log[0].On || log[1].Do != "pause" || log[1].Proc != "A" {
		t.Fatalf("loaded log %v, want fencing off then a pause of A", log)
	}
	if !strings.HasPrefix(sc.Finder().Status(), "Break: pause A at") {
		t.Errorf("status %q", sc.Finder().Status())
	}
	// Playing the loaded run shows the stale write the search found.
	sc.Lab.Advance(40 * time.Second)
	if len(sc.Lab.Sim().Trace.Filter(core.KindStale)) == 0 {
		t.Error("the loaded counterexample does not replay a stale write")
	}
	if text := strings.Join(sc.Player.Narration().Lines(), "\n"); !strings.Contains(text, "Found the simplest break after") ||
		!strings.Contains(text, `The same schedule with fencing on keeps "no stale write accepted": 1 stale write rejected.`) {
		t.Errorf("narration:\n%s", text)
	}
}

func TestFindABreakProvesTheFixAndCancels(t *testing.T) {
	r := rigWith(t, nil)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	before := sc.Lab.Log()
	// Cancel a search half way: nothing loaded, the coverage reported.
	r.click("explore")
	r.tick(ui.Input{})
	r.click("explore")
	if sc.Finder().Searching() || !strings.HasPrefix(sc.Finder().Status(), "Cancelled after") {
		t.Fatalf("after cancel: searching %v, status %q", sc.Finder().Searching(), sc.Finder().Status())
	}
	// Fencing on (the lesson's default): the whole grid holds, searched
	// a slice per frame.
	if ticks := runFinder(t, r); ticks < 3 {
		t.Errorf("3600 schedules ran in %d frame(s): a search must be spread over frames", ticks)
	}
	if !strings.HasPrefix(sc.Finder().Status(), "No break in 3600 schedules") {
		t.Errorf("status %q", sc.Finder().Status())
	}
	if len(sc.Lab.Log()) != len(before) {
		t.Errorf("a clean search changed the run's log: %v", sc.Lab.Log())
	}
}

func TestLeavingTheLessonEndsTheSearch(t *testing.T) {
	r := rigWith(t, nil)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	r.click("explore")
	if !sc.Finder().Searching() {
		t.Fatal("no search")
	}
	r.click("menu")
	if sc.Finder().Searching() || r.a.Inspect().Name != "menu" {
		t.Errorf("after leaving: searching %v, scene %q", sc.Finder().Searching(), r.a.Inspect().Name)
	}
}

// searches are the lessons that declare a search, by id.
func searches() map[string]*lessons.Search {
	out := map[string]*lessons.Search{}
	for _, l := range lessons.All() {
		if l.Search != nil {
			out[l.ID] = l.Search
		}
	}
	return out
}

func TestFindABreakOnlyWhereItFits(t *testing.T) {
	r := rigWith(t, nil)
	r.click("lesson:state-machine")
	if _, ok := r.a.Inspect().Regions["explore"]; ok {
		t.Error("a lesson without a break spec shows the button")
	}
	assert.ElementsMatch(t, []string{"fenced-writes", "hands-on-lab", "scheduler", "shards"}, slices.Collect(maps.Keys(searches())),
		"the lessons whose worlds the search fits")
	for id := range searches() {
		l, err := NewApp(nil).OpenID(id)
		if err != nil || l.Finder() == nil {
			t.Errorf("%s: no finder (%v)", id, err)
		}
	}
}

// The button and the progress bar fit the world's caption row beside the
// "World" label and the clock, from the smallest window to a large one.
func TestFindABreakFitsTheCaptionRow(t *testing.T) {
	for _, size := range [][2]float64{{640, 400}, {1024, 700}, {1280, 800}, {1920, 1080}} {
		r := rigWith(t, nil)
		r.st.Window = ui.Rect{W: size[0], H: size[1]}
		r.st.Style = draw.NewStyle(ui.UnitFor(size[0], size[1], 1))
		r.click("lesson:fenced-writes")
		sc := r.a.top().(*lesson.Scene)
		r.tick(ui.Input{})
		s := r.st.Style
		caption, _, _ := ui.WorldFrame(sc.Player.Placed().World, s.Unit)
		btn, bar := sc.Finder().Button(), sc.Finder().Bar()
		label := caption.X + draw.Measure(s.Label())("World")
		clock := caption.X + caption.W - draw.Measure(s.Mono())("t = 100.000s")
		if bar.X < label || bar.W < s.U(60) || bar.X+bar.W > btn.X || btn.X+btn.W > clock {
			t.Errorf("%vx%v: label ends %.0f, bar %+v, button %+v, clock starts %.0f", size[0], size[1], label, bar, btn, clock)
		}
		if btn.X != math.Round(btn.X) || btn.W != math.Round(btn.W) || bar.W != math.Round(bar.W) {
			t.Errorf("%vx%v: edges off the pixel grid: button %+v, bar %+v", size[0], size[1], btn, bar)
		}
		if w := draw.Measure(s.Label())("Cancel search") + s.U(20); btn.W < w {
			t.Errorf("%vx%v: button %.0f wide, its label needs %.0f", size[0], size[1], btn.W, w)
		}
	}
}

// Every lesson's search runs to a verdict on the lesson's own world: the
// spec names real processes, and the verdict is a break or a proof.
func TestFindABreakEveryLessonSpecRuns(t *testing.T) {
	for id, spec := range searches() {
		t.Run(id, func(t *testing.T) {
			r := rigWith(t, nil)
			r.click("lesson:" + id)
			sc := r.a.top().(*lesson.Scene)
			start := time.Now()
			runFinder(t, r)
			st := sc.Finder().Status()
			t.Logf("%s: %q in %s", id, st, time.Since(start).Round(time.Millisecond))
			if !strings.HasPrefix(st, "Break: ") && !strings.HasPrefix(st, "No break in ") {
				t.Errorf("verdict %q", st)
			}
			for _, name := range spec.Bounds.Procs {
				found := sc.Lab.Sim().Process(name) != nil
				for _, w := range sc.Lab.Sim().Workers() {
					found = found || w.Name() == name
				}
				if !found {
					t.Errorf("the spec faults %q, which the lesson does not have", name)
				}
			}
		})
	}
}
