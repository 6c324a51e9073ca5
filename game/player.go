package game

import (
	"fmt"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// Lesson is the text side of a lesson as the player shows it.
type Lesson struct {
	Title string
	Body  string
	Goals []draw.Goal // at most ui.MaxGoals are shown
	Hints []string    // revealed one at a time
}

// Clock is what the player's time controls drive. The simulator adapter
// implements it: Advance runs the simulation forward, Seek re-simulates to a
// point, Fork drops the learner's actions after now.
type Clock interface {
	Now() time.Duration
	Length() time.Duration // the span the scrub slider covers
	Advance(d time.Duration)
	Step() // to the next event
	Seek(t time.Duration)
	Fork()
}

// View draws one region of the player, such as the world or the timeline.
type View interface {
	Update(st *State, area ui.Rect) error
	Draw(dst *ebiten.Image, area ui.Rect, style draw.Style)
}

// speeds are the playback speeds the speed slider steps through.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8}

const (
	defaultSpeed = 2 // index of 1×
	tooltipDelay = 30
	narrationMax = 20
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
	narration []string

	layout ui.PlayerLayout
	style  draw.Style
	unit   float64 // the unit the text panel was measured for

	play, step, fork, hint ui.Button
	speed, scrub           ui.Slider
	text                   ui.TextPanel
	ring                   *ui.FocusRing
	names                  map[ui.Focusable]string
	tips                   []tip
}

// tip ties a tooltip to the widget it explains.
type tip struct {
	ui.Tooltip
	widget interface {
		ui.Focusable
		Focus() ui.Focus
	}
}

// NewPlayer returns a paused player for lesson, driving clock and drawing
// world and timeline in their regions.
func NewPlayer(lesson Lesson, clock Clock, world, timeline View) *Player {
	p := &Player{Lesson: lesson, Clock: clock, World: world, Timeline: timeline}
	p.play = ui.Button{Icon: ui.IconPlay}
	p.step = ui.Button{Icon: ui.IconStep}
	p.fork = ui.Button{Icon: ui.IconFork, Label: "Fork"}
	p.hint = ui.Button{Icon: ui.IconHint, Label: "Hint"}
	p.speed = ui.Slider{Min: 0, Max: float64(len(speeds) - 1), Step: 1, Value: defaultSpeed}
	p.scrub = ui.Slider{Min: 0, Max: 1}
	p.text.SetText(lesson.Body)
	p.names = map[ui.Focusable]string{
		&p.play: "play", &p.step: "step", &p.scrub: "scrub", &p.speed: "speed",
		&p.fork: "fork", &p.text: "lessonText", &p.hint: "hint",
	}
	p.ring = ui.NewFocusRing(false, &p.play, &p.step, &p.scrub, &p.speed, &p.fork, &p.text, &p.hint)
	p.tips = []tip{
		{ui.Tooltip{Delay: tooltipDelay}, &p.play},
		{ui.Tooltip{Text: "Step to the next event (.)", Delay: tooltipDelay}, &p.step},
		{ui.Tooltip{Text: "Jump to a moment; later steps are re-simulated", Delay: tooltipDelay}, &p.scrub},
		{ui.Tooltip{Text: "Playback speed (arrow keys when focused)", Delay: tooltipDelay}, &p.speed},
		{ui.Tooltip{Text: "Fork: drop later actions and carry on from here (F)", Delay: tooltipDelay}, &p.fork},
		{ui.Tooltip{Text: "Reveal the next hint (H)", Delay: tooltipDelay}, &p.hint},
	}
	return p
}

// Playing reports whether time is running.
func (p *Player) Playing() bool { return p.playing }

// Speed is the playback speed: virtual seconds per real second.
func (p *Player) Speed() float64 { return speeds[int(p.speed.Value)] }

// Narrate adds a line to the narration mirrored for screen readers.
func (p *Player) Narrate(line string) {
	p.narration = append(p.narration, line)
	if n := len(p.narration); n > narrationMax {
		p.narration = append(p.narration[:0], p.narration[n-narrationMax:]...)
	}
}

// Update implements Scene.
func (p *Player) Update(st *State) error {
	in := &st.Input
	p.ring.Wrap = st.WrapFocus
	p.style = st.Style
	p.layout = ui.LayoutPlayer(st.Window, in.Scale)
	p.place()

	if esc := p.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	nothingFocused := p.ring.Current() == nil
	if p.play.Update(in) || in.Keys.Has(ui.IntentPlayPause) ||
		(nothingFocused && in.Keys.Has(ui.IntentActivate)) {
		p.setPlaying(!p.playing)
	}
	if p.step.Update(in) || in.Keys.Has(ui.IntentStep) {
		p.setPlaying(false)
		p.Clock.Step()
		p.Narrate("Stepped to " + p.clockText())
	}
	if p.fork.Update(in) || in.Keys.Has(ui.IntentFork) {
		p.Clock.Fork()
		p.Narrate("Forked at " + p.clockText() + "; later actions dropped")
	}
	if p.hint.Update(in) || in.Keys.Has(ui.IntentHint) {
		if p.hintsSeen < len(p.Lesson.Hints) {
			p.hintsSeen++
			p.Narrate("Hint: " + p.Lesson.Hints[p.hintsSeen-1])
		}
	}
	p.hint.Disabled = p.hintsSeen >= len(p.Lesson.Hints)
	if p.speed.Update(in) {
		p.Narrate(fmt.Sprintf("Speed %s", speedText(p.Speed())))
	}
	if p.scrub.Update(in) {
		p.Clock.Seek(time.Duration(p.scrub.Value * float64(p.Clock.Length())))
	}
	p.text.Update(in)

	if p.playing {
		p.Clock.Advance(time.Duration(p.Speed() * float64(time.Second) / float64(ebiten.TPS())))
	}
	if !p.scrub.Dragging() && p.Clock.Length() > 0 {
		p.scrub.SetValue(float64(p.Clock.Now()) / float64(p.Clock.Length()))
	}

	p.tips[0].Text = "Play (P)"
	if p.playing {
		p.tips[0].Text = "Pause (P)"
	}
	for i := range p.tips {
		t := &p.tips[i]
		t.Update(in, t.widget.Bounds(), t.widget.Focus() == ui.FocusVisible)
	}
	for _, v := range []struct {
		view View
		area ui.Rect
	}{{p.World, p.layout.World}, {p.Timeline, p.layout.Timeline}} {
		if v.view != nil {
			if err := v.view.Update(st, v.area); err != nil {
				return err
			}
		}
	}
	return nil
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
	p.hint.Rect = l.HintButton
	face := p.style.Body()
	if p.style.Unit != p.unit {
		p.text.SetMeasure(draw.Measure(face), draw.LineHeight(face))
		p.unit = p.style.Unit
	}
	// Whole lines only, so the unscrolled panel ends on a line, not half one.
	p.text.Rect = l.LessonText
	p.text.Rect.H = math.Floor(l.LessonText.H/draw.LineHeight(face)) * draw.LineHeight(face)
	p.text.Gutter = math.Round(p.style.U(12))
}

func (p *Player) clockText() string { return formatTime(p.Clock.Now()) }

func formatTime(d time.Duration) string { return fmt.Sprintf("t = %.3f s", d.Seconds()) }

func speedText(s float64) string { return fmt.Sprintf("%g×", s) }

// Draw implements Scene.
func (p *Player) Draw(screen *ebiten.Image) {
	s, l, th := p.style, p.layout, p.style.Theme
	for _, r := range []ui.Rect{l.World, l.Timeline, l.Controls, l.Lesson} {
		s.Panel(screen, r)
	}
	if p.World != nil {
		p.World.Draw(screen, l.World, s)
	}
	if p.Timeline != nil {
		p.Timeline.Draw(screen, l.Timeline, s)
	}

	// Time controls.
	s.Button(screen, &p.play)
	s.Button(screen, &p.step)
	s.Slider(screen, &p.scrub)
	draw.TextIn(screen, p.clockText(), s.Mono(), l.Clock, text.AlignEnd, th.Text)
	draw.TextIn(screen, speedText(p.Speed()), s.Mono(), l.SpeedLabel, text.AlignEnd, th.TextDim)
	s.Slider(screen, &p.speed)
	s.Button(screen, &p.fork)

	// Lesson panel.
	draw.TextIn(screen, p.Lesson.Title, s.Title(), l.LessonTitle, text.AlignStart, th.Text)
	s.TextPanel(screen, &p.text, s.Body())
	rows := make([]ui.Rect, ui.MaxGoals)
	for i := range rows {
		rows[i] = l.GoalRow(i)
	}
	s.Checklist(screen, "Goals", l.GoalHeader(), rows, p.Lesson.Goals)
	s.Button(screen, &p.hint)
	hint, clr := "Stuck? Reveal a hint (H).", th.TextDim
	if p.hintsSeen > 0 {
		hint, clr = p.Lesson.Hints[p.hintsSeen-1], th.Text
	}
	draw.Paragraph(screen, hint, s.Small(), l.HintText, clr)

	for i := range p.tips {
		s.Tooltip(screen, &p.tips[i].Tooltip, l.Window)
	}
}

// Inspect implements Inspector.
func (p *Player) Inspect() SceneInfo {
	info := SceneInfo{
		Name:    "player",
		Regions: p.layout.Regions(),
		Mirror: Mirror{
			Title:     p.Lesson.Title,
			Text:      p.Lesson.Body,
			Goals:     p.Lesson.Goals,
			Narration: append([]string(nil), p.narration...),
		},
	}
	if p.hintsSeen > 0 {
		info.Mirror.Hint = p.Lesson.Hints[p.hintsSeen-1]
	}
	if c := p.ring.Current(); c != nil {
		info.Focus = p.names[c]
	}
	return info
}
