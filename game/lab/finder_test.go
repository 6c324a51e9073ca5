package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// searchToEnd runs f's search slice by slice and returns what it said.
func searchToEnd(t *testing.T, f *Finder) []string {
	t.Helper()
	var said []string
	for i := 0; f.Searching(); i++ {
		require.Less(t, i, 10000, "the search never ends")
		said = append(said, f.Slice(10*time.Millisecond)...)
	}
	if c, ok := f.TakeFound(); ok {
		assert.Empty(t, f.lb.Apply(c), "the found run loads")
	}
	return said
}

func TestTheFinderLoadsTheSimplestBreakAsTheRun(t *testing.T) {
	lb := fenced(t)
	require.NoError(t, lb.Do(core.Fencing(false)))
	f := NewFinder(lb, lb.Lesson.Search)
	said := f.Start()
	require.True(t, f.Searching())
	assert.Contains(t, said[0], "with fencing off")
	said = searchToEnd(t, f)
	assert.True(t, strings.HasPrefix(f.Status, "Break: pause A at"), f.Status)
	require.Len(t, said, 3)
	assert.Contains(t, said[0], "Found the simplest break")
	assert.Contains(t, said[1], "The same schedule with fencing on keeps", "the fix, replayed")
	assert.Contains(t, said[2], "Compare fencing on/off")
	lb.Advance(lb.Length())
	assert.NotEmpty(t, lb.Sim().Trace.Filter(core.KindStale), "the loaded run breaks the store")
}

func TestAStoppedSearchSaysHowFarItGot(t *testing.T) {
	lb := fenced(t)
	f := NewFinder(lb, lb.Lesson.Search)
	f.Start()
	f.Slice(time.Millisecond)
	said := f.Stop()
	assert.False(t, f.Searching())
	assert.True(t, strings.HasPrefix(f.Status, "Cancelled after"), f.Status)
	assert.Equal(t, []string{f.Status}, said)
	assert.Nil(t, f.Stop(), "nothing to stop")
}

func TestTheComparisonJudgesBothRunsUnderOnePlayHead(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	require.NoError(t, pauseA(lb))
	c, err := NewComparison(lb, lb.Lesson.Search)
	require.NoError(t, err)
	assert.True(t, c.Broken[0])
	assert.True(t, strings.HasPrefix(c.Verdicts[0], "Fencing off: stale write accepted at t="), c.Verdicts[0])
	assert.False(t, c.Broken[1])
	assert.Equal(t, "Fencing on: 1 stale write rejected", c.Verdicts[1])
	for i, on := range []bool{false, true} {
		l := c.Runs[i].Log()
		require.Len(t, l, 2)
		assert.Equal(t, core.Fencing(on), l[0].Action, "one switch at time zero decides")
	}

	clock := PairClock(c.Runs)
	assert.Equal(t, 4*time.Second, clock.Now(), "it starts at the learner's play head")
	clock.Apply(AdvanceBy(3 * time.Second))
	clock.Apply(StepOn())
	assert.Equal(t, c.Runs[0].Now(), c.Runs[1].Now())
	clock.Apply(SeekTo(40 * time.Second))
	assert.Equal(t, 40*time.Second, c.Runs[1].Now())
}

// A goal is reported met once in a lab's life: a scrub back that undoes
// it and a replay that meets it again say nothing new.
func TestEachGoalIsReportedMetOnce(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	assert.Empty(t, lb.NewlyMet())
	require.NoError(t, pauseA(lb))
	lb.Advance(22 * time.Second)
	assert.Equal(t, []int{0, 1}, lb.NewlyMet(), "the takeover and the late write")
	assert.Empty(t, lb.NewlyMet(), "asked again: nothing new")
	lb.Seek(time.Second)
	require.True(t, lb.Goals()[0].Later, "the scrub back is before the takeover in this run")
	lb.Advance(30 * time.Second)
	assert.Empty(t, lb.NewlyMet())
	assert.Equal(t, []bool{true, true, false}, lb.Achieved())
}

func TestCommandsActAndSeekAndSayWhatHappened(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	assert.Equal(t, "You: pause A for 20s", lb.Apply(Act(core.Pause("A", 20*time.Second))))
	assert.True(t, lb.World().Procs[0].Paused)
	assert.Contains(t, lb.Apply(Act(core.Pause("B", 0))), "Could not pause B for 0s: ", "a pause needs a length")
	assert.Equal(t, "", lb.Apply(SeekTo(2*time.Second)))
	assert.Equal(t, 2*time.Second, lb.Now())
	assert.Len(t, lb.Log(), 1, "a refused action is not logged")
}

// Narration is handed out once: while playing, a line at the play head
// waits for the rest of its instant; after a scrub back the telling goes
// on from the play head.
func TestNarrationIsToldOnceFromThePlayHead(t *testing.T) {
	lb := fenced(t)
	lb.Advance(10 * time.Second)
	told := lb.Untold(false)
	require.NotEmpty(t, told)
	assert.Empty(t, lb.Untold(false), "nothing new")
	lb.Seek(5 * time.Second)
	for _, l := range lb.Untold(false) {
		assert.GreaterOrEqual(t, l.At, 5*time.Second, "not told again: %s", l.Text)
	}
	lb.LoadSolution()
	lb.Advance(time.Second)
	assert.NotEmpty(t, lb.Untold(false), "the solution's run is told from its start")
}

// The finder changes nothing by itself: the run it found reaches the lab
// as a command the scene applies, once.
func TestTheFinderHandsTheFoundRunToTheScene(t *testing.T) {
	lb := fenced(t)
	require.NoError(t, lb.Do(core.Fencing(false)))
	f := NewFinder(lb, lb.Lesson.Search)
	f.Start()
	for i := 0; f.Searching(); i++ {
		require.Less(t, i, 10000)
		f.Slice(10 * time.Millisecond)
	}
	require.True(t, strings.HasPrefix(f.Status, "Break: "), f.Status)
	assert.Equal(t, RunMine, lb.Showing(), "nothing loaded yet")
	c, ok := f.TakeFound()
	require.True(t, ok)
	assert.Empty(t, lb.Apply(c))
	assert.Equal(t, RunFound, lb.Showing())
	_, again := f.TakeFound()
	assert.False(t, again, "handed over once")
}

// A search runs a slice at a time, each within the time it is given: a
// frame gives it 10 ms, and a slice stops at its deadline with the search
// left for the next. Time here is a clock that moves 1 ms at each look.
func TestASliceOfSearchStopsAtItsBudget(t *testing.T) {
	lb := fenced(t) // fencing on: no break, so the search tries every schedule
	f := NewFinder(lb, lb.Lesson.Search)
	var now time.Time
	f.Clock = func() time.Time { now = now.Add(time.Millisecond); return now }
	f.Start()
	f.Slice(10 * time.Millisecond)
	tried, _ := f.Progress()
	assert.Positive(t, tried, "the slice ran schedules")
	assert.LessOrEqual(t, tried, 10*20, "at most 10 looks at the clock, each followed by 20 schedules")
	require.True(t, f.Searching(), "the rest waits for the next slice")
	f.Slice(10 * time.Millisecond)
	more, _ := f.Progress()
	assert.Greater(t, more, tried, "the next slice goes on")
}
