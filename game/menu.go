package game

import (
	"fmt"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// Progress is what the menu needs to know about the learner's progress.
type Progress interface {
	// GoalsMet returns how many of lesson id's goals the learner has met
	// and whether the lesson is complete.
	GoalsMet(id string) (met int, complete bool)
	// Exercise returns the learner's standing in exercise id: attempts,
	// and whether a pass was earned or came after the answer was shown.
	Exercise(id string) progress.Exercise
}

// Menu lists the lessons in curriculum order, then the assessment
// exercises, each with the learner's progress. Wide windows put the two
// lists side by side; narrow ones stack them with compact rows.
type Menu struct {
	lessons   []*lessons.Lesson
	exercises []*lessons.Exercise
	progress  Progress
	open      func(*lessons.Lesson)
	openEx    func(*lessons.Exercise)
	// slow is the reduced-quality line within Notice, which the page
	// shows in a box of its own (Snapshot.Quality): its mirror leaves it
	// out, so the notice is said once.
	slow string
	// Notice is a message shown above the list (e.g. progress that could
	// not be read).
	Notice string
	// OnSandbox, when set, opens the sandbox from a button in the header.
	OnSandbox func()
	sandbox   ui.Button

	buttons   []ui.Button // one per lesson
	exButtons []ui.Button // one per exercise
	ring      *ui.FocusRing
	style     draw.Style
	window    ui.Rect
	header    ui.Rect
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
	m := &Menu{lessons: ls, exercises: exs, progress: p, open: open, openEx: openEx,
		buttons: make([]ui.Button, len(ls)), exButtons: make([]ui.Button, len(exs))}
	var items []ui.Focusable
	for i := range m.buttons {
		items = append(items, &m.buttons[i])
	}
	for i := range m.exButtons {
		items = append(items, &m.exButtons[i])
	}
	for _, l := range ls {
		m.tips = append(m.tips, ui.Tooltip{Text: fmt.Sprintf("%s About %d min.", l.Summary, l.Minutes), Delay: tooltipDelay})
	}
	for _, e := range exs {
		m.tips = append(m.tips, ui.Tooltip{Text: fmt.Sprintf("%s About %d min.", e.Summary, e.Minutes), Delay: tooltipDelay})
	}
	m.sandbox = ui.Button{Label: "Sandbox: free play"}
	m.ring = ui.NewFocusRing(false, append([]ui.Focusable{&m.sandbox}, items...)...)
	return m
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
	m.sandbox.Rect, m.sandbox.Disabled = ui.Rect{}, m.OnSandbox == nil
	if m.OnSandbox != nil {
		m.sandbox.Rect, _ = m.header.CutRight(px(190), 0)
		m.sandbox.Rect.H = px(34)
	}
	headH, gap := px(28), px(6)
	rows := func(area ui.Rect, bs []ui.Button, n float64) ui.Rect {
		rowH := math.Min(px(48), math.Floor((area.H-(n-1)*gap)/n))
		for i := range bs {
			bs[i].Rect, area = area.CutTop(rowH, gap)
		}
		return area
	}
	if two {
		left, right := col.CutLeft((w-px(24))/2, px(24))
		m.lessonsHead, left = left.CutTop(headH, gap)
		m.exercisesHead, right = right.CutTop(headH, gap)
		rows(left, m.buttons, float64(len(m.buttons)))
		// Exercise rows are as tall as lesson rows, so the two lists line up.
		rows(right, m.exButtons, math.Max(float64(len(m.buttons)), float64(len(m.exButtons))))
		return
	}
	// One column: both lists share the height, with a heading each.
	n := float64(len(m.buttons) + len(m.exButtons))
	rowH := math.Min(px(48), math.Floor((col.H-2*(headH+gap)-px(10)-(n-1)*gap)/n))
	m.lessonsHead, col = col.CutTop(headH, gap)
	for i := range m.buttons {
		m.buttons[i].Rect, col = col.CutTop(rowH, gap)
	}
	_, col = col.CutTop(px(10), 0)
	m.exercisesHead, col = col.CutTop(headH, gap)
	for i := range m.exButtons {
		m.exButtons[i].Rect, col = col.CutTop(rowH, gap)
	}
}

// menuTagline is what the lab is for, under its name.
const menuTagline = "Leader election, locks, leases and fencing tokens: break them, then make them safe."

// Layout implements Scene.
func (m *Menu) Layout(window ui.Rect, style draw.Style) {
	m.style, m.window, m.panelOutside = style, window, style.PanelOutside
	m.layout(window, style.Unit)
}

// Update implements Scene.
func (m *Menu) Update(st *State) error {
	in := &st.Input
	m.ring.Wrap = st.WrapFocus
	if len(in.Host) > 0 {
		pressNamed(in, m.names())
	}
	if esc := m.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	if in.Digit > 0 && in.Digit <= len(m.lessons) {
		m.open(m.lessons[in.Digit-1])
		return nil
	}
	if m.OnSandbox != nil && m.sandbox.Update(in) {
		m.OnSandbox()
		return nil
	}
	for i := range m.buttons {
		if m.buttons[i].Update(in) {
			m.open(m.lessons[i])
			return nil
		}
	}
	for i := range m.exButtons {
		if m.exButtons[i].Update(in) {
			m.openEx(m.exercises[i])
			return nil
		}
	}
	for i, b := range m.rows() {
		m.tips[i].Update(in, b.Rect, b.Focus() == ui.FocusVisible)
	}
	return nil
}

// rows are the lessons' buttons, then the exercises'.
func (m *Menu) rows() []*ui.Button {
	out := make([]*ui.Button, 0, len(m.buttons)+len(m.exButtons))
	for i := range m.buttons {
		out = append(out, &m.buttons[i])
	}
	for i := range m.exButtons {
		out = append(out, &m.exButtons[i])
	}
	return out
}

func (m *Menu) status(l *lessons.Lesson) string {
	met, done := m.progress.GoalsMet(l.ID)
	switch {
	case done:
		return "complete"
	case met > 0:
		return fmt.Sprintf("%d of %d goals", met, len(l.Goals))
	}
	return "not started"
}

// exStatus is an exercise's row status: passed, tried N times, or not
// tried.
func (m *Menu) exStatus(e *lessons.Exercise) string { return m.progress.Exercise(e.ID).Status() }

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
	if m.OnSandbox != nil {
		s.Button(screen, &m.sandbox)
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
	for _, l := range m.lessons {
		statusW = math.Max(statusW, draw.Measure(s.Small())(m.status(l)))
	}
	for _, e := range m.exercises {
		statusW = math.Max(statusW, draw.Measure(s.Small())(menuStatus(m.exStatus(e))))
	}
	for i, l := range m.lessons {
		m.drawRow(screen, &m.buttons[i], fmt.Sprintf("%d", i+1), l.Title, m.status(l), "complete", statusW)
	}
	for i, e := range m.exercises {
		m.drawRow(screen, &m.exButtons[i], fmt.Sprintf("E%d", i+1), e.Title, menuStatus(m.exStatus(e)), "passed", statusW)
	}
	for i := range m.tips {
		s.Tooltip(screen, &m.tips[i], m.window)
	}
}

// drawRow draws one menu row: its number, title and status (in a column
// statusW wide), with a ✓ when the status is done. A title too long for
// one line takes two lines of the small face; one too long for those
// ends with an ellipsis and shows whole on hover or focus.
func (m *Menu) drawRow(screen *ebiten.Image, b *ui.Button, num, title, status, done string, statusW float64) {
	s, th := m.style, m.style.Theme
	s.Button(screen, b)
	in := b.Rect.InsetXY(s.U(14), 0)
	numR, in := in.CutLeft(s.U(28), s.U(6))
	draw.TextIn(screen, num, s.Mono(), numR, draw.AlignStart, th.TextDim)
	stR, titleR := in.CutRight(statusW+s.U(26), s.U(10))
	clr := th.TextDim
	if status == done {
		clr = th.Accept
		mark := ui.Point{X: stR.X - s.U(2), Y: stR.Y + stR.H/2}
		draw.CheckMark(screen, mark, s.U(14), s.U(2.5), th.Accept)
	}
	draw.TextIn(screen, status, s.Small(), stR.InsetXY(s.U(12), 0), draw.AlignStart, clr)
	if draw.Measure(s.Body())(title) <= titleR.W {
		draw.TextIn(screen, title, s.Body(), titleR, draw.AlignStart, th.Text)
		return
	}
	small := s.Small()
	lines := draw.Wrap(title, titleR.W, small)
	// Two lines set closer than prose, so they fit a row.
	step := math.Ceil(small.Size * 1.2)
	if len(lines) == 2 && 2*step <= titleR.H {
		top := titleR.Y + (titleR.H-2*step)/2
		for k, line := range lines {
			draw.TextIn(screen, line, small, ui.Rect{X: titleR.X, Y: top + float64(k)*step, W: titleR.W, H: step}, draw.AlignStart, th.Text)
		}
		return
	}
	draw.TextInTip(screen, title, small, titleR, draw.AlignStart, th.Text)
}

// names are the menu's buttons by the name the page's controls use.
func (m *Menu) names() map[ui.Focusable]string {
	out := map[ui.Focusable]string{&m.sandbox: "sandbox"}
	for i, l := range m.lessons {
		out[&m.buttons[i]] = "lesson:" + l.ID
	}
	for i, e := range m.exercises {
		out[&m.exButtons[i]] = "exercise:" + e.ID
	}
	return out
}

// controls are the menu's rows as links for the page, each with what it
// is about, the learner's progress and about how long it takes.
func (m *Menu) controls() []Control {
	var out []Control
	if m.OnSandbox != nil {
		out = append(out, Control{ID: "sandbox", Group: "Sandbox", Label: "Sandbox: free play", Kind: KindLink,
			Detail: "Any scenario, any coordinator, every control; no goals."})
	}
	for i, l := range m.lessons {
		out = append(out, Control{ID: "lesson:" + l.ID, Group: "Lessons", Kind: KindLink,
			Label:  fmt.Sprintf("%d. %s", i+1, l.Title),
			Detail: fmt.Sprintf("%s About %d min. %s.", l.Summary, l.Minutes, core.Capitalise(m.status(l)))})
	}
	for i, e := range m.exercises {
		out = append(out, Control{ID: "exercise:" + e.ID, Group: "Exercises", Kind: KindLink,
			Label:  fmt.Sprintf("E%d. %s", i+1, e.Title),
			Detail: fmt.Sprintf("%s About %d min. %s.", e.Summary, e.Minutes, core.Capitalise(m.exStatus(e)))})
	}
	return out
}

// Inspect implements Inspector.
func (m *Menu) Inspect() SceneInfo {
	info := SceneInfo{Name: "menu", Page: true, ControlsHeading: "Lessons and exercises", Regions: map[string]ui.Rect{}, Mirror: Mirror{Title: "LeaseLab: lessons"}}
	// One paragraph per lesson (the text view shows each as its own),
	// with what it is about and about how long it takes.
	text := "Lessons:\n\n"
	if m.OnSandbox != nil {
		info.Regions["sandbox"] = m.sandbox.Rect
		text = "Sandbox: free play with any scenario.\n\n" + text
	}
	for i, l := range m.lessons {
		info.Regions["lesson:"+l.ID] = m.buttons[i].Rect
		text += fmt.Sprintf("%d. %s (%s). %s About %d min.\n\n", i+1, l.Title, m.status(l), l.Summary, l.Minutes)
	}
	text += "Exercises:\n\n"
	for i, e := range m.exercises {
		info.Regions["exercise:"+e.ID] = m.exButtons[i].Rect
		text += fmt.Sprintf("E%d. %s (%s). %s About %d min.\n\n", i+1, e.Title, m.exStatus(e), e.Summary, e.Minutes)
	}
	if m.Notice != "" {
		text = m.Notice + "\n\n" + text
	}
	info.Mirror.Text = text
	info.Mirror.Controls = m.controls()
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
		for i := range m.buttons {
			if c == &m.buttons[i] {
				info.Focus = "lesson:" + m.lessons[i].ID
			}
		}
		for i := range m.exButtons {
			if c == &m.exButtons[i] {
				info.Focus = "exercise:" + m.exercises[i].ID
			}
		}
	}
	return info
}
