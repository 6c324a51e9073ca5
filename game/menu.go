package game

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/menu"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// Progress is what the menu needs to know about the learner's progress.
type Progress = menu.Progress

// Menu lists the lessons in curriculum order, then the assessment
// exercises, each with the learner's progress. Wide windows put the two
// lists side by side; narrow ones stack them with compact rows.
type Menu struct {
	// model is the rows, declared once: the page lists them and the
	// canvas's buttons are made from them.
	model menu.Menu
	// slow is the reduced-quality line within Notice, which the page
	// shows in a box of its own (Snapshot.Quality): its mirror leaves it
	// out, so the notice is said once.
	slow string
	// Notice is a message shown above the list (e.g. progress that could
	// not be read).
	Notice string
	// OnSandbox, when set, opens the sandbox from a button in the header.
	OnSandbox func()

	ring   *ui.FocusRing
	style  draw.Style
	window ui.Rect
	header ui.Rect
	// The two section headings.
	lessonsHead, exercisesHead ui.Rect
	// panelOutside: the page lists the menu itself (draw.Style).
	panelOutside bool
	// tips say, for each lesson then each exercise, what it is about and
	// about how long it takes, on hover or focus.
	tips []ui.Tooltip
}

// NewMenu returns the menu; open starts a lesson and openEx an exercise.
func NewMenu(ls []*lessons.Lesson, exs []*lessons.Exercise, p Progress, open func(*lessons.Lesson), openEx func(*lessons.Exercise)) *Menu {
	m := &Menu{model: menu.Menu{Lessons: ls, Exercises: exs, Progress: p, Open: open, OpenExercise: openEx}}
	for _, l := range ls {
		m.tips = append(m.tips, ui.Tooltip{Text: fmt.Sprintf("%s About %d min.", l.Summary, l.Minutes), Delay: player.TooltipDelay})
	}
	for _, e := range exs {
		m.tips = append(m.tips, ui.Tooltip{Text: fmt.Sprintf("%s About %d min.", e.Summary, e.Minutes), Delay: player.TooltipDelay})
	}
	m.ring = ui.NewFocusRing(false)
	m.declare()
	return m
}

// declare declares the rows as they are now (the sandbox offered or not,
// the learner's progress), and gives the focus ring the deck's buttons
// when they change.
func (m *Menu) declare() {
	m.model.OnSandbox = m.OnSandbox
	if m.model.Declare() {
		m.ring.Set(m.model.Deck.Buttons()...)
	}
}

// lessonButton and exerciseButton are the canvas's rows, made from the
// declarations.
func (m *Menu) lessonButton(i int) *ui.Button {
	return m.model.Deck.Button(menu.LessonID(m.model.Lessons[i]))
}

func (m *Menu) exerciseButton(i int) *ui.Button {
	return m.model.Deck.Button(menu.ExerciseID(m.model.Exercises[i]))
}

// menuTwoColumns is the narrowest window, in units, that shows lessons and
// exercises side by side.
const menuTwoColumns = 900

// layout places the header, the section headings and one row per lesson
// and exercise; the header grows to hold a notice of more than one line.
func (m *Menu) layout(window ui.Rect, u float64) {
	px := func(v float64) float64 { return math.Round(v * u) }
	two := window.W >= px(menuTwoColumns)
	maxW := px(760)
	if two {
		maxW = px(1280)
	}
	w := math.Min(window.W-2*px(24), maxW)
	col := ui.Rect{X: window.X + (window.W-w)/2, Y: window.Y + px(20), W: w, H: window.H - 2*px(20)}
	headerH := px(92)
	if m.Notice != "" && m.style.Fonts != nil {
		// Title 34, gap 4, subtitle 24, gap 4: the rest is the notice's.
		headerH = math.Max(headerH, px(66)+draw.ParagraphHeight(m.Notice, m.style.Small(), w))
	}
	m.header, col = col.CutTop(headerH, px(8))
	if b := m.model.Deck.Button(menu.SandboxID); b != nil {
		b.Rect, _ = m.header.CutRight(px(190), 0)
		b.Rect.H = px(34)
	}
	lessonRows, exRows := m.rowsOf(len(m.model.Lessons), m.lessonButton), m.rowsOf(len(m.model.Exercises), m.exerciseButton)
	headH, gap := px(28), px(6)
	rows := func(area ui.Rect, bs []*ui.Button, n float64) ui.Rect {
		rowH := math.Min(px(48), math.Floor((area.H-(n-1)*gap)/n))
		for _, b := range bs {
			b.Rect, area = area.CutTop(rowH, gap)
		}
		return area
	}
	if two {
		left, right := col.CutLeft((w-px(24))/2, px(24))
		m.lessonsHead, left = left.CutTop(headH, gap)
		m.exercisesHead, right = right.CutTop(headH, gap)
		rows(left, lessonRows, float64(len(lessonRows)))
		// Exercise rows are as tall as lesson rows, so the two lists line up.
		rows(right, exRows, math.Max(float64(len(lessonRows)), float64(len(exRows))))
		return
	}
	// One column: both lists share the height, with a heading each.
	n := float64(len(lessonRows) + len(exRows))
	rowH := math.Min(px(48), math.Floor((col.H-2*(headH+gap)-px(10)-(n-1)*gap)/n))
	m.lessonsHead, col = col.CutTop(headH, gap)
	for _, b := range lessonRows {
		b.Rect, col = col.CutTop(rowH, gap)
	}
	_, col = col.CutTop(px(10), 0)
	m.exercisesHead, col = col.CutTop(headH, gap)
	for _, b := range exRows {
		b.Rect, col = col.CutTop(rowH, gap)
	}
}

// rowsOf is n rows' buttons, row i's from button(i).
func (m *Menu) rowsOf(n int, button func(int) *ui.Button) []*ui.Button {
	out := make([]*ui.Button, n)
	for i := range out {
		out[i] = button(i)
	}
	return out
}

// menuTagline is what the lab is for, under its name.
const menuTagline = "Leader election, locks, leases and fencing tokens: break them, then make them safe."

// Layout implements Scene.
func (m *Menu) Layout(window ui.Rect, style draw.Style) {
	m.style, m.window, m.panelOutside = style, window, style.PanelOutside
	m.declare()
	m.layout(window, style.Unit)
}

// Update implements Scene.
func (m *Menu) Update(st *State) error {
	in := &st.Input
	m.ring.Wrap = st.WrapFocus
	m.declare()
	if esc := m.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	opened, rest := m.model.Update(in)
	if in.Host = rest; opened {
		return nil
	}
	for i, b := range m.rows() {
		m.tips[i].Update(in, b.Rect, b.Focus() == ui.FocusVisible)
	}
	return nil
}

// rows are the lessons' buttons, then the exercises'.
func (m *Menu) rows() []*ui.Button {
	return append(m.rowsOf(len(m.model.Lessons), m.lessonButton), m.rowsOf(len(m.model.Exercises), m.exerciseButton)...)
}

func (m *Menu) status(l *lessons.Lesson) string { return m.model.Status(l) }

// exStatus is an exercise's row status: passed, tried N times, or not
// tried.
func (m *Menu) exStatus(e *lessons.Exercise) string { return m.model.ExerciseStatus(e) }

// menuStatus shortens a status for the menu's narrow column (the text view
// keeps the whole phrase): "passed with the answer shown" was cut off.
func menuStatus(s string) string {
	if s == "passed with the answer shown" {
		return "answer shown"
	}
	return s
}

// Draw implements Scene.
func (m *Menu) Draw(screen *ebiten.Image) {
	s, th := m.style, m.style.Theme
	draw.Background(screen, th.Background)
	title, rest := m.header.CutTop(s.U(34), s.U(4))
	draw.TextIn(screen, "LeaseLab", s.Title(), title, draw.AlignStart, th.Text)
	if b := m.model.Deck.Button(menu.SandboxID); b != nil {
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
func (m *Menu) rowParts(b *ui.Button, statusW float64) (numR, stR, titleR ui.Rect) {
	s := m.style
	in := b.Rect.InsetXY(s.U(14), 0)
	numR, in = in.CutLeft(s.U(28), s.U(6))
	stR, titleR = in.CutRight(statusW+s.U(26), s.U(10))
	return numR, stR, titleR
}

// titleFace is the one face every row's title is drawn in: the body face
// where every title fits a line of it, else the small one (at 1024x640
// the longest titles alone were small, which read as two kinds of row).
func (m *Menu) titleFace(statusW float64) *draw.Face {
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
func (m *Menu) drawRow(screen *ebiten.Image, b *ui.Button, status, done string, statusW float64, face *draw.Face) {
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

// Inspect implements Inspector.
func (m *Menu) Inspect() SceneInfo {
	info := SceneInfo{Name: "menu", Page: true, ControlsHeading: "Lessons and exercises", Regions: map[string]ui.Rect{}, Mirror: Mirror{Title: "LeaseLab: lessons"}}
	// One paragraph per lesson (the text view shows each as its own),
	// with what it is about and about how long it takes.
	text := "Lessons:\n\n"
	if m.OnSandbox != nil {
		text = "Sandbox: free play with any scenario.\n\n" + text
	}
	m.model.Deck.Regions(info.Regions)
	for i, l := range m.model.Lessons {
		text += fmt.Sprintf("%d. %s (%s). %s About %d min.\n\n", i+1, l.Title, m.status(l), l.Summary, l.Minutes)
	}
	text += "Exercises:\n\n"
	for i, e := range m.model.Exercises {
		text += fmt.Sprintf("E%d. %s (%s). %s About %d min.\n\n", i+1, e.Title, m.exStatus(e), e.Summary, e.Minutes)
	}
	if m.Notice != "" {
		text = m.Notice + "\n\n" + text
	}
	info.Mirror.Text = text
	info.Mirror.Controls = slices.Clip(m.model.Deck.Controls())
	if m.panelOutside {
		// The page lists the lessons as links with the same words.
		info.Mirror.Text = menuTagline
		notice := m.Notice
		if m.slow != "" {
			notice = strings.TrimSpace(strings.Replace(notice, m.slow, "", 1))
		}
		if notice != "" {
			info.Mirror.Text = notice + "\n\n" + menuTagline
		}
	}
	if c := m.ring.Current(); c != nil {
		info.Focus = m.model.Deck.Name(c)
	}
	return info
}
