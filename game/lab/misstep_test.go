package lab

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

// firstMoves are what every actor's menu offers at t = 0 of lesson l: the
// moves a learner who acts before pressing Play makes.
func firstMoves(t *testing.T, l *lessons.Lesson) []core.Action {
	t.Helper()
	lb, err := New(l, 1)
	require.NoError(t, err)
	v := lb.World()
	var out []core.Action
	for i, p := range v.Procs {
		for _, c := range ChoicesFor(l, v, Actor{Name: p.Name, Proc: i, Worker: -1}, 1) {
			if !c.NextToken {
				out = append(out, c.Action)
			}
		}
	}
	for i, wk := range v.Workers {
		for _, c := range ChoicesFor(l, v, Actor{Name: wk.Name, Proc: -1, Worker: i}, 1) {
			if !c.NextToken {
				out = append(out, c.Action)
			}
		}
	}
	return out
}

// tooEarly are the first moves that leave a lesson's goals out of reach
// (the lesson's solution can no longer finish from there): each acts on
// the process the solution needs in a state it has not reached at t = 0.
var tooEarly = map[string][]string{
	"leases":         {"pause A for 4s", "crash A", "set TTL of A to 30s"},
	"scheduler":      {"pause api-1 for 15s", "crash api-1", "pause api-2 for 15s", "crash api-2"},
	"fenced-writes":  {"pause A for 20s", "crash A", "cut A <-> coordinator", "delay what A sends for 20s", "crash B", "cut B <-> coordinator"},
	"redlock-pause":  {"pause A for 20s", "crash A"},
	"hands-on-lab":   {"pause A for 30s", "pause B for 30s"},
	"election-order": {"pause H1 for 20s", "crash H1", "pause Q1 for 20s", "crash Q1", "pause Q2 for 20s", "crash Q2"},
	"ttl-tradeoff":   {"pause A for 10s", "crash A"},
	"renewal-loop":   {"pause report-1 for 8s", "crash report-1"},
	"security":       {"crash migrator"},
	"state-machine":  {"pause A for 10s", "cut A <-> coordinator", "pause B for 10s", "cut B <-> coordinator"},
	// The solution needs B to lead once A's lease is gone (the stale read).
	"coordinator-cluster": {"cut A <-> coordinator", "crash B", "cut B <-> coordinator"},
}

// Every move an actor's menu offers at t = 0, before Play, in every
// lesson: the ones that leave the goals out of reach are explained at
// once, with Undo offered, and Undo brings back the run as it was; the
// others are told plainly, with no warning.
func TestEveryLessonsFirstMovesThatLeaveItsGoalsOutOfReachAreExplainedAndUndone(t *testing.T) {
	for _, l := range lessons.All() {
		fresh, err := New(l, 1)
		require.NoError(t, err)
		for _, a := range firstMoves(t, l) {
			lb, err := New(l, 1)
			require.NoError(t, err)
			line := lb.Apply(Act(a))
			why := lb.Misstep()
			if !slices.Contains(tooEarly[l.ID], a.String()) {
				assert.Empty(t, why, "%s: %s at t = 0 is no misstep", l.ID, a)
				continue
			}
			assert.False(t, l.Finishes(1, lb.Log(), 0), "%s: %s: the solution cannot finish from here", l.ID, a)
			require.NotEmpty(t, why, "%s: %s at t = 0 is explained", l.ID, a)
			assert.Equal(t, "You: "+a.String()+". "+why+" Undo takes it back.", line)
			assert.True(t, lb.CanUndo(), "%s: %s: Undo is offered", l.ID, a)
			label, tip := lb.UndoLabel()
			assert.Equal(t, "Undo", label)
			assert.Contains(t, tip, a.String())

			lb.Apply(Command{}) // the next tick: the warning was said once
			assert.Empty(t, lb.Misstep())
			assert.Contains(t, lb.Undo(), "Undid the "+a.String())
			assert.Empty(t, lb.Log(), "%s: %s: Undo took the move back", l.ID, a)
			assert.Equal(t, time.Duration(0), lb.Now())
			assert.Equal(t, fresh.Sim().Trace.Hash(), lb.Sim().Trace.Hash(), "%s: the run is as it was before the move", l.ID)
		}
	}
}

// Fenced writes, played as its text says: pausing A before Play is
// explained in the lesson's own words; playing until A leads and then
// pausing it is no misstep, and the lesson is finished from there.
func TestFencedWritesPausingABeforeItLeadsIsExplainedAndPausingItOnceItLeadsIsNot(t *testing.T) {
	lb := fenced(t)
	line := lb.Apply(Act(core.Pause("A", 20*time.Second)))
	assert.Equal(t, "You: pause A for 20s. A has not acquired the lock yet: B will take it with token 7 and A never leads. Play until A leads, then pause it. Undo takes it back.", line)
	lb.Undo()
	require.Empty(t, lb.Log())

	lb.Apply(AdvanceBy(time.Second))
	require.Equal(t, "A", lb.World().Lock.Holder, "precondition: A leads within its first second")
	assert.Equal(t, "You: pause A for 20s", lb.Apply(Act(core.Pause("A", 20*time.Second))))
	assert.Empty(t, lb.Misstep())
	lb.Advance(lb.Length())
	g := lb.Goals()
	assert.True(t, g[0].Met && g[1].Met, "the first two goals are met: %+v", g)
}

// The lesson's text and its world agree at t = 0: the world shows the
// lock free, and the text does not say A holds it.
func TestFencedWritesTextDoesNotSayALeadsBeforeItDoes(t *testing.T) {
	lb := fenced(t)
	require.Empty(t, lb.World().Lock.Holder, "the lock is free at t = 0")
	for _, p := range lb.Lesson.Intro {
		assert.NotContains(t, p, "A holds the lock")
	}
	assert.Contains(t, lb.Lesson.Intro[len(lb.Lesson.Intro)-1], "Press Play and let A take the lock")
}

// A misstep after a scrub back says both what it leaves out of reach and
// which later actions it dropped, and one Undo brings back the run as it
// was, later actions and all.
func TestAMisstepThatAlsoDropsLaterActionsSaysBothAndUndoBringsThemBack(t *testing.T) {
	lb := myFencedRun(t)
	full := lb.Log()
	lb.Seek(0)
	line := lb.Apply(Act(core.Crash("B")))
	assert.Equal(t, "You: crash B. B is the one who takes over from A with token 8: with B out of the way, nobody does when A freezes. Play until A leads, then pause A, and leave B alone. Acting here also dropped 1 later action (pause A for 20s at 4 s); Undo takes it back and brings them back.", line)
	_, tip := lb.UndoLabel()
	assert.Equal(t, "Undo the crash B at t = 0.000 s, which dropped later ones: back to your run at t = 0.000 s, 1 action", tip)
	lb.Undo()
	assert.Equal(t, full, lb.Log())
}

// The event list speaks plainly: a real error text is quoted only after
// what it means, and a wake-up says what ran at once, not "ran 3 overdue
// timers".
func TestNarrationQuotesRealErrorsOnlyBesideAPlainExplanation(t *testing.T) {
	lost := core.NewEvent(0, "report-1", core.KindLeaseLost, core.S(core.FWhy, "etcdserver: requested lease not found"))
	assert.Equal(t, `report-1 lost its lease: the coordinator had already expired it (the client's error: "etcdserver: requested lease not found")`, Narrate(&lost))
	local := core.NewEvent(0, "A", core.KindLeaseLost, core.S(core.FWhy, "local lease deadline passed"))
	assert.Equal(t, "A lost its lease: by its own clock the lease had run out", Narrate(&local))
	woke := core.NewEvent(0, "A", core.KindResume, core.I(core.FOverdue, 3))
	assert.Equal(t, "A woke up; the 3 things it was due to do while frozen (renewals, writes) ran at once", Narrate(&woke))
	for _, l := range lessons.All() {
		lb, err := New(l, 1)
		require.NoError(t, err)
		lb.LoadSolution()
		lb.Advance(lb.Length())
		for _, line := range lb.Narration() {
			assert.NotContains(t, line.Text, "overdue timers", l.ID)
			for _, quoted := range strings.Split(line.Text, `"etcdserver: `)[1:] {
				err := "etcdserver: " + quoted[:strings.Index(quoted, `"`)]
				require.Contains(t, plainWhys, err, "%s: %q has a plain meaning", l.ID, err)
				i := strings.Index(line.Text, err)
				assert.Contains(t, line.Text[:i], plainWhys[err], "%s: %q is quoted after its meaning", l.ID, line.Text)
			}
		}
	}
}
