package exercise

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// finishGrading ticks until the shared answer is graded again.
func (r *rig) finishGrading() *page.SharedInfo {
	r.T.Helper()
	for i := 0; i < 2000 && r.Info().Shared != nil && r.Info().Shared.Grading; i++ {
		r.Tick(ui.Input{})
	}
	info := r.Info().Shared
	require.NotNil(r.T, info, "the shared answer's screen is on show")
	require.False(r.T, info.Grading, "the grading finished")
	return info
}

// TestAnAnswerIsSharedOnlyOnceGraded: before a check there is nothing
// to share, and the page offers no share button; after one, the button
// is there and gives a link to the answer as checked.
func TestAnAnswerIsSharedOnlyOnceGraded(t *testing.T) {
	r, sc := openEx(t, "no-fencing", 1280, 800)
	_, offered := r.Control("share")
	assert.False(t, offered, "no share button before an answer is graded")
	r.Tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	assert.Equal(t, shareWaits, sc.notice, "a share asked for too early says why, and shares nothing")
	assert.Empty(t, sc.shared)

	r, sc = answerNoFencingWrongly(t)
	assert.True(t, sc.shareable(), "a graded answer can be shared")
	c, offered := r.Control("share")
	require.True(t, offered, "a graded answer offers the share button")
	assert.Equal(t, shareLabel, c.Label)
	assert.False(t, c.Disabled)
	r.Tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	link, ok := r.Control("share-link")
	require.True(t, ok, "the link is shown in a field to copy")
	assert.Equal(t, ui.KindCopy, link.Kind)
	assert.True(t, strings.HasPrefix(link.Text, "#share="), "without a page, the link is its fragment: %q", link.Text)
	assert.Equal(t, link.Text, r.Info().Exercise.Shared)
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
	r, sc := answerNoFencingWrongly(t)
	var got lessons.Share
	sc.OnShare = func(ex *lessons.Exercise, s lessons.Share) (string, string, error) {
		got = s
		return s.Link(), "Saved in /tmp/share-" + ex.ID + ".txt.", nil
	}
	r.Tick(ui.Input{})
	share := r.Region("share")
	assert.Equal(t, share, share.Intersect(sc.geom.reading), "the button is in the reading pane")
	assert.True(t, share.Intersect(sc.geom.verdict).Empty(), "it does not cover the verdict")
	r.Click("share")
	assert.Equal(t, "no-fencing", got.Exercise, "the platform was handed the share")
	assert.Equal(t, "Saved in /tmp/share-no-fencing.txt.", r.Info().Exercise.SharedWhere)
	assert.Contains(t, r.Info().Mirror.Narration, "Saved in /tmp/share-no-fencing.txt.", "and it is said")
}

// TestTheSharedAnswersPageAndCanvasAreOneDeclaration: the screen's way
// back and way to the exercise are declared once; the page lists the
// declarations, the canvas's buttons carry their ids, words and state,
// and a page's use and a canvas's click of each do the same. (Where each
// goes is the App's: its tests follow them.)
func TestTheSharedAnswersPageAndCanvasAreOneDeclaration(t *testing.T) {
	r, _ := answerNoFencingWrongly(t)
	r.Tick(ui.Input{Host: []ui.HostAction{{ID: "share"}}})
	link, ok := r.Control("share-link")
	require.True(t, ok)
	var went []string
	open := func() (*rig, *Shared) {
		sc := NewShared(link.Text)
		sc.OnBack = func() { went = append(went, sharedBack) }
		sc.OnOpen = func() { went = append(went, sharedOpen) }
		r := newRig(t, sc, 1280, 800)
		r.finishGrading()
		return r, sc
	}

	r, sc := open()
	r.shot("shared-answer")
	info := r.Info()
	ids := make([]string, len(info.Mirror.Controls))
	for i, c := range info.Mirror.Controls {
		ids[i] = c.ID
	}
	require.Equal(t, []string{sharedBack, sharedOpen}, ids, "back, then the exercise")
	for _, c := range info.Mirror.Controls {
		b := sc.deck.Button(c.ID)
		require.NotNil(t, b, "the canvas has a button for %q", c.ID)
		assert.Equal(t, c.Label, b.Label, "%s: the canvas's words are the page's", c.ID)
		assert.Equal(t, c.Disabled, b.Disabled, "%s: and its state", c.ID)
		assert.Equal(t, b.Rect, info.Regions[c.ID], "%s: the canvas's region is named by the control's id", c.ID)
		assert.LessOrEqual(t, draw.Measure(sc.style.Label())(b.Label), b.Rect.W, "%s: its words fit its button", c.ID)
	}
	sc.ring.Focus(sc.deck.Button(sharedOpen), ui.FocusVisible)
	assert.Equal(t, sharedOpen, r.Info().Focus, "the focus is named by the control's id")

	for _, id := range []string{sharedBack, sharedOpen} {
		went = nil
		onPage, _ := open()
		onPage.Tick(ui.Input{Host: []ui.HostAction{{ID: id}}})
		canvas, _ := open()
		canvas.Click(id)
		assert.Equal(t, []string{id, id}, went, "the page's %s and the canvas's", id)
	}
	went = nil
	esc, _ := open()
	esc.Key(ui.IntentBack)
	assert.Equal(t, []string{sharedBack}, went, "Esc is Back")
}
