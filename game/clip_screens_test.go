package game

// The screens the clipping tests of clip_test.go record: every screen of
// the lab at a window's size, and every screen the page's canvas shows
// beside its panel (on a phone or in a browser window).

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"leaselab/core"
	sandboxcfg "leaselab/core/sandbox"
	"leaselab/game/lab"
	"leaselab/game/lesson"
	"leaselab/game/place"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
	"leaselab/game/view"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// everyScreen opens every screen of the lab in turn at the rig's size
// and records each.
func everyScreen(t *testing.T, w, h float64) []screenText {
	size := fmt.Sprintf("%.0fx%.0f", w, h)
	var shots []screenText
	open := func(store progress.Store) *appRig {
		r := rigWith(t, store)
		r.resize(w, h)
		r.tick(ui.Input{})
		return r
	}
	r := open(nil)
	shots = append(shots, r.record("menu-"+size))

	// The menu with the notice a corrupt save gives.
	rc := open(progress.NewMemStore([]byte(`{"version": 1, "lessons": {"fenced-writes": {"goalsMet": 7}}`), ""))
	shots = append(shots, rc.record("menu-corrupt-"+size))

	shots = append(shots, lessonScreens(t, open, size)...)
	shots = append(shots, exerciseScreens(t, open, size)...)
	shots = append(shots, sandboxScreens(t, open, size)...)
	shots = append(shots, redlockScreens(t, open, size)...)

	r = open(nil)
	brokenFencedWrites(t, r)
	shots = append(shots, foundAndCompared(r, size)...)

	r = open(nil)
	r.click("lesson:fenced-writes")
	r.key(ui.IntentHelp)
	shots = append(shots, r.record("help-"+size))
	return shots
}

// exerciseScreens opens every exercise with open (a rig at the size
// named size, on a store) and records its answer, its simulator and its
// model answer with the key points.
func exerciseScreens(t *testing.T, open func(progress.Store) *appRig, size string) []screenText {
	var shots []screenText
	for _, ex := range lessons.Exercises() {
		r := open(nil)
		r.click("exercise:" + ex.ID)
		sc := r.exScene()
		shots = append(shots, r.record("exercise-"+ex.ID+"-"+size))
		if _, ok := r.a.Inspect().Regions["simulator"]; ok {
			r.click("simulator")
			if lab := sc.Simulator(); lab != nil {
				lab.Lab.Advance(10 * time.Second)
			}
			shots = append(shots, r.record("exercise-"+ex.ID+"-sim-"+size))
		}
		// The model answer shown beside the defence, with its key points
		// to tick under it, one ticked: asked for and confirmed after a
		// real attempt made before.
		p := progress.New()
		p.Exercises[ex.ID] = progress.Exercise{Complete: true}
		saved, err := progress.Encode(p)
		require.NoError(t, err)
		r = open(progress.NewMemStore(saved, ""))
		r.click("exercise:" + ex.ID)
		sc = r.exScene()
		sc.AskModel()
		sc.AskModel()
		r.tick(ui.Input{Host: []ui.HostAction{{ID: "point:0"}}})
		_, shown := r.a.Inspect().Regions["point:0"]
		require.True(t, shown, "%s: the key points are in view once the model answer is shown", ex.ID)
		shots = append(shots, r.record("exercise-"+ex.ID+"-points-"+size))
	}
	return shots
}

// bareScreens is phoneScreens for the page's canvas in window at scale,
// each screen's name ending in size.
func bareScreens(t *testing.T, window ui.Rect, scale float64, size string) []screenText {
	var shots []screenText
	goTo := func(p place.Place) *appRig {
		r := bareRig(t, window, scale)
		require.NoError(t, r.a.Goto(p))
		r.tick(ui.Input{})
		return r
	}
	for _, l := range lessons.All() {
		r := goTo(place.Place{Kind: place.Lesson, ID: l.ID})
		sc, lessonShots := lessonAndRun(t, r, l, size)
		shots = append(shots, lessonShots...)
		// The solution played to its end: the lesson complete.
		require.NoError(t, sc.Lab.Resume(l.SolutionKnobs, l.Solution))
		sc.Lab.Advance(sc.Lab.Lesson.Duration)
		shots = append(shots, r.record("lesson-"+l.ID+"-done-"+size))
	}
	for _, ex := range lessons.Exercises() {
		if ex.Lab == nil {
			continue
		}
		r := goTo(place.Place{Kind: place.Exercise, ID: ex.ID, Sub: place.Simulator})
		sim := r.exScene().Simulator()
		require.NotNil(t, sim, "exercise %s's simulator opens", ex.ID)
		shots = append(shots, r.record("exercise-"+ex.ID+"-sim-"+size))
		sim.Lab.Advance(10 * time.Second)
		shots = append(shots, r.record("exercise-"+ex.ID+"-sim-run-"+size))
	}
	shots = append(shots, presetScreens(t, goTo, size)...)
	r := goTo(place.Place{Kind: place.Lesson, ID: "fenced-writes"})
	sc := r.a.top().(*lesson.Scene)
	require.NoError(t, sc.Lab.Resume(nil, core.ActionLog{core.At(0, core.Fencing(false))}))
	r.tick(ui.Input{})
	runFinder(t, r)
	return append(shots, foundAndCompared(r, size)...)
}

// foundAndCompared records the break Find a break loaded into the
// fenced-writes lesson on r, then its comparison with fencing off and on
// at 25 s.
func foundAndCompared(r *appRig, size string) []screenText {
	found := r.record("found-" + size)
	r.click("compare")
	r.a.top().(*lesson.Comparison).Player().Clock.Apply(lab.SeekTo(25 * time.Second))
	return []screenText{found, r.record("compare-fencing-" + size)}
}

// lessonScreens opens every lesson with open (a rig at the size named
// size) and records it at its start and mid-run with every hint shown.
func lessonScreens(t *testing.T, open func(progress.Store) *appRig, size string) []screenText {
	var shots []screenText
	for _, l := range lessons.All() {
		r := open(nil)
		r.click("lesson:" + l.ID)
		_, lessonShots := lessonAndRun(t, r, l, size)
		shots = append(shots, lessonShots...)
	}
	return shots
}

// lessonAndRun records lesson l, open on r, at its start and then
// mid-run with every hint shown: the world, the trace and the hints at
// their fullest. It returns the lesson's scene.
func lessonAndRun(t *testing.T, r *appRig, l *lessons.Lesson, size string) (*lesson.Scene, []screenText) {
	t.Helper()
	sc, ok := r.a.top().(*lesson.Scene)
	require.True(t, ok, "lesson %s opens", l.ID)
	shots := []screenText{r.record("lesson-" + l.ID + "-" + size)}
	sc.Lab.Advance(lessonMoment(sc))
	for range len(l.Hints) {
		r.key(ui.IntentHint)
	}
	return sc, append(shots, r.record("lesson-"+l.ID+"-run-"+size))
}

// sandboxScreens records the sandbox's setup with each preset, a run with
// a process's menu open and then paused, and the systems compared.
func sandboxScreens(t *testing.T, open func(progress.Store) *appRig, size string) []screenText {
	var shots []screenText
	r := open(nil)
	r.click("sandbox")
	shots = append(shots, r.record("sandbox-setup-"+size))
	for _, p := range []string{"kubernetes", "zookeeper", "consul", "redlock"} {
		r.click("preset:" + p)
		shots = append(shots, r.record("sandbox-setup-"+p+"-"+size))
	}
	r.click("preset:leases")
	r.click("start")
	sb := r.a.top().(*sandbox.Scene)
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	r.click("proc:A")
	shots = append(shots, r.record("sandbox-run-menu-"+size))
	r.click("act:A:pause")
	sb.Run.Lab.Advance(20 * time.Second)
	shots = append(shots, r.record("sandbox-run-"+size))
	return append(shots, systemsCompared(r, size)...)
}

// systemsCompared goes back from a sandbox run on r to its setup and
// records the systems compared at 14 s, then with Redlock's run shown.
func systemsCompared(r *appRig, size string) []screenText {
	r.key(ui.IntentBack)
	r.click("compareSystems")
	v := r.a.top().(*sandbox.Scene).Systems()
	lab.SystemsClock(v.Comparison().Runs).Apply(lab.SeekTo(14 * time.Second))
	all := r.record("compare-systems-" + size)
	r.click("systemsShow:redlock")
	return []screenText{all, r.record("compare-systems-redlock-" + size)}
}

// redlockScreens records a Redlock run on the most Redis nodes a world
// allows, one of them down, in the preset's pause: every node's cell at
// its narrowest, another client holding the majority the frozen A lost;
// and then the same run with a found run on show.
func redlockScreens(t *testing.T, open func(progress.Store) *appRig, size string) []screenText {
	var shots []screenText
	r := open(nil)
	r.click("sandbox")
	r.click("preset:redlock")
	r.use("field:redis_nodes", core.MaxRedisNodes)
	r.click("start")
	rl := r.a.top().(*sandbox.Scene).Run.Lab
	rl.Advance(50 * time.Second)
	require.NoError(t, rl.Do(core.Crash(core.RedisNodeName(3))))
	rl.Advance(25 * time.Second)
	require.Len(t, rl.World().Redis, core.MaxRedisNodes)
	shots = append(shots, r.record("sandbox-run-redlock-"+size))
	// A found run on show: Back to my run takes the run row's right, and
	// Compare systems moves to the export row.
	require.NoError(t, rl.ShowFound(rl.Knobs(), core.ActionLog{core.At(5*time.Second, core.Pause("B", 20*time.Second))}))
	require.True(t, rl.KeptMine())
	shots = append(shots, r.record("sandbox-run-found-"+size))
	return shots
}

// presetScreens starts each sandbox preset with goTo (a bare rig at the
// size named size) and records its run with a process's menu open and
// once its story is told; for the leases preset, the systems compared too.
func presetScreens(t *testing.T, goTo func(place.Place) *appRig, size string) []screenText {
	var shots []screenText
	for _, preset := range sandboxcfg.Presets() {
		p := preset.Name
		r := goTo(place.Place{Kind: place.Sandbox})
		r.click("preset:" + p)
		r.click("start")
		sb := r.a.top().(*sandbox.Scene)
		require.NotNil(t, sb.Run, "preset %s starts", p)
		sb.Run.Lab.Advance(3 * time.Second)
		r.tick(ui.Input{})
		var procs []string
		for name := range r.a.Inspect().Regions {
			if strings.HasPrefix(name, "proc:") {
				procs = append(procs, name)
			}
		}
		require.NotEmpty(t, procs, "preset %s draws its processes", p)
		slices.Sort(procs)
		r.click(procs[0])
		shots = append(shots, r.record("sandbox-run-"+p+"-menu-"+size))
		pause := view.ActID(strings.TrimPrefix(procs[0], "proc:"), "pause")
		if _, ok := r.a.Inspect().Regions[pause]; ok {
			r.click(pause)
		} else {
			r.key(ui.IntentBack) // the menu closes
		}
		sb.Run.Lab.Advance(preset.Story - 3*time.Second)
		shots = append(shots, r.record("sandbox-run-"+p+"-"+size))
		if p == "leases" {
			shots = append(shots, systemsCompared(r, size)...)
		}
	}
	return shots
}
