package game

import (
	"fmt"
	"leaselab/core"
	"leaselab/game/lesson"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/place"
	"leaselab/game/player"
	"leaselab/game/ui"

	"boot.leaselab/progress"
)

// TestEveryScreenSaysWhereTheLearnerIs: the menu, a lesson, an exercise,
// its simulator and the sandbox each report their place, which the page
// writes in its address.
func TestEveryScreenSaysWhereTheLearnerIs(t *testing.T) {
	r := newAppRig(t)
	assert.Equal(t, place.Place{Kind: place.Menu}, r.a.Inspect().Place)
	r.click("lesson:fenced-writes")
	assert.Equal(t, "#lesson=fenced-writes", r.a.Inspect().Place.Fragment())
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	assert.Equal(t, place.Menu, r.a.Inspect().Place.Kind, "Esc is back at the menu")
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Exercise, ID: "no-fencing"}))
	r.tick(ui.Input{})
	ex := r.a.Inspect().Place
	assert.Equal(t, place.Place{Kind: place.Exercise, ID: "no-fencing"}, ex)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "simulator"}}})
	r.tick(ui.Input{})
	sim := r.a.Inspect().Place
	assert.Equal(t, "simulator", sim.Sub, "the simulator is a screen of its own")
	assert.Equal(t, "#exercise=no-fencing/simulator", sim.Fragment(), "named in the address")
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Sandbox}))
	r.tick(ui.Input{})
	assert.Equal(t, "#sandbox", r.a.Inspect().Place.Fragment())
}

// A reload in an exercise's simulator comes back to the simulator, with
// the run the learner had made there (issue 29: it came back to the
// answer, and the run was lost unless the simulator had been closed).
func TestAReloadInTheSimulatorReturnsToItWithTheRun(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Exercise, ID: "no-fencing", Sub: place.Simulator}))
	r.tick(ui.Input{})
	sc := r.exScene()
	require.True(t, sc.InSimulator(), "the address opens the simulator")
	sc.Simulator().Lab.Advance(4 * time.Second)
	require.NoError(t, sc.Simulator().Lab.Do(core.Pause("A", 20*time.Second)))
	r.tick(ui.Input{})
	here := r.a.Inspect().Place
	r.a.Flush() // the page's pagehide

	again := rigWith(t, store)
	require.NoError(t, again.a.Goto(here))
	again.tick(ui.Input{})
	sc = again.exScene()
	require.True(t, sc.InSimulator(), "the reload is in the simulator")
	assert.Equal(t, here, again.a.Inspect().Place)
	require.Len(t, sc.Simulator().Lab.Log(), 1, "with the learner's pause")
	assert.Equal(t, core.VerbPause, sc.Simulator().Lab.Log()[0].Do)

	// Back (the address without /simulator) is the answer, with that run
	// as its schedule.
	require.NoError(t, again.a.Goto(place.Place{Kind: place.Exercise, ID: "no-fencing"}))
	again.tick(ui.Input{})
	assert.False(t, sc.InSimulator())
	assert.Len(t, sc.Form.Schedule(), 1)
}

// TestGotoALessonRecordsTheOneLeft: going to another place (a reload's
// or the Back button's) keeps the lesson's run, as its back button does;
// a place that does not exist is refused and changes nothing.
func TestGotoALessonRecordsTheOneLeft(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	pausedRun(t, r)
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Menu}))
	r.tick(ui.Input{})
	assert.Equal(t, place.Menu, r.a.Inspect().Place.Kind)
	met, _ := r.a.GoalsMet("fenced-writes")
	assert.Equal(t, 2, met, "the lesson's progress was recorded on the way out")

	require.NoError(t, r.a.Goto(place.Place{Kind: place.Lesson, ID: "fenced-writes"}))
	r.tick(ui.Input{})
	sc, ok := r.a.top().(*lesson.Scene)
	require.True(t, ok, "the lesson is open")
	assert.Len(t, sc.Lab.Log(), 1, "with the learner's pause")

	assert.Error(t, r.a.Goto(place.Place{Kind: place.Lesson, ID: "no-such-lesson"}))
	assert.Same(t, sc, r.a.top(), "a bad place changes nothing")
}

// TestTheStepIsTheFirstOpenGoalAndDoneFollowsCompletion: the page's
// "what to do now" is the first goal not met; once every goal is, the
// lesson's moment of success holds the recap and the next lesson, and
// shows over the world too.
func TestTheStepIsTheFirstOpenGoalAndDoneFollowsCompletion(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	m := r.a.Inspect().Mirror
	assert.Equal(t, m.Goals[0].Text, m.Step, "at the start, the first goal")
	assert.Nil(t, m.Done)
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	sc := pausedRun(t, r)
	m = r.a.Inspect().Mirror
	assert.Equal(t, sc.Lab.Goals()[2].Text, m.Step, "two met: the third")

	sc.Lab.LoadSolution()
	sc.Lab.Advance(90 * time.Second)
	r.tick(ui.Input{})
	m = r.a.Inspect().Mirror
	require.NotNil(t, m.Done, "complete: the moment of success")
	assert.Equal(t, "Lesson complete", m.Done.Heading)
	assert.Equal(t, sc.Lab.Lesson.Recap, m.Done.Recap)
	assert.NotEmpty(t, m.Done.Next, "the next lesson is named")
	assert.Empty(t, m.Step, "nothing left to do")
	assert.Contains(t, r.a.Inspect().Regions, "notice", "the success shows over the world")
	assert.Contains(t, sc.Player.Noticed(), "Lesson complete. ")
}

// TestALessonHasAWorldSummary: a lesson's screen reports its world in
// words, for the page's screen-reader summary.
func TestALessonHasAWorldSummary(t *testing.T) {
	r := newAppRig(t)
	assert.Nil(t, r.a.Inspect().World, "the menu has no world")
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	sc.Lab.Advance(4 * time.Second)
	r.tick(ui.Input{})
	w := r.a.Inspect().World
	require.NotNil(t, w)
	assert.Equal(t, "Lock: held by A with token 7", w.Lines[0])
}

// TestThePanelListsTheActorsBeforePlayback: the page's controls put the
// actors' actions before the time controls.
func TestThePanelListsTheActorsBeforePlayback(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	var groups []string
	for _, c := range r.a.Inspect().Mirror.Controls {
		if !slices.Contains(groups, c.Group) {
			groups = append(groups, c.Group)
		}
	}
	a := slices.IndexFunc(groups, func(g string) bool { return strings.HasPrefix(g, "A:") })
	play := slices.Index(groups, player.GroupPlayback)
	require.GreaterOrEqual(t, a, 0, "groups %q", groups)
	assert.Less(t, a, play, "A's actions before playback: %q", groups)
}

// TestThePlayHeadStepsByEventAndByTenSeconds: the page's play-head keys
// step to the next and previous event, and by 10 s.
func TestThePlayHeadStepsByEventAndByTenSeconds(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: player.ScrubBy, Value: 10}}})
	assert.Equal(t, 10*time.Second, sc.Lab.Now(), "Page Up: 10 s on")
	r.tick(ui.Input{Host: []ui.HostAction{{ID: player.ScrubNext}}})
	next := sc.Lab.Now()
	assert.Greater(t, next, 10*time.Second, "to the next event")
	r.tick(ui.Input{Host: []ui.HostAction{{ID: player.ScrubPrev}}})
	assert.Less(t, sc.Lab.Now(), next, "back to the one before")
	r.tick(ui.Input{Host: []ui.HostAction{{ID: player.ScrubBy, Value: -30}}})
	assert.Equal(t, time.Duration(0), sc.Lab.Now(), "Page Down stops at the start")
}

// The moment of success over the world covers no label of it: the world
// is laid out below the notice while it shows (issue 29: it covered the
// Coordinator box's title), at both sizes.
func TestTheSuccessNoticeCoversNoLabel(t *testing.T) {
	for _, size := range clipSizes {
		r := newAppRig(t)
		r.resize(size[0], size[1])
		r.click("lesson:fenced-writes")
		sc := r.a.top().(*lesson.Scene)
		sc.Lab.LoadSolution()
		sc.Lab.Advance(90 * time.Second)
		r.tick(ui.Input{})
		notice, ok := r.a.Inspect().Regions["notice"]
		require.True(t, ok, "the success shows over the world at %v", size)
		s := r.record(fmt.Sprintf("success-%.0fx%.0f", size[0], size[1]))
		var covered []string
		for _, d := range s.drawn {
			if d.Text == "" || d.Box.Within(notice) || strings.Contains(sc.Player.Noticed(), d.Text) {
				continue
			}
			if d.Ink.Overlaps(notice) {
				covered = append(covered, d.Text)
			}
		}
		assert.Empty(t, covered, "at %v the notice %v covers", size, notice)
	}
}
