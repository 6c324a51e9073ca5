package ui

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWorldLayoutKeepsActorsApartAndInside(t *testing.T) {
	for _, size := range [][2]float64{{1024, 640}, {1280, 800}, {1920, 1080}, {3840, 2160}, {1366, 768}} {
		l := LayoutPlayer(Rect{W: size[0], H: size[1]}, 1)
		for n := 1; n <= 6; n++ {
			g := LayoutWorld(l.World, l.Unit, n)
			if !g.Coord.Within(l.World) || !g.Store.Within(l.World) {
				t.Fatalf("%v n=%d: coordinator or store outside the world", size, n)
			}
			if g.Coord.Overlaps(g.Store) || g.Store.Overlaps(g.Legend) || g.Coord.Overlaps(g.Caption) {
				t.Fatalf("%v n=%d: coordinator overlaps store", size, n)
			}
			for i, c := range g.Procs {
				ring := Rect{X: c.X - g.Ring, Y: c.Y - g.Ring, W: 2 * g.Ring, H: 2 * g.Ring}
				for _, r := range []Rect{ring, g.Badges[i]} {
					if !r.Within(l.World) || r.Overlaps(g.Coord) || r.Overlaps(g.Store) || r.Overlaps(g.Legend) || r.Overlaps(g.Caption) {
						t.Fatalf("%v n=%d: process %d (%v) collides or leaves the world", size, n, i, r)
					}
				}
				if i > 0 {
					prev := g.Badges[i-1]
					if prev.Overlaps(g.Badges[i]) || c.X-g.Procs[i-1].X < 2*g.Ring {
						t.Fatalf("%v n=%d: processes %d and %d overlap", size, n, i-1, i)
					}
				}
				if g.HitProcess(c) != i || g.HitProcess(Point{g.Badges[i].Center().X, g.Badges[i].Center().Y}) != i {
					t.Fatalf("%v n=%d: hit test misses process %d", size, n, i)
				}
			}
			if g.HitProcess(g.Coord.Center()) != -1 {
				t.Fatalf("%v: the coordinator hits a process", size)
			}
		}
	}
}

func TestPopoverStaysInsideTheWorld(t *testing.T) {
	l := LayoutPlayer(Rect{W: 1024, H: 640}, 1)
	g := LayoutWorld(l.World, l.Unit, 5)
	for i := range g.Procs {
		box, items := g.Popover(i, 4, l.Unit)
		if !box.Within(l.World) {
			t.Fatalf("popover %d outside the world: %v in %v", i, box, l.World)
		}
		for k, it := range items {
			if !it.Within(box) || (k > 0 && it.Overlaps(items[k-1])) {
				t.Fatalf("popover %d item %d misplaced", i, k)
			}
		}
	}
}

func TestTimelineMapsTimeBothWays(t *testing.T) {
	g := LayoutTimeline(Rect{W: 800, H: 160}, 1, 2, 90)
	for _, sec := range []float64{0, 13.5, 45, 90} {
		if got := g.T(g.X(sec)); got < sec-1e-9 || got > sec+1e-9 {
			t.Fatalf("T(X(%v)) = %v", sec, got)
		}
	}
	if g.X(-5) != g.Lanes.X || g.X(500) != g.Lanes.MaxX() {
		t.Fatal("X does not clamp")
	}
	if g.Lane(1).Y <= g.Lane(0).Y || g.Lane(1).Overlaps(g.Lane(0)) {
		t.Fatal("lanes overlap")
	}
	if s := TickStep(90, 10); s != 10 {
		t.Fatalf("tick step for 90s: %v", s)
	}
}

// A process's tag ("crashed", "paused") sits between the coordinator's
// card and the process's rings, clear of both, at every size the lab is
// drawn at, the phone's canvas included: on a phone it once crossed the
// card's border.
func TestTheTagAboveARingClearsTheCoordinatorsCard(t *testing.T) {
	for _, size := range [][2]float64{{390, 844}, {844, 390}, {1024, 640}, {1280, 800}, {1920, 1080}} {
		l := LayoutPlayer(Rect{W: size[0], H: size[1]}, 1)
		for n := 1; n <= 6; n++ {
			g := LayoutWorld(l.World, l.Unit, n)
			require.NotEmpty(t, g.Procs)
			ringTop := g.Procs[0].Y - g.Ring
			tagTop := ringTop - math.Round(l.Unit*(TagH/2+2)) - math.Round(l.Unit*TagH)/2
			tagBottom := tagTop + math.Round(l.Unit*TagH)
			assert.Greater(t, tagTop, g.Coord.MaxY(), "%v n=%d: the tag starts below the card", size, n)
			assert.Less(t, tagBottom, ringTop, "%v n=%d: the tag ends above the rings", size, n)
		}
	}
}

// A lock world LockWorldMinH tall keeps its state badges clear of the
// store's card, with a gap, and under their rings (issue 29: in Compare
// systems at 1024x640 they lay 7 px over its top border).
func TestBadgesClearTheStoreInALockWorldMinHTall(t *testing.T) {
	for _, w := range []float64{318, 500} {
		for n := 1; n <= 5; n++ {
			h := LockWorldMinH(w, 1, n, Badges{})
			require.Greater(t, h, 0.0)
			g := LayoutWorld(Rect{X: 22, Y: 146, W: w, H: h}, 1, n)
			for i, b := range g.Badges {
				assert.LessOrEqual(t, b.MaxY(), g.Store.Y-6, "%.0f wide, %d: badge %d %v over the store %v", w, n, i, b, g.Store)
				assert.GreaterOrEqual(t, b.Y, g.Procs[i].Y+g.Ring, "%.0f wide, %d: badge %d under its rings", w, n, i)
			}
			short := LayoutWorld(Rect{X: 22, Y: 146, W: w, H: h - 1}, 1, n)
			assert.Greater(t, short.Badges[0].MaxY(), short.Store.Y-6, "%.0f wide, %d: the least such height", w, n)
		}
	}
}
