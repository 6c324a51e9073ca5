package game

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/tick"
	"leaselab/game/ui"
)

// Lesson is the text side of a lesson as the player shows it.
type Lesson struct {
	Title string
	// Objective is the lesson's aim in one line, drawn above the story and
	// never scrolled away with it.
	Objective string
	Body      string
	Goals     []draw.Goal // at most ui.MaxGoals are shown
	Hints     []string    // revealed one at a time
}

// Clock is what the player's time controls drive: a lab, or several
// following one play head (lab.PairClock, lab.SystemsClock). The player
// moves time only by clock commands (lab.AdvanceBy, StepOn, SeekTo,
// ForkHere) through Apply, the one way into a lab that the views'
// commands take too.
type Clock interface {
	Now() time.Duration
	Length() time.Duration // the span the scrub slider covers
	Apply(lab.Command) string
}

// View draws one region of the player, such as the world or the timeline.
// Like a Scene, it handles input in Update against what it last laid out,
// is laid out for the state that left, and draws without changing it.
type View interface {
	Update(st *State) error
	Layout(area ui.Rect, style draw.Style)
	Draw(dst *ebiten.Image, area ui.Rect, style draw.Style)
}

// speeds are the playback speeds the speed slider steps through.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64}

const (
	defaultSpeed = 2 // index of 1×
	tooltipDelay = 30
)

// Player is the lesson player scene: the world, the timeline, the time
// controls and the lesson panel, laid out by ui.LayoutPlayer.
type Player struct {
	Lesson   Lesson
	Clock    Clock
	World    View
	Timeline View

	playing   bool
	hintsSeen int
	// body is the text panel's text, less the hints revealed (which a
	// player with a run row adds at its end: its hint line holds one line).
	body      string
	narration *Narration

	layout ui.PlayerLayout
	style  draw.Style
	unit   float64 // the unit the text panel was measured for

	play, step, fork, hint ui.Button
	solution, menu, help   ui.Button
	sandbox                ui.Button
	speed, scrub           ui.Slider
	showHelp               bool

	// spec is what the player was built to show and do.
	spec PlayerSpec
	// extra are a scene's own widgets, visited by Tab after the player's.
	extra []ui.Focusable
	// knobs is the lesson's slider strip; nil without knobs.
	knobs *knobPanel
	text  ui.TextPanel
	// objective is where the objective is drawn, cut from the top of the
	// lesson text's area (empty without one).
	objective ui.Rect
	objWrap   [2]float64 // the width and unit objH was measured at
	objH      float64
	// fit is what the lesson panel's texts need, and goalRows the rows
	// the goals got (see fitPanel).
	fit      panelFit
	goalRows []ui.Rect
	ring     *ui.FocusRing
	names    map[ui.Focusable]string
	tips     []tip
	// outside: the page shows the lesson panel (draw.Style.PanelOutside);
	// ringed is what the focus ring visits then.
	outside bool
	ringed  []ui.Focusable
	// notice shows over the world for noticeLeft more ticks (Notice).
	notice     string
	noticeLeft int

	// Overlay, when set, is updated before and drawn over the world (the
	// explorer's button and progress bar).
	Overlay View
	// run is the run row (runrow.go); nil without one.
	run *runRow
}

// PlayerSpec is everything a player shows and does besides its time
// controls, fixed when it is built: nothing patches a player afterwards.
type PlayerSpec struct {
	Lesson          Lesson
	Clock           Clock
	World, Timeline View
	Overlay         View // see Player.Overlay
	// Back is the back button; a player without Back.Do has none.
	Back BackButton
	// Solution restarts the run with its solution and plays it, behind
	// its button and L, while SolutionOffered says so (nil: always); a
	// player without Solution offers none.
	Solution        func()
	SolutionOffered func() bool
	// Sandbox, when set, opens the run in the sandbox from a button in
	// the navigation row.
	Sandbox func()
	// Run, when set, is the run row: Restart, Undo, Next lesson, and Back
	// to my run in the solution's place.
	Run *RunRow
	// Knobs is the lesson's slider strip; nil without knobs.
	Knobs *knobPanel
	// Lanes says how many timeline lanes the run has (none: nil).
	Lanes func() int
	// Regions names the views' clickable places, for the bridge.
	Regions func() map[string]ui.Rect
	// Checklist is what the goal rows show: a lesson's goals or a
	// sandbox's invariants.
	Checklist Checklist
	// Side, when set, draws the area under the checklist instead of the
	// hint button and hint.
	Side func(dst *ebiten.Image)
	// Widgets are the scene's own, visited by Tab after the player's.
	Widgets []Widget
	// Narration is the story's commentary, shared with the scene (nil: a
	// new one); HintsSeen the hints already revealed; Speed the playback
	// speed to start at (0: 1×).
	Narration *Narration
	HintsSeen int
	Speed     float64
}

// BackButton is a player's way back: its label, its tooltip and what it
// does.
type BackButton struct {
	Label, Tip string
	Do         func()
}

// Checklist is the heading of the goal rows ("Goals" when empty) and
// what they say now, asked once per layout.
type Checklist struct {
	Title string
	Goals func() []draw.Goal
}

// Widget is one of a scene's widgets in a player: its name (for the
// bridge's focus report), the widget, and its tooltip ("" for none).
type Widget struct {
	Name string
	W    interface {
		ui.Focusable
		Focus() ui.Focus
	}
	Tip string
}

// tip ties a tooltip to the widget it explains.
type tip struct {
	ui.Tooltip
	widget interface {
		ui.Focusable
		Focus() ui.Focus
	}
}

// NewPlayer returns a paused player built from spec.
func NewPlayer(spec PlayerSpec) *Player {
	lesson := spec.Lesson
	p := &Player{Lesson: lesson, Clock: spec.Clock, World: spec.World, Timeline: spec.Timeline, Overlay: spec.Overlay,
		spec: spec, narration: spec.Narration, hintsSeen: min(spec.HintsSeen, len(lesson.Hints)), knobs: spec.Knobs}
	if p.narration == nil {
		p.narration = &Narration{}
	}
	p.play = ui.Button{Icon: ui.IconPlay}
	p.step = ui.Button{Icon: ui.IconStep}
	p.fork = ui.Button{Icon: ui.IconFork, Label: "Fork"}
	p.hint = ui.Button{Icon: ui.IconHint, Label: "Hint"}
	p.solution = ui.Button{Label: "Show solution"}
	p.menu = ui.Button{Label: spec.Back.Label}
	p.help = ui.Button{Label: ui.WithKey("Keys", ui.IntentHelp)}
	p.sandbox = ui.Button{Label: "Sandbox"}
	speed := defaultSpeed
	if i := slices.Index(speeds, spec.Speed); i >= 0 {
		speed = i
	}
	p.speed = ui.Slider{Min: 0, Max: float64(len(speeds) - 1), Step: 1, Value: float64(speed)}
	p.scrub = ui.Slider{Min: 0, Max: 1}
	p.body = lesson.Body
	p.names = map[ui.Focusable]string{
		&p.play: "play", &p.step: "step", &p.scrub: "scrub", &p.speed: "speed",
		&p.fork: "fork", &p.text: "lessonText", &p.hint: "hint",
		&p.solution: "solution", &p.menu: "menu", &p.help: "help", &p.sandbox: "sandbox",
	}
	if k := p.knobs; k != nil {
		for i := range k.sliders {
			p.names[&k.sliders[i]] = "knob:" + k.lab.Lesson.Knobs[i].ID
		}
	}
	backTip := spec.Back.Tip
	if backTip == "" {
		backTip = ui.WithKey("Back to the lesson menu", ui.IntentBack)
	}
	p.tips = []tip{
		{ui.Tooltip{Delay: tooltipDelay}, &p.play},
		{ui.Tooltip{Text: ui.WithKey("Step to the next event", ui.IntentStep), Delay: tooltipDelay}, &p.step},
		{ui.Tooltip{Text: "Jump to a moment; later steps are re-simulated", Delay: tooltipDelay}, &p.scrub},
		{ui.Tooltip{Text: "Playback speed (arrow keys when focused)", Delay: tooltipDelay}, &p.speed},
		{ui.Tooltip{Text: ui.WithKey("Fork: drop later actions and carry on from here", ui.IntentFork), Delay: tooltipDelay}, &p.fork},
		{ui.Tooltip{Text: ui.WithKey("Reveal the next hint", ui.IntentHint), Delay: tooltipDelay}, &p.hint},
		{ui.Tooltip{Text: ui.WithKey("Restart and play the lesson's solution", ui.IntentSolution), Delay: tooltipDelay}, &p.solution},
		{ui.Tooltip{Text: backTip, Delay: tooltipDelay}, &p.menu},
		{ui.Tooltip{Text: ui.WithKey("Keyboard shortcuts", ui.IntentHelp), Delay: tooltipDelay}, &p.help},
		{ui.Tooltip{Text: "Open this run in the sandbox: every control, no goals", Delay: tooltipDelay}, &p.sandbox},
	}
	for _, w := range spec.Widgets {
		p.extra = append(p.extra, w.W)
		p.names[w.W] = w.Name
		if w.Tip != "" {
			p.tips = append(p.tips, tip{ui.Tooltip{Text: w.Tip, Delay: tooltipDelay}, w.W})
		}
	}
	if spec.Run != nil {
		p.newRunRow(*spec.Run)
	}
	p.text.SetText(p.panelText())
	p.ring = ui.NewFocusRing(false, p.focusables()...)
	p.syncChecklist()
	return p
}

// syncChecklist asks the checklist what the goal rows say now.
func (p *Player) syncChecklist() {
	if p.spec.Checklist.Goals != nil {
		p.Lesson.Goals = p.spec.Checklist.Goals()
	}
}

// solutionOffered reports whether the solution's button and L work now.
func (p *Player) solutionOffered() bool {
	return p.spec.Solution != nil && (p.spec.SolutionOffered == nil || p.spec.SolutionOffered())
}

// focusables lists the widgets Tab visits, in order: without the panel's
// when the page shows the panel, and then only the scene's own widgets
// that are on the canvas.
func (p *Player) focusables() []ui.Focusable {
	items := []ui.Focusable{&p.play, &p.step, &p.scrub, &p.speed, &p.fork}
	if p.knobs != nil {
		for i := range p.knobs.sliders {
			items = append(items, &p.knobs.sliders[i])
		}
	}
	if !p.outside {
		items = append(items, &p.menu, &p.sandbox, &p.help, &p.text, &p.hint, &p.solution)
		if p.run != nil {
			items = append(items, p.run.focusables()...)
		}
		return append(items, p.extra...)
	}
	var out []ui.Focusable
	for _, w := range append(items, p.extra...) {
		if !w.Bounds().Empty() {
			out = append(out, w)
		}
	}
	// Tab follows the layout: row by row from the top (the world's own
	// buttons, the knobs, the time controls), left to right in a row.
	slices.SortStableFunc(out, func(a, b ui.Focusable) int {
		ra, rb := a.Bounds(), b.Bounds()
		if math.Abs(ra.Y-rb.Y) > math.Min(ra.H, rb.H)/2 {
			return cmp.Compare(ra.Y, rb.Y)
		}
		return cmp.Compare(ra.X, rb.X)
	})
	return out
}

// ShowText replaces the lesson panel's text (the intro and its recap,
// once the lesson is complete) and scrolls to its end.
func (p *Player) ShowText(body string) {
	p.body = body
	p.text.SetText(p.panelText())
	p.text.SetScroll(p.text.MaxScroll())
}

// SetBody replaces the lesson's text, in the panel and the mirror.
func (p *Player) SetBody(body string) {
	p.Lesson.Body, p.body = body, body
	p.text.SetText(p.panelText())
}

// Playing reports whether time is running.
func (p *Player) Playing() bool { return p.playing }

// Speed is the playback speed: virtual seconds per real second.
func (p *Player) Speed() float64 { return speeds[int(p.speed.Value)] }

// Narrate adds a line to the narration mirrored for screen readers.
func (p *Player) Narrate(line string) {
	p.narration.Add(line)
}

// Update implements Scene.
func (p *Player) Update(st *State) error {
	in := &st.Input
	// Time runs by the real length of the tick, if it ran during it: a
	// press on play after a long pause starts from one tick's worth.
	step := st.TickLength()
	if !p.playing {
		step = tick.Nominal
	}
	p.ring.Wrap = st.WrapFocus
	modal, _ := p.World.(interface {
		Modal() bool
		Close()
	})
	menuOpen := modal != nil && modal.Modal()

	if len(in.Host) > 0 {
		// The page's controls: the panel's buttons and sliders fire as
		// clicks on them would; the rest are the views' (the world's
		// actions).
		p.showHelp = false
		in.Host = p.host(in)
	}
	p.updateNotice(in)
	if p.showHelp {
		// The help overlay is modal: any key or click closes it.
		if in.Keys != 0 || in.Pointer().JustDown {
			p.showHelp = false
		}
		return nil
	}
	if p.help.Update(in) || in.Keys.Has(ui.IntentHelp) {
		p.showHelp = true
		p.Narrate("Keyboard help: " + p.helpText())
		return nil
	}
	if menuOpen && in.Keys.Has(ui.IntentBack) {
		// Esc closes the world's action menu first.
		modal.Close()
		in.Keys &^= ui.KeysOf(ui.IntentBack)
	}
	// With the world's action menu open, the arrows and Enter belong to
	// it, not to a focused slider or button.
	var menuKeys ui.Intents
	if menuOpen {
		menuKeys = in.Keys & ui.KeysOf(ui.IntentUp, ui.IntentDown, ui.IntentLeft, ui.IntentRight, ui.IntentActivate)
		in.Keys &^= menuKeys
	}
	if back := p.spec.Back.Do; back != nil && (p.menu.Update(in) || in.Keys.Has(ui.IntentBack)) {
		back()
		return nil
	}
	if p.spec.Sandbox != nil && p.sandbox.Update(in) {
		p.spec.Sandbox()
		return nil
	}
	if p.solutionOffered() && (p.solution.Update(in) || in.Keys.Has(ui.IntentSolution)) {
		p.spec.Solution()
		p.setPlaying(true)
		p.Narrate("Showing the solution from the start, as a run of its own: your run is kept, and Back to my run returns to it")
	}
	if p.run != nil && p.run.update(p, in) {
		return nil // the run changed under the views' last layout
	}
	if in.Keys.Has(ui.IntentFaster) && p.speed.Value < p.speed.Max {
		p.speed.SetValue(p.speed.Value + 1)
		p.Narrate(fmt.Sprintf("Speed %s", speedText(p.Speed())))
	}
	if in.Keys.Has(ui.IntentSlower) && p.speed.Value > p.speed.Min {
		p.speed.SetValue(p.speed.Value - 1)
		p.Narrate(fmt.Sprintf("Speed %s", speedText(p.Speed())))
	}
	if in.Keys.Has(ui.IntentBackStep) {
		p.setPlaying(false)
		p.Clock.Apply(lab.SeekTo(p.Clock.Now() - time.Second))
		p.Narrate("Back to " + p.clockText())
	}
	if esc := p.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	nothingFocused := p.ring.Current() == nil
	if p.play.Update(in) || in.Keys.Has(ui.IntentPlayPause) ||
		(nothingFocused && !menuOpen && in.Keys.Has(ui.IntentActivate)) {
		p.setPlaying(!p.playing)
	}
	if p.step.Update(in) || in.Keys.Has(ui.IntentStep) {
		p.setPlaying(false)
		p.Clock.Apply(lab.StepOn())
		p.Narrate("Stepped to " + p.clockText())
	}
	if p.fork.Update(in) || in.Keys.Has(ui.IntentFork) {
		p.Clock.Apply(lab.ForkHere())
		undo := ""
		if p.run != nil {
			undo = " (Undo brings them back)"
		}
		p.Narrate("Forked at " + p.clockText() + "; later actions dropped" + undo)
	}
	if p.hint.Update(in) || in.Keys.Has(ui.IntentHint) {
		if p.hintsSeen < len(p.Lesson.Hints) {
			p.hintsSeen++
			p.Narrate("Hint: " + p.Lesson.Hints[p.hintsSeen-1])
			if p.run != nil {
				p.text.SetText(p.panelText())
				p.text.SetScroll(p.text.MaxScroll())
			}
		}
	}
	p.hint.Disabled = p.hintsSeen >= len(p.Lesson.Hints)
	if p.speed.Update(in) {
		p.Narrate(fmt.Sprintf("Speed %s", speedText(p.Speed())))
	}
	if p.scrub.Update(in) {
		p.Clock.Apply(lab.SeekTo(time.Duration(p.scrub.Value * float64(p.Clock.Length()))))
	}
	p.text.Update(in)
	if p.knobs != nil {
		p.knobs.update(in)
	}

	if p.playing {
		p.Clock.Apply(lab.AdvanceBy(time.Duration(p.Speed() * float64(step))))
	}
	if !p.scrub.Dragging() && p.Clock.Length() > 0 {
		p.scrub.SetValue(float64(p.Clock.Now()) / float64(p.Clock.Length()))
	}

	p.tips[0].Text = ui.WithKey("Play", ui.IntentPlayPause)
	if p.playing {
		p.tips[0].Text = ui.WithKey("Pause", ui.IntentPlayPause)
	}
	for i := range p.tips {
		t := &p.tips[i]
		t.Update(in, t.widget.Bounds(), t.widget.Focus() == ui.FocusVisible)
	}
	in.Keys |= menuKeys
	// The views handle the input on what they last showed. One may swap
	// the others (the finder opens the comparison; its way back restores
	// the player's own views): a view swapped in is not updated this
	// tick, only laid out before it is drawn.
	before := p.views()
	for i, v := range before {
		if v != nil && v == p.views()[i] {
			if err := v.Update(st); err != nil {
				return err
			}
		}
	}
	return nil
}

// views are the player's regions that views fill, in update order.
func (p *Player) views() [3]View { return [3]View{p.Overlay, p.World, p.Timeline} }

// Layout implements Scene: the player's own widgets, then every view in
// its region.
func (p *Player) Layout(window ui.Rect, style draw.Style) {
	p.style = style
	p.syncChecklist()
	nk := 0
	if p.knobs != nil {
		nk = len(p.knobs.sliders)
	}
	lanes := 0
	if p.spec.Lanes != nil {
		lanes = p.spec.Lanes()
	}
	p.outside = style.PanelOutside
	if p.outside {
		p.layout = ui.LayoutPlayerBare(window, style.Unit, nk, lanes)
	} else {
		p.layout = ui.LayoutPlayerAt(window, style.Unit, nk, lanes)
	}
	p.place()
	if p.knobs != nil {
		p.knobs.layout(p.layout)
	}
	areas := [3]ui.Rect{p.layout.World, p.layout.World, p.layout.Timeline}
	for i, v := range p.views() {
		if v != nil {
			v.Layout(areas[i], style)
		}
	}
	if items := p.focusables(); !slices.Equal(items, p.ringed) {
		// The panel's widgets leave Tab's round when the page shows the
		// panel; a scene's own widgets join it once they are placed.
		p.ringed = items
		p.ring.Set(items...)
	}
}

// worldMenuOpen reports a world view with an open action menu.
func worldMenuOpen(v View) bool {
	m, ok := v.(interface{ Modal() bool })
	return ok && m.Modal()
}

func (p *Player) setPlaying(on bool) {
	if on == p.playing {
		return
	}
	p.playing = on
	p.play.Icon = ui.IconPlay
	if on {
		p.play.Icon = ui.IconPause
		p.Narrate(fmt.Sprintf("Playing at %s from %s", speedText(p.Speed()), p.clockText()))
	} else {
		p.Narrate("Paused at " + p.clockText())
	}
}

// place gives every widget its rectangle from the layout.
func (p *Player) place() {
	l := p.layout
	p.play.Rect, p.step.Rect, p.fork.Rect = l.Play, l.Step, l.Fork
	p.speed.Rect, p.scrub.Rect = l.Speed, l.Scrub
	if p.outside {
		// The page shows the panel and its buttons.
		p.hint.Rect, p.solution.Rect, p.menu.Rect, p.help.Rect, p.sandbox.Rect = ui.Rect{}, ui.Rect{}, ui.Rect{}, ui.Rect{}, ui.Rect{}
		p.text.Rect, p.objective = ui.Rect{}, ui.Rect{}
		p.menu.Disabled, p.solution.Disabled, p.sandbox.Disabled = p.spec.Back.Do == nil, !p.solutionOffered(), p.spec.Sandbox == nil
		return
	}
	if p.run == nil {
		// No run row: the hint has its room too.
		l.HintText.H = l.HintText.MaxY() - l.RunRow.Y
		l.HintText.Y = l.RunRow.Y
		l.RunRow = ui.Rect{}
	}
	l = p.placePanel(l)
	p.hint.Rect = l.HintButton
	p.solution.Rect = ui.Rect{}
	row := l.HintButton
	row.W = l.Hints.W
	_, rest := row.CutLeft(l.HintButton.W, math.Round(p.style.U(8)))
	slot, _ := rest.CutLeft(math.Round(p.style.U(150)), 0)
	if p.spec.Side != nil {
		slot = ui.Rect{} // the side has the hint button's row
	}
	if p.run != nil {
		p.run.place(p, l.RunRow, slot)
	}
	solution := p.solutionOffered() && (p.run == nil || !p.run.offers(RunBackToMine))
	if solution {
		p.solution.Rect = slot
	}
	// Buttons without a callback can take no focus.
	back := p.spec.Back.Do != nil
	p.menu.Disabled, p.solution.Disabled = !back, !solution
	p.menu.Rect, p.help.Rect = ui.Rect{}, l.HelpButton
	if back {
		p.menu.Rect = l.MenuButton
	}
}

// placePanel places the lesson panel's title, objective, goals, hint and
// text, and the sandbox button, in l, and returns the changed layout.
func (p *Player) placePanel(l ui.PlayerLayout) ui.PlayerLayout {
	p.sandbox.Disabled, p.sandbox.Rect = p.spec.Sandbox == nil, ui.Rect{}
	if p.spec.Sandbox != nil {
		// Between the menu and help buttons where there is room, else at
		// the right of the title row, which gives up its width.
		w, g := math.Round(p.style.U(92)), math.Round(p.style.U(8))
		if left, right := l.MenuButton.MaxX()+g, l.HelpButton.X-g; right-left >= w {
			p.sandbox.Rect = ui.Rect{X: math.Round((left + right - w) / 2), Y: l.Nav.Y, W: w, H: l.Nav.H}
		} else {
			p.sandbox.Rect, l.LessonTitle = l.LessonTitle.CutRight(w, g)
		}
	}
	// A title too long for its row in the label face takes the lines it
	// needs from the text below.
	p.fitTitle(l.LessonTitle.W)
	if extra := p.fit.titleH - l.LessonTitle.H; p.fit.titleLines > 1 && extra > 0 {
		l.LessonTitle.H += extra
		l.LessonText.Y += extra
		l.LessonText.H -= extra
	}
	face := p.style.Body()
	if p.style.Unit != p.unit {
		p.text.SetMeasure(draw.Measure(face), draw.LineHeight(face))
		p.unit = p.style.Unit
	}
	p.objective = ui.Rect{}
	if obj := p.Lesson.Objective; obj != "" {
		of := p.style.Label()
		if p.objWrap != [2]float64{l.LessonText.W, p.style.Unit} {
			// Wrapped again only when the width or the scale changes.
			p.objWrap = [2]float64{l.LessonText.W, p.style.Unit}
			p.objH = float64(len(draw.Wrap(obj, l.LessonText.W, of))) * draw.LineHeight(of)
		}
	}
	// The hint and the goals take the room their text needs, leaving the
	// objective and a few lines of the lesson text.
	keep := 4 * draw.LineHeight(face)
	if p.objH > 0 {
		keep += p.objH + math.Round(p.style.U(8))
	}
	l = p.fitPanel(l, keep)
	if p.Lesson.Objective != "" {
		p.objective, l.LessonText = l.LessonText.CutTop(p.objH, math.Round(p.style.U(8)))
	}
	// Whole lines only, so the unscrolled panel ends on a line, not half one.
	p.text.Rect = l.LessonText
	p.text.Rect.H = math.Floor(l.LessonText.H/draw.LineHeight(face)) * draw.LineHeight(face)
	p.text.Gutter = math.Round(p.style.U(12))
	p.layout = l
	return l
}

func (p *Player) clockText() string { return lab.ClockTime(p.Clock.Now()) }

func speedText(s float64) string { return fmt.Sprintf("%g×", s) }

// Draw implements Scene.
func (p *Player) Draw(screen *ebiten.Image) {
	s, l, th := p.style, p.layout, p.style.Theme
	for _, r := range []ui.Rect{l.World, l.Timeline, l.Controls, l.Lesson} {
		s.Panel(screen, r)
	}
	if p.knobs != nil {
		p.knobs.draw(screen, l, s)
	}
	// An open action menu lies over everything in the world, the
	// overlay's buttons included.
	menu := worldMenuOpen(p.World)
	if p.Overlay != nil && menu {
		p.Overlay.Draw(screen, l.World, s)
	}
	if p.World != nil {
		p.World.Draw(screen, l.World, s)
	}
	if p.Overlay != nil && !menu {
		p.Overlay.Draw(screen, l.World, s)
	}
	if p.Timeline != nil {
		p.Timeline.Draw(screen, l.Timeline, s)
	}

	// Time controls.
	s.Button(screen, &p.play)
	s.Button(screen, &p.step)
	s.Slider(screen, &p.scrub)
	draw.TextIn(screen, p.clockText(), s.Mono(), l.Clock, draw.AlignEnd, th.Text)
	draw.TextIn(screen, speedText(p.Speed()), s.Mono(), l.SpeedLabel, draw.AlignEnd, th.TextDim)
	s.Slider(screen, &p.speed)
	s.Button(screen, &p.fork)
	if !p.outside {
		p.drawPanel(screen)
	}
	p.drawNotice(screen)
	for i := range p.tips {
		s.Tooltip(screen, &p.tips[i].Tooltip, l.Window)
	}
	if p.showHelp {
		p.drawHelp(screen)
	}
}

// drawPanel draws the lesson panel: title, buttons, objective, story,
// goals and hints.
func (p *Player) drawPanel(screen *ebiten.Image) {
	s, l, th := p.style, p.layout, p.style.Theme
	if p.fit.titleLines > 1 {
		draw.Paragraph(screen, p.Lesson.Title, s.Label(), centredLines(l.LessonTitle, p.Lesson.Title, s.Label()), th.Text)
	} else {
		titleFace := s.Title()
		if draw.Measure(titleFace)(p.Lesson.Title) > l.LessonTitle.W {
			titleFace = s.Label()
		}
		draw.TextIn(screen, p.Lesson.Title, titleFace, l.LessonTitle, draw.AlignStart, th.Text)
	}
	s.Button(screen, &p.help)
	if p.spec.Back.Do != nil {
		s.Button(screen, &p.menu)
	}
	if !p.solution.Rect.Empty() {
		s.Button(screen, &p.solution)
	}
	if p.run != nil {
		p.run.draw(screen, s)
	}
	if p.spec.Sandbox != nil {
		s.Button(screen, &p.sandbox)
	}
	if p.objective.H > 0 {
		draw.Paragraph(screen, p.Lesson.Objective, s.Label(), p.objective, th.Accent)
	}
	s.TextPanel(screen, &p.text, s.Body())
	heading := p.spec.Checklist.Title
	if heading == "" {
		heading = "Goals"
	}
	s.Checklist(screen, heading, l.GoalHeader(), p.goalRows, p.Lesson.Goals)
	if p.spec.Side != nil {
		p.spec.Side(screen)
	} else {
		s.Button(screen, &p.hint)
		hint, clr := hintPrompt, th.TextDim
		if p.hintsSeen > 0 {
			hint, clr = p.Lesson.Hints[p.hintsSeen-1], th.Text
			if p.run != nil {
				// One line here; the whole hint ends the text above.
				// (Cut, it opens whole on hover.)
				hint = fmt.Sprintf("Hint %d of %d (the text above ends with it): %s", p.hintsSeen, len(p.Lesson.Hints), hint)
			}
		}
		draw.ParagraphTip(screen, hint, s.Small(), l.HintText, clr)
	}
}

// keys returns the shortcuts that work in this player: without a solution
// (the sandbox, an exercise before its first attempt) L does nothing.
// A player with a break finder also says how to reach it and the
// comparison, which have no letter of their own.
func (p *Player) keys() [][2]string {
	finder := false
	for _, name := range p.names {
		finder = finder || name == "explore"
	}
	out := make([][2]string, 0, len(ui.Shortcuts)+1)
	for _, k := range ui.Shortcuts {
		if k.Intents[0] == ui.IntentSolution && !p.solutionOffered() {
			continue
		}
		if k.Intents[0] == ui.IntentFocusNext && finder {
			out = append(out, [2]string{"Tab, Enter", "reach Find a break or Compare on/off, and press it"})
		}
		out = append(out, [2]string{k.Keys(), k.Does})
	}
	return out
}

func (p *Player) helpText() string {
	var b strings.Builder
	for i, k := range p.keys() {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(k[0] + ": " + k[1])
	}
	return b.String()
}

// drawHelp draws the keyboard help as a modal card over the player.
func (p *Player) drawHelp(screen *ebiten.Image) {
	s, th := p.style, p.style.Theme
	w := p.layout.Window
	dim := th.Background
	dim.A = 0xd8
	draw.Cover(w)
	draw.FillRect(screen, w, dim)
	lh := draw.LineHeight(s.Body())
	keys := p.keys()
	card := ui.Rect{W: math.Min(w.W-s.U(40), s.U(620)), H: float64(len(keys))*lh + s.U(100)}
	card.X, card.Y = w.X+(w.W-card.W)/2, w.Y+math.Max(s.U(10), (w.H-card.H)/2)
	draw.FillRoundRect(screen, card, s.U(10), th.Panel)
	draw.StrokeRoundRect(screen, card, s.U(10), s.U(1.5), th.Accent)
	in := card.Inset(s.U(20))
	row, in := in.CutTop(s.U(30), s.U(8))
	draw.TextIn(screen, "Keyboard shortcuts", s.Title(), row, draw.AlignStart, th.Text)
	for _, k := range keys {
		row, in = in.CutTop(lh, 0)
		keys, desc := row.CutLeft(s.U(130), s.U(10))
		draw.TextIn(screen, k[0], s.Mono(), keys, draw.AlignStart, th.Accent)
		draw.TextIn(screen, k[1], s.Body(), desc, draw.AlignStart, th.Text)
	}
	row, _ = in.CutTop(lh, 0)
	draw.TextIn(screen, "Press any key or click to close.", s.Small(), row, draw.AlignStart, th.TextDim)
}

// Inspect implements Inspector.
func (p *Player) Inspect() SceneInfo {
	regions := p.layout.Regions()
	if p.objective.H > 0 {
		regions["objective"] = p.objective
	}
	if r := p.noticeRect(); !r.Empty() {
		regions["notice"] = r
	}
	if !p.solution.Rect.Empty() {
		regions["solution"] = p.solution.Rect
	}
	if p.menu.Rect.Empty() {
		delete(regions, "menu")
	}
	if p.run != nil {
		p.run.regions(regions)
	}
	if !p.sandbox.Rect.Empty() {
		regions["openSandbox"] = p.sandbox.Rect
	}
	if p.spec.Regions != nil {
		for k, r := range p.spec.Regions() {
			regions[k] = r
		}
	}
	text := p.Lesson.Body
	if p.knobs != nil {
		for i, k := range p.knobs.lab.Lesson.Knobs {
			regions["knob:"+k.ID] = p.layout.KnobSlider(i)
		}
		text = p.knobs.mirror() + "\n" + text
	}
	info := SceneInfo{
		Name:    "player",
		Regions: regions,
		Mirror: Mirror{
			Title:        p.Lesson.Title,
			Objective:    p.Lesson.Objective,
			Text:         text,
			Goals:        p.Lesson.Goals,
			Narration:    p.narration.Lines(),
			NarrationKey: p.narration.Keys(),
			Controls:     p.controls(),
		},
	}
	if p.run != nil {
		info.Mirror.Buttons = p.run.mirror()
	}
	if p.hintsSeen > 0 {
		info.Mirror.Hint = p.Lesson.Hints[p.hintsSeen-1]
	}
	if c := p.ring.Current(); c != nil {
		info.Focus = p.names[c]
	}
	return info
}
