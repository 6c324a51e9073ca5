package game

import (
	"fmt"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// Progress is what the menu needs to know about the learner's progress.
type Progress interface {
	// GoalsMet returns how many of lesson id's goals the learner has met
	// and whether the lesson is complete.
	GoalsMet(id string) (met int, complete bool)
}

// Menu lists the lessons in curriculum order with the learner's progress.
type Menu struct {
	lessons  []*lessons.Lesson
	progress Progress
	open     func(*lessons.Lesson)
	// Notice is a message shown above the list (e.g. progress that could
	// not be read).
	Notice string
	// OnSandbox, when set, opens the sandbox from a button in the header.
	OnSandbox func()
	sandbox   ui.Button

	buttons []ui.Button
	ring    *ui.FocusRing
	style   draw.Style
	window  ui.Rect
	list    ui.Rect
	header  ui.Rect
}

// NewMenu returns the lesson menu; open starts a lesson.
func NewMenu(ls []*lessons.Lesson, p Progress, open func(*lessons.Lesson)) *Menu {
	m := &Menu{lessons: ls, progress: p, open: open, buttons: make([]ui.Button, len(ls))}
	items := make([]ui.Focusable, len(ls))
	for i := range m.buttons {
		items[i] = &m.buttons[i]
	}
	m.sandbox = ui.Button{Label: "Sandbox: free play"}
	m.ring = ui.NewFocusRing(false, append([]ui.Focusable{&m.sandbox}, items...)...)
	return m
}

// layout places the header and one row per lesson.
func (m *Menu) layout(window ui.Rect, u float64) {
	px := func(v float64) float64 { return math.Round(v * u) }
	w := math.Min(window.W-2*px(24), px(760))
	col := ui.Rect{X: window.X + (window.W-w)/2, Y: window.Y + px(24), W: w, H: window.H - 2*px(24)}
	m.header, col = col.CutTop(px(96), px(12))
	m.sandbox.Rect, m.sandbox.Disabled = ui.Rect{}, m.OnSandbox == nil
	if m.OnSandbox != nil {
		m.sandbox.Rect, _ = m.header.CutRight(px(190), 0)
		m.sandbox.Rect.H = px(34)
	}
	n := float64(len(m.lessons))
	rowH := math.Min(px(48), math.Floor((col.H-(n-1)*px(6))/n))
	for i := range m.buttons {
		var r ui.Rect
		r, col = col.CutTop(rowH, px(6))
		m.buttons[i].Rect = r
		m.buttons[i].Label = ""
	}
	m.list = col
}

// Update implements Scene.
func (m *Menu) Update(st *State) error {
	in := &st.Input
	m.style, m.window = st.Style, st.Window
	m.ring.Wrap = st.WrapFocus
	m.layout(st.Window, st.Style.Unit)
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
	return nil
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

// Draw implements Scene.
func (m *Menu) Draw(screen *ebiten.Image) {
	s, th := m.style, m.style.Theme
	screen.Fill(th.Background)
	title, rest := m.header.CutTop(s.U(34), s.U(4))
	draw.TextIn(screen, "LeaseLab", s.Title(), title, text.AlignStart, th.Text)
	if m.OnSandbox != nil {
		s.Button(screen, &m.sandbox)
	}
	sub, rest := rest.CutTop(s.U(24), s.U(4))
	draw.TextIn(screen, "Leader election, locks, leases and fencing tokens: break them, then make them safe.", s.Body(), sub, text.AlignStart, th.TextDim)
	if m.Notice != "" {
		draw.Paragraph(screen, m.Notice, s.Small(), rest, th.Warning)
	}
	for i, l := range m.lessons {
		b := &m.buttons[i]
		s.Button(screen, b)
		in := b.Rect.InsetXY(s.U(14), 0)
		num, in := in.CutLeft(s.U(28), s.U(6))
		draw.TextIn(screen, fmt.Sprintf("%d", i+1), s.Mono(), num, text.AlignStart, th.TextDim)
		st := m.status(l)
		stR, titleR := in.CutRight(s.U(130), s.U(10))
		clr := th.TextDim
		if st == "complete" {
			clr = th.Accept
			mark := ui.Point{X: stR.X - s.U(2), Y: stR.Y + stR.H/2}
			draw.CheckMark(screen, mark, s.U(14), s.U(2.5), th.Accept)
		}
		draw.TextIn(screen, st, s.Small(), stR.InsetXY(s.U(12), 0), text.AlignStart, clr)
		draw.TextIn(screen, ui.Ellipsize(l.Title, titleR.W, draw.Measure(s.Body())), s.Body(), titleR, text.AlignStart, th.Text)
	}
}

// Inspect implements Inspector.
func (m *Menu) Inspect() SceneInfo {
	info := SceneInfo{Name: "menu", Regions: map[string]ui.Rect{}, Mirror: Mirror{Title: "LeaseLab: lessons"}}
	text := ""
	if m.OnSandbox != nil {
		info.Regions["sandbox"] = m.sandbox.Rect
		text = "Sandbox: free play with any scenario.\n"
	}
	for i, l := range m.lessons {
		info.Regions["lesson:"+l.ID] = m.buttons[i].Rect
		text += fmt.Sprintf("%d. %s (%s)\n", i+1, l.Title, m.status(l))
	}
	if m.Notice != "" {
		text = m.Notice + "\n\n" + text
	}
	info.Mirror.Text = text
	return info
}
