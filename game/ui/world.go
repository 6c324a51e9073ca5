package ui

import "math"

// WorldGeom places the actors of a lock world inside the world region: the
// coordinator in a band at the top, the fenced store in a band at the
// bottom, the processes on a row between them, so every process's link up
// to the coordinator and down to the store crosses no other actor.
type WorldGeom struct {
	Area    Rect
	Caption Rect
	Legend  Rect
	Coord   Rect
	Store   Rect
	Procs   []Point // process centres
	R       float64 // process circle radius
	// Ring is the outer radius of a process's two lease rings; Badges are
	// the state badges under the processes.
	Ring   float64
	Badges []Rect
}

// TagH is the height, in layout units, of the tag drawn above a process's
// rings ("crashed", "paused"), centred TagH/2+2 units above them.
const TagH = 20

// TagAbove reports whether a process's tag fits between the card whose
// bottom is at ceiling and rings of radius ring centred at y, with unit u
// (else it goes beside the rings).
func TagAbove(ceiling, y, ring, u float64) bool {
	return y-ring-math.Round(u*(TagH+2)) >= ceiling+math.Round(u*2)
}

// LayoutWorld lays out n processes in area with layout unit u.
func LayoutWorld(area Rect, u float64, n int) WorldGeom { return layoutWorld(area, u, n, Badges{}) }

// Badges is what the state badges under the processes may need: Two, the
// height of a badge of two lines (a name over a state), where a badge is
// narrower than OneW, the width of the widest badge of one line. Zero:
// one line always does.
type Badges struct{ Two, OneW float64 }

// layoutWorld is LayoutWorld whose rings leave room under them for badges
// of two lines where b says they may take two.
func layoutWorld(area Rect, u float64, n int, b Badges) WorldGeom {
	px := func(v float64) float64 { return math.Round(v * u) }
	g := WorldGeom{Area: area}
	in := area.Inset(px(14))
	g.Caption, in = in.CutTop(px(20), px(6))
	g.Legend, in = in.CutBottom(px(18), px(8))

	bandW := math.Min(in.W, px(620))
	coordH := math.Min(px(118), math.Round(in.H*0.34))
	storeH := math.Min(px(78), math.Round(in.H*0.24))
	badgeH := px(22)
	slot := in.W / float64(max(n, 1))
	bw := math.Min(slot-badgeGap(slot, u), px(150))
	under := badgeH + px(6)
	if bw < b.OneW {
		// A badge of two lines starts right under the rings if it must
		// (see the game's twoLineBadge): the rings leave it that room.
		under = math.Max(under, b.Two)
	}
	// Room between the card and the rings for a "paused" or "crashed"
	// tag (TagH) with a clear line each side: with less, on a phone the
	// tag crossed the card's border. Where the world is too short for
	// that with the smallest rings and their badges (a small world of
	// Compare systems on a phone), the cards give up their empty room
	// first, then the gap, then the cards down to their two lines; the
	// game draws the tag beside the rings where it can (TagAbove).
	//
	// Still short, the badges' gap above the store gives up half; a world
	// shorter still lays its badges on the store's card, and LockWorldMinH
	// says how tall it must be not to.
	gap, storeGap := px(TagH+6), px(12)
	if short := coordH + gap + storeH + storeGap + 2*px(20) + under - in.H; n > 0 && short > 0 {
		for _, give := range []struct {
			h     *float64
			floor float64
		}{{&coordH, px(66)}, {&storeH, px(60)}, {&gap, px(12)}, {&coordH, px(60)}, {&storeH, px(46)},
			{&storeGap, px(6)}} {
			cut := math.Max(0, math.Min(short, *give.h-give.floor))
			*give.h, short = *give.h-cut, short-cut
		}
	}
	var top, bottom Rect
	top, in = in.CutTop(coordH, gap)
	bottom, in = in.CutBottom(storeH, storeGap)
	g.Coord = Rect{X: math.Round(top.X + (top.W-bandW)/2), Y: top.Y, W: bandW, H: top.H}
	g.Store = Rect{X: math.Round(bottom.X + (bottom.W-bandW)/2), Y: bottom.Y, W: bandW, H: bottom.H}

	if n < 1 {
		return g
	}
	g.Ring = math.Max(px(20), math.Min(math.Min(px(50), slot*0.3), (in.H-under)/2))
	g.R = g.Ring - px(16)
	cy := in.Y + g.Ring
	for i := 0; i < n; i++ {
		c := Point{X: math.Round(in.X + slot*(float64(i)+0.5)), Y: math.Round(cy)}
		g.Procs = append(g.Procs, c)
		g.Badges = append(g.Badges, Rect{X: math.Round(c.X - bw/2), Y: c.Y + g.Ring + px(6), W: bw, H: badgeH})
	}
	return g
}

// LockWorldMinH is the least height, in pixels at unit u, of a single
// lock world width wide with n processes whose state badges (b) end clear
// of the store's card, a gap above it: shorter, they lie on its top
// border. 0 for a world with no processes.
func LockWorldMinH(width, u float64, n int, b Badges) float64 {
	if n < 1 {
		return 0
	}
	clear := func(h float64) bool {
		g := layoutWorld(Rect{W: width, H: h}, u, n, b)
		return g.Badges[0].MaxY() <= g.Store.Y-math.Round(6*u)
	}
	lo, hi := 0.0, math.Round(2000*u) // clear(hi); lo is not
	for hi-lo > 1 {
		if mid := math.Floor((lo + hi) / 2); clear(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// HitProcess returns the process under p (its circle and rings), or -1.
func (g WorldGeom) HitProcess(p Point) int {
	for i, c := range g.Procs {
		if math.Hypot(p.X-c.X, p.Y-c.Y) <= g.Ring || g.Badges[i].Contains(p) {
			return i
		}
	}
	return -1
}

// Popover places a vertical menu of n buttons next to process i, inside the
// world area: to the right of the process if it fits, else to the left.
func (g WorldGeom) Popover(i, n int, u float64) (box Rect, items []Rect) {
	px := func(v float64) float64 { return math.Round(v * u) }
	w, h := px(150), px(36)
	gapY := px(6)
	box = Rect{W: w + 2*px(8), H: float64(n)*h + float64(n-1)*gapY + 2*px(8)}
	c := g.Procs[i]
	box.X = c.X + g.Ring + px(10)
	if box.MaxX() > g.Area.MaxX()-px(4) {
		box.X = c.X - g.Ring - px(10) - box.W
	}
	box.Y = c.Y - box.H/2
	box.X = clamp(box.X, g.Area.X+px(4), g.Area.MaxX()-box.W-px(4))
	box.Y = clamp(box.Y, g.Area.Y+px(4), g.Area.MaxY()-box.H-px(4))
	in := box.Inset(px(8))
	for k := 0; k < n; k++ {
		var r Rect
		r, in = in.CutTop(h, gapY)
		items = append(items, r)
	}
	return box, items
}

// TimelineGeom maps virtual time to x inside the timeline region.
type TimelineGeom struct {
	Caption, Labels, Lanes, Axis Rect
	Length                       float64 // seconds the run lasts
	LaneH                        float64
	// View is the part of the run the lanes show: the whole run unless
	// zoomed (see WithView).
	View TimeWindow
}

// LayoutTimeline lays out n lanes spanning length seconds.
func LayoutTimeline(area Rect, u float64, n int, length float64) TimelineGeom {
	px := func(v float64) float64 { return math.Round(v * u) }
	g := TimelineGeom{Length: math.Max(length, 1), View: WholeRun(length)}
	in := area.Inset(px(12))
	g.Caption, in = in.CutTop(px(18), px(4))
	g.Axis, in = in.CutBottom(px(16), px(4))
	g.Labels, g.Lanes = in.CutLeft(px(72), px(8))
	if n > 0 {
		g.LaneH = math.Min(px(44), g.Lanes.H/float64(n))
	}
	return g
}

// WithView is g showing the window v of its run (clamped to the run).
func (g TimelineGeom) WithView(v TimeWindow) TimelineGeom {
	g.View = v.Resize(g.Length)
	return g
}

// X returns the x of time t seconds (a time out of view at the nearer
// edge).
func (g TimelineGeom) X(t float64) float64 {
	return g.Lanes.X + g.Lanes.W*clamp(g.View.Fraction(t), 0, 1)
}

// InView reports whether time t is in the window the lanes show.
func (g TimelineGeom) InView(t float64) bool { return t >= g.View.From && t <= g.View.To }

// FractionAt is where x falls across the lanes, 0 at the left and 1 at
// the right.
func (g TimelineGeom) FractionAt(x float64) float64 {
	if g.Lanes.W <= 0 {
		return 0
	}
	return clamp((x-g.Lanes.X)/g.Lanes.W, 0, 1)
}

// T returns the time in seconds at x.
func (g TimelineGeom) T(x float64) float64 {
	if g.Lanes.W <= 0 {
		return g.View.From
	}
	return g.View.At(g.FractionAt(x))
}

// Lane returns the row of lane i.
func (g TimelineGeom) Lane(i int) Rect {
	return Rect{X: g.Lanes.X, Y: g.Lanes.Y + float64(i)*g.LaneH, W: g.Lanes.W, H: g.LaneH - math.Round(g.LaneH*0.15)}
}

// TickStep picks a tick spacing in seconds giving at most max ticks.
func TickStep(length float64, max int) float64 {
	for _, s := range []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600} {
		if length/s <= float64(max) {
			return s
		}
	}
	return 3600
}

// badgeGap is the space between two neighbours' state badges: 8 units,
// narrowing to 3 where the slots are crowded (ten contenders on a phone),
// so a badge holds a name such as "compact-1" or a state such as
// "waiting" whole.
func badgeGap(slot, u float64) float64 {
	if slot < 130*u {
		return math.Round(3 * u)
	}
	return math.Round(8 * u)
}
