package game

import (
	"encoding/json"
	"leaselab/game/lesson"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/ui"
	"leaselab/game/view"
)

// Every view draws from the state the tick left. The world used to take
// its snapshot before the timeline's seek (or its own action) was
// applied, so it was drawn one tick behind the timeline.
func TestTheWorldAndTimelineShowTheSameInstantAfterATick(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	tl := sc.Player.Timeline.(*view.Timeline)

	lanes := r.region("lanes")
	r.tick(ui.Input{Cursor: lanes.Center(), MouseDown: true, MouseJustDown: true})
	require.Greater(t, sc.Lab.Now(), time.Duration(0), "the press on the lanes seeks")
	assert.Equal(t, sc.Lab.Now(), sc.World().Snapshot().Now, "the world shows the instant sought")
	assert.Equal(t, sc.Lab.Now(), tl.Run().Now, "and so does the timeline")
	r.tick(ui.Input{Cursor: lanes.Center(), MouseJustUp: true})

	r.click("proc:A")
	r.click("act:A:pause")
	a := sc.World().Snapshot().Procs[0]
	require.Equal(t, "A", a.Name)
	assert.True(t, a.Paused, "the world shows the pause in the tick that applied it")
}

// Drawing changes nothing: two draws of one tick leave the scene as it
// was, on the lesson player and on an exercise. The scene is compared as
// it reports itself (its JSON, as the page reads it): a control's action
// is a function, equal to nothing but itself.
func TestDrawingLeavesTheSceneAsItWas(t *testing.T) {
	r := newAppRig(t)
	screen := ebiten.NewImage(1280, 800)
	reported := func() string {
		b, err := json.Marshal(r.a.Inspect())
		require.NoError(t, err)
		return string(b)
	}
	for _, open := range []string{"lesson:fenced-writes", "menu", "exercise:renew-ttl-pause"} {
		r.click(open)
		before := reported()
		r.a.Draw(screen)
		r.a.Draw(screen)
		assert.JSONEq(t, before, reported(), open)
	}
}

// A search runs one slice per frame drawn, however many ticks the game
// loop runs to catch up between two frames.
func TestASearchSlicesOncePerFrameDrawn(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	r.st.Frame = 5
	r.click("explore")
	require.True(t, sc.Finder().Searching())
	tried := func() int { n, _ := sc.Finder().Progress(); return n }
	first := tried()
	require.Positive(t, first, "the press ran the first slice")
	r.tick(ui.Input{})
	assert.Equal(t, first, tried(), "no frame drawn since: no slice")
	r.st.Frame++
	r.tick(ui.Input{})
	assert.Greater(t, tried(), first, "a frame drawn: the next slice")
}
