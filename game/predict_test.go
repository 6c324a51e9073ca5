package game

import (
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/player"
	"leaselab/game/ui"
)

// openFencedAtTheQuestion opens the fenced-writes lesson, pauses A as the
// solution does, plays, and runs the lab on until the player has stopped
// at the key moment's question.
func openFencedAtTheQuestion(t *testing.T) (*appRig, *lesson.Scene) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	sc.Lab.Seek(4 * time.Second)
	require.NoError(t, sc.Lab.Do(core.Pause("A", 20*time.Second)))
	sc.Play(true)
	for range 60 {
		if _, ok := sc.Lab.Asking(); ok {
			break
		}
		sc.Lab.Play(time.Second)
	}
	r.tick(ui.Input{})
	_, ok := sc.Lab.Asking()
	require.True(t, ok, "the question opened at %v", sc.Lab.Now())
	return r, sc
}

// predictGroup returns the page's controls under the open question.
func predictGroup(r *appRig) (string, []Control) {
	var group string
	var out []Control
	for _, c := range r.a.Inspect().Mirror.Controls {
		if strings.HasPrefix(c.Group, "Predict: ") {
			group = c.Group
			out = append(out, c)
		}
	}
	return group, out
}

// At the key moment the player stops, says the question as a key line,
// draws it over the world with a row per option, and offers it on the
// page as buttons headed by the question, first in the panel.
func TestThePlayerStopsAndAsksAtTheKeyMoment(t *testing.T) {
	r, sc := openFencedAtTheQuestion(t)
	assert.False(t, sc.Player.Playing(), "the run waits for the prediction")
	group, cs := predictGroup(r)
	assert.Contains(t, group, "What will storage do with it?")
	ids := []string{}
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	assert.Equal(t, []string{"predict:accept", "predict:reject", "predict:skip"}, ids)
	assert.Equal(t, cs[0].ID, r.a.Inspect().Mirror.Controls[0].ID, "the question comes first in the panel")
	info := r.a.Inspect()
	for _, id := range ids {
		reg, ok := info.Regions[id]
		require.True(t, ok, "the card's row %s is laid out", id)
		assert.True(t, info.Regions["world"].Contains(reg.Center()), "%s over the world", id)
	}
	assert.Contains(t, strings.Join(info.Mirror.Narration, "\n"), "Predict before you play: A is frozen", "said for a screen reader")
}

// Each way to answer records the prediction: a digit key on the canvas,
// a click on the card's row, the page's button; Play skips it, and the
// skip is recorded too.
func TestAPredictionIsAnsweredByKeyClickOrPageAndSkippedByPlay(t *testing.T) {
	for how, do := range map[string]func(r *appRig){
		"key 2":       func(r *appRig) { r.tick(ui.Input{Digit: 2}) },
		"click":       func(r *appRig) { r.click("predict:reject") },
		"page button": func(r *appRig) { r.tick(ui.Input{Host: []ui.HostAction{{ID: "predict:reject"}}}) },
	} {
		r, sc := openFencedAtTheQuestion(t)
		do(r)
		_, open := sc.Lab.Asking()
		assert.False(t, open, how)
		recs := sc.Lab.Predictions()
		require.Len(t, recs, 1, how)
		assert.Equal(t, "reject", recs[0].Choice, how)
		assert.Empty(t, sc.Lab.Lesson.Prediction("late-write").Option("x"))
		_, cs := predictGroup(r)
		assert.Empty(t, cs, "%s: the question leaves the panel once answered", how)
	}
	r, sc := openFencedAtTheQuestion(t)
	r.key(ui.IntentPlayPause)
	assert.True(t, sc.Player.Playing(), "Play plays on")
	recs := sc.Lab.Predictions()
	require.Len(t, recs, 1)
	assert.True(t, recs[0].Skipped, "and the question is recorded as skipped")
}

// Completed, the lesson's moment of success puts the prediction beside
// what happened, in the page's Done and the canvas panel's recap.
func TestTheRecapShowsThePredictionBesideWhatHappened(t *testing.T) {
	r, sc := openFencedAtTheQuestion(t)
	r.tick(ui.Input{Digit: 1}) // "Accept it": wrong, with fencing on
	for _, ta := range sc.Lab.Lesson.Solution[1:] {
		for sc.Lab.Now() < ta.At.D() {
			sc.Lab.Advance(ta.At.D() - sc.Lab.Now())
		}
		require.NoError(t, sc.Lab.Do(ta.Action))
	}
	for sc.Lab.Now() < sc.Lab.Length() {
		sc.Lab.Advance(time.Second)
		r.tick(ui.Input{})
	}
	done := r.a.Inspect().Mirror.Done
	require.NotNil(t, done, "the lesson is complete")
	require.Len(t, done.Predictions, 1)
	assert.Contains(t, done.Predictions[0], `You predicted "Accept it".`)
	assert.Contains(t, done.Predictions[0], "What happened: storage rejected A's late write with token 7")
	assert.Contains(t, done.Predictions[0], "not what you predicted.")
	assert.Contains(t, sc.Player.Lesson.Body, "Your prediction: "+done.Predictions[0], "the canvas panel's recap")
}

// The question's rows on the canvas are its declarations: an option per
// control the page lists under the same id, in the same order, with the
// control's words after its digit key, and the skip with its key.
func TestThePredictionsRowsAreThePagesControls(t *testing.T) {
	r, sc := openFencedAtTheQuestion(t)
	_, cs := predictGroup(r)
	require.NotEmpty(t, cs)
	var rows []player.CardRow
	for _, row := range sc.Player.PredictRows() {
		if row.ID != "" {
			rows = append(rows, row)
		}
	}
	require.Len(t, rows, len(cs), "a canvas row per control the page lists")
	regions := r.a.Inspect().Regions
	for i, c := range cs {
		assert.Equal(t, c.ID, rows[i].ID)
		assert.Contains(t, strings.Join(rows[i].Lines, " "), c.Label, "%s: the canvas's words are the declaration's", c.ID)
		assert.Equal(t, rows[i].Rect, regions[c.ID], "%s: the canvas's region is named by the page's id", c.ID)
	}
	assert.Equal(t, ui.WithKey("Play on without predicting", ui.IntentPlayPause), strings.Join(rows[len(rows)-1].Lines, " "))
}
