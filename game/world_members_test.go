package game

import (
	"fmt"
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// clusterAt opens lesson 14 in a rig of size w x h (phone: the browser's
// upright phone canvas, the panel outside it) with its solution played to
// at.
func clusterAt(t *testing.T, w, h float64, phone bool, at time.Duration) (*appRig, *lesson.Scene) {
	t.Helper()
	r := rigWith(t, nil)
	if phone {
		r.st.Window = ui.Rect{W: w, H: h}
		r.st.Style = draw.NewStyle(ui.UnitForBare(w, h, 3))
		r.st.Style.PanelOutside = true
		r.tick(ui.Input{})
	} else {
		r.resize(w, h)
	}
	r.click("lesson:coordinator-cluster")
	sc := r.a.top().(*lesson.Scene)
	sc.Lab.LoadSolution()
	sc.Lab.Advance(at)
	r.tick(ui.Input{})
	return r, sc
}

// At 25 s of lesson 14 member-3 leads in term 3 and member-2 is cut off
// from its peers: the world draws the three members where the
// coordinator was, each in its own cell with its name and its state, the
// bridge names each cell, and no word is cut or overlaps another, at
// 1024x640, 1280x800 and on a phone.
func TestAClusterWorldDrawsEveryMember(t *testing.T) {
	sizes := []struct {
		w, h  float64
		phone bool
	}{{1024, 640, false}, {1280, 800, false}, {1170, 1390, true}}
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%.0fx%.0f", sz.w, sz.h), func(t *testing.T) {
			r, sc := clusterAt(t, sz.w, sz.h, sz.phone, 25*time.Second)
			shot := r.record(fmt.Sprintf("cluster-members-%.0fx%.0f", sz.w, sz.h))
			v := sc.Lab.World()
			require.Len(t, v.Members, 3)
			require.Equal(t, "member-3", v.LeaderName)
			require.EqualValues(t, 3, v.Term)

			regions := r.a.Inspect().Regions
			world := regions["world"]
			cells := view.MemberCells(sc.World().Geom().Coord, sc.World().Unit(), 3)
			inCell := func(i int, text string) bool {
				for _, d := range shot.drawn {
					if d.Text == text && d.Box.Within(cells[i]) {
						return true
					}
				}
				return false
			}
			for i, m := range v.Members {
				assert.Equal(t, cells[i], regions["proc:"+m.Name], "the bridge names %s's cell", m.Name)
				assert.True(t, cells[i].Within(world), "%s's cell inside the world", m.Name)
				assert.True(t, inCell(i, m.Name), "%s's name in its cell", m.Name)
				if i > 0 {
					assert.False(t, cells[i-1].Overlaps(cells[i]), "cells apart")
				}
			}
			assert.True(t, inCell(2, "leader · term 3") || inCell(2, "leader 3"), "member-3's cell says it leads, in term 3")
			assert.True(t, inCell(1, "cut off") || inCell(1, "cut"), "member-2's cell says it is cut off")
			// The world and the timeline (the phone rig's play bar cuts
			// its speed, "1×", in every lesson: not this world's doing).
			assert.Empty(t, shot.within(world, regions["timeline"]).offenders())
		})
	}
}

// within is the part of s drawn inside one of rects.
func (s screenText) within(rects ...ui.Rect) screenText {
	out := screenText{name: s.name}
	for _, d := range s.drawn {
		for _, r := range rects {
			if d.Box.Within(r) {
				out.drawn = append(out.drawn, d)
				break
			}
		}
	}
	return out
}

// A member is selected by its digit like a process (A and B are 1 and 2,
// member-1 is 3), its menu is worked by the keyboard, and what it does is
// narrated; the page offers the same actions as buttons, grouped under
// the member and its state.
func TestAMemberIsSelectedAndActedOnByKeyboard(t *testing.T) {
	r, sc := clusterAt(t, 1024, 640, false, 32*time.Second)
	sc.Lab.Seek(32 * time.Second) // the solution's reads lie ahead: act here
	r.tick(ui.Input{})
	r.tick(ui.Input{Digit: 4})
	w := sc.World()
	require.Equal(t, "member-2", w.SelectedName())
	said := r.a.Inspect().Mirror.Narration
	assert.Contains(t, said[len(said)-1], "Selected member-2: out of the quorum, cut off from its peers")

	var ids []string
	for _, m := range w.Menu() {
		ids = append(ids, m.ID)
	}
	require.Equal(t, []string{"crash", "pause", "heal:peers", "partition:clients", "disk-normal", "read", "read-linearizable"}, ids)
	for w.Highlighted() != 5 {
		r.key(ui.IntentDown)
	}
	r.key(ui.IntentActivate)
	sc.Lab.Advance(10 * time.Millisecond)
	r.tick(ui.Input{})
	var text []string
	for _, l := range sc.Lab.Narration() {
		text = append(text, l.Text)
	}
	assert.Contains(t, strings.Join(text, "\n"), "member-2 answered a serializable read: B holds the lock (stale")

	// The page: every member's actions as buttons, grouped by member.
	r.st.Style.PanelOutside = true
	r.tick(ui.Input{})
	c, ok := r.control("act:member-2:read-linearizable")
	require.True(t, ok, "the page offers member-2's linearizable read")
	assert.Equal(t, "member-2: out of the quorum, cut off from its peers, slow disk (300 ms syncs)", c.Group)
	c, ok = r.control("act:member-2:heal:peers")
	require.True(t, ok)
	assert.Equal(t, "act:member-2:partition:peers", c.Slot, "heal keeps the cut's place on the page")
	r.use("act:member-1:crash", 0)
	assert.True(t, sc.Lab.World().Members[0].Crashed, "the page's Crash crashed member-1")
}

// The timeline marks each change of the coordinator's leader with a
// line and its term, and the legend says what the line is.
func TestTheTimelineMarksLeaderChanges(t *testing.T) {
	r, _ := clusterAt(t, 1280, 800, false, 70*time.Second)
	shot := r.record("cluster-timeline-1280x800")
	tl := r.a.Inspect().Regions["timeline"]
	var terms int
	var legend bool
	for _, d := range shot.drawn {
		if strings.HasPrefix(d.Text, "term ") && d.Box.Within(tl) {
			terms++
		}
		legend = legend || strings.Contains(d.Text, "blue line: new coordinator leader")
	}
	assert.GreaterOrEqual(t, terms, 2, "leader changes labelled with their term on the timeline")
	assert.True(t, legend, "the timeline's legend says what the blue line is")
	assert.Empty(t, shot.offenders())
}
