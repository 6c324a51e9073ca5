package ui

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowsWindow is a window the world of several lock groups must fit: a
// small laptop's with the lesson panel, or a phone's canvas held upright
// (390 CSS px at 3x, the page showing the panel).
type rowsWindow struct {
	name   string
	window Rect
	u      float64
	panel  bool
}

var rowsWindows = []rowsWindow{
	{"1024x640", Rect{W: 1024, H: 640}, UnitFor(1024, 640, 1), true},
	{"1280x800", Rect{W: 1280, H: 800}, UnitFor(1280, 800, 1), true},
	{"phone", Rect{W: 1170, H: 1392}, UnitForBare(1170, 1392, 3), false},
}

// worldIn is the world's area in window w for shape s, as the player
// lays it out: it asks for the world's least height (WorldMinH) and gets
// it from the timeline's growth for lanes.
func (w rowsWindow) worldIn(s WorldShape, lanes int) Rect {
	needs := PlayerNeeds{Lanes: lanes}
	l := LayoutPlayerWith(w.window, w.u, needs, w.panel)
	if h := WorldMinH(l.World.W, w.u, s); h > l.World.H {
		needs.WorldH = h
		l = LayoutPlayerWith(w.window, w.u, needs, w.panel)
	}
	return l.World
}

// groupsShape is a world of lock groups of the given sizes (and shard
// workers, if any) whose processes have names line units wide, too wide
// for their circles: their badges take two lines where one does not
// hold the name beside the state.
func groupsShape(u, line float64, workers int, sizes ...int) WorldShape {
	s := WorldShape{Workers: workers, Badges: Badges{Two: 42 * u, OneW: (line + 60) * u}}
	if workers > 0 {
		s.Shards, s.Switch = 4, true
	}
	for _, n := range sizes {
		var g []int
		for range n {
			g = append(g, s.Procs)
			s.Procs++
		}
		s.Groups = append(s.Groups, g)
		s.Lines = append(s.Lines, line*u)
	}
	return s
}

// Four lock groups (or three beside shard workers, the troubleshooting
// lesson's world) at 1024x640, 1280x800 and on the phone: each pane lies
// inside the world's body and overlaps no other, each process's badge is
// wide enough for its name on a line, and its rings with a badge of two
// lines under them (where one line does not hold name and state) fit
// between its card and the pane's bottom (issue 31: in one row the
// indexers' and the compactors' names were cut).
func TestLockGroupsWrapToRowsThatFitTheWorld(t *testing.T) {
	for _, w := range rowsWindows {
		for _, c := range []struct {
			workers int
			sizes   []int
		}{{0, []int{2, 2, 4, 2}}, {2, []int{2, 2, 4}}, {0, []int{3, 3, 3, 3}}, {0, []int{2, 2, 2, 2, 2}}} {
			t.Run(fmt.Sprintf("%s/%d workers/%v", w.name, c.workers, c.sizes), func(t *testing.T) {
				s := groupsShape(w.u, 64, c.workers, c.sizes...)
				area := w.worldIn(s, s.Procs+c.workers)
				v := LayoutWorldView(area, w.u, s)
				_, body, legend := WorldFrame(area, w.u)
				require.Len(t, v.Panes, len(s.Groups))
				panes := append([]Rect(nil), v.Panes...)
				if c.workers > 0 {
					require.NotNil(t, v.Shard)
					panes = append(panes, v.ShardArea)
				}
				for i, p := range panes {
					assert.True(t, p.Within(body), "pane %d %+v outside the world's body %+v", i, p, body)
					assert.False(t, p.Overlaps(legend), "pane %d %+v over the legend %+v", i, p, legend)
					for k, q := range panes[i+1:] {
						assert.False(t, p.Overlaps(q), "panes %d %+v and %d %+v overlap", i, p, i+1+k, q)
					}
				}
				for gi, g := range v.PaneGeom {
					pane := v.Panes[gi]
					assert.True(t, g.Coord.Within(pane), "group %d's card %+v outside its pane %+v", gi, g.Coord, pane)
					for k, ctr := range g.Procs {
						b := g.Badges[k]
						assert.GreaterOrEqual(t, b.W-3*w.u, s.Lines[gi], "group %d process %d: badge %+v too narrow for its name", gi, k, b)
						assert.True(t, b.X >= pane.X && b.MaxX() <= pane.MaxX(), "group %d process %d: badge %+v outside %+v", gi, k, b, pane)
						assert.GreaterOrEqual(t, ctr.Y-g.Ring, g.Coord.MaxY(), "group %d process %d: rings over the card", gi, k)
						if b.W < s.Badges.OneW {
							assert.LessOrEqual(t, ctr.Y+g.Ring+s.Badges.Two, pane.MaxY(), "group %d process %d: no room for a badge of two lines under the rings", gi, k)
						} else {
							assert.LessOrEqual(t, b.MaxY(), pane.MaxY(), "group %d process %d: badge %+v under the pane", gi, k, b)
						}
					}
				}
				hits := append(append([]Rect(nil), v.ProcHits...), v.WorkerHits...)
				for i, a := range hits {
					for _, b := range hits[i+1:] {
						assert.False(t, a.Overlaps(b), "actors overlap: %+v %+v", a, b)
					}
				}
			})
		}
	}
}

// Lock groups whose badges hold their names in one row keep the one-row
// layout they always had, pixel for pixel, and ask for no height.
func TestLockGroupsThatFitOneRowDoNotWrap(t *testing.T) {
	l := LayoutPlayer(Rect{W: 1280, H: 800}, 1)
	for _, sizes := range [][]int{{2, 2}, {5, 5}, {2, 2, 4}} {
		s := groupsShape(1, 40, 0, sizes...)
		before := s
		before.Lines = nil
		assert.Equal(t, LayoutWorldView(l.World, 1, before), LayoutWorldView(l.World, 1, s), "%v", sizes)
		assert.Zero(t, WorldMinH(l.World.W, 1, s), "%v", sizes)
	}
	// Without Lines, never: as every world before them.
	s := groupsShape(1, 64, 0, 4, 4, 4, 4)
	s.Lines = nil
	assert.Zero(t, WorldMinH(l.World.W, 1, s))
	assert.Len(t, distinct(LayoutWorldView(l.World, 1, s).Panes, func(r Rect) float64 { return r.Y }), 1)
}

// distinct is the distinct values of key over rs.
func distinct(rs []Rect, key func(Rect) float64) map[float64]bool {
	out := map[float64]bool{}
	for _, r := range rs {
		out[key(r)] = true
	}
	return out
}

// A world that needs more height takes it from the timeline's growth for
// its lanes, never from the timeline's usual height; a world that needs
// none leaves the layout as it was.
func TestTheWorldsLeastHeightComesFromTheLanesGrowth(t *testing.T) {
	win := Rect{W: 1024, H: 640}
	grown := LayoutPlayerWith(win, 1, PlayerNeeds{Lanes: 14}, true)
	usual := LayoutPlayerWith(win, 1, PlayerNeeds{Lanes: 1}, true)
	require.Greater(t, grown.Timeline.H, usual.Timeline.H, "many lanes grow the timeline")
	assert.Equal(t, LayoutPlayerAt(win, 1, 0, 14), grown)

	need := grown.World.H + 40
	l := LayoutPlayerWith(win, 1, PlayerNeeds{Lanes: 14, WorldH: need}, true)
	assert.Equal(t, need, l.World.H, "the world gets what it needs")
	assert.Equal(t, grown.World.H+grown.Timeline.H, l.World.H+l.Timeline.H, "from the timeline")

	l = LayoutPlayerWith(win, 1, PlayerNeeds{Lanes: 14, WorldH: 10000}, true)
	assert.Equal(t, usual.Timeline.H, l.Timeline.H, "the timeline keeps its usual height")
	assert.Equal(t, usual.World, l.World)
}
