package game

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
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

// TestAnAnswerIsSharedOnlyOnceGraded: before a check there is nothing
// to share, and the page offers no share button; after one, the button
// is there and gives a link to the answer as checked.
func TestAnAnswerIsSharedOnlyOnceGraded(t *testing.T) {
	r := newAppRig(t)
	sc, err := r.a.OpenExerciseID("no-fencing")
	require.NoError(t, err)
	r.tick(ui.Input{})
	_, offered := r.control("share")
	assert.False(t, offered, "no share button before an answer is graded")
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	assert.Equal(t, shareWaits, sc.notice, "a share asked for too early says why, and shares nothing")
	assert.Empty(t, sc.shared)

	r.a.scenes.Home()
	sc = answerNoFencingWrongly(t, r)
	assert.True(t, sc.Shareable(), "a graded answer can be shared")
	c, offered := r.control("share")
	require.True(t, offered, "a graded answer offers the share button")
	assert.Equal(t, shareLabel, c.Label)
	assert.False(t, c.Disabled)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	link, ok := r.control("share-link")
	require.True(t, ok, "the link is shown in a field to copy")
	assert.Equal(t, KindCopy, link.Kind)
	assert.True(t, strings.HasPrefix(link.Text, "#share="), "without a page, the link is its fragment: %q", link.Text)
	assert.Equal(t, link.Text, r.a.Inspect().Exercise.Shared)
	s, err := lessons.ParseShare(link.Text)
	require.NoError(t, err)
	assert.Equal(t, "no-fencing", s.Exercise)
	assert.False(t, s.Pass, "the share holds the verdict the learner saw")
	assert.Equal(t, 1, s.Attempts)
	assert.False(t, s.ModelShown)
}

// TestTheCanvasShareButtonSitsBesideTheVerdictAndSaysWhere: on the
// desktop the button is on the result tab, beside the verdict; a click
// hands the share to the platform (the desktop writes a file) and the
// footer says where it went.
func TestTheCanvasShareButtonSitsBesideTheVerdictAndSaysWhere(t *testing.T) {
	r := newAppRig(t)
	var got lessons.Share
	r.a.ShareAnswer = func(ex *lessons.Exercise, s lessons.Share) (string, string, error) {
		got = s
		return s.Link(), "Saved in /tmp/share-" + ex.ID + ".txt.", nil
	}
	sc := answerNoFencingWrongly(t, r)
	r.tick(ui.Input{})
	share := r.region("share")
	assert.Equal(t, share, share.Intersect(sc.geom.reading), "the button is in the reading pane")
	assert.True(t, share.Intersect(sc.geom.verdict).Empty(), "it does not cover the verdict")
	r.click("share")
	assert.Equal(t, "no-fencing", got.Exercise, "the platform was handed the share")
	assert.Equal(t, "Saved in /tmp/share-no-fencing.txt.", r.a.Inspect().Exercise.SharedWhere)
	assert.Contains(t, r.a.Inspect().Mirror.Narration, "Saved in /tmp/share-no-fencing.txt.", "and it is said")
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
	r.a.OpenShare(sc.shared)
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

// TestTheSharedAnswersPageAndCanvasAreOneDeclaration: the screen's way
// back and way to the exercise are declared once; the page lists the
// declarations, the canvas's buttons carry their ids, words and state,
// and a page's use and a canvas's click of each go to the same screen.
func TestTheSharedAnswersPageAndCanvasAreOneDeclaration(t *testing.T) {
	r := newAppRig(t)
	answerNoFencingWrongly(t, r)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	link, ok := r.control("share-link")
	require.True(t, ok)
	open := func() (*appRig, *SharedScene) {
		r := newAppRig(t)
		sc := r.a.OpenShare(link.Text)
		r.finishGrading()
		return r, sc
	}

	r, sc := open()
	r.shot("shared-answer")
	info := r.a.Inspect()
	require.Equal(t, []string{sharedBack, sharedOpen}, controlIDs(info.Mirror.Controls), "back, then the exercise")
	for _, c := range info.Mirror.Controls {
		b := sc.deck.Button(c.ID)
		require.NotNil(t, b, "the canvas has a button for %q", c.ID)
		assert.Equal(t, c.Label, b.Label, "%s: the canvas's words are the page's", c.ID)
		assert.Equal(t, c.Disabled, b.Disabled, "%s: and its state", c.ID)
		assert.Equal(t, b.Rect, info.Regions[c.ID], "%s: the canvas's region is named by the control's id", c.ID)
		assert.LessOrEqual(t, draw.Measure(sc.style.Label())(b.Label), b.Rect.W, "%s: its words fit its button", c.ID)
	}
	sc.ring.Focus(sc.deck.Button(sharedOpen), ui.FocusVisible)
	assert.Equal(t, sharedOpen, r.a.Inspect().Focus, "the focus is named by the control's id")

	for id, want := range map[string]string{sharedBack: "menu", sharedOpen: "exercise"} {
		page, _ := open()
		page.tick(ui.Input{Host: []ui.HostAction{{ID: id}}})
		canvas, _ := open()
		canvas.click(id)
		assert.Equal(t, want, page.a.Inspect().Name, "the page's %s", id)
		assert.Equal(t, want, canvas.a.Inspect().Name, "the canvas's %s", id)
	}
	esc, _ := open()
	esc.key(ui.IntentBack)
	assert.Equal(t, "menu", esc.a.Inspect().Name, "Esc is Back")
}
