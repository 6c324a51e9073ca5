package player

import (
	"fmt"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// The player's Draw: it paints what Layout placed and changes nothing.

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
	menu := WorldMenuOpen(p.World)
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
	// The world's action menu over every view: on a phone it reaches
	// over the timeline.
	if m, ok := p.World.(menuHost); ok {
		m.DrawMenu(screen, s)
	}

	// Time controls.
	s.Button(screen, &p.play)
	s.Button(screen, &p.step)
	s.Slider(screen, &p.scrub)
	draw.TextIn(screen, p.clockText(), s.Mono(), l.Clock, draw.AlignEnd, th.Text)
	if !l.SpeedLabel.Empty() {
		// A narrow controls row (a phone's) leaves the speed to the page.
		draw.TextIn(screen, speedText(p.Speed()), s.Mono(), l.SpeedLabel, draw.AlignEnd, th.TextDim)
	}
	s.Slider(screen, &p.speed)
	s.Button(screen, &p.fork)
	if !p.outside {
		p.drawPanel(screen)
	}
	p.drawNotice(screen)
	p.drawWhy(screen)
	p.drawPredict(screen)
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
		draw.Paragraph(screen, p.Lesson.Title, s.Label(), draw.CentredLines(l.LessonTitle, p.Lesson.Title, s.Label()), th.Text)
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
		if p.run != nil && p.hintsSeen > 0 && draw.ParagraphHeight(hint, s.Small(), l.HintText.W) > l.HintText.H+0.5 {
			// Too long for its line: where to read it, whole on hover.
			line, _ := l.HintText.CutTop(draw.LineHeight(s.Small()), 0)
			draw.ShortInTip(screen, hint, fmt.Sprintf("Hint %d of %d ends the text above.", p.hintsSeen, len(p.Lesson.Hints)), s.Small(), line, draw.AlignStart, clr)
			return
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
