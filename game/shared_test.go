package game

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/place"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// finishGrading ticks until the shared answer on show is graded again.
func (r *appRig) finishGrading() *SharedInfo {
	r.t.Helper()
	for i := 0; i < 2000 && r.a.Inspect().Shared != nil && r.a.Inspect().Shared.Grading; i++ {
		r.tick(ui.Input{})
	}
	info := r.a.Inspect().Shared
	require.NotNil(r.t, info, "the shared answer's screen is on show")
	require.False(r.t, info.Grading, "the grading finished")
	return info
}

// TestASharedAnswerIsGradedAgainOnItsOwnScreen: opening a share grades
// the answer from scratch on a screen named for its exercise, says the
// share's verdict is the answer's, and says what the learner's lab
// recorded about the model answer.
func TestASharedAnswerIsGradedAgainOnItsOwnScreen(t *testing.T) {
	r := newAppRig(t)
	answerNoFencingWrongly(t, r)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	link, _ := r.control("share-link")

	sc := r.a.OpenShare("https://lab.example/" + link.Text)
	assert.Nil(t, sc.Verified(), "graded over frames, not at once")
	info := r.finishGrading()
	assert.False(t, info.Pass, "the wrong answer fails again")
	assert.True(t, info.Agrees, "and the share said so")
	assert.Equal(t, "no-fencing", info.Exercise)
	assert.Contains(t, info.Verdict, "does not pass")
	assert.Contains(t, info.Verdict, "holds that verdict too")
	assert.Contains(t, info.Help, "the model answer has not been shown")
	in := r.a.Inspect()
	assert.Equal(t, place.Place{Kind: place.Shared, ID: "no-fencing"}, in.Place)
	assert.Equal(t, "Shared answer to exercise 3: "+sc.Ex.Title, in.Mirror.Title, "the screen is named for the exercise")
	assert.Contains(t, in.Mirror.Text, "Your chain of events: wrong.", "the grading part by part")
	assert.Contains(t, in.Mirror.Text, "The shared run: 1 action (pause A at 4 s for 20 s)")
	assert.Contains(t, in.Mirror.Narration, info.Verdict, "the verdict is said when it comes")

	r.tick(ui.Input{Host: []ui.HostAction{{ID: "back"}}})
	assert.Equal(t, "menu", r.a.Inspect().Name, "back goes to the lessons")
}

// TestASharedPassAfterTheModelAnswerSaysSo: a pass earned after the
// model answer was shown is graded a pass, and the screen says the model
// answer had been shown before it.
func TestASharedPassAfterTheModelAnswerSaysSo(t *testing.T) {
	r := newAppRig(t)
	sc, err := r.a.OpenExerciseID("token-logs")
	require.NoError(t, err)
	require.NoError(t, sc.LoadModelAnswer())
	sc.StartCheck()
	r.finishCheck()
	require.True(t, sc.Result().Pass)
	sc.ShareAnswer()
	r.a.OpenShare(r.a.Inspect().Exercise.Shared)
	info := r.finishGrading()
	assert.True(t, info.Pass)
	assert.True(t, info.Agrees)
	assert.Contains(t, info.Help, "The model answer had been shown before this pass.")
}

// TestATamperedShareIsToldNotGraded: a share whose verdict was changed by
// hand is graded again and found out; text that is no share opens the
// screen with why, and nothing breaks.
func TestATamperedShareIsToldNotGraded(t *testing.T) {
	r := newAppRig(t)
	answerNoFencingWrongly(t, r)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	link, _ := r.control("share-link")
	s, err := lessons.ParseShare(link.Text)
	require.NoError(t, err)
	s.Pass = true // claims a pass its answer does not get
	forged := s.Link()
	r.a.OpenShare(forged)
	info := r.finishGrading()
	assert.False(t, info.Pass)
	assert.False(t, info.Agrees)
	assert.Contains(t, info.Verdict, "not the verdict its answer gets")

	for _, bad := range []string{
		"#share=",
		"#share=%%%not-base64",
		link.Text[:len(link.Text)/2],
		"#share=" + base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"exercise":"no-such","answer":{}}`)),
		"#share=" + base64.RawURLEncoding.EncodeToString(mustJSON(t, map[string]any{"v": 1, "exercise": "no-fencing", "answer": map[string]any{"schedule": "nonsense"}})),
	} {
		sc := r.a.OpenShare(bad)
		for i := 0; i < 3; i++ {
			r.tick(ui.Input{})
		}
		in := r.a.Inspect()
		require.NotNil(t, in.Shared, "%q opens the shared answer's screen", bad)
		assert.NotEmpty(t, in.Shared.Problem, "%q is told", bad)
		assert.Contains(t, in.Mirror.Objective, "cannot be graded", "%q: the message is the first thing said", bad)
		assert.Nil(t, sc.Verified(), "%q: nothing graded", bad)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestTheSharedAnswersWaysOutGoWhereTheySay: the screen's way back goes
// to the lessons and its way to the exercise opens it, from the page and
// the canvas alike; Esc is Back.
func TestTheSharedAnswersWaysOutGoWhereTheySay(t *testing.T) {
	r := newAppRig(t)
	answerNoFencingWrongly(t, r)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	link, ok := r.control("share-link")
	require.True(t, ok)
	open := func() *appRig {
		r := newAppRig(t)
		r.a.OpenShare(link.Text)
		r.finishGrading()
		return r
	}
	for id, want := range map[string]string{"back": "menu", "open": "exercise"} {
		page := open()
		page.tick(ui.Input{Host: []ui.HostAction{{ID: id}}})
		canvas := open()
		canvas.click(id)
		assert.Equal(t, want, page.a.Inspect().Name, "the page's %s", id)
		assert.Equal(t, want, canvas.a.Inspect().Name, "the canvas's %s", id)
	}
	esc := open()
	esc.key(ui.IntentBack)
	assert.Equal(t, "menu", esc.a.Inspect().Name, "Esc is Back")
}
