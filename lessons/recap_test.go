package lessons

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// recapLessons are the lessons whose recap asks for a chain of the run.
func recapLessons() []*Lesson {
	var out []*Lesson
	for _, l := range All() {
		if l.RecapChain != nil {
			out = append(out, l)
		}
	}
	return out
}

// recapModel is a right chain for the recap of l in run w: for each link
// the argument needs, the first event of the run that makes it (an action
// aside), in the order they happened; with, by link, the event chosen.
func recapModel(t *testing.T, l *Lesson, w *World) (chain []int, byRole []int) {
	t.Helper()
	roles := l.RecapChain.roles(w)
	require.NotEmpty(t, roles, "%s: the run has nothing to explain", l.ID)
	for _, r := range roles {
		at := -1
		for i := range w.Sim.Trace.Len() {
			if ev := w.Sim.Trace.At(i); r.is(ev) && ev.Kind != core.KindAction {
				at = ev.Seq
				break
			}
		}
		require.GreaterOrEqual(t, at, 0, "%s: no event for the link %q", l.ID, r.ask)
		byRole = append(byRole, at)
		if !slices.Contains(chain, at) {
			chain = append(chain, at)
		}
	}
	slices.Sort(chain)
	return chain, byRole
}

// TestRecapFencedWritesAsksForTheWholeStory: the fenced-writes recap's
// links are A's last renewal, its pause, the coordinator's expiry, B's
// acquisition with token 8, B's write, A's late write and the store's
// refusal, in the lesson's own solution run.
func TestRecapFencedWritesAsksForTheWholeStory(t *testing.T) {
	w, err := fencedWrites.EvaluateWith(1, fencedWrites.SolutionKnobs, fencedWrites.Solution)
	require.NoError(t, err)
	chain, byRole := recapModel(t, fencedWrites, w)
	require.Len(t, byRole, 7, "seven links")
	tr := w.Sim.Trace
	kinds := []core.Kind{core.KindLeaseRenew, core.KindPause, core.KindLeaseExpire, core.KindHolder, core.KindSend, core.KindSend, core.KindWrite}
	for i, k := range kinds {
		e := tr.Event(byRole[i])
		if i == 0 && e.Kind == core.KindLeaseGrant {
			k = core.KindLeaseGrant
		}
		assert.Equal(t, k, e.Kind, "link %d is %s", i+1, e.Text())
	}
	assert.Equal(t, "B", tr.Event(byRole[3]).Owner())
	assert.Equal(t, int64(8), tr.Event(byRole[3]).Token(), "B takes the lock with token 8")
	assert.Equal(t, "B", tr.Event(byRole[4]).Actor, "B's write")
	assert.Equal(t, "A", tr.Event(byRole[5]).Actor, "A's late write")
	assert.Equal(t, int64(7), tr.Event(byRole[5]).Token())
	assert.Equal(t, core.RejectedStale, tr.Event(byRole[6]).Result(), "the store refused it")
	f := fencedWrites.RecapChain.Judge(w, chain)
	assert.True(t, f.OK, "%v: %s", chain, f.Why)
}

// TestEveryRecapChainIsRightInTheSolutionAndNamesAGapWithoutTheAnswer:
// for every lesson whose recap asks for a chain, the lesson's own
// solution run admits a right chain; the same chain with any one link
// left out is told a gap, as a question, never the event left out; an
// empty chain and junk are told so; and before the outcome happened the
// question is not asked.
func TestEveryRecapChainIsRightInTheSolutionAndNamesAGapWithoutTheAnswer(t *testing.T) {
	ls := recapLessons()
	require.NotEmpty(t, ls)
	for _, l := range ls {
		w, err := l.EvaluateWith(1, l.SolutionKnobs, l.Solution)
		require.NoError(t, err, l.ID)
		require.True(t, l.RecapChain.Asks(w), "%s: the solution run has the story to tell", l.ID)
		chain, byRole := recapModel(t, l, w)
		f := l.RecapChain.Judge(w, chain)
		require.True(t, f.OK, "%s %v: %s", l.ID, chain, f.Why)
		roles := l.RecapChain.roles(w)
		for i, r := range roles {
			gone := byRole[i]
			short := slices.DeleteFunc(slices.Clone(chain), func(s int) bool { return s == gone || r.is(w.Sim.Trace.Event(s)) })
			f := l.RecapChain.Judge(w, short)
			assert.False(t, f.OK, "%s without the link %q (%v): %s", l.ID, r.ask, short, f.Why)
			assert.True(t, slices.ContainsFunc(roles, func(r chainRole) bool { return strings.Contains(f.Why, r.ask) }) ||
				strings.Contains(f.Why, "what does the second follow from?"),
				"%s without %q: the feedback asks about a gap: %s", l.ID, r.ask, f.Why)
			assert.NotContains(t, f.Why, fmt.Sprintf("event %d ", gone), "%s: the feedback names the event left out", l.ID)
		}
		assert.Contains(t, l.RecapChain.Judge(w, nil).Why, "No chain yet")
		assert.Contains(t, l.RecapChain.Judge(w, []int{chain[0], 1 << 30}).Why, "is not in your run")
		assert.Contains(t, l.RecapChain.Judge(w, make([]int, maxChain+1)).Why, "at most")

		early, err := l.StartWith(1, l.SolutionKnobs, l.Solution)
		require.NoError(t, err)
		early.Sim.RunUntil(0)
		assert.False(t, l.RecapChain.Asks(early), "%s: nothing to explain at the start", l.ID)
		assert.False(t, l.RecapChain.Judge(early, chain).OK, "%s: a chain before the story is no answer", l.ID)
	}
}

// Lesson 14's recap: the story of the lock a dead holder kept past its
// TTL. "member-1 crashed" and the learner's "crash member-1" are one step,
// so a chain may start at either; a chain without the re-arm is asked what
// the new leader did, and is not told the event.
func TestTheClusterRecapTellsTheFailoverStory(t *testing.T) {
	l := coordinatorCluster
	w, err := l.EvaluateWith(1, nil, core.ActionLog{core.At(2*time.Second, core.Crash("A")), core.At(3*time.Second, core.Crash("member-1"))})
	require.NoError(t, err)
	require.True(t, l.RecapChain.Asks(w))
	chain, byRole := recapModel(t, l, w)
	require.True(t, l.RecapChain.Judge(w, chain).OK)
	var action int
	for e := range w.ofKind(core.KindAction) {
		if e.Words() == "crash member-1" {
			action = e.Seq
		}
	}
	withAction := append([]int{action}, chain[1:]...)
	assert.True(t, l.RecapChain.Judge(w, withAction).OK, "the action stands for its direct effect")
	noRearm := slices.DeleteFunc(slices.Clone(chain), func(s int) bool { return s == byRole[2] })
	f := l.RecapChain.Judge(w, noRearm)
	assert.False(t, f.OK)
	assert.Contains(t, f.Why, "what did the new leader do to A's lease?")
	assert.NotContains(t, f.Why, fmt.Sprintf("event %d ", byRole[2]))

	quiet, err := l.EvaluateWith(1, nil, core.ActionLog{core.At(3*time.Second, core.Crash("member-1"))})
	require.NoError(t, err)
	assert.False(t, l.RecapChain.Asks(quiet), "no dead holder, no story to tell")
}
