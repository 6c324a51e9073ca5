package player

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/page"
	"leaselab/game/ui"
	"leaselab/game/view"
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

// View draws one region of the player (see view.View).
type View = view.View

// speeds are the playback speeds the speed slider steps through.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64}

const (
	defaultSpeed = 2  // index of 1×
	TooltipDelay = 30 // ticks the pointer rests on a widget before its tip shows
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
	knobs *KnobPanel
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

	// decls are the player's controls as declared at its last layout
	// (declare): the page lists them, and every use of one, from the page
	// or the canvas, passes them (use). stop: a use left the player or
	// changed its run, so the rest of the tick's Update waits.
	decls ui.Controls
	stop  bool

	tips []tip
	// outside: the page shows the lesson panel (draw.Style.PanelOutside);
	// ringed is what the focus ring visits then.
	outside bool
	ringed  []ui.Focusable
	// notice shows over the world for noticeLeft more ticks (Notice);
	// noticeDone: it is a lesson's moment of success (Celebrate).
	notice string
	// noticeShort is the moment of success in one line ("Lesson
	// complete: see the panel."), drawn where the whole leaves the world
	// too short.
	noticeShort string
	noticeLeft  int
	noticeDone  bool
	// worldMin is the least height of the world (worldSizer), 0 for any:
	// a notice's band takes no room from it.
	worldMin float64
	// topBand is the moment of success's band when it takes the top of
	// the whole canvas, every region laid out under it; empty otherwise.
	topBand ui.Rect

	// Overlay, when set, is updated before and drawn over the world (the
	// explorer's button and progress bar).
	Overlay View
	// run is the run row (runrow.go); nil without one.
	run *runRow
	// why is the open Why? card (player_why.go); nil when closed.
	why *whyCard
	// predict is the open prediction card (player_predict.go); nil when
	// no question is open.
	predict *predictCard
}

// PlayerSpec is everything a player shows and does besides its time
// controls, fixed when it is built: nothing patches a player afterwards.
type PlayerSpec struct {
	Lesson          Lesson
	Clock           Clock
	World, Timeline View
	Overlay         View // see Player.Overlay
	// Apply applies the commands the views sent this tick (nil: they
	// apply themselves). The player calls it after the views' update and
	// before time runs on, so a click acts at the time of the frame it
	// was made on.
	Apply func()
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
	Knobs *KnobPanel
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

// Widget is one of a scene's widgets in a player: its name (the id of its
// control, the bridge's focus report), the widget, its tooltip ("" for
// none) and what using it does. The player declares it as a control with
// Do: the page's use of it and a click on it (the scene passes the click
// to Player.use) both pass that declaration.
type Widget struct {
	Name string
	W    interface {
		ui.Focusable
		Focus() ui.Focus
	}
	Tip string
	Do  func()
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
		{ui.Tooltip{Delay: TooltipDelay}, &p.play},
		{ui.Tooltip{Text: ui.WithKey("Step to the next event", ui.IntentStep), Delay: TooltipDelay}, &p.step},
		{ui.Tooltip{Text: "Jump to a moment; later steps are re-simulated", Delay: TooltipDelay}, &p.scrub},
		{ui.Tooltip{Text: "Playback speed (arrow keys when focused)", Delay: TooltipDelay}, &p.speed},
		{ui.Tooltip{Text: ui.WithKey("Fork: drop later actions and carry on from here", ui.IntentFork), Delay: TooltipDelay}, &p.fork},
		{ui.Tooltip{Text: ui.WithKey("Reveal the next hint", ui.IntentHint), Delay: TooltipDelay}, &p.hint},
		{ui.Tooltip{Text: ui.WithKey("Restart and play the lesson's solution", ui.IntentSolution), Delay: TooltipDelay}, &p.solution},
		{ui.Tooltip{Text: backTip, Delay: TooltipDelay}, &p.menu},
		{ui.Tooltip{Text: ui.WithKey("Keyboard shortcuts", ui.IntentHelp), Delay: TooltipDelay}, &p.help},
		{ui.Tooltip{Text: "Open this run in the sandbox: every control, no goals", Delay: TooltipDelay}, &p.sandbox},
	}
	for _, w := range spec.Widgets {
		p.extra = append(p.extra, w.W)
		p.names[w.W] = w.Name
		if w.Tip != "" {
			p.tips = append(p.tips, tip{ui.Tooltip{Text: w.Tip, Delay: TooltipDelay}, w.W})
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

// Inspect implements Inspector.
func (p *Player) Inspect() page.SceneInfo {
	if p.decls == nil {
		p.declare() // asked before its first layout
	}
	regions := p.layout.Regions()
	if p.objective.H > 0 {
		regions["objective"] = p.objective
	}
	if r := p.noticeRect(); !r.Empty() {
		regions["notice"] = r
	}
	if _, open := p.asking(); open && p.predict != nil {
		for _, row := range p.predict.rows {
			if row.id != "" {
				regions[row.id] = row.r
			}
		}
	}
	if p.why != nil {
		for _, row := range p.why.rows {
			if row.id != "" && row.r.Within(p.why.card) {
				regions[row.id] = row.r
			}
		}
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
		regions["sandbox"] = p.sandbox.Rect
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
	info := page.SceneInfo{
		Name:    "player",
		Regions: regions,
		Mirror: page.Mirror{
			Title:        p.Lesson.Title,
			Objective:    p.Lesson.Objective,
			Text:         text,
			Goals:        p.Lesson.Goals,
			Narration:    p.narration.Lines(),
			NarrationKey: p.narration.Keys(),
			NarrationSeq: p.narration.Seqs(),
			Controls:     slices.Clip(p.decls),
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
