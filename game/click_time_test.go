package game

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/lesson"
	"leaselab/game/ui"
)

// A click on the world while time runs acts at the time the learner saw
// when they clicked, the time of the frame they clicked on, not one tick
// of play later: pausing A "just before its lease runs out" pauses it
// there.
func TestAClickWhileTimeRunsActsAtTheTimeShown(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc, ok := r.a.top().(*lesson.Scene)
	require.True(t, ok, "the lesson opened")
	sc.Lab.Advance(4 * time.Second)
	r.click("proc:A")
	sc.Player.SetPlaying(true)
	r.tick(ui.Input{})
	require.True(t, sc.Player.Playing())
	c := r.region("act:A:pause").Center()
	r.tick(ui.Input{Cursor: c, MouseDown: true, MouseJustDown: true})
	shown := sc.Lab.Now() // the frame the learner releases the button on
	r.tick(ui.Input{Cursor: c, MouseJustUp: true})
	log := sc.Lab.Log()
	require.NotEmpty(t, log, "the click paused A")
	last := log[len(log)-1]
	assert.Equal(t, core.VerbPause, last.Do)
	assert.Equal(t, shown, time.Duration(last.At), "the pause acts at the time shown, not a tick later")
	assert.Greater(t, sc.Lab.Now(), shown, "and time ran on after it")
}
