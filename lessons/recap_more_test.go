package lessons

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// eventWhat is how the feedback would say e: its actor and kind in words
// ("api-2 crashed") and its time, as chainWords writes them.
func eventWhat(w *World, e *core.Event) (what, at string) {
	var b because
	s := chainWords(&b, w, e)
	open, cut := strings.Index(s, "("), strings.LastIndex(s, " at ")
	return s[open+1 : cut], s[cut+4 : len(s)-1]
}

// Every lesson but one asks its recap with the learner's run. The one
// left out, security, has no causal chain worth asking: its outcome is the
// coordinator refusing the learner's own request, one step from the action
// to the denial, so a chain would be a toy.
func TestEveryLessonButSecurityHasARecapChain(t *testing.T) {
	var without []string
	for _, l := range All() {
		if l.RecapChain == nil {
			without = append(without, l.ID)
		}
	}
	assert.Equal(t, []string{"security"}, without)
	assert.Len(t, recapLessons(), 13)
}

// The property, for every lesson with a recap chain, in its own solution
// run: the question is asked; a right chain built from that run is judged
// right; leaving out each link in turn fails with a question about the gap
// that never says the missing event (its number, its words, or its time
// where no step of the chain shares it); two steps swapped are told to go
// in the order they happened; an event number the run lacks is junk; and
// before the outcome happened nothing is asked.
func TestEveryRecapChainJudgesGapsOrderAndJunkWithoutNamingTheAnswer(t *testing.T) {
	for _, l := range recapLessons() {
		t.Run(l.ID, func(t *testing.T) {
			w, err := l.EvaluateWith(1, l.SolutionKnobs, l.Solution)
			require.NoError(t, err)
			require.True(t, l.RecapChain.Asks(w), "the solution run has the story to tell")
			chain, byRole := recapModel(t, l, w)
			require.GreaterOrEqual(t, len(chain), 4, "an argument of several steps, not a toy")
			f := l.RecapChain.Judge(w, chain)
			require.True(t, f.OK, "%v: %s", chain, f.Why)

			roles := l.RecapChain.roles(w)
			tr := w.Sim.Trace
			// The page lists a message only if it is a write to storage:
			// a chain of the decisions instead of the messages is right.
			var decided []int
			for _, r := range roles {
				at := -1
				for i := range tr.Len() {
					if e := tr.At(i); r.is(e) && e.Kind != core.KindAction && (at < 0 || tr.Event(at).Kind == core.KindSend && e.Kind != core.KindSend) {
						at = e.Seq
					}
				}
				if !slices.Contains(decided, at) {
					decided = append(decided, at)
				}
			}
			slices.Sort(decided)
			f = l.RecapChain.Judge(w, decided)
			assert.True(t, f.OK, "without the messages %v: %s", decided, f.Why)
			for i, r := range roles {
				gone := tr.Event(byRole[i])
				short := slices.DeleteFunc(slices.Clone(chain), func(s int) bool { return r.is(tr.Event(s)) })
				f := l.RecapChain.Judge(w, short)
				assert.False(t, f.OK, "without %q (%v): %s", r.ask, short, f.Why)
				assert.True(t, strings.Contains(f.Why, r.ask) ||
					slices.ContainsFunc(roles, func(r chainRole) bool { return strings.Contains(f.Why, r.ask) }) ||
					strings.Contains(f.Why, "what does the second follow from?"),
					"without %q the feedback asks about a gap: %s", r.ask, f.Why)
				what, at := eventWhat(w, gone)
				assert.NotContains(t, f.Why, "event "+strconv.Itoa(gone.Seq)+" ", "the feedback names the event left out")
				assert.NotContains(t, f.Why, "("+what+" at", "the feedback says the event left out: %s", f.Why)
				if !slices.ContainsFunc(short, func(s int) bool { return tr.Event(s).At == gone.At }) {
					assert.NotContains(t, f.Why, " at "+at+")", "the feedback gives the time of the event left out: %s", f.Why)
				}
			}

			for i := 1; i < len(chain); i++ {
				swapped := slices.Clone(chain)
				swapped[i-1], swapped[i] = swapped[i], swapped[i-1]
				f := l.RecapChain.Judge(w, swapped)
				assert.False(t, f.OK, "%v out of order", swapped)
				if i == 1 {
					// Judged pair by pair: the first pair is the reversed one.
					assert.Contains(t, f.Why, "put the events in the order they happened")
				}
			}
			junk := append(slices.Clone(chain[:1]), tr.Len()+7)
			assert.Contains(t, l.RecapChain.Judge(w, junk).Why, "is not in your run")
			assert.Contains(t, l.RecapChain.Judge(w, []int{-1}).Why, "is not in your run")

			early, err := l.StartWith(1, l.SolutionKnobs, l.Solution)
			require.NoError(t, err)
			early.Sim.RunUntil(time.Second)
			assert.False(t, l.RecapChain.Asks(early), "nothing to explain a second in")
		})
	}
}

// Without the learner's actions, none of the new recaps' stories happens
// on its own: the recap is asked only about what the learner made happen.
// (The leases lesson's script pauses A itself, and the cluster lesson is
// checked without its holder dying in
// TestTheClusterRecapTellsTheFailoverStory.)
func TestNoRecapIsAskedOfARunWithoutTheLessonsActions(t *testing.T) {
	for _, l := range recapLessons() {
		if l == coordinatorCluster || l == leases || l == troubleshooting {
			continue // troubleshooting's pause is in its script: see below
		}
		w, err := l.EvaluateWith(1, l.SolutionKnobs, nil)
		require.NoError(t, err, l.ID)
		assert.False(t, l.RecapChain.Asks(w), "%s: a run where nothing was done has nothing to explain", l.ID)
	}
	// Troubleshooting's frozen worker is scripted; without fencing the
	// store takes its late commit, so no refusal is asked about.
	w, err := troubleshooting.EvaluateWith(1, nil, nil)
	require.NoError(t, err)
	assert.False(t, troubleshooting.RecapChain.Asks(w), "no fencing, no refused commit")
}

// Redlock's story: A froze, its keys ran out on the servers, B won the
// lock with token 0, B wrote, A's late write went out and storage took it.
// A chain may name any server's expiry of A's key: each one freed it.
func TestTheRedlockRecapTellsTheUnfencedLateWrite(t *testing.T) {
	l := redlockPause
	w, err := l.EvaluateWith(1, nil, l.Solution)
	require.NoError(t, err)
	chain, byRole := recapModel(t, l, w)
	tr := w.Sim.Trace
	want := []core.Kind{core.KindPause, core.KindRedisExpire, core.KindHolder, core.KindSend, core.KindSend, core.KindWrite}
	for i, k := range want {
		assert.Equal(t, k, tr.Event(byRole[i]).Kind, "link %d: %s", i+1, tr.Event(byRole[i]).Text())
	}
	assert.Equal(t, "B", tr.Event(byRole[2]).Owner())
	assert.Equal(t, int64(0), tr.Event(byRole[2]).Token(), "no token to fence with")
	assert.Equal(t, core.Accepted, tr.Event(byRole[5]).Result())
	require.True(t, l.RecapChain.Judge(w, chain).OK)
	var free int
	for e := range w.ofKind(core.KindFree) {
		free = e.Seq
		break
	}
	withFree := slices.Clone(chain)
	withFree[1] = free
	assert.True(t, l.RecapChain.Judge(w, withFree).OK, "the lock falling free is the keys running out too")
	noPause := chain[1:]
	f := l.RecapChain.Judge(w, noPause)
	assert.False(t, f.OK)
	assert.Contains(t, f.Why, "why did A stop extending its keys?")
}

// The scheduler's story ends at the queue ignoring a repeated invoice;
// the story of the earlier crash, whose repeats ran twice, is not asked.
func TestTheSchedulerRecapIsAboutTheRepeatTheKeyAbsorbed(t *testing.T) {
	l := scheduler
	w, err := l.EvaluateWith(1, nil, l.Solution)
	require.NoError(t, err)
	_, byRole := recapModel(t, l, w)
	tr := w.Sim.Trace
	assert.Equal(t, core.KindCrash, tr.Event(byRole[0]).Kind)
	assert.Equal(t, "api-2", tr.Event(byRole[0]).Actor)
	assert.Equal(t, int64(43), tr.Event(byRole[2]).Token(), "the successor's higher token")
	assert.Equal(t, core.JobDuplicateIgnored, tr.Event(byRole[4]).Result())

	off, err := l.EvaluateWith(1, nil, core.ActionLog{core.At(4500*time.Millisecond, core.Crash("api-1"))})
	require.NoError(t, err)
	assert.False(t, l.RecapChain.Asks(off), "with the keys off, the repeats ran: nothing was absorbed")
}

// The election recap is about the right-hand lock, where one waiter woke:
// the left lane's herd has no such story, and the wake is a link of its
// own.
func TestTheElectionRecapAsksForTheOneWake(t *testing.T) {
	l := electionOrder
	herdOnly, err := l.EvaluateWith(1, nil, core.ActionLog{core.At(3*time.Second, core.Crash("H1"))})
	require.NoError(t, err)
	assert.False(t, l.RecapChain.Asks(herdOnly), "the herd's handover is not the story")
	w, err := l.EvaluateWith(1, nil, l.Solution)
	require.NoError(t, err)
	chain, byRole := recapModel(t, l, w)
	fire := w.Sim.Trace.Event(byRole[2])
	require.Equal(t, core.KindWatchFire, fire.Kind)
	assert.Equal(t, "Q2", fire.Watcher())
	f := l.RecapChain.Judge(w, slices.DeleteFunc(slices.Clone(chain), func(s int) bool { return s == fire.Seq }))
	assert.False(t, f.OK)
	assert.Contains(t, f.Why, "whom did that wake, and only whom?")
}

// A chain links a crash, and a cut from the coordinator, as a stall: the
// coordinator's expiry happened while it lasted. Without those links the
// crash and partition stories could not be told.
func TestACrashAndACutAreStallsInAChain(t *testing.T) {
	w, err := stateMachine.EvaluateWith(1, stateMachine.SolutionKnobs, stateMachine.Solution)
	require.NoError(t, err)
	var cut, expiry, action *core.Event
	for e := range w.Sim.Trace.All() {
		switch {
		case e.Kind == core.KindPartition && cut == nil:
			cut = e
		case e.Kind == core.KindAction && e.Do() == "partition" && action == nil:
			action = e
		case e.Kind == core.KindLeaseExpire && e.Owner() == "A" && expiry == nil:
			expiry = e
		}
	}
	require.NotNil(t, cut)
	require.NotNil(t, expiry)
	assert.True(t, chainLinked(w, cut, expiry), "A's lease ran out while A was cut off")
	assert.True(t, chainLinked(w, action, expiry), "the learner's cut stands for the partition it made")

	s, err := scheduler.EvaluateWith(1, nil, scheduler.Solution)
	require.NoError(t, err)
	var crash, crashAction, exp *core.Event
	for e := range s.Sim.Trace.All() {
		switch {
		case e.Kind == core.KindCrash && e.Actor == "api-2":
			crash = e
		case e.Kind == core.KindAction && e.Words() == "crash api-2":
			crashAction = e
		case e.Kind == core.KindLeaseExpire && e.Owner() == "api-2":
			exp = e
		}
	}
	require.NotNil(t, crash)
	assert.True(t, chainLinked(s, crash, exp))
	assert.True(t, chainLinked(s, crashAction, exp), "the action stands for its crash, past the state change the crash caused")
}
