package player

import (
	"math"
	"slices"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// panelFit is what the lesson panel's texts need at one width and unit:
// the hint's height (the tallest hint, so the panel does not jump as hints
// are revealed), each goal row's height, and the title's lines. It is
// worked out again only when the width, the unit or the texts change.
type panelFit struct {
	// What hintH and goalH were worked out for.
	widths       [3]float64 // the goals' and the hint's width, the unit
	goals, hints []string
	hintH        float64
	goalH        []float64
	titleKey     [2]float64
	titleLines   int
	titleH       float64
}

// fits reports whether f was worked out for this layout, unit and text,
// without allocating (it runs every tick).
func (f *panelFit) fits(l ui.PlayerLayout, unit float64, goals []draw.Goal, hints []string) bool {
	if f.widths != [3]float64{l.Goals.W, l.HintText.W, unit} || len(f.goals) != len(goals) || len(f.goalH) != len(goals) || !slices.Equal(f.hints, hints) {
		return false
	}
	for i, g := range goals {
		if f.goals[i] != g.Line() {
			return false
		}
	}
	return true
}

// fitPanel gives the hint and the goals of the lesson panel laid out in l
// the room their text needs, whole, taken from (or given back to) the
// lesson text above them, which scrolls, as long as that keeps keep
// pixels; where it would not, the hint, then the goals, keep their usual
// rows and show what does not fit on hover (ParagraphTip). It returns the
// changed layout and sets p.goalRows.
func (p *Player) fitPanel(l ui.PlayerLayout, keep float64) ui.PlayerLayout {
	st := p.style
	hints := p.Lesson.Hints
	if p.spec.Side != nil || p.run != nil {
		// The scene draws its own side; or the run row shares the hint's
		// area, whose one line the lesson text (where a revealed hint is
		// told whole) stands in for.
		hints = nil
	}
	minRow := l.GoalRow(1).Y - l.GoalRow(0).Y
	if !p.fit.fits(l, st.Unit, p.Lesson.Goals, hints) {
		p.fit.hintH = 0
		for _, h := range append([]string{hintPrompt}, hints...) {
			p.fit.hintH = math.Max(p.fit.hintH, draw.ParagraphHeight(h, st.Small(), l.HintText.W))
		}
		p.fit.goals = p.fit.goals[:0]
		for _, g := range p.Lesson.Goals {
			p.fit.goals = append(p.fit.goals, g.Line())
		}
		p.fit.goalH = st.ChecklistRowHeights(p.fit.goals, l.Goals.W, minRow)
		p.fit.widths, p.fit.hints = [3]float64{l.Goals.W, l.HintText.W, st.Unit}, hints
	}
	grow := 0.0
	if len(hints) > 0 {
		grow = math.Max(0, p.fit.hintH-l.HintText.H)
	}
	rows := p.fit.goalH
	top, bottom := l.LessonText.Y, l.Goals.MaxY()
	gap := math.Round(st.U(8))
	need := func() float64 {
		h := l.GoalHeader().H + grow
		for _, r := range rows {
			h += r
		}
		return h
	}
	if bottom-need()-gap-top < keep {
		grow = 0
	}
	if bottom-need()-gap-top < keep {
		rows = make([]float64, len(rows))
		for i := range rows {
			rows[i] = minRow
		}
	}
	// The hint grows upwards, pushing the goals up.
	l.Hints.Y -= grow
	l.Hints.H += grow
	l.HintButton.Y -= grow
	l.HintText.Y -= grow
	l.HintText.H += grow
	// The goals take what they need above it, and the rest goes to the
	// text.
	l.Goals.H = need() - grow
	l.Goals.Y = bottom - grow - l.Goals.H
	l.LessonText.H = math.Max(0, l.Goals.Y-gap-top)
	p.goalRows = p.goalRows[:0]
	y := l.Goals.Y + l.GoalHeader().H
	for _, h := range rows {
		p.goalRows = append(p.goalRows, ui.Rect{X: l.Goals.X, Y: y, W: l.Goals.W, H: h})
		y += h
	}
	return l
}

// fitTitle works out how many lines of the label face the title needs
// at width w (1 when it fits on its row), and their height.
func (p *Player) fitTitle(w float64) {
	if k := [2]float64{w, p.style.Unit}; k != p.fit.titleKey {
		p.fit.titleKey = k
		face := p.style.Label()
		lines := len(draw.Wrap(p.Lesson.Title, w, face))
		p.fit.titleLines = max(1, lines)
		p.fit.titleH = float64(lines) * draw.LineHeight(face)
	}
}

// goalRow is the row goal i was given (empty past the goals).
func (p *Player) goalRow(i int) ui.Rect {
	if i < len(p.goalRows) {
		return p.goalRows[i]
	}
	return ui.Rect{}
}

// hintPrompt is what the hint area says before any hint is revealed.
const hintPrompt = "Stuck? Reveal a hint (H)."
