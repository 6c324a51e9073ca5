package game

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// timelineView draws one lane per process: when it believed it led (upper
// bar) against when the coordinator said it held the lock (lower bar), its
// pauses and crashes, the belief overlap, and every store decision with its
// token. Clicking the lanes moves the play head there.
type timelineView struct {
	lab  *lab.Lab
	send func(lab.Command) // to the scene that applies it
	geom ui.TimelineGeom
	tl   lab.Timeline
	// showing names the actor whose lane stays shown however many there
	// are (the one selected in the world; nil or "": none).
	showing func() string
	// view is the part of the run shown (zoomed with the wheel, a pinch
	// or the keys; see ui.TimeWindow); head is the play head it last
	// followed, so the view moves with the head only when the head moves.
	view ui.TimeWindow
	head float64
	// pinch is the two fingers' positions as fractions of the lanes'
	// width at the last tick, while two are down on the lanes.
	pinch    [2]float64
	pinching bool
	// drawnLabels and drawnMarks are where the last Draw put the marks'
	// labels and the marks (with the spans' pills), for the tests.
	drawnLabels, drawnMarks []ui.Rect
	drawnTexts              []string
}

func newTimelineView(lb *lab.Lab, send func(lab.Command)) *timelineView {
	return &timelineView{lab: lb, send: send}
}

// Layout implements View.
func (v *timelineView) Layout(area ui.Rect, s draw.Style) {
	name := ""
	if v.showing != nil {
		name = v.showing()
	}
	v.tl = v.lab.TimelineShowing(name)
	v.geom = ui.LayoutTimeline(area, s.Unit, len(v.tl.Lanes), v.tl.Length.Seconds())
	if fit := int(v.geom.Lanes.H / (16 * s.Unit)); fit < len(v.tl.Lanes) {
		// Too many lanes to read: summarise the rest in the last one.
		v.tl.Lanes = lab.Showing(v.tl.Lanes, name, fit)
		v.tl = v.tl.Fit(fit)
		v.geom = ui.LayoutTimeline(area, s.Unit, len(v.tl.Lanes), v.tl.Length.Seconds())
	}
	// The play head stays in view: when it moves (playing, stepping,
	// seeking) the view follows it; a view scrolled away from a head that
	// stands still stays where the learner put it.
	v.view = v.view.Resize(v.tl.Length.Seconds())
	if now := v.tl.Now.Seconds(); now != v.head {
		v.head = now
		v.view = v.view.Follow(now)
	}
	v.geom = v.geom.WithView(v.view)
}

// Update implements View: a press or drag on the lanes seeks there; the
// wheel (and a trackpad's pinch, which browsers send as a wheel with
// Ctrl) zooms about the pointer and a sideways wheel scrolls; two fingers
// pinch and scroll; the zoom keys zoom about the play head.
func (v *timelineView) Update(st *State) error {
	in := &st.Input
	ptr := in.Pointer()
	lanes := v.geom.Lanes
	lanes.H = v.geom.Axis.MaxY() - lanes.Y
	view := v.view
	if in.Wheel != (ui.Point{}) && !ptr.Touch && lanes.Contains(ptr.Pos) {
		if in.Wheel.Y != 0 {
			view = view.ZoomAt(math.Pow(ui.ZoomStep, in.Wheel.Y), v.geom.FractionAt(ptr.Pos.X))
		}
		// Ebitengine's X is the wheel's turn to the left: earlier.
		view = view.Pan(-in.Wheel.X * view.Span() / 10)
	}
	if f, ok := v.twoFingers(in, lanes); ok {
		if v.pinching {
			view = view.Pinch(v.pinch[0], v.pinch[1], f[0], f[1])
		}
		v.pinch, v.pinching = f, true
	} else {
		v.pinching = v.pinching && len(in.Touches) > 1
		if !v.pinching && ptr.Down && ptr.Present && lanes.Contains(ptr.Pos) {
			v.send(lab.SeekTo(time.Duration(v.geom.T(ptr.Pos.X) * float64(time.Second))))
		}
	}
	now := v.tl.Now.Seconds()
	switch {
	case in.Keys.Has(ui.IntentZoomIn):
		view = view.ZoomAround(ui.ZoomStep, now)
	case in.Keys.Has(ui.IntentZoomOut):
		view = view.ZoomAround(1/ui.ZoomStep, now)
	case in.Keys.Has(ui.IntentZoomAll):
		view = ui.WholeRun(view.Length)
	case in.Keys.Has(ui.IntentViewBack):
		view = view.Pan(-view.Span() / 2)
	case in.Keys.Has(ui.IntentViewOn):
		view = view.Pan(view.Span() / 2)
	}
	v.view = view
	v.geom = v.geom.WithView(view)
	return nil
}

// twoFingers is where the first two fingers are, as fractions of the
// lanes' width, while both are down and the first began on the lanes.
func (v *timelineView) twoFingers(in *ui.Input, lanes ui.Rect) ([2]float64, bool) {
	if len(in.Touches) < 2 || in.Touches[0].JustUp || in.Touches[1].JustUp {
		return [2]float64{}, false
	}
	if !v.pinching && !lanes.Contains(in.Touches[0].Pos) {
		return [2]float64{}, false
	}
	return [2]float64{v.geom.FractionAt(in.Touches[0].Pos.X), v.geom.FractionAt(in.Touches[1].Pos.X)}, true
}

func (v *timelineView) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	th := s.Theme
	g := v.geom
	caption := "Timeline"
	if !g.View.Whole() {
		// Zoomed: say which part shows, and how to see it all.
		caption = fmt.Sprintf("Timeline %s to %s of %s (0: all)", secs(g.View.From), secs(g.View.To), secs(g.View.Length))
	}
	draw.TextIn(dst, caption, s.Label(), g.Caption, draw.AlignStart, th.TextDim)
	legend := "upper bar: believes it leads   lower bar: coordinator says it holds   orange box: both believe they lead"
	switch w := v.lab.World(); {
	case len(w.Workers) > 0:
		legend = "upper bar: believes it leads (worker: owns shards)   lower bar: coordinator agrees"
	case len(w.Members) > 0:
		legend = "upper bar: believes it leads   lower bar: coordinator says it holds   blue line: new coordinator leader"
	case len(w.Redis) > 0:
		// No coordinator: the truth is which value a majority holds.
		legend = "upper bar: believes it leads   lower bar: its keys on a majority   orange box: both believe they lead"
	}
	sec := func(d time.Duration) float64 { return d.Seconds() }
	// out is a span wholly outside the view (drawn, it would be a sliver
	// at the edge).
	out := func(sp lab.Span) bool { return sec(sp.To) < g.View.From || sec(sp.From) > g.View.To }
	bar := func(row ui.Rect, sp lab.Span, clr color.Color) {
		if out(sp) {
			return
		}
		x0, x1 := g.X(sec(sp.From)), g.X(sec(sp.To))
		if x1-x0 < 1 {
			x1 = x0 + 1
		}
		draw.FillRoundRect(dst, ui.Rect{X: x0, Y: row.Y, W: x1 - x0, H: row.H}, s.U(2), clr)
	}
	type pillAt struct {
		at     ui.Point
		span   ui.Rect
		text   string
		colour color.Color
	}
	var pills []pillAt
	for i, lane := range v.tl.Lanes {
		row := g.Lane(i)
		label := ui.Rect{X: g.Labels.X, Y: row.Y, W: g.Labels.W, H: row.H}
		face := s.Label()
		if draw.Measure(face)(lane.Name) > label.W || draw.TextHeight(face) > label.H {
			face = s.Small()
		}
		draw.TextInTip(dst, lane.Name, face, label, draw.AlignStart, th.Text)
		draw.FillRect(dst, row, th.Background)
		belief, truth := row.SplitV(0.5)
		belief, truth = belief.InsetXY(0, s.U(2)), truth.InsetXY(0, s.U(2))
		for _, sp := range lane.Belief {
			bar(belief, sp, th.Belief)
		}
		for _, sp := range lane.Truth {
			bar(truth, sp, th.Truth)
		}
		for _, sp := range lane.Paused {
			if out(sp) {
				continue
			}
			x0, x1 := g.X(sec(sp.From)), g.X(sec(sp.To))
			r := ui.Rect{X: x0, Y: row.Y, W: x1 - x0, H: row.H}
			draw.StrokeRoundRect(dst, r, s.U(2), s.U(1.5), th.Warning)
			hatch(dst, r, s.U(8), s.U(1), th.Warning)
			if r.W > draw.Measure(s.Small())("paused")+s.U(8) {
				pills = append(pills, pillAt{r.Center(), r, "paused", th.Warning})
			}
		}
		for _, sp := range lane.Held {
			if out(sp) {
				continue
			}
			// A delay: what it sends waits in the network (it runs on).
			x0, x1 := g.X(sec(sp.From)), g.X(sec(sp.To))
			r := ui.Rect{X: x0, Y: row.Y, W: max(x1-x0, 1), H: row.H}
			draw.StrokeRoundRect(dst, r, s.U(2), s.U(1.5), th.Accent)
			if r.W > draw.Measure(s.Small())("sends held")+s.U(8) {
				pills = append(pills, pillAt{r.Center(), r, "sends held", th.Accent})
			}
		}
		for _, sp := range lane.Crashed {
			if out(sp) {
				continue
			}
			x0, x1 := g.X(sec(sp.From)), g.X(sec(sp.To))
			r := ui.Rect{X: x0, Y: row.Y + row.H/2 - s.U(2), W: x1 - x0, H: s.U(4)}
			draw.FillRect(dst, r, th.Reject)
			draw.CrossMark(dst, ui.Point{X: x0, Y: row.Y + row.H/2}, s.U(12), s.U(2), th.Reject)
		}
	}
	// Belief overlap: outlined across the lanes of the same lock.
	for _, ov := range v.tl.Overlaps {
		if out(ov.Span) {
			continue
		}
		first, last := -1, -1
		for i, l := range v.tl.Lanes {
			if l.Lock == ov.Lock {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first < 0 {
			continue
		}
		top, bottom := g.Lane(first).Y, g.Lane(last).MaxY()
		x0, x1 := g.X(sec(ov.From)), g.X(sec(ov.To))
		r := ui.Rect{X: x0, Y: top - s.U(2), W: x1 - x0, H: bottom - top + s.U(4)}
		draw.StrokeRoundRect(dst, r, s.U(3), s.U(2), th.Warning)
	}
	// Where the write marks go, so a span's name keeps clear of them.
	markAt := func(m lab.WriteMark) (c ui.Point, size, reach float64, ok bool) {
		i := v.tl.LaneOf(m.From)
		if i < 0 || !g.InView(sec(m.At)) {
			return ui.Point{}, 0, 0, false
		}
		row := g.Lane(i)
		c = ui.Point{X: g.X(sec(m.At)), Y: row.Y + row.H/2}
		size = math.Min(s.U(14), row.H*0.8)
		reach = size / 2 // how far the mark's ink reaches from c
		if !m.Accepted || m.Stale {
			size = math.Min(s.U(20), row.H)
			reach = size / 2
		}
		if m.Stale {
			reach = size/2 + s.U(4)
		}
		return c, size, reach, true
	}
	var writeMarks []ui.Rect
	for _, m := range v.tl.Writes {
		if c, _, reach, ok := markAt(m); ok {
			writeMarks = append(writeMarks, ui.Rect{X: c.X - reach, Y: c.Y - reach, W: 2 * reach, H: 2 * reach})
		}
	}
	// The spans' names go over the outlines (an overlap that begins inside
	// a pause would otherwise draw its edge through the word "paused"),
	// slid along their span clear of the write marks, or left out where
	// none leaves room (the span's hatching and the world's tag say it).
	kept := pills[:0]
	for _, p := range pills {
		if at, ok := clearOf(p.at, p.span.InsetXY(-s.U(3), 0), pillRect(s, p.at, p.text), writeMarks); ok {
			p.at = at
			pill(dst, s, p.at, p.text, p.colour, th.Background)
			kept = append(kept, p)
		}
	}
	pills = kept
	// Resource decisions on the sender's lane; then a label beside notable
	// ones, only where it runs into no mark, pill or other label, on any
	// lane (marks drawn over a label made both unreadable, and at 600 s
	// a stale mark's ring ran into the next label's first letter). A label
	// dropped for room shows when zoomed in, and each decision is in the
	// panel's event list.
	type labelAt struct {
		x, y, end float64
		text      string
	}
	var labels []labelAt
	var boxes, marks []ui.Rect
	h := draw.TextHeight(s.Small())
	for _, p := range pills {
		w := draw.Measure(s.Small())(p.text) + s.U(8)
		marks = append(marks, ui.Rect{X: p.at.X - w/2, Y: p.at.Y - h/2, W: w, H: h})
	}
	if n := len(v.tl.Lanes); n > 0 {
		// The coordinator's leader changes, across every lane: a line
		// each, labelled with its term where there is room.
		top, bottom := g.Lane(0).Y, g.Lane(n-1).MaxY()
		for _, m := range v.tl.Leaders {
			if !g.InView(sec(m.At)) {
				continue
			}
			x, clr, text := g.X(sec(m.At)), th.Accent, fmt.Sprintf("term %d", m.Term)
			if m.Member == "" {
				clr, text = th.Reject, "no leader"
			}
			dashed(dst, ui.Point{X: x, Y: top}, ui.Point{X: x, Y: bottom}, s.U(1.5), s.U(4), clr)
			marks = append(marks, ui.Rect{X: x - s.U(1), Y: top, W: s.U(2), H: bottom - top})
			l := labelAt{x: x + s.U(3), y: top + h/2, text: text}
			l.end = l.x + draw.Measure(s.Small())(text)
			labels = append(labels, l)
			boxes = append(boxes, ui.Rect{X: l.x - s.U(2), Y: l.y - h/2, W: l.end - l.x + s.U(6), H: h})
		}
	}
	for _, m := range v.tl.Writes {
		c, size, reach, ok := markAt(m)
		if !ok {
			continue
		}
		if m.Stale {
			// Accepted, but it should not have been: danger, not a tick.
			s.Danger(dst, c, size)
			draw.StrokeCircle(dst, c, size/2+s.U(3), s.U(2), th.Warning)
		} else {
			s.Verdict(dst, c, size, m.Accepted)
		}
		marks = append(marks, ui.Rect{X: c.X - reach, Y: c.Y - reach, W: 2 * reach, H: 2 * reach})
		if m.Label != "" {
			x := c.X + reach + s.U(4)
			l := labelAt{x: x, y: c.Y, end: x + draw.Measure(s.Small())(m.Label), text: m.Label}
			labels = append(labels, l)
			boxes = append(boxes, ui.Rect{X: l.x - s.U(2), Y: l.y - h/2, W: l.end - l.x + s.U(6), H: h})
		}
	}
	var shown []labelAt
	for i, ok := range ui.PlaceLabels(boxes, marks, ui.Rect{X: g.Lanes.X, Y: g.Lanes.Y - h, W: g.Lanes.W, H: g.Axis.Y - g.Lanes.Y + h}) {
		if ok {
			shown = append(shown, labels[i])
		}
	}
	v.drawnLabels, v.drawnMarks, v.drawnTexts = v.drawnLabels[:0], marks, v.drawnTexts[:0]
	for _, l := range shown {
		v.drawnLabels = append(v.drawnLabels, ui.Rect{X: l.x, Y: l.y - h/2, W: l.end - l.x, H: h})
		v.drawnTexts = append(v.drawnTexts, l.text)
	}
	// Axis and play head.
	step := ui.TickStep(g.View.Span(), int(g.Lanes.W/s.U(70)))
	// From the first tick at or after the view's start.
	first := math.Ceil(g.View.From/step-1e-9) * step
	if first == 0 {
		first = 0 // not -0, which prints "-0s"
	}
	for t := first; t <= g.View.To+1e-9; t += step {
		x := g.X(t)
		draw.Line(dst, ui.Point{X: x, Y: g.Axis.Y - s.U(3)}, ui.Point{X: x, Y: g.Axis.Y}, s.U(1), th.Border)
		// A tick label centred on its tick, kept inside the axis: the
		// run's last one ran past the panel's edge in Compare's halves.
		label := fmt.Sprintf("%gs", t)
		lx, align := x, draw.AlignCenter
		if x+draw.Measure(s.Small())(label)/2 > g.Axis.MaxX() {
			lx, align = g.Axis.MaxX(), draw.AlignEnd
		}
		draw.TextAligned(dst, label, s.Small(), lx, g.Axis.Y, align, draw.AlignStart, th.TextDim)
	}
	now := g.X(v.tl.Now.Seconds())
	if !g.InView(v.tl.Now.Seconds()) {
		now = math.Inf(-1) // scrolled away from the play head: none drawn
	} else {
		top := g.Lanes.Y - s.U(4)
		draw.Line(dst, ui.Point{X: now, Y: top}, ui.Point{X: now, Y: g.Axis.Y}, s.U(2), th.Text)
		draw.Polygon(dst, th.Text, ui.Point{X: now - s.U(5), Y: top - s.U(6)}, ui.Point{X: now + s.U(5), Y: top - s.U(6)}, ui.Point{X: now, Y: top})
	}
	// The labels last, the play head passing under them: a label just
	// after the latest mark runs across it, and its line through a letter
	// made "duplicate ignored" read "|uplicate ignored". Only the line's
	// strip is cleared (the bars stop at the play head, so none is cut).
	for _, l := range shown {
		if now+s.U(1)+1 > l.x-s.U(2) && now-s.U(1)-1 < l.end+s.U(2) {
			// The line is 2 units wide; its smoothed edges reach a pixel on.
			draw.FillRect(dst, ui.Rect{X: now - s.U(1) - 1, Y: l.y - h/2 - s.U(1), W: s.U(2) + 2, H: h + s.U(2)}, th.Background)
		}
		draw.TextAligned(dst, l.text, s.Small(), l.x, l.y, draw.AlignStart, draw.AlignCenter, th.Text)
	}
	// The legend too, over the play head's marker, which reaches into its
	// row and covered the foot of a letter.
	if draw.Measure(s.Small())(legend) < g.Caption.W-draw.Measure(s.Label())(caption)-s.U(24) {
		draw.TextIn(dst, legend, s.Small(), g.Caption, draw.AlignEnd, th.TextDim)
	}
}

// secs is a time on the timeline's caption: "95 s".
func secs(t float64) string { return fmt.Sprintf("%.0f s", t) }

// hatch draws diagonal stripes inside r.
func hatch(dst *ebiten.Image, r ui.Rect, gap, width float64, clr color.Color) {
	for x := r.X - r.H; x < r.MaxX(); x += gap {
		a := ui.Point{X: x, Y: r.MaxY()}
		b := ui.Point{X: x + r.H, Y: r.Y}
		// Clip to r horizontally.
		if a.X < r.X {
			a = ui.Point{X: r.X, Y: r.MaxY() - (r.X - a.X)}
		}
		if b.X > r.MaxX() {
			b = ui.Point{X: r.MaxX(), Y: r.Y + (b.X - r.MaxX())}
		}
		if a.X < b.X {
			draw.Line(dst, a, b, width, clr)
		}
	}
}

// clearOf finds where along span a label box r (centred at at) overlaps
// none of marks: at itself if it does not, else the nearest place that
// keeps r inside span, stepping a pixel at a time; ok is false where no
// place does.
func clearOf(at ui.Point, span, r ui.Rect, marks []ui.Rect) (ui.Point, bool) {
	free := func(dx float64) bool {
		moved := r
		moved.X += dx
		if moved.X < span.X || moved.MaxX() > span.MaxX() {
			return false
		}
		for _, m := range marks {
			if moved.Overlaps(m) {
				return false
			}
		}
		return true
	}
	for d := 0.0; d <= span.W/2; d++ {
		for _, dx := range []float64{-d, d} {
			if free(dx) {
				return ui.Point{X: at.X + dx, Y: at.Y}, true
			}
		}
	}
	return at, false
}
