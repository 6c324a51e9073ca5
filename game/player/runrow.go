package player

import (
	"fmt"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/ui"
)

// The run's own buttons, by the names the bridge and the HTML page use.
const (
	RunRestart    = "restart"
	RunUndo       = "undo"
	RunBackToMine = "backToMyRun"
	RunNext       = "nextLesson"
)

// runButtonNames is the run row's buttons in focus order: Restart and
// Undo at the left of the run row, Next lesson at its right, and Back to
// my run in the solution's place (it is the way back from it).
var runButtonNames = [...]string{RunRestart, RunUndo, RunNext, RunBackToMine}

// RunRow is what a player's run row offers: each button's state, asked
// once per tick and layout, and what pressing one does.
type RunRow struct {
	State func() []page.RunButton // by name, any order
	Do    func(name string)
}

// runRow is a player's run buttons: the widgets, what they said last,
// and their tooltips (indices into Player.tips).
type runRow struct {
	spec    RunRow
	buttons [len(runButtonNames)]ui.Button
	state   [len(runButtonNames)]page.RunButton
	tips    [len(runButtonNames)]int
}

// newRunRow adds the run row's buttons to a player being built.
func (p *Player) newRunRow(spec RunRow) {
	r := &runRow{spec: spec}
	p.run = r
	for i, name := range runButtonNames {
		p.names[&r.buttons[i]] = name
		r.tips[i] = len(p.tips)
		p.tips = append(p.tips, tip{ui.Tooltip{Delay: TooltipDelay}, &r.buttons[i]})
	}
	r.sync(p)
}

// sync asks the run row's state and labels the buttons.
func (r *runRow) sync(p *Player) {
	for _, b := range r.spec.State() {
		for i, name := range runButtonNames {
			if name == b.Name {
				r.state[i] = b
				r.buttons[i].Label = b.Label
				r.buttons[i].Disabled = !b.Enabled
				p.tips[r.tips[i]].Text = b.Tip
			}
		}
	}
}

// focusables are the run row's widgets, for the focus ring.
func (r *runRow) focusables() []ui.Focusable {
	out := make([]ui.Focusable, len(r.buttons))
	for i := range r.buttons {
		out[i] = &r.buttons[i]
	}
	return out
}

// update presses what was clicked, then takes the new state; it reports
// a press.
func (r *runRow) update(p *Player, in *ui.Input) bool {
	pressed := false
	for i := range r.buttons {
		if r.state[i].Enabled && r.buttons[i].Update(in) && !pressed {
			pressed = true
			p.use(ui.HostAction{ID: runButtonNames[i]})
		}
	}
	r.sync(p)
	return pressed
}

// offers reports whether the named button is on show.
func (r *runRow) offers(name string) bool {
	for i, n := range runButtonNames {
		if n == name {
			return r.state[i].Offered
		}
	}
	return false
}

// place lays the row out: Restart and Undo from the left of row, Next
// lesson at its right, Back to my run in the solution's place (slot), or
// at the row's right when there is none (the sandbox's exports have it).
func (r *runRow) place(p *Player, row, slot ui.Rect) {
	r.sync(p)
	s := p.style
	g := math.Round(s.U(8))
	width := func(label string) float64 { return math.Round(draw.Measure(s.Label())(label) + s.U(24)) }
	left := row
	for i, name := range runButtonNames {
		b := &r.buttons[i]
		b.Rect = ui.Rect{}
		if !r.state[i].Offered {
			b.Disabled = true
			continue
		}
		switch {
		case name == RunRestart || name == RunUndo:
			b.Rect, left = left.CutLeft(width(b.Label), g)
		case name == RunBackToMine && !slot.Empty():
			b.Rect = slot
		default: // Next lesson, or Back to my run without a slot
			b.Rect, left = left.CutRight(width(b.Label), g)
		}
	}
}

// draw draws the offered buttons.
func (r *runRow) draw(dst *ebiten.Image, s draw.Style) {
	for i := range r.buttons {
		if r.state[i].Offered {
			s.Button(dst, &r.buttons[i])
		}
	}
}

// regions are the offered buttons' places, by name.
func (r *runRow) regions(m map[string]ui.Rect) {
	for i, name := range runButtonNames {
		if r.state[i].Offered {
			m[name] = r.buttons[i].Rect
		}
	}
}

// mirror is every button's state, for the HTML page.
func (r *runRow) mirror() []page.RunButton { return append([]page.RunButton(nil), r.state[:]...) }

// panelText is the text panel's text: the body, then (with a run row,
// which leaves the hint one line) the hints revealed so far.
func (p *Player) panelText() string {
	if p.run == nil {
		return p.body
	}
	var b strings.Builder
	b.WriteString(p.body)
	for i, h := range p.Lesson.Hints[:p.hintsSeen] {
		fmt.Fprintf(&b, "\n\nHint %d: %s", i+1, h)
	}
	return b.String()
}
