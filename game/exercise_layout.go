package game

import (
	"fmt"
	"math"
	"strings"

	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
)

// The exercise screen's layout: the form placed and wrapped for the
// window, scrolled to what has focus.

// exerciseGeom is where everything on the exercise screen goes. The form's
// contents are laid out in content coordinates (y from the top of the
// form, before scrolling); place moves them into the form's view.
type exerciseGeom struct {
	window, header, title, status ui.Rect
	reading, tabsRow, text        ui.Rect
	verdict                       ui.Rect // the result tab's verdict line
	formPane, view, footer, line  ui.Rect

	content  float64 // the form's content height
	texts    []formText
	sim      ui.Rect // content coordinates, like the rest below
	simNote  ui.Rect
	numLabel []ui.Rect
	num      []ui.Rect
	opts     [][]ui.Rect
	defence  ui.Rect // the written defence's field
	// defenceTop and pointsTop are where the defence's and the key
	// points' headings begin; points are the key points' boxes, laid out
	// once the model answer is shown.
	defenceTop, pointsTop float64
	points                []ui.Rect
	unit                  float64 // the unit the text panels were measured for
}

// formText is a run of wrapped text in the form.
type formText struct {
	r    ui.Rect
	text string
	dim  bool
	bold bool
}

// layout computes the screen's geometry for window.
func (s *exerciseAnswer) layout(window ui.Rect) {
	st := s.style
	u := st.Unit
	px := func(v float64) float64 { return math.Round(v * u) }
	g := &s.geom
	g.window = window
	body := window.Inset(px(14))
	g.header, body = body.CutTop(px(40), px(12))
	backR, rest := g.header.CutLeft(px(132), px(14))
	s.back.Rect = backR.InsetXY(0, px(2))
	g.status, g.title = rest.CutRight(px(190), px(12))
	if window.W >= px(exTwoColumns) {
		g.reading, g.formPane = body.CutLeft(math.Round(body.W*0.44), px(12))
	} else {
		g.reading, g.formPane = body.CutTop(math.Round(body.H*0.4), px(10))
	}

	in := g.reading.Inset(px(12))
	g.tabsRow, g.text = in.CutTop(px(34), px(10))
	x := g.tabsRow.X
	for i := range s.tabs {
		w := draw.Measure(st.Label())(s.tabs[i].Label) + px(28)
		s.tabs[i].Rect = ui.Rect{X: x, Y: g.tabsRow.Y, W: math.Min(w, g.tabsRow.MaxX()-x), H: g.tabsRow.H}
		x += w + px(6)
	}

	in = g.formPane.Inset(px(12))
	g.footer, g.view = in.CutBottom(px(72), px(10))
	g.line, rest = g.footer.CutTop(px(24), px(8))
	s.checkB.Rect, rest = rest.CutLeft(px(148), px(8))
	s.cancel.Rect, rest = rest.CutLeft(px(88), px(8))
	s.hintB.Rect, rest = rest.CutLeft(px(108), px(8))
	s.model.Rect, _ = rest.CutLeft(px(176), 0)

	s.layoutForm(g.view.W)
	if g.content > g.view.H {
		// Make room for the scroll bar.
		s.layoutForm(g.view.W - px(14))
	}
}

// formFlow lays the form's contents out top to bottom in a column of
// width w, in content coordinates: y is the height laid out so far.
type formFlow struct {
	g                  *exerciseGeom
	unit               float64
	w, y               float64
	body, small, label *draw.Face
}

// px is v units in pixels, rounded.
func (f *formFlow) px(v float64) float64 { return math.Round(v * f.unit) }

// height is the height of text wrapped in face to width w.
func (f *formFlow) height(text string, face *draw.Face, w float64) float64 {
	return float64(len(draw.Wrap(text, w, face))) * draw.LineHeight(face)
}

// addText adds a paragraph of the column's width: a heading (bold), a
// note (dim) or body text.
func (f *formFlow) addText(t string, dim, bold bool) {
	face := f.body
	switch {
	case bold:
		face = f.label
	case dim:
		face = f.small
	}
	h := f.height(t, face, f.w)
	f.g.texts = append(f.g.texts, formText{r: ui.Rect{Y: f.y, W: f.w, H: h}, text: t, dim: dim, bold: bold})
	f.y += h
}

// removable adds a line of text with a Remove button at its right (a
// check, a step of the chain) and returns the button's rectangle.
func (f *formFlow) removable(text string) ui.Rect {
	btnW := f.px(96)
	tw := math.Max(0, f.w-btnW-f.px(10))
	h := math.Max(f.px(34), f.height(text, f.body, tw))
	f.g.texts = append(f.g.texts, formText{r: ui.Rect{Y: f.y, W: tw, H: h}, text: text})
	r := ui.Rect{X: f.w - btnW, Y: f.y, W: btnW, H: f.px(34)}
	f.y += h + f.px(6)
	return r
}

// option adds the row of an option the learner picks (an answer, a key
// point, an event of the run) labelled label, and returns it.
func (f *formFlow) option(label string) ui.Rect {
	h := optionHeight(label, f.body, f.w, f.unit)
	r := ui.Rect{Y: f.y, W: f.w, H: h}
	f.y += h + f.px(6)
	return r
}

// layoutForm lays the form's contents out in a column of width w.
func (s *exerciseAnswer) layoutForm(w float64) {
	st := s.style
	g := &s.geom
	g.texts = g.texts[:0]
	f := &formFlow{g: g, unit: st.Unit, w: w, body: st.Body(), small: st.Small(), label: st.Label()}
	s.layoutEvidence(f)
	s.query.layout(f)
	s.layoutQuestions(f)
	s.chain.layout(f)
	s.layoutDefence(f)
	g.content = f.y
}

// layoutEvidence lays out the simulator's button with the run's
// description, then the number fields.
func (s *exerciseAnswer) layoutEvidence(f *formFlow) {
	g, w, px := f.g, f.w, f.px
	if s.Ex.Lab != nil {
		f.addText("Your evidence: a run in the simulator.", false, true)
		f.y += px(6)
		g.sim = ui.Rect{Y: f.y, W: math.Min(px(200), w), H: px(36)}
		g.simNote = ui.Rect{X: g.sim.W + px(12), Y: f.y, W: math.Max(0, w-g.sim.W-px(12)), H: px(36)}
		// A long run description wraps below the button's height.
		g.simNote.H = math.Max(g.simNote.H, f.height(form.RunText(s.Form.Schedule()), f.small, g.simNote.W))
		f.y += g.simNote.H + px(18)
	}
	g.numLabel = g.numLabel[:0]
	g.num = g.num[:0]
	for range s.Ex.Numbers {
		g.numLabel = append(g.numLabel, ui.Rect{Y: f.y, W: w, H: px(20)})
		g.num = append(g.num, ui.Rect{Y: f.y + px(22), W: w, H: px(30)})
		f.y += px(22) + px(30) + px(14)
	}
}

// layoutQuestions lays out each question with its options.
func (s *exerciseAnswer) layoutQuestions(f *formFlow) {
	g, px := f.g, f.px
	g.opts = g.opts[:0]
	for qi, q := range s.Ex.Questions {
		if qi > 0 || len(s.Ex.Numbers) > 0 || s.Ex.Lab != nil {
			f.y += px(4)
		}
		f.addText(draw.Drawable(fmt.Sprintf("%d. %s", qi+1, q.Text)), false, true)
		var notes []string
		if q.Material != "" {
			notes = append(notes, "About "+form.MaterialTitle(s.Ex, q.Material)+" (Logs tab).")
		}
		if q.Multi {
			notes = append(notes, "Several may apply.")
		} else {
			notes = append(notes, "Pick one.")
		}
		f.addText(strings.Join(notes, " "), true, false)
		f.y += px(6)
		row := make([]ui.Rect, len(q.Options))
		for oi, o := range q.Options {
			row[oi] = f.option(draw.Drawable(o.Label))
		}
		g.opts = append(g.opts, row)
		f.y += px(10)
	}
}

// layoutDefence lays out the written defence: a field as tall as what is
// written, and at least four lines; once the model answer is shown, its
// key points follow as boxes the learner ticks.
func (s *exerciseAnswer) layoutDefence(f *formFlow) {
	g, w, px := f.g, f.w, f.px
	g.defenceTop = f.y
	f.addText("Your defence, in a few sentences", false, true)
	f.addText("Kept with your answer and shown beside the model answer; not graded. Tab here and type.", true, false)
	f.y += px(6)
	inner := w - px(20)
	h := math.Max(4*draw.LineHeight(f.body), f.height(s.Form.Defence()+"_", f.body, inner)) + px(16)
	g.defence = ui.Rect{Y: f.y, W: w, H: h}
	f.y += h + px(10)
	g.points = g.points[:0]
	if !s.shown || len(s.Ex.KeyPoints) == 0 {
		return
	}
	f.y += px(4)
	g.pointsTop = f.y
	f.addText(keyPointsHeading, false, true)
	f.addText("Compare your defence with the model answer; your ticks are kept with your answer, not graded.", true, false)
	f.y += px(6)
	for _, k := range s.Ex.KeyPoints {
		g.points = append(g.points, f.option(draw.Drawable(k)))
	}
	f.y += px(4)
}

// optionHeight is the height of an option's or key point's row of width
// w: its label wrapped beside the mark, and at least one button high.
func optionHeight(label string, face *draw.Face, w, unit float64) float64 {
	px := func(v float64) float64 { return math.Round(v * unit) }
	return math.Max(px(34), float64(len(draw.Wrap(label, w-px(46), face)))*draw.LineHeight(face)+px(12))
}

// maxScroll is how far the form can scroll.
func (s *exerciseAnswer) maxScroll() float64 { return math.Max(0, s.geom.content-s.geom.view.H) }

// toView moves a content rectangle into the form's view.
func (s *exerciseAnswer) toView(r ui.Rect) ui.Rect {
	return ui.Rect{X: s.geom.view.X + r.X, Y: s.geom.view.Y + r.Y - s.scroll, W: r.W, H: r.H}
}

// place gives the form's widgets their on-screen rectangles and the
// reading pane its text panel.
func (s *exerciseAnswer) place() {
	g := &s.geom
	s.scroll = math.Max(0, math.Min(s.scroll, s.maxScroll()))
	s.sim.Rect = s.toView(g.sim)
	for i := range s.numbers {
		s.numbers[i].Rect = s.toView(g.num[i])
	}
	for qi := range s.options {
		for oi := range s.options[qi] {
			s.options[qi][oi].Rect = s.toView(g.opts[qi][oi])
		}
	}
	s.defence.Rect = s.toView(g.defence)
	s.query.place()
	s.chain.place()
	for i := range s.points {
		s.points[i].Rect = ui.Rect{} // nowhere until the model answer is shown
		if i < len(g.points) {
			s.points[i].Rect = s.toView(g.points[i])
		}
	}
	st := s.style
	if st.Unit != g.unit {
		for id, p := range s.reading {
			face := st.Body()
			if id == tabLogs {
				face = st.Mono()
			}
			p.SetMeasure(draw.Measure(face), draw.LineHeight(face))
		}
		g.unit = st.Unit
	}
	for id, p := range s.reading {
		r := g.text
		if id == tabResult {
			// Room for the verdict line above and the ✓ and ✗ beside.
			g.verdict, r = r.CutTop(math.Round(st.U(30)), math.Round(st.U(8)))
			_, r = r.CutLeft(math.Round(st.U(30)), 0)
		}
		lh := p.LineHeight()
		if lh > 0 {
			r.H = math.Floor(r.H/lh) * lh
		}
		p.Rect = r
		p.Gutter = math.Round(st.U(12))
	}
	s.placeShare()
}

// contentRect returns the content rectangle of a form widget, if f is one.
func (s *exerciseAnswer) contentRect(f ui.Focusable) (ui.Rect, bool) {
	if f == &s.sim {
		return s.geom.sim, true
	}
	for i := range s.numbers {
		if f == &s.numbers[i] {
			return ui.Rect{Y: s.geom.numLabel[i].Y, W: s.geom.num[i].W, H: s.geom.num[i].MaxY() - s.geom.numLabel[i].Y}, true
		}
	}
	for qi := range s.options {
		for oi := range s.options[qi] {
			if f == &s.options[qi][oi] {
				return s.geom.opts[qi][oi], true
			}
		}
	}
	if f == &s.defence {
		return s.geom.defence, true
	}
	if r, ok := s.query.rect(f); ok {
		return r, true
	}
	if r, ok := s.chain.rect(f); ok {
		return r, true
	}
	for i := range s.points {
		if f == &s.points[i] && i < len(s.geom.points) {
			return s.geom.points[i], true
		}
	}
	return ui.Rect{}, false
}

// scrollToFocus scrolls the form so the focused widget is in view.
func (s *exerciseAnswer) scrollToFocus() {
	r, ok := s.contentRect(s.ring.Current())
	if !ok {
		return
	}
	margin := s.style.U(8)
	if r.Y-margin < s.scroll {
		s.scroll = r.Y - margin
	}
	if r.MaxY()+margin > s.scroll+s.geom.view.H {
		s.scroll = r.MaxY() + margin - s.geom.view.H
	}
	s.place()
}

// scrollToPoints scrolls the form to the defence with the key points
// under it, or to the key points alone when both do not fit.
func (s *exerciseAnswer) scrollToPoints() {
	g := &s.geom
	if len(g.points) == 0 {
		return
	}
	margin := s.style.U(8)
	top := g.defenceTop
	if g.points[len(g.points)-1].MaxY()+margin-top > g.view.H {
		top = g.pointsTop
	}
	s.scroll = top - margin
}

// formDrag is a finger scrolling the form.
type formDrag struct {
	on     bool    // a finger went down in the form and is still down
	lastY  float64 // where it was last tick
	startY float64
	moved  bool // it moved far enough to be a scroll, not a tap
}

// scrollForm scrolls the form by the wheel over it, or by a finger
// dragged in it. A drag is not a tap: the option it started on is not
// chosen (see formDrag).
func (s *exerciseAnswer) scrollForm(in *ui.Input) {
	s.drag.scroll(in, s.geom.view, s.style, func(dy float64) {
		s.scroll += dy
		s.place()
	})
}

// scroll follows a finger dragged in view and the wheel over it, calling
// by with each distance to scroll the content by: the form's and the
// recap card's alike.
func (d *formDrag) scroll(in *ui.Input, view ui.Rect, style draw.Style, by func(dy float64)) {
	p := in.Pointer()
	if !d.on {
		// The finger lifted last update (that lift was not a tap): the
		// form takes the pointer again, a mouse's too.
		d.moved = false
	}
	if p.Touch {
		switch {
		case p.JustDown && view.Contains(p.Pos):
			*d = formDrag{on: true, lastY: p.Pos.Y, startY: p.Pos.Y}
		case d.on:
			if math.Abs(p.Pos.Y-d.startY) > style.U(10) {
				d.moved = true
			}
			if d.moved {
				by(d.lastY - p.Pos.Y)
			}
			d.lastY = p.Pos.Y
		}
		if p.JustUp {
			d.on = false
		}
	}
	if in.Wheel.Y != 0 && p.Present && view.Contains(p.Pos) {
		by(-in.Wheel.Y * 3 * draw.LineHeight(style.Body()))
	}
}

// formInput is the input the form's widgets see: the pointer only while
// it is over the form's view, so a widget scrolled out of sight cannot be
// clicked through the header or footer, and not while a finger scrolls.
func (s *exerciseAnswer) formInput(in *ui.Input) *ui.Input { return s.drag.input(in, s.geom.view) }

// input is the input what lies in view sees: the pointer only while it
// is over view, and not while a finger scrolls it.
func (d *formDrag) input(in *ui.Input, view ui.Rect) *ui.Input {
	if p := in.Pointer(); view.Contains(p.Pos) && !d.moved {
		return in
	}
	out := *in
	away := ui.Point{X: -1e6, Y: -1e6}
	out.Cursor = away
	out.Touches = append([]ui.Touch(nil), in.Touches...)
	for i := range out.Touches {
		out.Touches[i].Pos = away
	}
	return &out
}
