package game

import (
	"leaselab/game/lesson"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/place"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// phoneSolution opens lesson id on the phone with its solution played to
// at (to its end if at is negative).
func phoneSolution(t *testing.T, id string, at time.Duration) (*appRig, *lesson.Scene) {
	r := phoneRig(t)
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Lesson, ID: id}))
	r.tick(ui.Input{})
	sc := r.a.top().(*lesson.Scene)
	l := sc.Lab.Lesson
	require.NoError(t, sc.Lab.Resume(l.SolutionKnobs, l.Solution))
	if at < 0 {
		at = l.Duration
	}
	sc.Lab.Advance(at)
	return r, sc
}

// On the phone the scheduler's five processes are too narrow for a badge
// of one line, so a leader's badge takes two (its name over "leader 42"):
// mid-lesson and with the lesson complete (a banner over the world then
// takes some of its height), it ends clear of the job queue's card below
// it, with a gap, and starts below its rings (issue 29: the two-line badge
// touched the card's top border, and crossed it once the lesson was done).
func TestATwoLineBadgeStaysClearOfTheCardBelow(t *testing.T) {
	for _, done := range []bool{false, true} {
		at := 10 * time.Second
		if done {
			at = -1
		}
		r, sc := phoneSolution(t, "scheduler", at)
		r.tick(ui.Input{})

		w, h := int(r.st.Window.W), int(r.st.Window.H)
		img := ebiten.NewImage(w, h)
		r.a.Draw(img)
		s, g := r.st.Style, sc.World().Geom()
		leader := -1
		for i, p := range sc.World().Snapshot().Procs {
			if p.Believes {
				leader = i
			}
		}
		require.GreaterOrEqual(t, leader, 0, "a leader (done: %v)", done)
		badge := func(x, y float64) bool { return img.At(int(x), int(y)) == s.Theme.Pressed }
		x := g.Badges[leader].Center().X
		require.True(t, badge(x, g.Badges[leader].Y+s.U(2)), "the leader's badge is drawn where it was laid out (done: %v)", done)
		for y := g.Store.Y - s.U(4); y < g.Store.Y; y++ {
			assert.False(t, badge(x, y), "done: %v: the leader's badge reaches y = %.0f, within %.0f px of the card's top (y = %.0f)", done, y, s.U(4), g.Store.Y)
		}
		ring := g.Procs[leader].Y + g.Ring
		assert.LessOrEqual(t, ring, view.TwoLineBadge(g.Badges[leader], view.TwoLineBadgeH(s), ring, g.Store.Y-s.U(6)).Y,
			"the badge starts below the rings (done: %v)", done)
		img.Deallocate()
	}
}

// On the phone two neighbours crashed side by side (Q1 and Q2 at the end
// of the election lesson) each keep their "crashed" tag whole: the tags'
// pills, each no wider than its process's slot, do not cover each other
// (issue 29: Q2's pill hid the end of Q1's, "crashec").
func TestNeighboursConditionTagsDoNotCoverEachOther(t *testing.T) {
	r, _ := phoneSolution(t, "election-order", -1)
	shot := r.record("election-order-done-phone")
	var tags []ui.Rect
	for _, d := range shot.drawn {
		if d.Text == "crashed" {
			tags = append(tags, d.Box)
		}
	}
	require.GreaterOrEqual(t, len(tags), 3, "H1, Q1 and Q2 crashed")
	for i, a := range tags {
		for _, b := range tags[i+1:] {
			overlap := min(a.MaxX(), b.MaxX()) - max(a.X, b.X)
			assert.LessOrEqual(t, overlap, 0.0, "the pills %v and %v overlap by %.0f px", a, b, overlap)
		}
	}
}

// A crashed process says so in its badge, in plain words, and keeps its
// name readable: its old state stayed in the badge ("api-1 · waiting")
// and the red cross covered its name's letter. The cross is drawn clear
// of the name, and nothing in the world still says it waits.
func TestACrashedProcessSaysItIsDownAndKeepsItsName(t *testing.T) {
	for _, phone := range []bool{false, true} {
		r := newAppRig(t)
		if phone {
			r = phoneRig(t)
		}
		require.NoError(t, r.a.Goto(place.Place{Kind: place.Lesson, ID: "fenced-writes"}))
		r.tick(ui.Input{})
		sc := r.a.top().(*lesson.Scene)
		sc.Lab.Seek(4 * time.Second)
		require.NoError(t, sc.Lab.Do(core.Crash("A")))
		r.tick(ui.Input{})

		w, h := int(r.st.Window.W), int(r.st.Window.H)
		img := ebiten.NewImage(w, h)
		stop := draw.Record()
		r.a.Draw(img)
		drawn := stop()
		draw.EndFrame()
		g := sc.World().Geom()
		var name, badge *draw.Drawn
		for i, d := range drawn {
			if d.Text == "A" && d.Ink.Overlaps(ui.Rect{X: g.Procs[0].X - g.Ring, Y: g.Procs[0].Y - g.Ring, W: 2 * g.Ring, H: 2 * g.Ring}) {
				name = &drawn[i]
			}
			if d.Ink.Overlaps(g.Badges[0]) {
				badge = &drawn[i]
			}
		}
		require.NotNil(t, badge, "A's badge (phone: %v)", phone)
		assert.Contains(t, []string{"down (crashed)", "down"}, badge.Text, "phone: %v", phone)
		require.NotNil(t, name, "A's name in its circle (phone: %v)", phone)
		red := 0
		ink := name.Ink.InsetXY(1, 1)
		for y := int(ink.Y); y < int(ink.MaxY()); y++ {
			for x := int(ink.X); x < int(ink.MaxX()); x++ {
				if img.At(x, y) == r.st.Style.Theme.Reject {
					red++
				}
			}
		}
		assert.Zero(t, red, "the cross covers A's name (phone: %v)", phone)
		img.Deallocate()
	}
}
