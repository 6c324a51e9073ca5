package player

import (
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// The player's Layout: the window split by ui.LayoutPlayer, the panel
// fitted, every widget placed for the state Update left.

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
	needs := ui.PlayerNeeds{Knobs: nk, Lanes: lanes}
	split := func(window ui.Rect) {
		p.layout = ui.LayoutPlayerWith(window, style.Unit, needs, !p.outside)
		p.worldMin = 0
		if m, ok := p.World.(worldSizer); ok {
			// A world whose lock groups wrap to rows needs more height than
			// the timeline's growth for its lanes leaves it.
			p.worldMin = m.MinHeight(p.layout.World.W, style)
			if p.worldMin > p.layout.World.H {
				needs.WorldH = p.worldMin
				p.layout = ui.LayoutPlayerWith(window, style.Unit, needs, !p.outside)
			}
		}
	}
	split(window)
	p.topBand = ui.Rect{}
	if r, _ := p.noticeBand(); p.noticeDone && !r.Empty() && !p.worldFitsUnder(r) {
		// A world too short to give up even the moment of success's one
		// line (a phone's, with a knob strip): the band goes above it and
		// the timeline gives up the height where it has more than its
		// lanes want, or shows some of them summed up in its last lane
		// already (it sums up one more); else every region gives up a
		// little. The band covers none of the world's heading row.
		l := &p.layout
		p.topBand = ui.Rect{X: r.X, Y: l.World.Y, W: r.W, H: r.H}
		h := r.H + style.U(8)
		if l.Timeline.H-h >= ui.TimelineWant(lanes, style.Unit) || lanesShown(l.Timeline, style.Unit, lanes) < lanes {
			l.World.Y += h
			l.Knobs.Y += h
			l.Timeline.Y += h
			l.Timeline.H -= h
		} else {
			_, rest := window.CutTop(p.topBand.MaxY()-window.Y, 0)
			split(rest)
		}
	}
	p.place()
	if p.knobs != nil {
		p.knobs.layout(p.layout)
	}
	world := p.worldArea()
	areas := [3]ui.Rect{world, world, p.layout.Timeline}
	if m, ok := p.World.(menuHost); ok {
		m.SetMenuRoom(bounds(world, p.layout.Timeline))
	}
	for i, v := range p.views() {
		if v != nil {
			v.Layout(areas[i], style)
		}
	}
	p.layoutWhy()
	p.layoutPredict()
	p.declare()
	if items := p.focusables(); !slices.Equal(items, p.ringed) {
		// The panel's widgets leave Tab's round when the page shows the
		// panel; a scene's own widgets join it once they are placed.
		p.ringed = items
		p.ring.Set(items...)
	}
}

// worldSizer is a world view that may need a least height (see
// worldView.MinHeight).
type worldSizer interface {
	MinHeight(width float64, s draw.Style) float64
}

// lanesShown is how many of lanes lanes a timeline in r shows whole, the
// rest summed up in its last (timelineView.Layout); a timeline of
// lab.MaxLanes or more may be a summary already.
func lanesShown(r ui.Rect, u float64, lanes int) int {
	g := ui.LayoutTimeline(r, u, lanes, 1)
	return min(lanes, lab.MaxLanes-1, int(g.Lanes.H/(view.TimelineLaneMin*u)))
}

// menuHost is a world view whose action menu the player draws over every
// view (a phone's world is too short for a long menu).
type menuHost interface {
	SetMenuRoom(ui.Rect)
	MenuBox() ui.Rect
	DrawMenu(*ebiten.Image, draw.Style)
}

// menuBox is the world's open action menu's box, empty for none.
func (p *Player) menuBox() ui.Rect {
	if m, ok := p.World.(menuHost); ok {
		return m.MenuBox()
	}
	return ui.Rect{}
}

// bounds is the smallest rectangle holding a and b.
func bounds(a, b ui.Rect) ui.Rect {
	x, y := math.Min(a.X, b.X), math.Min(a.Y, b.Y)
	return ui.Rect{X: x, Y: y, W: math.Max(a.MaxX(), b.MaxX()) - x, H: math.Max(a.MaxY(), b.MaxY()) - y}
}

// WorldMenuOpen reports a world view with an open action menu.
func WorldMenuOpen(v View) bool {
	m, ok := v.(interface{ Modal() bool })
	return ok && m.Modal()
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
