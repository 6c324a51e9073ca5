package player

import (
	"fmt"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// Predict before you play: when the run reaches a lesson's key moment the
// lab opens a question (lab.Ask) and the player stops and shows it, as a
// card over the top of the world and, on the page, as a group of buttons
// headed by the question. A digit key (1, 2, 3) or a click on an option
// answers it; Play (or the card's last row) plays on without an answer,
// recorded as skipped. The question is also said as a key line of the
// narration, for a screen reader.

// predictAsker is a clock that asks for predictions: a lesson's lab.
type predictAsker interface {
	Asking() (lab.Ask, bool)
	Predict(opt string) bool
	SkipPrediction()
}

// Host action ids: "predict:OPT" picks option OPT, "predict:skip" plays
// on without an answer.
const (
	predictPrefix = "predict:"
	predictSkip   = "predict:skip"
)

// predictCard is where the open question's rows were laid out.
type predictCard struct {
	id   string
	card ui.Rect
	rows []predictRow
}

type predictRow struct {
	r     ui.Rect
	lines []string
	id    string // the control it uses (an option's, or predictSkip); "" for the question
}

// predicter is the player's clock as a predictAsker, or nil.
func (p *Player) predicter() predictAsker {
	a, _ := p.Clock.(predictAsker)
	return a
}

// asking returns the open question, if any.
func (p *Player) asking() (lab.Ask, bool) {
	if a := p.predicter(); a != nil {
		return a.Asking()
	}
	return lab.Ask{}, false
}

// askedNow stops the run at a question that has just opened and says it.
func (p *Player) askedNow() {
	q, ok := p.asking()
	if !ok || (p.predict != nil && p.predict.id == q.ID) {
		return
	}
	p.predict = &predictCard{id: q.ID}
	p.setPlaying(false)
	var opts []string
	for i, o := range q.Options {
		opts = append(opts, fmt.Sprintf("%d: %s", i+1, o.Label))
	}
	p.narration.AddKey(fmt.Sprintf("Predict before you play: %s %s; or play on to skip.", q.Question, strings.Join(opts, ", ")))
}

// answer picks option opt of the open question (predictSkip: none).
func (p *Player) answer(opt string) {
	a := p.predicter()
	q, ok := p.asking()
	if !ok {
		return
	}
	if opt == predictSkip {
		a.SkipPrediction()
		p.narration.AddKey("Prediction skipped; the recap shows what happened.")
		return
	}
	for _, o := range q.Options {
		if o.ID == opt && a.Predict(opt) {
			p.narration.AddKey(fmt.Sprintf("You predicted: %s. Play on to see; the recap puts it beside what happened.", o.Label))
		}
	}
}

// updatePredict handles the digits and clicks on the open card, and Play,
// which skips the question before it plays on; it reports whether it used
// the input.
func (p *Player) updatePredict(in *ui.Input) bool {
	q, ok := p.asking()
	if !ok {
		p.predict = nil
		return false
	}
	if in.Digit >= 1 && in.Digit <= len(q.Options) {
		p.use(ui.HostAction{ID: predictPrefix + q.Options[in.Digit-1].ID})
		in.Digit = 0
		return true
	}
	ptr := in.Pointer()
	if p.predict == nil || !ptr.JustDown {
		return false
	}
	for _, r := range p.predict.rows {
		if r.id != "" && r.r.Contains(ptr.Pos) {
			p.use(ui.HostAction{ID: r.id})
			return true
		}
	}
	return false // a click elsewhere is the world's
}

// predictControls lists the open question for the page: a group headed
// by the question, a button per option and one that skips it.
func (p *Player) predictControls() []ui.Control {
	q, ok := p.asking()
	if !ok {
		return nil
	}
	group := "Predict: " + q.Question
	var out []ui.Control
	for i, o := range q.Options {
		out = append(out, ui.Control{ID: predictPrefix + o.ID, Group: group, Label: o.Label, Detail: fmt.Sprintf("key %d", i+1),
			Do: func(ui.HostAction) { p.answer(o.ID) }})
	}
	return append(out, ui.Control{ID: predictSkip, Group: group, Label: "Play on without predicting", Detail: "recorded as skipped",
		Key: ui.IntentPlayPause, Do: func(ui.HostAction) { p.answer(predictSkip) }})
}

// layoutPredict lays the open card out across the top of the world.
func (p *Player) layoutPredict() {
	q, ok := p.asking()
	if !ok || p.predict == nil || p.layout.World.Empty() {
		return
	}
	s := p.style
	face := s.Small()
	lh := draw.LineHeight(face)
	// Below the world's heading row (its title and buttons), as a
	// passing notice goes.
	area := p.layout.World.Inset(s.U(10))
	area.Y += s.U(26)
	area.H -= s.U(26)
	area.W = min(area.W, s.U(620))
	area.X = p.layout.World.X + (p.layout.World.W-area.W)/2
	in := area.InsetXY(s.U(12), s.U(10))
	rows := []predictRow{{lines: draw.Wrap("Predict before you play: "+q.Question, in.W, face)}}
	pad := s.U(8) // an option's text inside its box
	// A row per control (predictControls): an option after its digit
	// key, the skip with its own key.
	for i, c := range p.predictControls() {
		text := c.CanvasLabel()
		if i < len(q.Options) {
			text = fmt.Sprintf("%d   %s", i+1, c.Label)
		}
		rows = append(rows, predictRow{lines: draw.Wrap(text, in.W-2*pad, face), id: c.ID})
	}
	y := in.Y
	for i := range rows {
		rh := float64(len(rows[i].lines)) * lh
		rows[i].r = ui.Rect{X: in.X, Y: y, W: in.W, H: rh}
		y += rh + s.U(6)
	}
	card := area
	card.H = min(area.H, y-area.Y+s.U(4))
	p.predict.card, p.predict.rows = card, rows
}

// drawPredict draws the open card: the question, then each option as a
// row to click, its key before it.
func (p *Player) drawPredict(screen *ebiten.Image) {
	if p.predict == nil || p.predict.card.Empty() {
		return
	}
	if _, ok := p.asking(); !ok {
		return
	}
	s, th := p.style, p.style.Theme
	c := p.predict.card
	p.cardFrame(screen, c)
	face := s.Small()
	lh := draw.LineHeight(face)
	for i, r := range p.predict.rows {
		if r.r.MaxY() > c.MaxY() {
			break
		}
		clr, x := th.Text, r.r.X
		if i > 0 {
			draw.StrokeRoundRect(screen, r.r.Inset(-s.U(2)), s.U(4), s.U(1), th.TextDim)
			x += s.U(8)
		}
		if r.id == predictSkip {
			clr = th.TextDim
		}
		for j, line := range r.lines {
			draw.Text(screen, line, face, x, r.r.Y+float64(j)*lh, clr)
		}
	}
}
