package game

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// demoTimeline draws the scripted story as lanes: per process, when it
// believed it held the lease against when the coordinator said it did, the
// overlap where both A and B believed they led, and the store's verdicts.
type demoTimeline struct{ clock *DemoClock }

func (d *demoTimeline) Update(*State, ui.Rect) error { return nil }

func (d *demoTimeline) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	th := s.Theme
	in := area.Inset(s.U(12))
	caption, in := in.CutTop(s.U(18), s.U(4))
	draw.TextIn(dst, "Timeline", s.Label(), caption, draw.AlignStart, th.TextDim)
	axis, in := in.CutBottom(s.U(16), s.U(4))
	labels, lanes := in.CutLeft(s.U(64), s.U(8))

	x := func(sec float64) float64 { return lanes.X + lanes.W*sec/demoLength }
	bar := func(row ui.Rect, from, to float64, clr color.Color) {
		r := ui.Rect{X: x(from), Y: row.Y, W: x(to) - x(from), H: row.H}
		draw.FillRoundRect(dst, r, s.U(3), clr)
	}
	type lane struct {
		name          string
		beliefFrom    float64
		beliefTo      float64
		truthFrom     float64
		truthTo       float64
		verdictAt     []float64
		verdictAccept []bool
	}
	rows := []lane{
		{"A", 0, demoBelief, 0, demoTakeover, []float64{2.5, demoStale}, []bool{true, false}},
		{"B", demoTakeover + 0.2, demoLength, demoTakeover, demoLength, []float64{demoFresh}, []bool{true}},
	}
	laneH := min(s.U(40), lanes.H/float64(len(rows)))
	for i, l := range rows {
		row := ui.Rect{X: lanes.X, Y: lanes.Y + float64(i)*laneH, W: lanes.W, H: laneH - s.U(6)}
		label := ui.Rect{X: labels.X, Y: row.Y, W: labels.W, H: row.H}
		draw.TextIn(dst, "proc "+l.name, s.Small(), label, draw.AlignStart, th.Text)
		belief, truth := row.SplitV(0.5)
		bar(belief.InsetXY(0, s.U(2)), l.beliefFrom, l.beliefTo, th.Belief)
		bar(truth.InsetXY(0, s.U(2)), l.truthFrom, l.truthTo, th.Truth)
		for j, at := range l.verdictAt {
			s.Verdict(dst, ui.Point{X: x(at), Y: row.Y + row.H/2}, s.U(18), l.verdictAccept[j])
		}
	}
	// Belief overlap: both believe they lead. Hatched as well as coloured.
	over := ui.Rect{X: x(demoTakeover + 0.2), Y: lanes.Y, W: x(demoBelief) - x(demoTakeover+0.2), H: 2*laneH - s.U(6)}
	draw.StrokeRoundRect(dst, over.Inset(-s.U(2)), s.U(3), s.U(2), th.Warning)
	draw.TextAligned(dst, "overlap", s.Small(), over.MaxX()+s.U(6), over.Y+over.H/2, draw.AlignStart, draw.AlignCenter, th.Warning)

	for sec := 0; sec <= int(demoLength); sec += 2 {
		draw.TextAligned(dst, fmt.Sprintf("%ds", sec), s.Small(), x(float64(sec)), axis.Y, draw.AlignCenter, draw.AlignStart, th.TextDim)
	}
	now := x(d.clock.seconds())
	draw.Line(dst, ui.Point{X: now, Y: lanes.Y - s.U(4)}, ui.Point{X: now, Y: axis.Y}, s.U(2), th.Text)
}
