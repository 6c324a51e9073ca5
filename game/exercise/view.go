package exercise

import (
	"fmt"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// exTwoColumns is the narrowest window, in units, that shows the reading
// pane beside the form; narrower ones stack them.
const exTwoColumns = 900

// keyPointsHeading heads the model answer's key points, on the canvas
// and on the page.
const keyPointsHeading = "Key points of a good defence: tick those yours makes"

// draw draws the answer screen.
func (s *answerForm) draw(screen *ebiten.Image) {
	draw.Background(screen, s.style.Theme.Background)
	s.drawHeader(screen)
	s.drawReading(screen)
	s.drawForm(screen)
	s.drawFooter(screen)
}

// drawHeader draws the header: back, title, standing.
func (s *answerForm) drawHeader(screen *ebiten.Image) {
	st, th, g := s.style, s.style.Theme, &s.geom
	st.Button(screen, &s.back)
	title := draw.Drawable(fmt.Sprintf("Exercise %d: %s", s.Number, s.Ex.Title))
	face := st.Title()
	if draw.Measure(face)(title) > g.title.W {
		face = st.Label()
	}
	draw.TextIn(screen, title, face, g.title, draw.AlignStart, th.Text)
	status, clr := s.status(), th.TextDim
	if s.passed || s.withAnswer {
		status = fmt.Sprintf("%s · %d %s", status, s.attempts, form.Plural(s.attempts, "attempt", "attempts"))
	}
	if s.passed {
		clr = th.Accept
		draw.CheckMark(screen, ui.Point{X: g.status.X + st.U(8), Y: g.status.Center().Y}, st.U(14), st.U(2.5), th.Accept)
	}
	draw.TextIn(screen, status, st.Label(), g.status.InsetXY(st.U(22), 0), draw.AlignStart, clr)
}

// drawReading draws the reading pane: its tabs, the tab on show, and on
// the result tab the verdict, the parts' marks and the share button.
func (s *answerForm) drawReading(screen *ebiten.Image) {
	st, th, g := s.style, s.style.Theme, &s.geom
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
		st.Button(screen, &s.shareB)
	}
}

// drawForm draws the form pane: its contents as scrolled, clipped to its
// view, and the scroll bar when they overflow it.
func (s *answerForm) drawForm(screen *ebiten.Image) {
	st, th, g := s.style, s.style.Theme, &s.geom
	st.Panel(screen, g.formPane)
	view := screen.SubImage(answer.Pixels(g.view.Intersect(ui.Rect{W: float64(screen.Bounds().Dx()), H: float64(screen.Bounds().Dy())}))).(*ebiten.Image)
	// The form scrolls: text partly outside its view is read by scrolling.
	draw.InScroller(func() { s.drawContents(view) })
	if max := s.maxScroll(); max > 0 {
		track := ui.Rect{X: g.view.MaxX() - st.U(3), Y: g.view.Y, W: st.U(3), H: g.view.H}
		h := math.Max(st.U(24), g.view.H*g.view.H/g.content)
		thumb := ui.Rect{X: track.X, Y: track.Y + (track.H-h)*s.scroll/max, W: track.W, H: h}
		draw.FillRect(screen, track, th.Border)
		draw.FillRoundRect(screen, thumb, st.U(1.5), th.TextDim)
	}
}

// drawContents draws the form's texts and widgets into its view.
func (s *answerForm) drawContents(view *ebiten.Image) {
	st, th, g := s.style, s.style.Theme, &s.geom
	answer.DrawTexts(view, st, g.texts, s.ToView)
	if s.Ex.Lab != nil {
		st.Button(view, &s.sim)
		draw.Paragraph(view, form.RunText(s.Form.Schedule()), st.Small(), draw.CentredLines(s.ToView(g.simNote), form.RunText(s.Form.Schedule()), st.Small()), th.TextDim)
	}
	for i, k := range s.Ex.Numbers {
		row := s.ToView(g.numLabel[i])
		value := lab.KnobValue(k, s.Form.Number(k.ID))
		if !s.Form.IsSet(k.ID) {
			value = "not set"
		}
		valR, nameR := row.CutRight(draw.Measure(st.Mono())(value)+st.U(4), st.U(8))
		draw.TextIn(view, lab.KnobLabel(k), st.Label(), nameR, draw.AlignStart, th.TextDim)
		draw.TextIn(view, value, st.Mono(), valR, draw.AlignEnd, th.Text)
		st.Slider(view, &s.numbers[i])
	}
	s.query.draw(view)
	for qi, q := range s.Ex.Questions {
		for oi, o := range q.Options {
			s.drawOption(view, &s.options[qi][oi], draw.Drawable(o.Label), q.Multi, s.Form.Chosen(q.ID, o.ID))
		}
	}
	s.chain.Draw(view)
	s.drawDefence(view)
	for i := range g.points {
		s.drawOption(view, &s.points[i], draw.Drawable(s.Ex.KeyPoints[i]), true, s.Form.Ticked(i))
	}
}

// drawFooter draws the footer: the state of the answer or the running
// check, and the buttons.
func (s *answerForm) drawFooter(screen *ebiten.Image) {
	st, th, g := s.style, s.style.Theme, &s.geom
	if c := s.scene.check; c != nil {
		bar, label := g.line.CutLeft(math.Round(g.line.W*0.6), st.U(10))
		track := bar.InsetXY(0, bar.H/2-st.U(5))
		draw.FillRoundRect(screen, track, st.U(5), th.Raised)
		done := track
		done.W = math.Max(st.U(10), track.W*c.Progress())
		draw.FillRoundRect(screen, done, st.U(5), th.Accent)
		draw.TextIn(screen, fmt.Sprintf("Checking… %.0f%%", 100*c.Progress()), st.Small(), label, draw.AlignStart, th.Text)
	} else {
		line, c := s.answerState(), th.TextDim
		if s.sharedWhere != "" {
			line, c = s.sharedWhere, th.Text
		}
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

// answerState is the footer's line: how much of the answer is filled in.
func (s *answerForm) answerState() string {
	parts := []string{}
	if s.Ex.Queries != nil {
		parts = append(parts, form.Plural(len(s.Form.Checks()), "1 check", fmt.Sprintf("%d checks", len(s.Form.Checks()))))
	}
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

// drawRowFrame draws the frame of a row the learner picks (an option, an
// event of the run): its background as the pointer leaves it, outlined in
// the accent colour when marked, its focus ring; it returns the centre of
// the mark that goes at its left.
func (s *answerForm) drawRowFrame(dst *ebiten.Image, b *ui.Button, marked bool) ui.Point {
	return answer.RowFrame(dst, s.style, b, marked)
}

// drawOption draws an answer option: a radio button (one choice) or a
// check box (several), its label wrapped beside it, and the row outlined
// in the accent colour when chosen, so the choice never rests on the mark
// alone.
func (s *answerForm) drawOption(dst *ebiten.Image, b *ui.Button, label string, multi, chosen bool) {
	st, th := s.style, s.style.Theme
	r := b.Rect
	c := s.drawRowFrame(dst, b, chosen)
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
	draw.Paragraph(dst, label, st.Body(), draw.CentredLines(tr, label, st.Body()), th.Text)
}

// drawVerdict draws the result's one-line verdict: passed with a ✓ in
// green, or not yet with a ✗ in red.
func (s *answerForm) drawVerdict(dst *ebiten.Image) {
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
func (s *answerForm) drawMarks(dst *ebiten.Image, p *ui.TextPanel) {
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

// drawDefence draws the written defence's field: its text wrapped, with a
// caret after it while it has the focus.
func (s *answerForm) drawDefence(dst *ebiten.Image) {
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
