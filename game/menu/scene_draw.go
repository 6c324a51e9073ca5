package menu

import (
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// Draw implements Scene.
func (m *Scene) Draw(screen *ebiten.Image) {
	s, th := m.style, m.style.Theme
	draw.Background(screen, th.Background)
	title, rest := m.header.CutTop(s.U(34), s.U(4))
	draw.TextIn(screen, "LeaseLab", s.Title(), title, draw.AlignStart, th.Text)
	if b := m.model.Deck.Button(SandboxID); b != nil {
		s.Button(screen, b)
	}
	sub, rest := rest.CutTop(s.U(24), s.U(4))
	draw.TextIn(screen, menuTagline, s.Body(), sub, draw.AlignStart, th.TextDim)
	if m.Notice != "" {
		draw.Paragraph(screen, m.Notice, s.Small(), rest, th.Warning)
	}
	draw.TextIn(screen, "Lessons", s.Label(), m.lessonsHead, draw.AlignStart, th.TextDim)
	draw.TextIn(screen, "Exercises: check what you learned", s.Label(), m.exercisesHead, draw.AlignStart, th.TextDim)
	// The status column is as wide as the widest status, so the titles
	// get the rest.
	statusW := 0.0
	for _, l := range m.model.Lessons {
		statusW = math.Max(statusW, draw.Measure(s.Small())(m.status(l)))
	}
	for _, e := range m.model.Exercises {
		statusW = math.Max(statusW, draw.Measure(s.Small())(menuStatus(m.exStatus(e))))
	}
	face := m.titleFace(statusW)
	for i, l := range m.model.Lessons {
		m.drawRow(screen, m.lessonButton(i), m.status(l), "complete", statusW, face)
	}
	for i, e := range m.model.Exercises {
		m.drawRow(screen, m.exerciseButton(i), menuStatus(m.exStatus(e)), "passed", statusW, face)
	}
	for i := range m.tips {
		s.Tooltip(screen, &m.tips[i], m.window)
	}
}

// rowParts are a row's number, status (in a column statusW wide) and
// title boxes.
func (m *Scene) rowParts(b *ui.Button, statusW float64) (numR, stR, titleR ui.Rect) {
	s := m.style
	in := b.Rect.InsetXY(s.U(14), 0)
	numR, in = in.CutLeft(s.U(28), s.U(6))
	stR, titleR = in.CutRight(statusW+s.U(26), s.U(10))
	return numR, stR, titleR
}

// titleFace is the one face every row's title is drawn in: the body face
// where every title fits a line of it, else the small one (at 1024x640
// the longest titles alone were small, which read as two kinds of row).
func (m *Scene) titleFace(statusW float64) *draw.Face {
	rows := m.rows()
	if len(rows) == 0 {
		return m.style.Body()
	}
	var titles []string
	for _, b := range rows {
		_, title, _ := strings.Cut(b.Label, ". ")
		titles = append(titles, title)
	}
	_, _, titleR := m.rowParts(rows[0], statusW) // every row is as wide
	return draw.OneFace(titles, titleR.W, m.style.Body(), m.style.Small())
}

// drawRow draws one menu row: its button's label, which is its
// declaration's ("3. Title"), as a number and a title in face, and its
// status (in a column statusW wide), with a ✓ when the status is done. A
// title too long for one line takes two lines; one too long for those
// ends with an ellipsis and shows whole on hover or focus.
func (m *Scene) drawRow(screen *ebiten.Image, b *ui.Button, status, done string, statusW float64, face *draw.Face) {
	s, th := m.style, m.style.Theme
	num, title, _ := strings.Cut(b.Label, ". ")
	frame := *b // the row's own layout says the label: the frame only
	frame.Label = ""
	s.Button(screen, &frame)
	numR, stR, titleR := m.rowParts(b, statusW)
	draw.TextIn(screen, num, s.Mono(), numR, draw.AlignStart, th.TextDim)
	clr := th.TextDim
	if status == done {
		clr = th.Accept
		mark := ui.Point{X: stR.X - s.U(2), Y: stR.Y + stR.H/2}
		draw.CheckMark(screen, mark, s.U(14), s.U(2.5), th.Accept)
	}
	draw.TextIn(screen, status, s.Small(), stR.InsetXY(s.U(12), 0), draw.AlignStart, clr)
	if draw.Measure(face)(title) <= titleR.W {
		draw.TextIn(screen, title, face, titleR, draw.AlignStart, th.Text)
		return
	}
	lines := draw.Wrap(title, titleR.W, face)
	// Two lines set closer than prose, so they fit a row.
	step := math.Ceil(face.Size * 1.2)
	if len(lines) == 2 && 2*step <= titleR.H {
		top := titleR.Y + (titleR.H-2*step)/2
		for k, line := range lines {
			draw.TextIn(screen, line, face, ui.Rect{X: titleR.X, Y: top + float64(k)*step, W: titleR.W, H: step}, draw.AlignStart, th.Text)
		}
		return
	}
	draw.TextInTip(screen, title, face, titleR, draw.AlignStart, th.Text)
}
