package exercise

import (
	"fmt"
	"math"
	"strings"

	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
)

// The exercise screen's layout: the form placed and wrapped for the
// window, scrolled to what has focus.

// formGeom is where everything on the exercise screen goes. The form's
// contents are laid out in content coordinates (y from the top of the
// form, before scrolling); place moves them into the form's view.
type formGeom struct {
	window, header, title, status ui.Rect
	reading, tabsRow, text        ui.Rect
	verdict                       ui.Rect // the result tab's verdict line
	formPane, view, footer, line  ui.Rect

	content  float64 // the form's content height
	texts    []answer.Text
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

// layout computes the screen's geometry for window.
func (s *answerForm) layout(window ui.Rect) {
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

// layoutForm lays the form's contents out in a column of width w.
func (s *answerForm) layoutForm(w float64) {
	st := s.style
	g := &s.geom
	g.texts = g.texts[:0]
	f := &answer.Flow{Texts: &g.texts, Unit: st.Unit, W: w, Body: st.Body(), Small: st.Small(), Label: st.Label()}
	s.layoutEvidence(f)
	s.query.layout(f)
	s.layoutQuestions(f)
	s.chain.Layout(f)
	s.layoutDefence(f)
	g.content = f.Y
}

// layoutEvidence lays out the simulator's button with the run's
// description, then the number fields.
func (s *answerForm) layoutEvidence(f *answer.Flow) {
	g, w, px := &s.geom, f.W, f.Px
	if s.Ex.Lab != nil {
		f.AddText("Your evidence: a run in the simulator.", false, true)
		f.Y += px(6)
		g.sim = ui.Rect{Y: f.Y, W: math.Min(px(200), w), H: px(36)}
		g.simNote = ui.Rect{X: g.sim.W + px(12), Y: f.Y, W: math.Max(0, w-g.sim.W-px(12)), H: px(36)}
		// A long run description wraps below the button's height.
		g.simNote.H = math.Max(g.simNote.H, f.Height(form.RunText(s.Form.Schedule()), f.Small, g.simNote.W))
		f.Y += g.simNote.H + px(18)
	}
	g.numLabel = g.numLabel[:0]
	g.num = g.num[:0]
	for range s.Ex.Numbers {
		g.numLabel = append(g.numLabel, ui.Rect{Y: f.Y, W: w, H: px(20)})
		g.num = append(g.num, ui.Rect{Y: f.Y + px(22), W: w, H: px(30)})
		f.Y += px(22) + px(30) + px(14)
	}
}

// layoutQuestions lays out each question with its options.
func (s *answerForm) layoutQuestions(f *answer.Flow) {
	g, px := &s.geom, f.Px
	g.opts = g.opts[:0]
	for qi, q := range s.Ex.Questions {
		if qi > 0 || len(s.Ex.Numbers) > 0 || s.Ex.Lab != nil {
			f.Y += px(4)
		}
		f.AddText(draw.Drawable(fmt.Sprintf("%d. %s", qi+1, q.Text)), false, true)
		var notes []string
		if q.Material != "" {
			notes = append(notes, "About "+form.MaterialTitle(s.Ex, q.Material)+" (Logs tab).")
		}
		if q.Multi {
			notes = append(notes, "Several may apply.")
		} else {
			notes = append(notes, "Pick one.")
		}
		f.AddText(strings.Join(notes, " "), true, false)
		f.Y += px(6)
		row := make([]ui.Rect, len(q.Options))
		for oi, o := range q.Options {
			row[oi] = f.Option(draw.Drawable(o.Label))
		}
		g.opts = append(g.opts, row)
		f.Y += px(10)
	}
}

// layoutDefence lays out the written defence: a field as tall as what is
// written, and at least four lines; once the model answer is shown, its
// key points follow as boxes the learner ticks.
func (s *answerForm) layoutDefence(f *answer.Flow) {
	g, w, px := &s.geom, f.W, f.Px
	g.defenceTop = f.Y
	f.AddText("Your defence, in a few sentences", false, true)
	f.AddText("Kept with your answer and shown beside the model answer; not graded. Tab here and type.", true, false)
	f.Y += px(6)
	inner := w - px(20)
	h := math.Max(4*draw.LineHeight(f.Body), f.Height(s.Form.Defence()+"_", f.Body, inner)) + px(16)
	g.defence = ui.Rect{Y: f.Y, W: w, H: h}
	f.Y += h + px(10)
	g.points = g.points[:0]
	if !s.shown || len(s.Ex.KeyPoints) == 0 {
		return
	}
	f.Y += px(4)
	g.pointsTop = f.Y
	f.AddText(keyPointsHeading, false, true)
	f.AddText("Compare your defence with the model answer; your ticks are kept with your answer, not graded.", true, false)
	f.Y += px(6)
	for _, k := range s.Ex.KeyPoints {
		g.points = append(g.points, f.Option(draw.Drawable(k)))
	}
	f.Y += px(4)
}

// maxScroll is how far the form can scroll.
func (s *answerForm) maxScroll() float64 { return math.Max(0, s.geom.content-s.geom.view.H) }

// ToView moves a content rectangle into the form's view.
func (s *answerForm) ToView(r ui.Rect) ui.Rect {
	return ui.Rect{X: s.geom.view.X + r.X, Y: s.geom.view.Y + r.Y - s.scroll, W: r.W, H: r.H}
}

// place gives the form's widgets their on-screen rectangles and the
// reading pane its text panel.
func (s *answerForm) place() {
	g := &s.geom
	s.scroll = math.Max(0, math.Min(s.scroll, s.maxScroll()))
	s.sim.Rect = s.ToView(g.sim)
	for i := range s.numbers {
		s.numbers[i].Rect = s.ToView(g.num[i])
	}
	for qi := range s.options {
		for oi := range s.options[qi] {
			s.options[qi][oi].Rect = s.ToView(g.opts[qi][oi])
		}
	}
	s.defence.Rect = s.ToView(g.defence)
	s.query.place()
	s.chain.Place()
	for i := range s.points {
		s.points[i].Rect = ui.Rect{} // nowhere until the model answer is shown
		if i < len(g.points) {
			s.points[i].Rect = s.ToView(g.points[i])
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
func (s *answerForm) contentRect(f ui.Focusable) (ui.Rect, bool) {
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
	if r, ok := s.chain.Rect(f); ok {
		return r, true
	}
	for i := range s.points {
		if f == &s.points[i] && i < len(s.geom.points) {
			return s.geom.points[i], true
		}
	}
	return ui.Rect{}, false
}

// ScrollToFocus scrolls the form so the focused widget is in view.
func (s *answerForm) ScrollToFocus() {
	r, ok := s.contentRect(s.ring.Current())
	if !ok {
		return
	}
	s.scroll = answer.ScrollShowing(s.scroll, r, s.style.U(8), s.geom.view.H)
	s.place()
}

// scrollToPoints scrolls the form to the defence with the key points
// under it, or to the key points alone when both do not fit.
func (s *answerForm) scrollToPoints() {
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

// scrollForm scrolls the form by the wheel over it, or by a finger
// dragged in it. A drag is not a tap: the option it started on is not
// chosen (see answer.Drag).
func (s *answerForm) scrollForm(in *ui.Input) {
	s.drag.Scroll(in, s.geom.view, s.style, func(dy float64) {
		s.scroll += dy
		s.place()
	})
}

// formInput is the input the form's widgets see: the pointer only while
// it is over the form's view, so a widget scrolled out of sight cannot be
// clicked through the header or footer, and not while a finger scrolls.
func (s *answerForm) formInput(in *ui.Input) *ui.Input { return s.drag.Input(in, s.geom.view) }
