package menu

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/player"
	"leaselab/game/scene"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// Scene is the menu on screen: the lessons in curriculum order, then the
// assessment exercises, each with the learner's progress. Wide windows put
// the two lists side by side; narrow ones stack them with compact rows.
type Scene struct {
	// model is the rows, declared once: the page lists them and the
	// canvas's buttons are made from them.
	model Menu
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

// NewScene returns the menu; open starts a lesson and openEx an exercise.
func NewScene(ls []*lessons.Lesson, exs []*lessons.Exercise, p Progress, open func(*lessons.Lesson), openEx func(*lessons.Exercise)) *Scene {
	m := &Scene{model: Menu{Lessons: ls, Exercises: exs, Progress: p, Open: open, OpenExercise: openEx}}
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
func (m *Scene) declare() {
	m.model.OnSandbox = m.OnSandbox
	if m.model.Declare() {
		m.ring.Set(m.model.Deck.Buttons()...)
	}
}

// lessonButton and exerciseButton are the canvas's rows, made from the
// declarations.
func (m *Scene) lessonButton(i int) *ui.Button {
	return m.model.Deck.Button(LessonID(m.model.Lessons[i]))
}

func (m *Scene) exerciseButton(i int) *ui.Button {
	return m.model.Deck.Button(ExerciseID(m.model.Exercises[i]))
}

// menuTwoColumns is the narrowest window, in units, that shows lessons and
// exercises side by side.
const menuTwoColumns = 900

// layout places the header, the section headings and one row per lesson
// and exercise; the header grows to hold a notice of more than one line.
func (m *Scene) layout(window ui.Rect, u float64) {
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
	if b := m.model.Deck.Button(SandboxID); b != nil {
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
func (m *Scene) rowsOf(n int, button func(int) *ui.Button) []*ui.Button {
	out := make([]*ui.Button, n)
	for i := range out {
		out[i] = button(i)
	}
	return out
}

// menuTagline is what the lab is for, under its name.
const menuTagline = "Leader election, locks, leases and fencing tokens: break them, then make them safe."

// Layout implements Scene.
func (m *Scene) Layout(window ui.Rect, style draw.Style) {
	m.style, m.window, m.panelOutside = style, window, style.PanelOutside
	m.declare()
	m.layout(window, style.Unit)
}

// Update implements Scene.
func (m *Scene) Update(st *scene.State) error {
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
func (m *Scene) rows() []*ui.Button {
	return append(m.rowsOf(len(m.model.Lessons), m.lessonButton), m.rowsOf(len(m.model.Exercises), m.exerciseButton)...)
}

func (m *Scene) status(l *lessons.Lesson) string { return m.model.Status(l) }

// exStatus is an exercise's row status: passed, tried N times, or not
// tried.
func (m *Scene) exStatus(e *lessons.Exercise) string { return m.model.ExerciseStatus(e) }

// menuStatus shortens a status for the menu's narrow column (the text view
// keeps the whole phrase): "passed with the answer shown" was cut off.
func menuStatus(s string) string {
	if s == "passed with the answer shown" {
		return "answer shown"
	}
	return s
}

// Inspect implements Inspector.
func (m *Scene) Inspect() page.SceneInfo {
	info := page.SceneInfo{Name: "menu", Page: true, ControlsHeading: "Lessons and exercises", Regions: map[string]ui.Rect{}, Mirror: page.Mirror{Title: "LeaseLab: lessons"}}
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
