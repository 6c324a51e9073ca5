package view

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// drawSpark draws the coordinator's requests per 100 ms as a sparkline,
// its busiest window marked.
func (w *World) drawSpark(dst *ebiten.Image, s draw.Style, r ui.Rect) {
	th := s.Theme
	load := w.view.Load
	label, area := r.CutTop(math.Max(s.U(14), draw.TextHeight(s.Small())), s.U(2))
	at := strings.TrimSuffix(core.FormatTime(w.view.PeakAt), "0")
	draw.FirstFitInTip(dst, fmt.Sprintf("load/100 ms, peak %d at %s", w.view.Peak, at),
		[]string{fmt.Sprintf("peak %d at %s", w.view.Peak, at), fmt.Sprintf("peak %d", w.view.Peak)}, s.Small(), label, draw.AlignStart, th.TextDim)
	draw.FillRect(dst, area, th.Background)
	if len(load) == 0 || area.W < 4 {
		return
	}
	// The whole run so far, one column per pixel (the busiest window wins).
	span := max(len(load), int(w.lab.Length()/(100*time.Millisecond)))
	peak := float64(max(w.view.Peak, 1))
	cols := int(area.W)
	for x := range cols {
		lo, hi := x*span/cols, (x+1)*span/cols
		m := int32(0)
		for i := lo; i < hi && i < len(load); i++ {
			m = max(m, load[i])
		}
		if m == 0 {
			continue
		}
		h := math.Max(1, area.H*float64(m)/peak)
		clr := th.Truth
		if float64(m) >= peak*0.999 {
			clr = th.Warning
		}
		draw.FillRect(dst, ui.Rect{X: area.X + float64(x), Y: area.MaxY() - h, W: 1, H: h}, clr)
	}
}

// drawChart draws ttl-tradeoff's sweep: failover time (line, dots) and
// false failovers (bars) against TTL, the bounds and the learner's TTL.
func (w *World) drawChart(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	pts := w.lab.Sweep()
	box := w.chart
	draw.FillRoundRect(dst, box, s.U(8), th.Raised)
	in := box.Inset(s.U(10))
	row, in := in.CutTop(s.U(20), s.U(2))
	draw.FirstFitInTip(dst, "TTL trade-off, same pauses for each TTL", []string{"TTL trade-off"}, s.Label(), row, draw.AlignStart, th.Text)
	in = drawChartLegend(dst, s, in)

	// The verdict on the learner's TTL, wrapped to the chart's width.
	ttl := w.lab.Knobs()["ttl"]
	said, ok := ttlVerdict(pts, ttl)
	textW := in.W - s.U(22)
	verdict, in := in.CutBottom(math.Max(s.U(36), draw.ParagraphHeight(said, s.Small(), textW)), s.U(4))
	axis, plot := in.CutBottom(s.U(16), s.U(2))
	_, plot = plot.CutLeft(s.U(26), s.U(4))
	axis.X, axis.W = plot.X, plot.W
	if len(pts) == 0 || plot.W < 20 || plot.H < 20 {
		return
	}
	c := newSweepChart(dst, s, plot, axis, pts)
	c.draw()
	c.pick(ttl)
	if said != "" {
		s.Verdict(dst, ui.Point{X: verdict.X + s.U(9), Y: verdict.Y + s.U(9)}, s.U(16), ok)
		_, text := verdict.CutLeft(s.U(18), s.U(4))
		draw.Paragraph(dst, said, s.Small(), text, th.Text)
	}
}

// drawChartLegend draws the chart's legend at the top of in and returns
// what is left under it: shapes, not colour alone; its second entry on a
// row of its own where the two do not fit side by side.
func drawChartLegend(dst *ebiten.Image, s draw.Style, in ui.Rect) ui.Rect {
	th := s.Theme
	leg, in := in.CutTop(s.U(18), s.U(4))
	draw.Line(dst, ui.Point{X: leg.X, Y: leg.Y + leg.H/2}, ui.Point{X: leg.X + s.U(16), Y: leg.Y + leg.H/2}, s.U(2), th.Truth)
	draw.FillCircle(dst, ui.Point{X: leg.X + s.U(8), Y: leg.Y + leg.H/2}, s.U(3), th.Truth)
	lbl, bars := "failover (s)", "false failovers"
	draw.TextIn(dst, lbl, s.Small(), ui.Rect{X: leg.X + s.U(22), Y: leg.Y, W: leg.W, H: leg.H}, draw.AlignStart, th.TextDim)
	x2 := leg.X + s.U(36) + draw.Measure(s.Small())(lbl)
	if x2+s.U(12)+draw.Measure(s.Small())(bars) > leg.MaxX() {
		leg, in = in.CutTop(s.U(18), s.U(4))
		x2 = leg.X + s.U(4)
	}
	draw.FillRect(dst, ui.Rect{X: x2, Y: leg.Y + s.U(4), W: s.U(8), H: leg.H - s.U(8)}, th.Warning)
	draw.TextIn(dst, bars, s.Small(), ui.Rect{X: x2 + s.U(12), Y: leg.Y, W: math.Max(0, leg.MaxX()-x2-s.U(12)), H: leg.H}, draw.AlignStart, th.TextDim)
	return in
}

// ttlVerdict says how the learner's TTL (in seconds) fares in the sweep
// pts, and whether it meets both bounds; "" where the sweep has no point
// at it.
func ttlVerdict(pts []lessons.SweepPoint, ttl float64) (said string, ok bool) {
	for _, p := range pts {
		if math.Abs(p.TTL.Seconds()-ttl) < 0.01 {
			ok = p.FalseFailovers == 0 && p.Failover <= 20*time.Second
			word := "meets both bounds"
			if !ok {
				word = "misses a bound"
			}
			said = fmt.Sprintf("your TTL %g s %s: failover %.1f s, %d false failovers", ttl, word, p.Failover.Seconds(), p.FalseFailovers)
		}
	}
	return said, ok
}

// sweepChart is the sweep's plot being drawn: its box, its axis's row
// under it, its points and the scales they are drawn to.
type sweepChart struct {
	dst        *ebiten.Image
	s          draw.Style
	plot, axis ui.Rect
	pts        []lessons.SweepPoint
	minT, maxT float64 // TTLs, seconds
	maxF       float64 // failover, seconds, rounded up to ten
	maxN       int     // false failovers
}

func newSweepChart(dst *ebiten.Image, s draw.Style, plot, axis ui.Rect, pts []lessons.SweepPoint) sweepChart {
	c := sweepChart{dst: dst, s: s, plot: plot, axis: axis, pts: pts,
		minT: pts[0].TTL.Seconds(), maxT: pts[len(pts)-1].TTL.Seconds(), maxN: 1}
	for _, p := range pts {
		c.maxF = math.Max(c.maxF, p.Failover.Seconds())
		c.maxN = max(c.maxN, p.FalseFailovers)
	}
	c.maxF = math.Ceil(c.maxF/10) * 10
	return c
}

// xOf is where TTL t (seconds) is across the plot.
func (c sweepChart) xOf(t float64) float64 {
	return c.plot.X + c.plot.W*(t-c.minT)/math.Max(1, c.maxT-c.minT)
}

// yF is where failover f (seconds) is up the plot.
func (c sweepChart) yF(f float64) float64 { return c.plot.MaxY() - c.plot.H*f/math.Max(1, c.maxF) }

// draw draws the plot: the false failovers' bars, the 20 s bound, the
// failover line with its dots, and the axes' numbers.
func (c sweepChart) draw() {
	dst, s, th, plot, pts := c.dst, c.s, c.s.Theme, c.plot, c.pts
	draw.FillRect(dst, plot, th.Background)
	bw := math.Max(2, plot.W/float64(len(pts))*0.6)
	for _, p := range pts {
		if p.FalseFailovers > 0 {
			h := plot.H * 0.9 * float64(p.FalseFailovers) / float64(c.maxN)
			draw.FillRect(dst, ui.Rect{X: c.xOf(p.TTL.Seconds()) - bw/2, Y: plot.MaxY() - h, W: bw, H: h}, th.Warning)
		}
	}
	// The 20 s failover bound.
	yb := c.yF(20)
	dashed(dst, ui.Point{X: plot.X, Y: yb}, ui.Point{X: plot.MaxX(), Y: yb}, s.U(1), s.U(5), th.Reject)
	for i := 1; i < len(pts); i++ {
		a := ui.Point{X: c.xOf(pts[i-1].TTL.Seconds()), Y: c.yF(pts[i-1].Failover.Seconds())}
		b := ui.Point{X: c.xOf(pts[i].TTL.Seconds()), Y: c.yF(pts[i].Failover.Seconds())}
		draw.Line(dst, a, b, s.U(2), th.Truth)
	}
	for _, p := range pts {
		draw.FillCircle(dst, ui.Point{X: c.xOf(p.TTL.Seconds()), Y: c.yF(p.Failover.Seconds())}, s.U(2), th.Truth)
	}
	// The bound's name under its line at the right, where the failover
	// line (which grows with the TTL) has passed above it and no false
	// failover's bar stands, on the plot's own colour so that nothing
	// drawn crosses it (above the line, the failover line ran through it).
	label := "20 s bound"
	lw, lh := draw.Measure(s.Small())(label), draw.LineHeight(s.Small())
	box := ui.Rect{X: plot.MaxX() - s.U(2) - lw - s.U(2), Y: yb + s.U(2), W: lw + s.U(4), H: lh}
	draw.FillRect(dst, box, th.Background)
	draw.TextAligned(dst, label, s.Small(), plot.MaxX()-s.U(2), yb+s.U(2), draw.AlignEnd, draw.AlignStart, th.Reject)
	// Axes.
	for _, t := range []float64{c.minT, 10, 20, 30, c.maxT} {
		if t < c.minT || t > c.maxT {
			continue
		}
		draw.TextAligned(dst, fmt.Sprintf("%g", t), s.Small(), c.xOf(t), c.axis.Y+c.axis.H/2, draw.AlignCenter, draw.AlignCenter, th.TextDim)
	}
	draw.TextAligned(dst, fmt.Sprintf("%g", c.maxF), s.Small(), plot.X-s.U(4), plot.Y, draw.AlignEnd, draw.AlignStart, th.TextDim)
	draw.TextAligned(dst, "0", s.Small(), plot.X-s.U(4), plot.MaxY(), draw.AlignEnd, draw.AlignEnd, th.TextDim)
}

// pick marks the learner's TTL (seconds) on the plot.
func (c sweepChart) pick(ttl float64) {
	s, plot, focus := c.s, c.plot, c.s.Theme.Focus
	x := c.xOf(ttl)
	draw.Line(c.dst, ui.Point{X: x, Y: plot.Y}, ui.Point{X: x, Y: plot.MaxY()}, s.U(2), focus)
	draw.Polygon(c.dst, focus, ui.Point{X: x - s.U(5), Y: plot.Y - s.U(1)}, ui.Point{X: x + s.U(5), Y: plot.Y - s.U(1)}, ui.Point{X: x, Y: plot.Y + s.U(7)})
}
