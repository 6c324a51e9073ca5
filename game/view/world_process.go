package view

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// procDrawing is one process being drawn: where, how large, and what it
// shows. ring is the outer lease ring's radius, r the circle's, badge the
// state badge's box under them.
type procDrawing struct {
	dst   *ebiten.Image
	s     draw.Style
	th    *draw.Theme
	c     ui.Point
	ring  float64
	r     float64
	badge ui.Rect
	// floor is where a badge of two lines must end above (the store's
	// card less a gap, or a lock pane's bottom).
	floor float64
	p     lab.ProcView
	// names are every process's in the world, which share one face.
	names []string
}

// procNames are the world's processes' names.
func (w *World) procNames() []string {
	out := make([]string, len(w.view.Procs))
	for i, p := range w.view.Procs {
		out[i] = p.Name
	}
	return out
}

// drawProcess draws one process: lease rings, name, state badge and
// condition tag.
// ceiling is the bottom of the card above the rings: where the condition
// tag has no room under it, it goes beside the rings.
func (w *World) drawProcess(dst *ebiten.Image, s draw.Style, c ui.Point, ring, r float64, badge ui.Rect, floor, ceiling float64, p lab.ProcView, selected bool) {
	d := procDrawing{dst: dst, s: s, th: s.Theme, c: c, ring: ring, r: r, badge: badge, floor: floor, p: p, names: w.procNames()}
	rw := d.rings(selected)
	inBadge := d.name(rw)
	d.stateBadge(w.view.Words, inBadge)
	tag, clr := w.conditionTag(p, ring, s)
	if tag != "" {
		// No wider than the process's slot, so that two neighbours' tags
		// side by side do not cover each other (on a phone, two
		// "crashed" did).
		// Beside the rings, in the right half of the process's slot,
		// where there is no room above them and room there.
		tw := pillRectIn(s, ui.Point{}, tag, badge.W).W
		room := math.Max(badge.W/2-ring-s.U(6), w.besideRoom(c, ring, s))
		if !ui.TagAbove(ceiling, c.Y, ring, s.Unit) && room >= tw {
			pillIn(dst, s, ui.Point{X: c.X + ring + s.U(4) + tw/2, Y: c.Y - ring/2}, tag, clr, d.th.Background, badge.W)
		} else {
			pillIn(dst, s, ui.Point{X: c.X, Y: c.Y - ring - s.U(ui.TagH/2+2)}, tag, clr, d.th.Background, badge.W)
		}
	}
	if conn := p.ConnTag(); conn != "" && !w.single {
		// Above the condition tag, if any; and a row higher than a
		// neighbour's own connection tag, so two never overlap.
		y := c.Y - ring - s.U(ui.TagH/2+2)
		if tag != "" {
			y -= s.U(18)
		}
		if i := slices.IndexFunc(w.view.Procs, func(q lab.ProcView) bool { return q.Name == p.Name }); i%2 == 1 && w.view.Procs[i-1].ConnTag() != "" {
			y -= s.U(18)
		}
		pill(dst, s, ui.Point{X: c.X, Y: y}, conn, d.th.Reject, d.th.Background)
	}
}

// nameRoom is the width a process's name may take in its circle of
// radius r, or inside its inner ring (rings of radius ring, each rw wide).
func nameRoom(s draw.Style, ring, r, rw float64) float64 {
	return math.Max(2*r, 2*(ring-2*rw-s.U(3)))
}

// ringWidth is the width of each of the lease rings of radius ring.
func ringWidth(s draw.Style, ring float64) float64 {
	return math.Max(s.U(3), math.Min(s.U(5), ring*0.12))
}

// besideRoom is the width a tag beside the rings of the process at c
// has: up to its right-hand neighbour's rings, or the world's edge, less
// a gap; 0 for a process not in the world's one row. A badge narrower than
// its process's slot (two processes side by side on a phone, their badges
// clear of each other) would put the tag over the card above it.
func (w *World) besideRoom(c ui.Point, ring float64, s draw.Style) float64 {
	g := w.geom
	if !slices.Contains(g.Procs, c) {
		return 0
	}
	right := g.Area.MaxX() - s.U(14) + ring
	for _, q := range g.Procs {
		if q.Y == c.Y && q.X > c.X {
			right = math.Min(right, q.X)
		}
	}
	return right - c.X - 2*ring - s.U(10)
}

// rings draws the two lease rings (the process's own clock outside, the
// coordinator's inside), the circle, and the focus ring when selected; it
// returns the rings' width.
func (d procDrawing) rings(selected bool) (rw float64) {
	s, th, p := d.s, d.th, d.p
	frac := func(d time.Duration) float64 {
		if p.TTL <= 0 {
			return 0
		}
		return math.Max(0, math.Min(1, float64(d)/float64(p.TTL)))
	}
	rw = ringWidth(s, d.ring)
	draw.Ring(d.dst, d.c, d.ring, rw, frac(p.BeliefLeft), th.Panel, th.Belief)
	draw.Ring(d.dst, d.c, d.ring-rw-s.U(3), rw, frac(p.TruthLeft), th.Panel, th.Truth)
	fill := th.Raised
	if p.Believes {
		fill = th.Pressed
	}
	draw.FillCircle(d.dst, d.c, d.r, fill)
	if selected {
		draw.StrokeCircle(d.dst, d.c, d.ring+s.U(5), s.U(2), th.Focus)
	}
	return rw
}

// name draws the process's name in the circle, or at least inside the
// inner ring (a small ring's circle is a dot), in a smaller face if it
// must, and a crashed one's cross; inBadge says the name fits neither and
// goes in the state badge instead.
func (d procDrawing) name(rw float64) (inBadge bool) {
	s, th, p := d.s, d.th, d.p
	nameClr := th.Text
	if p.Crashed {
		nameClr = th.Disabled
	}
	room := nameRoom(s, d.ring, d.r, rw)
	// One face for every name drawn in a circle, the largest they all fit
	// (names in two sizes read as two kinds of process); a name too long
	// for even the small face goes in its badge and decides nothing.
	fits := func(f *draw.Face, name string) bool { return draw.Measure(f)(name) <= room-s.U(4) }
	face := s.Title()
	for _, smaller := range []*draw.Face{s.Label(), s.Small()} {
		for _, name := range d.names {
			if !fits(face, name) && fits(s.Small(), name) {
				face = smaller
				break
			}
		}
	}
	if !fits(face, p.Name) && fits(s.Small(), p.Name) {
		face = s.Small()
	}
	inBadge = draw.Measure(face)(p.Name) > room-s.U(2)
	if !p.Crashed {
		if !inBadge {
			draw.TextAligned(d.dst, p.Name, face, d.c.X, d.c.Y, draw.AlignCenter, draw.AlignCenter, nameClr)
		}
		return inBadge
	}
	if inBadge {
		draw.CrossMark(d.dst, d.c, d.r*1.4, s.U(3), th.Reject)
		return inBadge
	}
	// A crashed one's name over a small cross, both in the circle: a
	// cross over the whole circle hid the name's letter.
	h := draw.TextHeight(face)
	size := math.Min(s.U(14), math.Max(s.U(6), room-h-s.U(6)))
	draw.TextAligned(d.dst, p.Name, face, d.c.X, d.c.Y-size/2, draw.AlignCenter, draw.AlignCenter, nameClr)
	draw.CrossMark(d.dst, ui.Point{X: d.c.X, Y: d.c.Y + h/2}, size, s.U(2), th.Reject)
	return inBadge
}

// stateBadge draws the state badge: words, not colour alone, in the
// system's words; led by the name where inBadge, on a second line where
// both do not fit on one.
func (d procDrawing) stateBadge(words core.SystemWords, inBadge bool) {
	s, th, p, badge := d.s, d.th, d.p, d.badge
	label := p.State.Words()
	if p.Crashed {
		// What it was doing before is over: "api-1 · waiting" on a
		// crashed process read as if it still waited.
		label = "down (crashed)"
	} else if p.Believes {
		// With the name in the badge too, the token goes by number only.
		fits := func(l string) bool { return !inBadge && draw.Measure(s.Small())(l) <= badge.W-s.U(6) }
		label = lab.LeaderBadge(words, p.Token, fits)
	}
	fitsBadge := func(l string) bool { return draw.Measure(s.Small())(l) <= badge.W-s.U(6) }
	if !fitsBadge(label) {
		label = strings.NewReplacer("stepping down", "stepping").Replace(label)
	}
	bg := th.Raised
	if p.Believes {
		bg = th.Pressed
	}
	if inBadge && !fitsBadge(p.Name+" · "+label) {
		// The name fits neither the circle nor the badge's line beside
		// the state: a badge of two lines, the name over the state.
		two := TwoLineBadge(badge, TwoLineBadgeH(s), d.c.Y+d.ring, d.floor)
		draw.FillRoundRect(d.dst, two, badge.H/2, bg)
		in := two.InsetXY(s.U(1.5), s.U(2))
		top, bottom := in.CutTop(in.H/2, 0)
		draw.TextInTip(d.dst, p.Name, s.Small(), top, draw.AlignCenter, th.Text)
		// A leader's token goes where the badge is too narrow for it (the
		// lock's card says it).
		draw.FirstFitInTip(d.dst, label, []string{d.shortState()}, s.Small(), bottom, draw.AlignCenter, th.Text)
		return
	}
	if inBadge {
		// The name did not fit in the circle: it leads the badge.
		label = p.Name + " · " + label
	}
	draw.FillRoundRect(d.dst, badge, badge.H/2, bg)
	draw.FirstFitInTip(d.dst, label, []string{d.shortState()}, s.Small(), badge.InsetXY(s.U(3), 0), draw.AlignCenter, th.Text)
}

// shortState is the badge's words where its label does not fit: the state
// alone, or "down" for a crashed process.
func (d procDrawing) shortState() string {
	if d.p.Crashed {
		return "down"
	}
	return d.p.State.Words()
}

// conditionTag is the tag above p's rings (of radius ring) and its
// colour: crashed, paused, its sends held, its renewal waiting, busy; ""
// for none.
func (w *World) conditionTag(p lab.ProcView, ring float64, s draw.Style) (string, color.Color) {
	th := s.Theme
	tag, clr := "", th.Warning
	switch {
	case p.Crashed:
		tag, clr = "crashed", th.Reject
	case p.Paused:
		tag = "paused (frozen)"
		if ring < s.U(36) {
			tag = "paused"
		}
	case p.HeldUntil > 0 && !w.holding(p.Name):
		// Once something is held, the link's marker says so instead.
		tag, clr = "sends held", th.Accent
	case p.Renewing:
		// The renewal waits behind the work: how long, as it grows.
		tag = fmt.Sprintf("renewal waiting %.1f s", p.RenewWait.Seconds())
		if ring < s.U(36) {
			tag = "renewal late"
		}
	case p.Busy > 0:
		tag, clr = "busy with work", th.Accent
	}
	return tag, clr
}

// TwoLineBadge is the box of a state badge of two lines (the name over the
// state) of height h, for badge, the box laid out for one line under a
// ring whose bottom is at ringBottom: grown downwards, then moved up (as
// far as the ring) so as to end above floor (the store's card less a gap,
// or a lock pane's bottom).
// Grown downwards alone, on a phone it touched the card's top border.
func TwoLineBadge(badge ui.Rect, h, ringBottom, floor float64) ui.Rect {
	two := ui.Rect{X: badge.X, Y: badge.Y, W: badge.W, H: math.Max(badge.H, h)}
	if over := two.MaxY() - floor; over > 0 {
		two.Y = math.Max(ringBottom, two.Y-over)
	}
	return two
}

// TwoLineBadgeH is the height of a state badge of two lines.
func TwoLineBadgeH(s draw.Style) float64 { return 2*draw.LineHeight(s.Small()) + s.U(4) }
