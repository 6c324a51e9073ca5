package game

import (
	"encoding/json"
	"fmt"
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// button is the run button name as the mirror reports it.
func (r *appRig) button(name string) RunButton {
	r.t.Helper()
	for _, b := range r.a.Inspect().Mirror.Buttons {
		if b.Name == name {
			return b
		}
	}
	r.t.Fatalf("the mirror has no %s button: %+v", name, r.a.Inspect().Mirror.Buttons)
	return RunButton{}
}

// pausedRun opens fenced-writes and plays the learner's run: A paused
// at 4 s, the play head at 26 s, two goals met.
func pausedRun(t *testing.T, r *appRig) *lesson.Scene {
	t.Helper()
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	sc.Lab.Advance(4 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	sc.Lab.Advance(22 * time.Second)
	r.tick(ui.Input{})
	goals := r.a.Inspect().Mirror.Goals
	require.True(t, goals[0].Met && goals[1].Met, "precondition: %+v", goals)
	return sc
}

// narration is the whole narration so far, a line each.
func narration(r *appRig) string { return strings.Join(r.a.Inspect().Mirror.Narration, "\n") }

func lastLine(r *appRig) string {
	n := r.a.Inspect().Mirror.Narration
	if len(n) == 0 {
		return ""
	}
	return n[len(n)-1]
}

// Show solution keeps the learner's run: Back to my run takes the
// solution's place and brings it back exactly, and Undo shows the
// solution again. Saved progress is the learner's run all along.
func TestShowSolutionKeepsMyRun(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	sc := pausedRun(t, r)
	mine, hash := sc.Lab.Log(), sc.Lab.Sim().Trace.Hash()
	assert.False(t, r.button(player.RunBackToMine).Offered, "nothing kept aside yet")
	assert.Contains(t, r.a.Inspect().Regions, "solution")

	r.click("solution")
	run := r.a.Inspect().Run
	assert.Equal(t, "the solution", run.Showing)
	assert.True(t, run.KeptMine)
	back := r.button(player.RunBackToMine)
	assert.True(t, back.Offered && back.Enabled, "%+v", back)
	assert.Equal(t, "Back to my run", back.Label)
	assert.Contains(t, back.Tip, "Leave the solution")
	assert.NotContains(t, r.a.Inspect().Regions, "solution", "Back to my run takes its place")
	assert.Contains(t, narration(r), "Showing the solution from the start, as a run of its own: your run is kept")

	// Leaving for the menu saves the learner's run, not the solution.
	sc.Lab.Advance(10 * time.Second)
	sc.Player.SetPlaying(false)
	r.a.record(sc)
	saved, _ := progress.Open(store, nil)
	var log core.ActionLog
	require.NoError(t, json.Unmarshal(saved.Lesson("fenced-writes").Log, &log))
	assert.Equal(t, mine, log)

	r.click(player.RunBackToMine)
	run = r.a.Inspect().Run
	assert.Equal(t, "your run", run.Showing)
	assert.False(t, run.KeptMine)
	assert.Equal(t, 26.0, run.Now)
	assert.Equal(t, mine, sc.Lab.Log())
	assert.Equal(t, hash, sc.Lab.Sim().Trace.Hash(), "the same run, event for event")
	assert.Contains(t, lastLine(r), "Back to your run at t = 26.000 s")
	assert.Contains(t, r.a.Inspect().Regions, "solution")

	undo := r.button(player.RunUndo)
	assert.True(t, undo.Enabled)
	r.click(player.RunUndo)
	assert.Equal(t, "the solution", r.a.Inspect().Run.Showing)
	assert.Equal(t, "Redo", r.button(player.RunUndo).Label)
}

// A found break is a run of its own too.
func TestAFoundBreakKeepsMyRunWithAWayBack(t *testing.T) {
	r := rigWith(t, nil)
	sc := brokenFencedWrites(t, r)
	assert.Equal(t, "the break found", r.a.Inspect().Run.Showing)
	assert.True(t, r.button(player.RunBackToMine).Offered)
	r.click(player.RunBackToMine)
	assert.Equal(t, "your run", r.a.Inspect().Run.Showing)
	require.Len(t, sc.Lab.Log(), 1, "the learner's run: fencing off at 0")
	assert.Equal(t, core.VerbFencing, sc.Lab.Log()[0].Do)
}

// Acting after a scrub back warns before (the world's legend row, and
// selecting a process says so) and after (the narration), and Undo
// brings the dropped actions back.
func TestActingAfterAScrubBackWarnsAndUndoBringsItBack(t *testing.T) {
	r := rigWith(t, nil)
	sc := pausedRun(t, r)
	assert.False(t, r.button(player.RunUndo).Enabled, "nothing to undo yet")
	full := sc.Lab.Log()
	sc.Seek(2 * time.Second)
	r.tick(ui.Input{})
	assert.Equal(t, 1, sc.World().Later())
	assert.Equal(t, "acting now drops 1 action after the play head (Undo brings them back)", sc.World().LegendWarning())
	r.click("proc:A")
	assert.Contains(t, lastLine(r), "Acting now drops 1 later action (pause A for 20s at 4 s); Undo brings them back")
	r.click("act:A:crash")
	assert.Contains(t, narration(r), "You: crash A. Acting here dropped 1 later action (pause A for 20s at 4 s); Undo brings them back.")
	assert.Equal(t, 0, sc.World().Later())

	undo := r.button(player.RunUndo)
	require.True(t, undo.Enabled)
	assert.Contains(t, undo.Tip, "Undo the action at t = 2.000 s")
	r.click(player.RunUndo)
	assert.Equal(t, full, sc.Lab.Log())
	assert.Contains(t, lastLine(r), "Undid the action")
}

// Goals stay met after a scrub back, with their time, and say what the
// play head shows; the menu's "complete" and the goals agree.
func TestGoalsStayMetAndTheMenuAgrees(t *testing.T) {
	r := rigWith(t, nil)
	sc := pausedRun(t, r)
	g := r.a.Inspect().Mirror.Goals[0]
	assert.Regexp(t, `^met at 1[34]\.\d s$`, g.Note)
	assert.False(t, g.Later)
	sc.Seek(5 * time.Second)
	r.tick(ui.Input{})
	g = r.a.Inspect().Mirror.Goals[0]
	assert.True(t, g.Met, "a scrub back does not un-tick it")
	assert.True(t, g.Later)
	assert.Contains(t, g.Note, "at the play head: not yet")
	assert.False(t, r.a.Inspect().Mirror.Goals[2].Met, "the third goal is still open")

	// The solution completes the lesson; back on my run at 5 s every goal
	// is still met, and the menu says complete.
	r.click("solution")
	sc.Lab.Advance(sc.Lab.Length())
	r.tick(ui.Input{})
	require.True(t, r.a.Inspect().Run.Complete)
	r.click(player.RunBackToMine)
	for i, g := range r.a.Inspect().Mirror.Goals {
		assert.True(t, g.Met, "goal %d", i)
	}
	assert.Equal(t, "met earlier", r.a.Inspect().Mirror.Goals[2].Note)
	r.key(ui.IntentBack)
	assert.Contains(t, r.a.Inspect().Mirror.Text, "The paused leader and fenced writes (complete")

	// Reopened, the goals agree with the menu.
	r.click("lesson:fenced-writes")
	for i, g := range r.a.Inspect().Mirror.Goals {
		assert.True(t, g.Met, "goal %d after reopening", i)
	}
	assert.True(t, r.a.Inspect().Run.Complete)
}

// Reopening a lesson resumes the saved run and says so above the story;
// Restart begins again (and says nothing of a resume), and Undo brings
// the run back.
func TestReopeningResumesAndSaysSoAndRestartBeginsAgain(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	hash := pausedRun(t, r).Lab.Sim().Trace.Hash()
	r.key(ui.IntentBack)

	r2 := rigWith(t, store)
	r2.click("lesson:fenced-writes")
	sc2 := r2.a.top().(*lesson.Scene)
	sc2.Lab.Seek(26 * time.Second)
	assert.Equal(t, hash, sc2.Lab.Sim().Trace.Hash(), "the saved run replays event for event")
	sc2.Lab.Seek(4 * time.Second)
	r2.tick(ui.Input{})
	info := r2.a.Inspect()
	assert.Equal(t, 4.0, info.Run.Now, "resumed at the last action")
	assert.Contains(t, info.Run.Resumed, "Resumed your run where you left it, at 4 s with 1 action")
	assert.True(t, strings.HasPrefix(info.Mirror.Text, "Resumed your run"), "the story says so first: %.120s", info.Mirror.Text)
	assert.Contains(t, narration(r2), "Restart (under the goals) begins the lesson again")
	restart := r2.button(player.RunRestart)
	assert.True(t, restart.Offered && restart.Enabled)
	r2.resize(1024, 640)
	r2.tick(ui.Input{})
	r2.shot("resumed-1024x640.png")

	sc := r2.a.top().(*lesson.Scene)
	r2.click(player.RunRestart)
	info = r2.a.Inspect()
	assert.Equal(t, 0.0, info.Run.Now)
	assert.Empty(t, sc.Lab.Log())
	assert.Empty(t, info.Run.Resumed)
	assert.False(t, strings.HasPrefix(info.Mirror.Text, "Resumed"), "the story starts at its start")
	assert.False(t, r2.button(player.RunRestart).Enabled, "nothing left to restart")
	assert.True(t, info.Mirror.Goals[0].Met, "what was proved stays proved")

	r2.click(player.RunUndo)
	assert.Len(t, sc.Lab.Log(), 1)
	assert.Equal(t, 4.0, r2.a.Inspect().Run.Now)

	// A lesson opened fresh says nothing of a resume.
	r3 := rigWith(t, nil)
	r3.click("lesson:leases")
	assert.Empty(t, r3.a.Inspect().Run.Resumed)
	assert.False(t, r3.button(player.RunRestart).Enabled)
}

// After "Lesson complete", Next lesson opens the next lesson in the
// menu's order, and the finished one is recorded; the last lesson offers
// none.
func TestNextLessonOpensTheNextInTheMenusOrder(t *testing.T) {
	all := lessons.All()
	r := rigWith(t, nil)
	r.click("lesson:" + all[0].ID)
	assert.False(t, r.button(player.RunNext).Offered, "not before the lesson is complete")
	sc := r.a.top().(*lesson.Scene)
	r.click("solution")
	sc.Lab.Advance(sc.Lab.Length())
	r.tick(ui.Input{})
	require.True(t, sc.Complete())
	next := r.button(player.RunNext)
	assert.True(t, next.Offered && next.Enabled)
	assert.Equal(t, "Next lesson >", next.Label)
	assert.Equal(t, "Open the next lesson: "+all[1].Title, next.Tip)
	assert.Contains(t, lastLine(r), "Next lesson: "+all[1].Title, "the narration names it (the button is under the goals on the desktop, at the top of the page's panel)")
	r.click(player.RunNext)
	assert.Equal(t, all[1].ID, r.a.Inspect().Run.Lesson)
	_, done := r.a.GoalsMet(all[0].ID)
	assert.True(t, done, "the finished lesson is recorded")

	last := all[len(all)-1]
	r.a.prog.SetLesson(last.ID, progress.Lesson{Completed: true, GoalsMet: goalIDs(last)[:1]})
	_, err := r.a.OpenID(last.ID)
	require.NoError(t, err)
	r.tick(ui.Input{})
	assert.True(t, r.a.Inspect().Run.Complete, "complete on the menu, complete here, whatever goals the progress lists")
	for i, g := range r.a.Inspect().Mirror.Goals {
		assert.True(t, g.Met, "goal %d", i)
	}
	assert.False(t, r.button(player.RunNext).Offered, "the last lesson has no next")
}

func goalIDs(l *lessons.Lesson) []string {
	var out []string
	for _, g := range l.Goals {
		out = append(out, g.ID)
	}
	return out
}

// A permalink of the run on show still replays it exactly, and one of
// the learner's run reopens it exactly after a detour to the solution.
func TestLinksReplayTheRunOnShow(t *testing.T) {
	r := rigWith(t, nil)
	sc := pausedRun(t, r)
	hash := sc.Lab.Sim().Trace.Hash()
	link := sc.Link()
	r.click("solution")
	r.click(player.RunBackToMine)
	assert.Equal(t, link, sc.Link())
	r2 := rigWith(t, nil)
	sc2, err := r2.a.OpenLink(link.Encode())
	require.NoError(t, err)
	sc2.Lab.Seek(26 * time.Second)
	assert.Equal(t, hash, sc2.Lab.Sim().Trace.Hash())
}

// The sandbox's exports at time zero hold the whole run and say so.
func TestSandboxExportAtTimeZeroSaysItIsTheWholeRun(t *testing.T) {
	r := newAppRig(t)
	saved := map[string]int{}
	r.a.Export = func(name string, data []byte) (string, error) {
		saved[name] = len(data)
		return "in memory", nil
	}
	r.click("sandbox")
	r.click("start")
	r.click("exportJSONL")
	assert.Contains(t, lastLine(r), "Saved the whole run: ")
	assert.Contains(t, lastLine(r), "The play head is at 0 s, where nothing has happened yet")
	for name, n := range saved {
		assert.Greater(t, n, 1000, "%s holds the run, not just its setup", name)
	}
}

// The run row at the two smallest common sizes: every button inside the
// lesson panel's hint area, none overlapping another or the hint and
// solution buttons, each label fitting its button.
func TestRunRowFitsAndDoesNotOverlap(t *testing.T) {
	for _, size := range [][2]float64{{1280, 800}, {1024, 640}} {
		r := rigWith(t, nil)
		r.resize(size[0], size[1])
		r.tick(ui.Input{})
		sc := pausedRun(t, r)
		r.click("solution")
		sc.Lab.Advance(sc.Lab.Length())
		r.tick(ui.Input{})
		sc.Seek(20 * time.Second) // a goal met later: hollow ✓
		r.tick(ui.Input{})
		sc.Player.SetHintsSeen(1)
		r.tick(ui.Input{})
		info := r.a.Inspect()
		names := []string{player.RunRestart, player.RunUndo, player.RunNext, player.RunBackToMine, "hint"}
		s := r.st.Style
		for i, a := range names {
			ra, ok := info.Regions[a]
			require.True(t, ok, "%v: %s laid out", size, a)
			assert.True(t, ra.Within(info.Regions["hints"]), "%v: %s %v inside the hint area %v", size, a, ra, info.Regions["hints"])
			for _, b := range names[i+1:] {
				assert.False(t, ra.Overlaps(info.Regions[b]), "%v: %s overlaps %s", size, a, b)
			}
		}
		for _, b := range info.Mirror.Buttons {
			if b.Offered {
				w := draw.Measure(s.Label())(b.Label) + s.U(16)
				assert.GreaterOrEqual(t, info.Regions[b.Name].W, w, "%v: %q fits", size, b.Label)
			}
		}
		r.shot(fmt.Sprintf("runrow-%.0fx%.0f.png", size[0], size[1]))
	}
}

// The comparison is a pair of runs of its own: opening it and coming
// back leaves the learner's run as it was.
func TestTheComparisonLeavesMyRunAsItWas(t *testing.T) {
	r := rigWith(t, nil)
	sc := pausedRun(t, r)
	log, now, hash := sc.Lab.Log(), sc.Lab.Now(), sc.Lab.Sim().Trace.Hash()
	r.click("compare")
	require.NotNil(t, r.a.Inspect().Compare)
	sc.Finder().Comparison().Player().Clock.Apply(lab.SeekTo(80 * time.Second))
	r.tick(ui.Input{})
	r.key(ui.IntentBack)
	require.Nil(t, r.a.Inspect().Compare)
	assert.Equal(t, log, sc.Lab.Log())
	assert.Equal(t, now, sc.Lab.Now())
	assert.Equal(t, hash, sc.Lab.Sim().Trace.Hash())
	assert.Contains(t, lastLine(r), "Back to your run at t = 26.000 s")
}

// With the run row the hint has one line: a revealed hint goes, whole,
// to the end of the lesson text, scrolled into view, and the mirror
// keeps it apart as before.
func TestARevealedHintEndsTheLessonText(t *testing.T) {
	r := rigWith(t, nil)
	r.click("lesson:troubleshooting")
	sc := r.a.top().(*lesson.Scene)
	hint := sc.Lab.Lesson.Hints[0]
	require.Greater(t, len(hint), 300, "precondition: a hint far longer than a line")
	r.key(ui.IntentHint)
	p := sc.Player
	assert.True(t, strings.HasSuffix(p.TextPanel().Text(), "\n\nHint 1: "+hint))
	assert.Equal(t, p.TextPanel().MaxScroll(), p.TextPanel().Scroll(), "scrolled to it")
	assert.Equal(t, hint, r.a.Inspect().Mirror.Hint)
	assert.False(t, strings.Contains(r.a.Inspect().Mirror.Text, "Hint 1:"), "the text view has it in its own place")
	lh := draw.LineHeight(r.st.Style.Small())
	assert.Less(t, p.Placed().HintText.H, 2*lh, "one line under the run row")
}

// The HTML page presses the same buttons by name; one not available is
// refused and changes nothing.
func TestRunButtonsPressByName(t *testing.T) {
	r := rigWith(t, nil)
	sc := pausedRun(t, r)
	assert.EqualError(t, sc.Press(player.RunUndo), "Undo is not available now")
	assert.EqualError(t, sc.Press("rewind"), `no run button "rewind"`)
	require.NoError(t, sc.Press(player.RunRestart))
	assert.Empty(t, sc.Lab.Log())
	require.NoError(t, sc.Press(player.RunUndo))
	assert.Len(t, sc.Lab.Log(), 1)
	assert.Error(t, sc.Press(player.RunNext), "not before the lesson is complete")
}

// The completion line names the next lesson as one sentence: a title that
// is a question ends with its own "?", not "?." (redlock's next lesson
// asks "who decides that a token is stale?").
func TestTheNextLessonsTitleIsNotPunctuatedTwice(t *testing.T) {
	all := lessons.All()
	checked := 0
	for i, l := range all[:len(all)-1] {
		next := all[i+1].Title
		if !strings.HasSuffix(next, "?") {
			continue
		}
		r := rigWith(t, nil)
		r.click("lesson:" + l.ID)
		sc := r.a.top().(*lesson.Scene)
		r.click("solution")
		sc.Lab.Advance(sc.Lab.Length())
		r.tick(ui.Input{})
		require.True(t, sc.Complete(), "%s completes with its solution", l.ID)
		line := lastLine(r)
		assert.Contains(t, line, "Next lesson: "+next, l.ID)
		assert.NotContains(t, line, "?.", "%s: %q", l.ID, line)
		checked++
	}
	require.Positive(t, checked, "a lesson whose next one's title is a question")
}
