package view

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// timelineFrame is one drawing of the timeline: where it draws, the
// geometry and lanes it draws, and what it has put down so far that later
// marks and labels keep clear of.
type timelineFrame struct {
	dst *ebiten.Image
	s   draw.Style
	th  *draw.Theme
	g   ui.TimelineGeom
	tl  lab.Timeline
	h   float64 // the small face's text height
	// pills are the spans' names, to place clear of the write marks.
	pills []timelinePill
	// labels are the labels beside leader lines and notable writes, with
	// boxes their room, placed clear of marks (marks, pills and lines).
	labels       []timelineLabel
	boxes, marks []ui.Rect
	// writeMarks are the write marks' boxes, a run of them one box.
	writeMarks []ui.Rect
}

// timelinePill is a span's name on its lane: "paused", "sends held".
type timelinePill struct {
	at     ui.Point
	span   ui.Rect
	text   string
	colour color.Color
}

// timelineLabel is a label beside a mark, from x to end, centred on y.
type timelineLabel struct {
	x, y, end float64
	text      string
}

func (v *Timeline) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	f := &timelineFrame{dst: dst, s: s, th: s.Theme, g: v.geom, tl: v.tl, h: draw.TextHeight(s.Small())}
	caption := f.caption()
	legend := TimelineLegend(v.lab.World())
	for i, lane := range f.tl.Lanes {
		f.lane(i, lane)
	}
	f.overlaps()
	f.placePills()
	f.leaderLines()
	f.writes()
	shown := f.placeLabels()
	v.drawnLabels, v.drawnMarks, v.drawnTexts, v.drawnWrites = v.drawnLabels[:0], f.marks, v.drawnTexts[:0], f.writeMarks
	for _, l := range shown {
		v.drawnLabels = append(v.drawnLabels, ui.Rect{X: l.x, Y: l.y - f.h/2, W: l.end - l.x, H: f.h})
		v.drawnTexts = append(v.drawnTexts, l.text)
	}
	f.axis()
	// The legend, at the caption's right where there is room; the play
	// head's marker keeps below it.
	// A narrow strip (a phone's) says it in fewer words.
	var legendBox ui.Rect
	room := f.g.Caption.W - draw.Measure(s.Label())(caption) - s.U(24)
	if i := slices.IndexFunc(legend, func(l string) bool { return draw.Measure(s.Small())(l) < room }); i >= 0 {
		said := legend[i]
		w := draw.Measure(s.Small())(said)
		legendBox = ui.Rect{X: f.g.Caption.MaxX() - w, Y: f.g.Caption.Y + (f.g.Caption.H-f.h)/2, W: w, H: f.h}
		draw.TextIn(dst, said, s.Small(), f.g.Caption, draw.AlignEnd, f.th.TextDim)
	}
	v.drawnHead = f.playHead(legendBox)
	f.drawLabels(shown)
}

// caption draws the timeline's caption and returns it: which part of the
// run shows when zoomed, and how to see it all.
func (f *timelineFrame) caption() string {
	g := f.g
	caption := "Timeline"
	if !g.View.Whole() {
		caption = fmt.Sprintf("Timeline %s to %s of %s (0: all)", secs(g.View.From), secs(g.View.To), secs(g.View.Length))
	}
	draw.TextIn(f.dst, caption, f.s.Label(), g.Caption, draw.AlignStart, f.th.TextDim)
	return caption
}

// TimelineLegend says what the bars and boxes mean in w's kind of world:
// the whole, then shorter wordings of it, shortest last.
func TimelineLegend(w lab.WorldView) []string {
	upper := [2]string{"upper bar: believes it leads", "upper: thinks it leads"}
	lower := [2]string{"lower bar: coordinator says it holds", "lower: coordinator agrees"}
	third := [2]string{"orange box: both believe they lead", "orange: two leaders"}
	switch {
	case len(w.Workers) > 0:
		upper[0] += " (worker: owns shards)"
		lower[0] = "lower bar: coordinator agrees"
		return legendWordings(upper, lower)
	case len(w.Members) > 0:
		third = [2]string{"blue line: new coordinator leader", "blue: new coordinator"}
	case len(w.Redis) > 0:
		// No coordinator: the truth is which value a majority holds.
		lower = [2]string{"lower bar: its keys on a majority", "lower: keys on a majority"}
	}
	return legendWordings(upper, lower, third)
}

// legendWordings are a legend's clauses said whole, then each in its
// shorter words.
func legendWordings(clauses ...[2]string) []string {
	var long, short []string
	for _, c := range clauses {
		long, short = append(long, c[0]), append(short, c[1])
	}
	return []string{strings.Join(long, "   "), strings.Join(short, "   ")}
}

func seconds(d time.Duration) float64 { return d.Seconds() }

// out says whether sp lies wholly outside the view (drawn, it would be a
// sliver at the edge).
func (f *timelineFrame) out(sp lab.Span) bool {
	return seconds(sp.To) < f.g.View.From || seconds(sp.From) > f.g.View.To
}

// bar fills sp's part of row, at least a pixel wide.
func (f *timelineFrame) bar(row ui.Rect, sp lab.Span, clr color.Color) {
	if f.out(sp) {
		return
	}
	x0, x1 := f.g.X(seconds(sp.From)), f.g.X(seconds(sp.To))
	if x1-x0 < 1 {
		x1 = x0 + 1
	}
	draw.FillRoundRect(f.dst, ui.Rect{X: x0, Y: row.Y, W: x1 - x0, H: row.H}, f.s.U(2), clr)
}

// laneFace is the one face every lane's name is drawn in: the label face
// where every name fits its lane, else the small one (names in two sizes
// read as two kinds of lane).
func (f *timelineFrame) laneFace() *draw.Face {
	s, g := f.s, f.g
	face := s.Label()
	if len(f.tl.Lanes) > 0 && draw.TextHeight(face) > g.Lane(0).H {
		return s.Small()
	}
	for _, lane := range f.tl.Lanes {
		if draw.Measure(face)(lane.Name) > g.Labels.W {
			return s.Small()
		}
	}
	return face
}

// lane draws lane i: its name, its belief and truth bars, its pauses,
// delays and crashes, collecting the spans' names as pills.
func (f *timelineFrame) lane(i int, lane lab.Lane) {
	s, th, g := f.s, f.th, f.g
	row := g.Lane(i)
	label := ui.Rect{X: g.Labels.X, Y: row.Y, W: g.Labels.W, H: row.H}
	draw.TextInTip(f.dst, lane.Name, f.laneFace(), label, draw.AlignStart, th.Text)
	draw.FillRect(f.dst, row, th.Background)
	belief, truth := row.SplitV(0.5)
	belief, truth = belief.InsetXY(0, s.U(2)), truth.InsetXY(0, s.U(2))
	for _, sp := range lane.Belief {
		f.bar(belief, sp, th.Belief)
	}
	for _, sp := range lane.Truth {
		f.bar(truth, sp, th.Truth)
	}
	for _, sp := range lane.Paused {
		if f.out(sp) {
			continue
		}
		x0, x1 := g.X(seconds(sp.From)), g.X(seconds(sp.To))
		r := ui.Rect{X: x0, Y: row.Y, W: x1 - x0, H: row.H}
		// Grey, not orange: orange is two leaders, as the legend says,
		// and a pause alone (its pill often has no room on a phone)
		// must not read as one.
		f.outline(r, "paused", th.TextDim)
		hatch(f.dst, r, s.U(8), s.U(1), th.TextDim)
	}
	for _, sp := range lane.Held {
		if f.out(sp) {
			continue
		}
		// A delay: what it sends waits in the network (it runs on).
		x0, x1 := g.X(seconds(sp.From)), g.X(seconds(sp.To))
		f.outline(ui.Rect{X: x0, Y: row.Y, W: max(x1-x0, 1), H: row.H}, "sends held", th.Accent)
	}
	for _, sp := range lane.Crashed {
		if f.out(sp) {
			continue
		}
		x0, x1 := g.X(seconds(sp.From)), g.X(seconds(sp.To))
		r := ui.Rect{X: x0, Y: row.Y + row.H/2 - s.U(2), W: x1 - x0, H: s.U(4)}
		draw.FillRect(f.dst, r, th.Reject)
		draw.CrossMark(f.dst, ui.Point{X: x0, Y: row.Y + row.H/2}, s.U(12), s.U(2), th.Reject)
	}
}

// outline strokes a span's box r in clr and names it text (a pill, placed
// later) where the box is wide enough.
func (f *timelineFrame) outline(r ui.Rect, text string, clr color.Color) {
	s := f.s
	draw.StrokeRoundRect(f.dst, r, s.U(2), s.U(1.5), clr)
	if r.W > draw.Measure(s.Small())(text)+s.U(8) {
		f.pills = append(f.pills, timelinePill{r.Center(), r, text, clr})
	}
}

// overlaps outlines each belief overlap across the lanes of its lock.
func (f *timelineFrame) overlaps() {
	s, g := f.s, f.g
	for _, ov := range f.tl.Overlaps {
		if f.out(ov.Span) {
			continue
		}
		first, last := -1, -1
		for i, l := range f.tl.Lanes {
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
		x0, x1 := g.X(seconds(ov.From)), g.X(seconds(ov.To))
		r := ui.Rect{X: x0, Y: top - s.U(2), W: x1 - x0, H: bottom - top + s.U(4)}
		draw.StrokeRoundRect(f.dst, r, s.U(3), s.U(2), f.th.Warning)
	}
}

// markAt is where write mark m goes on its sender's lane, its size and how
// far its ink reaches from its centre; ok is false for a mark out of view
// or on no lane shown.
func (f *timelineFrame) markAt(m lab.WriteMark) (c ui.Point, size, reach float64, ok bool) {
	s, g := f.s, f.g
	i := f.tl.LaneOf(m.From)
	if i < 0 || !g.InView(seconds(m.At)) {
		return ui.Point{}, 0, 0, false
	}
	row := g.Lane(i)
	c = ui.Point{X: g.X(seconds(m.At)), Y: row.Y + row.H/2}
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

// placePills draws the spans' names over the outlines (an overlap that
// begins inside a pause would otherwise draw its edge through the word
// "paused"), slid along their span clear of the write marks, or left out
// where none leaves room (the span's hatching and the world's tag say
// it). The pills drawn become marks the labels keep clear of.
func (f *timelineFrame) placePills() {
	s := f.s
	var writeMarks []ui.Rect
	for _, m := range f.tl.Writes {
		if c, _, reach, ok := f.markAt(m); ok {
			// A little more than the mark's ink: on a phone a pill that
			// only touched a mark read as one shape with it.
			reach += s.U(3)
			writeMarks = append(writeMarks, ui.Rect{X: c.X - reach, Y: c.Y - reach, W: 2 * reach, H: 2 * reach})
		}
	}
	kept := f.pills[:0]
	for _, p := range f.pills {
		if at, ok := clearOf(p.at, p.span.InsetXY(-s.U(3), 0), pillRect(s, p.at, p.text), writeMarks); ok {
			p.at = at
			pill(f.dst, s, p.at, p.text, p.colour, f.th.Background)
			kept = append(kept, p)
		}
	}
	f.pills = kept
	for _, p := range f.pills {
		w := draw.Measure(s.Small())(p.text) + s.U(8)
		f.marks = append(f.marks, ui.Rect{X: p.at.X - w/2, Y: p.at.Y - f.h/2, W: w, H: f.h})
	}
}

// addLabel offers l a place, its box reaching a little either side.
func (f *timelineFrame) addLabel(l timelineLabel) {
	f.labels = append(f.labels, l)
	f.boxes = append(f.boxes, ui.Rect{X: l.x - f.s.U(2), Y: l.y - f.h/2, W: l.end - l.x + f.s.U(6), H: f.h})
}

// leaderLines draws the coordinator's leader changes across every lane: a
// line each, labelled with its term where there is room.
func (f *timelineFrame) leaderLines() {
	n := len(f.tl.Lanes)
	if n == 0 {
		return
	}
	s, th, g := f.s, f.th, f.g
	top, bottom := g.Lane(0).Y, g.Lane(n-1).MaxY()
	for _, m := range f.tl.Leaders {
		if !g.InView(seconds(m.At)) {
			continue
		}
		x, clr, text := g.X(seconds(m.At)), th.Accent, fmt.Sprintf("term %d", m.Term)
		if m.Member == "" {
			clr, text = th.Reject, "no leader"
		}
		dashed(f.dst, ui.Point{X: x, Y: top}, ui.Point{X: x, Y: bottom}, s.U(1.5), s.U(4), clr)
		f.marks = append(f.marks, ui.Rect{X: x - s.U(1), Y: top, W: s.U(2), H: bottom - top})
		l := timelineLabel{x: x + s.U(3), y: top + f.h/2, text: text}
		l.end = l.x + draw.Measure(s.Small())(text)
		f.addLabel(l)
	}
}

// writes draws the resource's decisions on the sender's lane, offering a
// label beside notable ones.
func (f *timelineFrame) writes() {
	s := f.s
	// Plain accepted writes, lane by lane, in runs: marks closer than
	// their ink merge into one, with a count (on a phone a write a
	// second drew a blob of ticks). The notable ones (refused, stale,
	// labelled) are drawn one by one, over them.
	type placed struct {
		m           lab.WriteMark
		c           ui.Point
		size, reach float64
	}
	lanes := map[float64][]placed{}
	var ys []float64
	var notable []placed
	for _, m := range f.tl.Writes {
		c, size, reach, ok := f.markAt(m)
		if !ok {
			continue
		}
		p := placed{m, c, size, reach}
		if !m.Accepted || m.Stale || m.Label != "" {
			notable = append(notable, p)
			continue
		}
		if _, seen := lanes[c.Y]; !seen {
			ys = append(ys, c.Y)
		}
		lanes[c.Y] = append(lanes[c.Y], p)
	}
	for _, y := range ys {
		ps := lanes[y]
		xs := make([]float64, len(ps))
		for i, p := range ps {
			xs[i] = p.c.X
		}
		for _, run := range ui.Runs(xs, 2*ps[0].reach+s.U(2)) {
			first, last := ps[run.From], ps[run.To]
			if run.Len() == 1 {
				f.mark(first.m, first.c, first.size, first.reach)
				continue
			}
			f.markRun(first.c, last.c, first.size, first.reach, run.Len(), first.m.Kind)
		}
	}
	for _, p := range notable {
		f.mark(p.m, p.c, p.size, p.reach)
	}
}

// mark draws one write's mark, and offers its label a place.
func (f *timelineFrame) mark(m lab.WriteMark, c ui.Point, size, reach float64) {
	s, th := f.s, f.th
	if m.Stale {
		// Accepted, but it should not have been: danger, not a tick.
		s.Danger(f.dst, c, size)
		draw.StrokeCircle(f.dst, c, size/2+s.U(3), s.U(2), th.Warning)
	} else {
		s.Verdict(f.dst, c, size, m.Accepted)
	}
	f.marks = append(f.marks, ui.Rect{X: c.X - reach, Y: c.Y - reach, W: 2 * reach, H: 2 * reach})
	f.writeMarks = append(f.writeMarks, f.marks[len(f.marks)-1])
	if m.Label != "" {
		x := c.X + reach + s.U(4)
		f.addLabel(timelineLabel{x: x, y: c.Y, end: x + draw.Measure(s.Small())(m.Label), text: m.Label})
	}
}

// markRun draws n accepted writes too close to tell apart as one run: a
// tick at its first and its last, a line between them, and their count
// after it where there is room ("12 writes").
func (f *timelineFrame) markRun(first, last ui.Point, size, reach float64, n int, kind string) {
	s, th := f.s, f.th
	draw.Line(f.dst, first, last, math.Max(1, s.U(2)), th.Accept)
	s.Verdict(f.dst, first, size, true)
	if last.X-first.X >= 2*reach {
		s.Verdict(f.dst, last, size, true)
	}
	f.marks = append(f.marks, ui.Rect{X: first.X - reach, Y: first.Y - reach, W: last.X - first.X + 2*reach, H: 2 * reach})
	f.writeMarks = append(f.writeMarks, f.marks[len(f.marks)-1])
	text := fmt.Sprintf("%d %s", n, runNoun(kind))
	x := last.X + reach + s.U(4)
	f.addLabel(timelineLabel{x: x, y: last.Y, end: x + draw.Measure(s.Small())(text), text: text})
}

// runNoun is what a run of marks of kind counts.
func runNoun(kind string) string {
	if kind == lab.MarkJob {
		return "jobs"
	}
	return "writes"
}

// placeLabels is the labels shown: only those that run into no mark, pill
// or other label, on any lane (marks drawn over a label made both
// unreadable, and at 600 s a stale mark's ring ran into the next label's
// first letter). A label dropped for room shows when zoomed in, and each
// decision is in the panel's event list.
func (f *timelineFrame) placeLabels() []timelineLabel {
	g, h := f.g, f.h
	var shown []timelineLabel
	for i, ok := range ui.PlaceLabels(f.boxes, f.marks, ui.Rect{X: g.Lanes.X, Y: g.Lanes.Y - h, W: g.Lanes.W, H: g.Axis.Y - g.Lanes.Y + h}) {
		if ok {
			shown = append(shown, f.labels[i])
		}
	}
	return shown
}

// axis draws the time axis's ticks and their labels.
func (f *timelineFrame) axis() {
	s, th, g := f.s, f.th, f.g
	step := ui.TickStep(g.View.Span(), int(g.Lanes.W/s.U(70)))
	// From the first tick at or after the view's start.
	first := math.Ceil(g.View.From/step-1e-9) * step
	if first == 0 {
		first = 0 // not -0, which prints "-0s"
	}
	for t := first; t <= g.View.To+1e-9; t += step {
		x := g.X(t)
		draw.Line(f.dst, ui.Point{X: x, Y: g.Axis.Y - s.U(3)}, ui.Point{X: x, Y: g.Axis.Y}, s.U(1), th.Border)
		// A tick label centred on its tick, kept inside the axis: the
		// run's last one ran past the panel's edge in Compare's halves.
		label := fmt.Sprintf("%gs", t)
		lx, align := x, draw.AlignCenter
		if x+draw.Measure(s.Small())(label)/2 > g.Axis.MaxX() {
			lx, align = g.Axis.MaxX(), draw.AlignEnd
		}
		draw.TextAligned(f.dst, label, s.Small(), lx, g.Axis.Y, align, draw.AlignStart, th.TextDim)
	}
}

// playHead draws the play head and returns its marker's box, empty when
// the view is scrolled away from it (none drawn). The marker sits above
// the lanes, or lower where the legend is above it: drawn on the legend's
// row it covered the text ("upper bar: believes it leads").
func (f *timelineFrame) playHead(legend ui.Rect) ui.Rect {
	s, th, g := f.s, f.th, f.g
	if !g.InView(f.tl.Now.Seconds()) {
		return ui.Rect{}
	}
	now := g.X(f.tl.Now.Seconds())
	top := g.Lanes.Y - s.U(4)
	marker := ui.Rect{X: now - s.U(5), Y: top - s.U(6), W: s.U(10), H: s.U(6)}
	if legend.W > 0 && marker.Overlaps(legend.InsetXY(-s.U(1), -s.U(1))) {
		marker.Y = legend.MaxY() + s.U(1)
	}
	draw.Line(f.dst, ui.Point{X: now, Y: math.Min(top, marker.Y)}, ui.Point{X: now, Y: g.Axis.Y}, s.U(2), th.Text)
	draw.Polygon(f.dst, th.Text, ui.Point{X: marker.X, Y: marker.Y}, ui.Point{X: marker.MaxX(), Y: marker.Y}, ui.Point{X: now, Y: marker.MaxY()})
	return marker
}

// drawLabels draws the labels shown last, each on a plate of the lanes'
// background just larger than its text: a label beside a mark lies on its
// lane's bars, which crossed the white letters ("STALE offset 1", "term 2"
// were hard to read on the purple and teal), and the play head at now,
// just after the latest mark, passes under it too (its line through a
// letter made "duplicate ignored" read "|uplicate ignored").
func (f *timelineFrame) drawLabels(shown []timelineLabel) {
	s, h := f.s, f.h
	for _, l := range shown {
		draw.FillRoundRect(f.dst, ui.Rect{X: l.x - s.U(2), Y: l.y - h/2 - s.U(1), W: l.end - l.x + s.U(4), H: h + s.U(2)}, s.U(2), f.th.Background)
		draw.TextAligned(f.dst, l.text, s.Small(), l.x, l.y, draw.AlignStart, draw.AlignCenter, f.th.Text)
	}
}
