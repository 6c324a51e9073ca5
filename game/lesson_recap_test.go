package game

import (
	"fmt"
	"leaselab/game/lesson"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// fencedStory finds, in the fenced-writes run on show, the events of the
// recap's story: A's last renewal before its pause, the pause, the
// expiry, B taking the lock with 8, B's write, A's late write and the
// store's refusal.
func fencedStory(t *testing.T, sc *lesson.Scene) []int {
	t.Helper()
	tr := sc.Lab.Sim().Trace
	var renew, pause, expire, holder, bWrite, aWrite, refused = -1, -1, -1, -1, -1, -1, -1
	for e := range tr.All() {
		switch {
		case pause < 0 && (e.Kind == core.KindLeaseRenew || e.Kind == core.KindLeaseGrant) && e.Owner() == "A":
			renew = e.Seq
		case pause < 0 && e.Kind == core.KindPause && e.Actor == "A":
			pause = e.Seq
		case expire < 0 && pause >= 0 && e.Kind == core.KindLeaseExpire && e.Owner() == "A":
			expire = e.Seq
		case holder < 0 && expire >= 0 && e.Kind == core.KindHolder && e.Owner() == "B":
			holder = e.Seq
		case bWrite < 0 && holder >= 0 && e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == "B":
			bWrite = e.Seq
		case aWrite < 0 && bWrite >= 0 && e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == "A" && e.Token() == 7:
			aWrite = e.Seq
		case refused < 0 && aWrite >= 0 && e.Kind == core.KindWrite && e.Result() == core.RejectedStale:
			refused = e.Seq
		}
	}
	story := []int{renew, pause, expire, holder, bWrite, aWrite, refused}
	require.NotContains(t, story, -1, "the run tells the whole story: %v", story)
	return story
}

// TestTheFencedRecapAsksForTheChainOfTheLearnersRun: once the lesson is
// complete in the learner's own run, the recap asks for the chain of the
// refused write, built from the run's events with the page's buttons; the
// right chain is told so, and one with a link left out is told the gap
// as a question, never the event; it is not a goal.
func TestTheFencedRecapAsksForTheChainOfTheLearnersRun(t *testing.T) {
	r := newAppRig(t)
	sc, err := r.a.OpenID("fenced-writes")
	require.NoError(t, err)
	r.tick(ui.Input{})
	_, asked := r.control("recap:check")
	assert.False(t, asked, "no recap question before the lesson is complete")

	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	require.NoError(t, sc.Lab.Resume(nil, l.Solution))
	sc.Lab.Seek(sc.Lab.Length())
	for i := 0; i < 5 && r.a.Inspect().Mirror.Done == nil; i++ {
		r.tick(ui.Input{})
	}
	done := r.a.Inspect().Mirror.Done
	require.NotNil(t, done, "the lesson is complete")
	require.NotNil(t, done.Chain, "and its recap asks for a chain")
	assert.Contains(t, done.Chain.Question, "write storage refused")
	goals := len(r.a.Inspect().Mirror.Goals)

	story := fencedStory(t, sc)
	for _, seq := range story {
		_, ok := r.control(fmt.Sprintf("recap:add:%d", seq))
		require.True(t, ok, "event %d is offered to pick", seq)
		r.tick(ui.Input{Host: []ui.HostAction{{ID: fmt.Sprintf("recap:add:%d", seq)}}})
	}
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "recap:check"}}})
	got := r.a.Inspect().Mirror.Done.Chain
	assert.Equal(t, story, got.Chain)
	assert.True(t, got.Checked && got.OK, "the whole story is right: %s", got.Verdict)
	check, _ := r.control("recap:check")
	assert.Contains(t, check.Detail, "right", "the verdict is beside the button")

	// Take out the expiry (step 3): the gap, never the answer.
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "recap:remove:2"}}})
	assert.False(t, r.a.Inspect().Mirror.Done.Chain.Checked, "a changed chain waits for a new check")
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "recap:check"}}})
	got = r.a.Inspect().Mirror.Done.Chain
	assert.False(t, got.OK)
	assert.Contains(t, got.Verdict, "what freed the lock?")
	assert.NotContains(t, got.Verdict, fmt.Sprintf("event %d ", story[2]), "the event left out is not named")
	assert.Contains(t, r.a.Inspect().Mirror.Narration, "Recap: Your chain of events: wrong. "+got.Verdict, "the verdict is said")
	assert.Len(t, r.a.Inspect().Mirror.Goals, goals, "the recap question is not a goal")
	assert.NotNil(t, r.a.Inspect().Mirror.Done, "and a wrong chain takes nothing away")

	r.tick(ui.Input{Host: []ui.HostAction{{ID: "recap:clear"}}})
	assert.Empty(t, r.a.Inspect().Mirror.Done.Chain.Chain)
}
