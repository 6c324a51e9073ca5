package game

import (
	"leaselab/game/lesson"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/player"
	"leaselab/game/ui"
)

// whyControls are the page's Why? controls of the screen on show.
func whyControls(r *appRig) []Control {
	var out []Control
	for _, c := range r.a.Inspect().Mirror.Controls {
		if c.Group == player.GroupWhy {
			out = append(out, c)
		}
	}
	return out
}

// A learner who paused the leader asks why: Q opens the chain of causes of
// the last thing that happened, back to their pause, said in the
// narration and listed as buttons for the page; a step's button moves the
// play head there and asks why of it; Esc closes.
func TestWhyTellsTheChainBackToTheLearnersAction(t *testing.T) {
	r := newAppRig(t)
	sc := pausedRun(t, r)
	require.Len(t, whyControls(r), 1, "Why? is offered, closed")

	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentWhy)})
	said := lastLine(r)
	require.True(t, strings.HasPrefix(said, "Why? "), said)
	assert.Contains(t, said, "because")
	assert.Contains(t, said, "It began with the action at 4 s: pause A", "the chain ends at the learner's pause")

	steps := whyControls(r)
	require.Greater(t, len(steps), 3, "the question, its causes and Close")
	assert.True(t, strings.HasPrefix(steps[1].Label, "Why? ["), steps[1].Label)
	assert.Equal(t, player.WhyCloseID, steps[len(steps)-1].ID)

	// Go to the first cause: the play head moves back to it.
	cause := steps[2]
	require.True(t, strings.HasPrefix(cause.ID, player.WhyGo), cause.ID)
	before := sc.Lab.Now()
	r.tick(ui.Input{Host: []ui.HostAction{{ID: cause.ID}}})
	assert.Less(t, sc.Lab.Now(), before, "the play head went back to the cause")
	assert.True(t, strings.HasPrefix(whyControls(r)[1].Label, "Why? "+strings.TrimPrefix(cause.Label, "because ")), "and Why? now asks about it")

	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentBack)})
	assert.Len(t, whyControls(r), 1, "Esc closes the card")
	assert.NotNil(t, r.a.top().(*lesson.Scene), "and stays in the lesson")
}

// Every line of "What happened" that tells an event carries it, so the
// page's Why? on that line explains that very event.
func TestWhyOfALineOfWhatHappened(t *testing.T) {
	r := newAppRig(t)
	pausedRun(t, r)
	m := r.a.Inspect().Mirror
	require.Equal(t, len(m.Narration), len(m.NarrationSeq))
	asked := -1
	for i, seq := range m.NarrationSeq {
		if seq >= 0 && strings.Contains(m.Narration[i], "acquired") {
			asked = i
		}
	}
	require.GreaterOrEqual(t, asked, 0, "a line tells who acquired the lock: %q", m.Narration)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "why:" + strconv.Itoa(m.NarrationSeq[asked])}}})
	steps := whyControls(r)
	require.Greater(t, len(steps), 1)
	assert.Contains(t, steps[1].Label, "acquired", "Why? explains the line asked about")

	r.tick(ui.Input{Host: []ui.HostAction{{ID: "why:999999"}}})
	assert.Contains(t, lastLine(r), "Nothing has happened yet", "an event the run has not reached is not explained")
}

// Before anything happened there is nothing to explain, and Why? says so.
func TestWhyBeforeAnythingHappened(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentWhy)})
	if sc := r.a.top().(*lesson.Scene); sc.Lab.Now() < time.Second {
		assert.Contains(t, lastLine(r), "Nothing has happened yet")
	}
}

// The Why? card's steps on the canvas are its declarations: each step the
// page lists is a row of the card under the same id and words, and a click
// on the row does what the page's use does (the play head goes to the same
// cause, and the card asks why of it), through the player's one door.
func TestTheWhyCardsRowsAreThePagesControls(t *testing.T) {
	steps := func(r *appRig) []Control { cs := whyControls(r); return cs[1 : len(cs)-1] }
	open := func() (*appRig, *lesson.Scene) {
		r := newAppRig(t)
		sc := pausedRun(t, r)
		r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentWhy)})
		r.tick(ui.Input{})
		return r, sc
	}
	r, sc := open()
	cs := steps(r)
	require.NotEmpty(t, cs)
	rows := map[string]string{}
	for _, row := range sc.Player.WhyRows() {
		if row.ID != "" {
			rows[row.ID] = strings.Join(row.Lines, " ")
		}
	}
	require.Len(t, rows, len(cs), "a canvas row per step the page lists")
	for _, c := range cs {
		assert.Equal(t, c.Label, rows[c.ID], "%s: the canvas's words are the declaration's", c.ID)
	}
	cause := cs[1]
	r.tick(ui.Input{Host: []ui.HostAction{{ID: cause.ID}}})
	pageAt, pageSaid := sc.Lab.Now(), lastLine(r)

	r, sc = open()
	require.Contains(t, r.a.Inspect().Regions, cause.ID, "the canvas names the row by the page's id")
	r.click(cause.ID)
	assert.Equal(t, pageAt, sc.Lab.Now(), "the canvas's click went to the same cause")
	assert.Equal(t, pageSaid, lastLine(r), "and asked why of it alike")
}
