package lab

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

// myFencedRun is a learner's run of fenced-writes that met the first two
// goals: A paused at 4 s, the play head at 26 s.
func myFencedRun(t *testing.T) *Lab {
	t.Helper()
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	require.NoError(t, pauseA(lb))
	lb.Advance(22 * time.Second)
	g := lb.Goals()
	require.True(t, g[0].InRun && g[1].InRun, "precondition: two goals met in this run: %+v", g)
	return lb
}

// Show solution replaces nothing: the learner's run is kept aside, Back
// to my run brings it back exactly (same log, play head, trace and goal
// times), and the switch back can be undone, then redone.
func TestTheSolutionIsARunOfItsOwnAndMyRunComesBack(t *testing.T) {
	lb := myFencedRun(t)
	log, now, hash, goals := lb.Log(), lb.Now(), lb.Sim().Trace.Hash(), lb.Goals()

	lb.LoadSolution()
	assert.Equal(t, RunSolution, lb.Showing())
	assert.True(t, lb.KeptMine())
	assert.Equal(t, time.Duration(0), lb.Now(), "the solution plays from the start")
	assert.Equal(t, lb.Lesson.Solution, lb.Log())
	_, mine := lb.MyRun()
	assert.Equal(t, log, mine, "progress saves the learner's run, not the solution")
	lb.Advance(lb.Length())
	assert.True(t, lb.AllMet())

	said := lb.BackToMine()
	assert.Contains(t, said, "Back to your run at t = 26.000 s (1 action)")
	assert.Equal(t, RunMine, lb.Showing())
	assert.False(t, lb.KeptMine())
	assert.Equal(t, log, lb.Log())
	assert.Equal(t, now, lb.Now())
	assert.Equal(t, hash, lb.Sim().Trace.Hash(), "the same run, event for event")
	for i, g := range lb.Goals() {
		assert.Equal(t, goals[i].InRun, g.InRun, "goal %d", i)
		assert.Equal(t, goals[i].At, g.At, "goal %d met at the same time", i)
	}
	assert.Equal(t, "met earlier", lb.Goals()[2].Note(), "the solution met the third")
	assert.Empty(t, lb.BackToMine(), "already on my run")

	label, tip := lb.UndoLabel()
	assert.Equal(t, "Undo", label)
	assert.Contains(t, tip, "the solution at t = 90.000 s")
	assert.Contains(t, lb.Undo(), "Undid the return to your run: the solution")
	assert.Equal(t, RunSolution, lb.Showing())
	assert.True(t, lb.KeptMine())
	label, _ = lb.UndoLabel()
	assert.Equal(t, "Redo", label)
	lb.Undo()
	assert.Equal(t, RunMine, lb.Showing())
	assert.Equal(t, hash, lb.Sim().Trace.Hash())
}

// A break the search found is shown the same way: the learner's run is
// kept, and Undo (like Back to my run) brings it back.
func TestAFoundBreakKeepsMyRun(t *testing.T) {
	lb := myFencedRun(t)
	require.NoError(t, lb.Do(core.Fencing(false)))
	hash := lb.Sim().Trace.Hash()
	f := NewFinder(lb, lb.Lesson.Search)
	f.Start()
	said := searchToEnd(t, f)
	require.True(t, strings.HasPrefix(f.Status, "Break: "), f.Status)
	assert.Contains(t, said[0], "Back to my run returns to yours")
	assert.Equal(t, RunFound, lb.Showing())
	assert.True(t, lb.KeptMine())
	assert.Contains(t, lb.Undo(), "Undid the switch to the break found")
	assert.Equal(t, RunMine, lb.Showing())
	assert.Equal(t, hash, lb.Sim().Trace.Hash())
	assert.Error(t, lb.ShowFound(nil, core.ActionLog{core.At(time.Hour, core.Crash("A"))}), "a log outside the lesson is refused")
	assert.Equal(t, RunMine, lb.Showing(), "and changes nothing")
}

// Acting after a scrub back drops the later actions: the lab says which
// first, narrates it, and Undo brings them back (then Redo the new one).
func TestActingAfterAScrubBackWarnsAndCanBeUndone(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	require.NoError(t, pauseA(lb))
	lb.Advance(8 * time.Second)
	require.NoError(t, lb.Do(core.Expire("A")))
	lb.Advance(10 * time.Second)
	full, hash := lb.Log(), lb.Sim().Trace.Hash()

	lb.Seek(2 * time.Second)
	assert.Equal(t, "2 later actions (pause A for 20s at 4 s, expire the lease of A now at 12 s)", lb.DroppedText())
	assert.False(t, lb.CanUndo(), "a scrub drops nothing")
	said := lb.Apply(Act(core.Crash("A")))
	assert.Equal(t, "You: crash A. Acting here dropped 2 later actions (pause A for 20s at 4 s, expire the lease of A now at 12 s); Undo brings them back.", said)
	assert.Len(t, lb.Log(), 1)
	assert.Empty(t, lb.DroppedText())
	_, tip := lb.UndoLabel()
	assert.Equal(t, "Undo the action at t = 2.000 s, which dropped later ones: back to your run at t = 2.000 s, 2 actions", tip)

	assert.Contains(t, lb.Undo(), "Undid the action at t = 2.000 s")
	assert.Equal(t, full, lb.Log(), "the dropped actions are back")
	lb.Seek(22 * time.Second)
	assert.Equal(t, hash, lb.Sim().Trace.Hash(), "and replay the same run")
	assert.Contains(t, lb.Undo(), "Redid")
	assert.Equal(t, core.Crash("A"), lb.Log()[0].Action)
	assert.Len(t, lb.Log(), 1)
	assert.Equal(t, "You: pause A for 20s", lb.Apply(Act(core.Pause("A", 20*time.Second))), "at the end of the log nothing is dropped")
}

// Fork and Restart are undoable too; Restart also puts the knobs back to
// their defaults, and a lab just begun has nothing to restart.
func TestForkAndRestartCanBeUndone(t *testing.T) {
	lb := myFencedRun(t)
	lb.Seek(time.Second)
	lb.Fork()
	assert.Empty(t, lb.Log())
	assert.Contains(t, lb.Undo(), "Undid the fork")
	assert.Len(t, lb.Log(), 1)

	l, err := lessons.Find("ttl-tradeoff")
	require.NoError(t, err)
	tt, err := New(l, 1)
	require.NoError(t, err)
	assert.True(t, tt.Pristine())
	tt.Restart()
	assert.False(t, tt.CanUndo(), "nothing to restart")
	require.NoError(t, tt.SetKnob("ttl", 20))
	tt.Advance(30 * time.Second)
	require.False(t, tt.Pristine())
	tt.Restart()
	assert.True(t, tt.Pristine())
	assert.Equal(t, 5.0, tt.Knobs()["ttl"], "the default TTL")
	_, tip := tt.UndoLabel()
	assert.Equal(t, "Undo the restart: back to your run at t = 30.000 s, 0 actions", tip)
	tt.Undo()
	assert.Equal(t, 20.0, tt.Knobs()["ttl"])
	assert.Equal(t, 30*time.Second, tt.Now())
}

// Goals stay met, with the time they were met, when the play head goes
// back before it; what the play head shows is said apart. A fork before
// the moment takes it out of the run, not out of what was proved.
func TestGoalsStayMetWithTheirTime(t *testing.T) {
	lb := myFencedRun(t)
	g := lb.Goals()[0]
	require.True(t, g.At > 13*time.Second && g.At <= 14*time.Second, "the takeover, at 13 to 14 s: %s", g.At)
	assert.Regexp(t, `^met at 1[34]\.\d s$`, g.Note())
	assert.Empty(t, lb.Goals()[2].Note(), "a goal not met says nothing")
	assert.False(t, lb.Goals()[2].Met, "and is not met")

	lb.Seek(5 * time.Second)
	g = lb.Goals()[0]
	assert.True(t, g.Met && g.InRun && g.Later, "%+v", g)
	assert.Regexp(t, `^met at 1[34]\.\d s; at the play head: not yet$`, g.Note())
	lb.Seek(20 * time.Second)
	assert.False(t, lb.Goals()[0].Later)

	lb.Seek(3 * time.Second)
	lb.Fork()
	g = lb.Goals()[0]
	assert.True(t, g.Met, "still proved")
	assert.False(t, g.InRun, "no longer in this run")
	assert.Equal(t, "met earlier", g.Note())
	lb.Advance(lb.Length())
	assert.False(t, lb.Goals()[0].InRun, "without the pause the run never meets it")
}

// Goals met on an earlier visit count as met: the checklist and the
// menu agree, and they are not announced again.
func TestGoalsMetOnAnEarlierVisitCount(t *testing.T) {
	lb := fenced(t)
	lb.MetBefore([]string{lb.Lesson.Goals[0].ID, lb.Lesson.Goals[2].ID})
	g := lb.Goals()
	assert.True(t, g[0].Met && g[2].Met)
	assert.False(t, g[1].Met)
	assert.False(t, lb.AllMet())
	lb.Advance(4 * time.Second)
	require.NoError(t, pauseA(lb))
	lb.Advance(22 * time.Second)
	assert.Equal(t, []int{1}, lb.NewlyMet(), "only the goal not met before")
	assert.True(t, lb.AllMet())
}

// At time zero an export would hold only the setup: it holds the whole
// run instead, and says so; later it holds the run to the play head.
func TestExportsAtTimeZeroHoldTheWholeRun(t *testing.T) {
	lb := fenced(t)
	jsonl, mmd := lb.ExportJSONL(), lb.ExportMermaid()
	assert.Greater(t, bytes.Count(jsonl, []byte("\n")), 50, "more than the setup's few events")
	assert.Contains(t, string(jsonl), `"kind":"write"`)
	assert.Greater(t, len(mmd), 1000)
	assert.Contains(t, lb.ExportNote(), "whole run, to t = 90 s")
	assert.Equal(t, "leaselab-fenced-writes-seed1-t90.000s.jsonl", lb.ExportName("jsonl"))
	assert.Equal(t, time.Duration(0), lb.Now(), "exporting does not move the play head")

	lb.Advance(5 * time.Second)
	assert.Empty(t, lb.ExportNote())
	assert.Less(t, len(lb.ExportJSONL()), len(jsonl))
	assert.Equal(t, "leaselab-fenced-writes-seed1-t5.000s.jsonl", lb.ExportName("jsonl"))
}
