package game

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

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

// exTwoColumns is the narrowest window, in units, that shows the reading
// pane beside the form; narrower ones stack them.
const exTwoColumns = 900

// layout computes the screen's geometry for window.
func (s *ExerciseScene) layout(window ui.Rect) {
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
func (s *ExerciseScene) layoutForm(w float64) {
	st := s.style
	u := st.Unit
	px := func(v float64) float64 { return math.Round(v * u) }
	g := &s.geom
	g.texts = g.texts[:0]
	body, small, label := st.Body(), st.Small(), st.Label()
	height := func(text string, face *draw.Face, w float64) float64 {
		return float64(len(draw.Wrap(text, w, face))) * draw.LineHeight(face)
	}
	y := 0.0
	addText := func(t string, dim, bold bool) {
		face := body
		switch {
		case bold:
			face = label
		case dim:
			face = small
		}
		h := height(t, face, w)
		g.texts = append(g.texts, formText{r: ui.Rect{Y: y, W: w, H: h}, text: t, dim: dim, bold: bold})
		y += h
	}
	if s.Ex.Lab != nil {
		addText("Your evidence: a run in the simulator.", false, true)
		y += px(6)
		g.sim = ui.Rect{Y: y, W: math.Min(px(200), w), H: px(36)}
		g.simNote = ui.Rect{X: g.sim.W + px(12), Y: y, W: math.Max(0, w-g.sim.W-px(12)), H: px(36)}
		// A long run description wraps below the button's height.
		g.simNote.H = math.Max(g.simNote.H, height(form.RunText(s.Form.Schedule()), small, g.simNote.W))
		y += g.simNote.H + px(18)
	}
	g.numLabel = g.numLabel[:0]
	g.num = g.num[:0]
	for range s.Ex.Numbers {
		g.numLabel = append(g.numLabel, ui.Rect{Y: y, W: w, H: px(20)})
		g.num = append(g.num, ui.Rect{Y: y + px(22), W: w, H: px(30)})
		y += px(22) + px(30) + px(14)
	}
	g.opts = g.opts[:0]
	for qi, q := range s.Ex.Questions {
		if qi > 0 || len(s.Ex.Numbers) > 0 || s.Ex.Lab != nil {
			y += px(4)
		}
		addText(draw.Drawable(fmt.Sprintf("%d. %s", qi+1, q.Text)), false, true)
		var notes []string
		if q.Material != "" {
			notes = append(notes, "About "+form.MaterialTitle(s.Ex, q.Material)+" (Logs tab).")
		}
		if q.Multi {
			notes = append(notes, "Several may apply.")
		} else {
			notes = append(notes, "Pick one.")
		}
		addText(strings.Join(notes, " "), true, false)
		y += px(6)
		row := make([]ui.Rect, len(q.Options))
		for oi, o := range q.Options {
			h := optionHeight(draw.Drawable(o.Label), body, w, u)
			row[oi] = ui.Rect{Y: y, W: w, H: h}
			y += h + px(6)
		}
		g.opts = append(g.opts, row)
		y += px(10)
	}
	// The written defence: a field as tall as what is written, and at
	// least four lines.
	g.defenceTop = y
	addText("Your defence, in a few sentences", false, true)
	addText("Kept with your answer and shown beside the model answer; not graded. Tab here and type.", true, false)
	y += px(6)
	inner := w - px(20)
	h := math.Max(4*draw.LineHeight(body), height(s.Form.Defence()+"_", body, inner)) + px(16)
	g.defence = ui.Rect{Y: y, W: w, H: h}
	y += h + px(10)
	// Once the model answer is shown, its key points follow the defence
	// as boxes the learner ticks, beside the model answer's tab.
	g.points = g.points[:0]
	if s.shown && len(s.Ex.KeyPoints) > 0 {
		y += px(4)
		g.pointsTop = y
		addText(keyPointsHeading, false, true)
		addText("Compare your defence with the model answer; your ticks are kept with your answer, not graded.", true, false)
		y += px(6)
		for _, k := range s.Ex.KeyPoints {
			h := optionHeight(draw.Drawable(k), body, w, u)
			g.points = append(g.points, ui.Rect{Y: y, W: w, H: h})
			y += h + px(6)
		}
		y += px(4)
	}
	g.content = y
}

// keyPointsHeading heads the model answer's key points, on the canvas
// and on the page.
const keyPointsHeading = "Key points of a good defence: tick those yours makes"

// optionHeight is the height of an option's or key point's row of width
// w: its label wrapped beside the mark, and at least one button high.
func optionHeight(label string, face *draw.Face, w, unit float64) float64 {
	px := func(v float64) float64 { return math.Round(v * unit) }
	return math.Max(px(34), float64(len(draw.Wrap(label, w-px(46), face)))*draw.LineHeight(face)+px(12))
}

// maxScroll is how far the form can scroll.
func (s *ExerciseScene) maxScroll() float64 { return math.Max(0, s.geom.content-s.geom.view.H) }

// toView moves a content rectangle into the form's view.
func (s *ExerciseScene) toView(r ui.Rect) ui.Rect {
	return ui.Rect{X: s.geom.view.X + r.X, Y: s.geom.view.Y + r.Y - s.scroll, W: r.W, H: r.H}
}

// place gives the form's widgets their on-screen rectangles and the
// reading pane its text panel.
func (s *ExerciseScene) place() {
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
}

// contentRect returns the content rectangle of a form widget, if f is one.
func (s *ExerciseScene) contentRect(f ui.Focusable) (ui.Rect, bool) {
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
	for i := range s.points {
		if f == &s.points[i] && i < len(s.geom.points) {
			return s.geom.points[i], true
		}
	}
	return ui.Rect{}, false
}

// scrollToFocus scrolls the form so the focused widget is in view.
func (s *ExerciseScene) scrollToFocus() {
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
func (s *ExerciseScene) scrollToPoints() {
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
// chosen when the finger lifts.
func (s *ExerciseScene) scrollForm(in *ui.Input) {
	p := in.Pointer()
	d := &s.drag
	if !d.on {
		// The finger lifted last update (that lift was not a tap): the
		// form takes the pointer again, a mouse's too.
		d.moved = false
	}
	if p.Touch {
		switch {
		case p.JustDown && s.geom.view.Contains(p.Pos):
			*d = formDrag{on: true, lastY: p.Pos.Y, startY: p.Pos.Y}
		case d.on:
			if math.Abs(p.Pos.Y-d.startY) > s.style.U(10) {
				d.moved = true
			}
			if d.moved {
				s.scroll += d.lastY - p.Pos.Y
				s.place()
			}
			d.lastY = p.Pos.Y
		}
		if p.JustUp {
			d.on = false
		}
	}
	if in.Wheel.Y == 0 || !p.Present || !s.geom.view.Contains(p.Pos) {
		return
	}
	s.scroll -= in.Wheel.Y * 3 * draw.LineHeight(s.style.Body())
	s.place()
}

// formInput is the input the form's widgets see: the pointer only while
// it is over the form's view, so a widget scrolled out of sight cannot be
// clicked through the header or footer, and not while a finger scrolls.
func (s *ExerciseScene) formInput(in *ui.Input) *ui.Input {
	if p := in.Pointer(); s.geom.view.Contains(p.Pos) && !s.drag.moved {
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

// draw draws the answer screen.
func (s *ExerciseScene) draw(screen *ebiten.Image) {
	st, th, g := s.style, s.style.Theme, &s.geom
	draw.Background(screen, th.Background)

	// Header: back, title, attempts.
	st.Button(screen, &s.back)
	title := draw.Drawable(fmt.Sprintf("Exercise %d: %s", s.Number, s.Ex.Title))
	face := st.Title()
	if draw.Measure(face)(title) > g.title.W {
		face = st.Label()
	}
	draw.TextIn(screen, title, face, g.title, draw.AlignStart, th.Text)
	status, clr := s.Status(), th.TextDim
	if s.passed || s.withAnswer {
		status = fmt.Sprintf("%s · %d %s", status, s.attempts, form.Plural(s.attempts, "attempt", "attempts"))
	}
	if s.passed {
		clr = th.Accept
		draw.CheckMark(screen, ui.Point{X: g.status.X + st.U(8), Y: g.status.Center().Y}, st.U(14), st.U(2.5), th.Accept)
	}
	draw.TextIn(screen, status, st.Label(), g.status.InsetXY(st.U(22), 0), draw.AlignStart, clr)

	// The reading pane.
	st.Panel(screen, g.reading)
	for i := range s.tabs {
		tb := &s.tabs[i]
		st.Button(screen, &tb.Button)
		if tb.id == s.tab {
			bar := ui.Rect{X: tb.Rect.X + st.U(6), Y: tb.Rect.MaxY() - st.U(3), W: tb.Rect.W - st.U(12), H: st.U(3)}
			draw.FillRect(screen, bar, th.Accent)
		}
	}
	p := s.reading[s.tab]
	rface := st.Body()
	if s.tab == tabLogs {
		rface = st.Mono()
	}
	st.TextPanel(screen, p, rface)
	if s.tab == tabResult && s.result != nil {
		s.drawVerdict(screen)
		s.drawMarks(screen, p)
	}

	// The form.
	st.Panel(screen, g.formPane)
	view := screen.SubImage(pixels(g.view.Intersect(ui.Rect{W: float64(screen.Bounds().Dx()), H: float64(screen.Bounds().Dy())}))).(*ebiten.Image)
	// The form scrolls: text partly outside its view is read by scrolling.
	draw.InScroller(func() {
		for _, t := range g.texts {
			f, c := st.Body(), th.Text
			switch {
			case t.bold:
				f = st.Label()
			case t.dim:
				f, c = st.Small(), th.TextDim
			}
			draw.Paragraph(view, t.text, f, s.toView(t.r), c)
		}
		if s.Ex.Lab != nil {
			st.Button(view, &s.sim)
			draw.Paragraph(view, form.RunText(s.Form.Schedule()), st.Small(), centredLines(s.toView(g.simNote), form.RunText(s.Form.Schedule()), st.Small()), th.TextDim)
		}
		for i, k := range s.Ex.Numbers {
			row := s.toView(g.numLabel[i])
			value := lab.KnobValue(k, s.Form.Number(k.ID))
			if !s.Form.IsSet(k.ID) {
				value = "not set"
			}
			valR, nameR := row.CutRight(draw.Measure(st.Mono())(value)+st.U(4), st.U(8))
			draw.TextIn(view, lab.KnobLabel(k), st.Label(), nameR, draw.AlignStart, th.TextDim)
			draw.TextIn(view, value, st.Mono(), valR, draw.AlignEnd, th.Text)
			st.Slider(view, &s.numbers[i])
		}
		for qi, q := range s.Ex.Questions {
			for oi, o := range q.Options {
				s.drawOption(view, &s.options[qi][oi], draw.Drawable(o.Label), q.Multi, s.Form.Chosen(q.ID, o.ID))
			}
		}
		s.drawDefence(view)
		for i := range g.points {
			s.drawOption(view, &s.points[i], draw.Drawable(s.Ex.KeyPoints[i]), true, s.Form.Ticked(i))
		}
	})
	if max := s.maxScroll(); max > 0 {
		track := ui.Rect{X: g.view.MaxX() - st.U(3), Y: g.view.Y, W: st.U(3), H: g.view.H}
		h := math.Max(st.U(24), g.view.H*g.view.H/g.content)
		thumb := ui.Rect{X: track.X, Y: track.Y + (track.H-h)*s.scroll/max, W: track.W, H: h}
		draw.FillRect(screen, track, th.Border)
		draw.FillRoundRect(screen, thumb, st.U(1.5), th.TextDim)
	}

	// Footer: the state of the answer or the running check, and buttons.
	if s.check != nil {
		bar, label := g.line.CutLeft(math.Round(g.line.W*0.6), st.U(10))
		track := bar.InsetXY(0, bar.H/2-st.U(5))
		draw.FillRoundRect(screen, track, st.U(5), th.Raised)
		done := track
		done.W = math.Max(st.U(10), track.W*s.check.Progress())
		draw.FillRoundRect(screen, done, st.U(5), th.Accent)
		draw.TextIn(screen, fmt.Sprintf("Checking… %.0f%%", 100*s.check.Progress()), st.Small(), label, draw.AlignStart, th.Text)
	} else {
		line, c := s.answerState(), th.TextDim
		if s.notice != "" {
			line, c = s.notice, th.Warning
		}
		draw.TextIn(screen, line, st.Small(), g.line, draw.AlignStart, c)
	}
	st.Button(screen, &s.checkB)
	st.Button(screen, &s.cancel)
	st.Button(screen, &s.hintB)
	st.Button(screen, &s.model)
}

// centredLines is r shrunk to the height of text wrapped in it, centred.
func centredLines(r ui.Rect, s string, face *draw.Face) ui.Rect {
	h := float64(len(draw.Wrap(s, r.W, face))) * draw.LineHeight(face)
	if h < r.H {
		r.Y += (r.H - h) / 2
		r.H = h
	}
	return r
}

func pixels(r ui.Rect) image.Rectangle {
	return image.Rect(int(math.Floor(r.X)), int(math.Floor(r.Y)), int(math.Ceil(r.MaxX())), int(math.Ceil(r.MaxY())))
}

// answerState is the footer's line: how much of the answer is filled in.
func (s *ExerciseScene) answerState() string {
	parts := []string{}
	if n := len(s.Ex.Questions); n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d questions answered", s.Form.Answered(), n))
	}
	if s.Ex.Lab != nil {
		n := len(s.Form.Schedule())
		switch n {
		case 0:
			parts = append(parts, "no run yet")
		case 1:
			parts = append(parts, "your run: 1 action")
		default:
			parts = append(parts, fmt.Sprintf("your run: %d actions", n))
		}
	}
	return strings.Join(parts, " · ")
}

// drawOption draws an answer option: a radio button (one choice) or a
// check box (several), its label wrapped beside it, and the row outlined
// in the accent colour when chosen, so the choice never rests on the mark
// alone.
func (s *ExerciseScene) drawOption(dst *ebiten.Image, b *ui.Button, label string, multi, chosen bool) {
	st, th := s.style, s.style.Theme
	r := b.Rect
	bg := th.Raised
	switch {
	case b.Pressed():
		bg = th.Pressed
	case b.Hovered():
		bg = th.RaisedHover
	}
	radius := st.U(6)
	draw.FillRoundRect(dst, r, radius, bg)
	if chosen {
		draw.StrokeRoundRect(dst, r, radius, st.U(2), th.Accent)
	} else {
		draw.StrokeRoundRect(dst, r, radius, math.Max(1, math.Round(st.U(1))), th.Border)
	}
	if b.Focus() == ui.FocusVisible {
		st.FocusRing(dst, r, radius)
	}
	c := ui.Point{X: r.X + st.U(20), Y: r.Y + math.Min(r.H/2, st.U(17))}
	if multi {
		box := ui.Rect{X: c.X - st.U(8), Y: c.Y - st.U(8), W: st.U(16), H: st.U(16)}
		if chosen {
			draw.FillRoundRect(dst, box, st.U(3), th.Accent)
			draw.CheckMark(dst, c, st.U(12), st.U(2.2), th.Background)
		} else {
			draw.StrokeRoundRect(dst, box, st.U(3), st.U(1.5), th.TextDim)
		}
	} else {
		draw.StrokeCircle(dst, c, st.U(8), st.U(1.5), th.TextDim)
		if chosen {
			draw.StrokeCircle(dst, c, st.U(8), st.U(1.5), th.Accent)
			draw.FillCircle(dst, c, st.U(4.5), th.Accent)
		}
	}
	tr := ui.Rect{X: r.X + st.U(38), Y: r.Y, W: r.W - st.U(46), H: r.H}
	draw.Paragraph(dst, label, st.Body(), centredLines(tr, label, st.Body()), th.Text)
}

// drawVerdict draws the result's one-line verdict: passed with a ✓ in
// green, or not yet with a ✗ in red.
func (s *ExerciseScene) drawVerdict(dst *ebiten.Image) {
	st, th, r := s.style, s.style.Theme, s.geom.verdict
	clr := th.Reject
	if s.result.Pass {
		clr = th.Accept
	}
	st.Verdict(dst, ui.Point{X: r.X + st.U(14), Y: r.Center().Y}, st.U(22), s.result.Pass)
	_, r = r.CutLeft(st.U(30), 0)
	draw.TextIn(dst, s.result.Summary(), st.Label(), r, draw.AlignStart, clr)
}

// drawMarks draws a ✓ or ✗ beside each part of the result, at the line
// where the part's paragraph starts.
func (s *ExerciseScene) drawMarks(dst *ebiten.Image, p *ui.TextPanel) {
	st := s.style
	measure := draw.Measure(st.Body())
	line := 0
	for i, para := range form.ResultParagraphs(*s.result) {
		n := max(1, len(ui.Wrap(draw.Drawable(para), p.TextWidth(), measure)))
		if k := i / 2; i%2 == 0 && k < len(s.result.Parts) {
			y := p.LineY(line) + p.LineHeight()/2
			if y > p.Rect.Y && y < p.Rect.MaxY() {
				st.Verdict(dst, ui.Point{X: p.Rect.X - st.U(16), Y: y}, st.U(18), s.result.Parts[k].OK)
			}
		}
		line += n
	}
}

// ExerciseInfo is the exercise screen's state for the browser bridge.
type ExerciseInfo struct {
	ID       string `json:"id"`
	Attempts int    `json:"attempts"`
	Passed   bool   `json:"passed"`
	// Status is the standing the menu shows ("passed with the answer
	// shown"); HintsSeen the rungs revealed; ModelAvailable whether the
	// model answer may be asked for, ModelArmed whether it awaits the
	// confirming click.
	Status         string         `json:"status"`
	HintsSeen      int            `json:"hintsSeen"`
	ModelAvailable bool           `json:"modelAvailable"`
	ModelArmed     bool           `json:"modelArmed"`
	Answer         lessons.Answer `json:"answer"`
	Actions        int            `json:"actions"` // in the answer's run
	Checking       bool           `json:"checking"`
	Progress       float64        `json:"progress"` // of the running check
	Tab            string         `json:"tab"`
	ModelShown     bool           `json:"modelShown"`
	Simulator      bool           `json:"simulator"` // the simulator is showing
	Notice         string         `json:"notice,omitempty"`
	Result         *ResultInfo    `json:"result,omitempty"`
}

// ResultInfo is a checked answer in ExerciseInfo.
type ResultInfo struct {
	Pass    bool       `json:"pass"`
	Summary string     `json:"summary"`
	Parts   []PartInfo `json:"parts"`
	Figures []string   `json:"figures,omitempty"`
}

// PartInfo is one part of a verdict.
type PartInfo struct {
	Part string `json:"part"`
	OK   bool   `json:"ok"`
	Why  string `json:"why"`
}

func (s *ExerciseScene) info() *ExerciseInfo {
	out := &ExerciseInfo{ID: s.Ex.ID, Attempts: s.attempts, Passed: s.passed, Status: s.Status(), HintsSeen: s.hintsSeen,
		ModelAvailable: s.ModelAvailable(), ModelArmed: s.armed, Answer: s.Form.Answer(),
		Actions: len(s.Form.Schedule()), Checking: s.check != nil, Tab: s.tab, ModelShown: s.shown,
		Simulator: s.shows(s.lab), Notice: s.notice}
	if s.check != nil {
		out.Progress = s.check.Progress()
	}
	if r := s.result; r != nil {
		ri := &ResultInfo{Pass: r.Pass, Summary: r.Summary(), Figures: r.Figures}
		for _, p := range r.Parts {
			ri.Parts = append(ri.Parts, PartInfo{Part: p.Part, OK: p.OK, Why: p.Why})
		}
		out.Result = ri
	}
	return out
}

// Inspect implements Inspector.
func (a *exerciseAnswer) Inspect() SceneInfo {
	s := (*ExerciseScene)(a)
	g := &s.geom
	info := SceneInfo{Name: "exercise", Regions: map[string]ui.Rect{
		"back": s.back.Rect, "reading": s.reading[s.tab].Rect, "form": g.view,
		"check": s.checkB.Rect, "cancel": s.cancel.Rect, "model": s.model.Rect, "hint": s.hintB.Rect,
	}, Exercise: s.info()}
	for i := range s.tabs {
		info.Regions["tab:"+s.tabs[i].id] = s.tabs[i].Rect
	}
	visible := func(name string, r ui.Rect) {
		if v := r.Intersect(g.view); !v.Empty() {
			info.Regions[name] = v
		}
	}
	if s.Ex.Lab != nil {
		visible("simulator", s.sim.Rect)
	}
	for i, k := range s.Ex.Numbers {
		visible("number:"+k.ID, s.numbers[i].Rect)
	}
	for qi, q := range s.Ex.Questions {
		for oi, o := range q.Options {
			visible("opt:"+q.ID+":"+o.ID, s.options[qi][oi].Rect)
		}
	}
	for i := range s.geom.points {
		visible(fmt.Sprintf("point:%d", i), s.points[i].Rect)
	}
	if c := s.ring.Current(); c != nil {
		info.Focus = s.names[c]
	}
	info.Mirror = Mirror{Title: fmt.Sprintf("Exercise %d: %s", s.Number, s.Ex.Title), Text: s.mirrorText(),
		Narration: s.narration.Lines(), Controls: s.controls()}
	return info
}

// mirrorText is the whole exercise as text, for the HTML mirror: the
// problem, the logs, the questions with what is chosen, the result and
// the model answer once shown. The page makes a paragraph of each part
// between blank lines, so every option gets its own.
func (s *ExerciseScene) mirrorText() string {
	// Inspect runs every update: rebuild only when what it shows changed.
	key := mirrorKey{s.Form.Version(), s.result, s.shown, s.hintsSeen, s.outside}
	if s.mirror.text != "" && s.mirror.key == key {
		return s.mirror.text
	}
	s.mirror.key, s.mirror.text = key, s.buildMirrorText()
	return s.mirror.text
}

// mirrorKey is what the exercise's text mirror depends on beyond the
// exercise itself.
type mirrorKey struct {
	form   int
	result *lessons.Result
	shown  bool
	hints  int
	// outside: the page shows the form's fields and choices itself.
	outside bool
}

func (s *ExerciseScene) buildMirrorText() string {
	var b strings.Builder
	b.WriteString(strings.Join(s.Ex.Brief, "\n\n"))
	for _, m := range s.Ex.Materials {
		b.WriteString("\n\n" + m.Title + ":\n" + strings.Join(m.Lines(), "\n"))
	}
	if s.Ex.Lab != nil {
		b.WriteString("\n\n" + form.RunText(s.Form.Schedule()))
	}
	for _, k := range s.Ex.Numbers {
		if s.outside {
			break // the page's fields say them
		}
		value := lab.KnobValue(k, s.Form.Number(k.ID))
		if !s.Form.IsSet(k.ID) {
			value = "not set"
		}
		b.WriteString(fmt.Sprintf("\n\n%s: %s", lab.KnobLabel(k), value))
	}
	for i, q := range s.Ex.Questions {
		if s.outside {
			break // the page's choices say them
		}
		b.WriteString(fmt.Sprintf("\n\n%d. %s", i+1, q.Text))
		for _, o := range q.Options {
			mark := "[ ] "
			if s.Form.Chosen(q.ID, o.ID) {
				mark = "[x] "
			}
			b.WriteString("\n\n" + mark + o.Label)
		}
	}
	if r := s.result; r != nil {
		b.WriteString("\n\nResult: " + r.Summary())
		for _, p := range r.Parts {
			b.WriteString("\n\n" + form.PartText(p))
		}
		if len(r.Figures) > 0 {
			b.WriteString("\n\n" + strings.Join(r.Figures, "\n"))
		}
	}
	for i, h := range s.Ex.Hints[:s.hintsSeen] {
		b.WriteString(fmt.Sprintf("\n\nHint %d of %d: %s", i+1, len(s.Ex.Hints), h))
	}
	if s.shown {
		// The page offers the key points as checkboxes of its own; the
		// canvas's mirror says which are ticked.
		ticked := s.Form.Ticked
		if s.outside {
			ticked = nil
		}
		b.WriteString("\n\nModel answer:\n\n" + form.ModelText(s.Ex, ticked))
		if d := s.Form.Answer().Defence; d != "" {
			b.WriteString("\n\nYour defence:\n\n" + d)
		}
	}
	return b.String()
}

// drawDefence draws the written defence's field: its text wrapped, with a
// caret after it while it has the focus.
func (s *ExerciseScene) drawDefence(dst *ebiten.Image) {
	st, th := s.style, s.style.Theme
	r := s.defence.Rect
	draw.FillRoundRect(dst, r, st.U(6), th.Background)
	border := th.Border
	if s.defence.Focus() != ui.NoFocus {
		border = th.Accent
	}
	draw.StrokeRoundRect(dst, r, st.U(6), st.U(1.5), border)
	if s.defence.Focus() == ui.FocusVisible {
		st.FocusRing(dst, r, st.U(6))
	}
	text, clr := s.defence.Text, th.Text
	switch {
	case s.defence.Focus() != ui.NoFocus:
		text += "_" // the caret
	case text == "":
		text, clr = "Nothing written yet.", th.TextDim
	}
	draw.Paragraph(dst, text, st.Body(), r.InsetXY(st.U(10), st.U(8)), clr)
}
