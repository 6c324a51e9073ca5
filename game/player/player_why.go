package player

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// Why? The player answers it for the run on show: Q (or the page's Why?
// on a line of "What happened") opens a card over the world with the chain
// of causes of the last thing that happened (or of the line asked about),
// back to an action or the world's start. Each step is a button: it moves
// the play head to that step and asks why of it in turn. Q or Esc closes
// it. The page lists the same steps as buttons under "Why?".

// whyAsker is a clock that can explain its run: a lesson's lab.
type whyAsker interface {
	WhyNow() (lab.Why, bool)
	WhyOf(seq int) (lab.Why, bool)
}

// Host action ids of Why?: "why" asks about the play head, "why:N" about
// event N, "why:go:N" moves the play head to event N and asks about it,
// "why:close" closes the card.
const (
	whyID      = "why"
	whyPrefix  = "why:"
	WhyGo      = "why:go:"
	WhyCloseID = "why:close"
	GroupWhy   = "Why?"
)

// whyCard is the open card: the answer and where its rows were laid out.
type whyCard struct {
	why  lab.Why
	card ui.Rect
	rows []whyRow
}

type whyRow struct {
	r     ui.Rect
	lines []string
	id    string // the step's control (WhyGo and its event); "" for a row that is no step
	dim   bool
}

// asker is the player's clock as a whyAsker, or nil.
func (p *Player) asker() whyAsker {
	a, _ := p.Clock.(whyAsker)
	return a
}

// openWhy opens the card on w, or says there is nothing to explain yet.
func (p *Player) openWhy(w lab.Why, ok bool) {
	if !ok {
		p.why = nil
		p.Narrate("Why? Nothing has happened yet at " + p.clockText() + " to explain: play on, then ask.")
		return
	}
	p.why = &whyCard{why: w}
	p.Narrate(p.whyText())
}

// whyText is the card as one paragraph, for the narration.
func (p *Player) whyText() string {
	w := p.why.why
	var b strings.Builder
	b.WriteString("Why? " + w.Steps[0].String())
	for _, s := range w.Steps[1:] {
		b.WriteString("; because " + s.String())
	}
	b.WriteString(". It began with " + w.Root + ".")
	for _, s := range w.Also {
		b.WriteString(" Also: " + s.String() + ".")
	}
	return b.String()
}

// hostWhyOf handles the page's Why? on a line of the narration
// ("why:N", page.Mirror.NarrationSeq), which is a link in what was said, not a
// control; it reports whether h was one. The card's own controls are
// declared (whyControls).
func (p *Player) hostWhyOf(h ui.HostAction) bool {
	a := p.asker()
	n, ok := strings.CutPrefix(h.ID, whyPrefix)
	if a == nil || !ok {
		return false
	}
	if seq, err := strconv.Atoi(n); err == nil {
		p.openWhy(a.WhyOf(seq))
		return true
	}
	return false
}

// whyGoTo moves the play head to step seq of the open card and asks why
// of it.
func (p *Player) whyGoTo(a whyAsker, seq int) {
	if p.why != nil {
		for _, s := range append(p.why.why.Steps, p.why.why.Also...) {
			if s.Seq == seq {
				p.setPlaying(false)
				p.Clock.Apply(lab.SeekTo(s.At))
			}
		}
	}
	p.openWhy(a.WhyOf(seq))
}

// updateWhy handles Q, Esc and clicks on the card's steps; it reports
// whether it used the input.
func (p *Player) updateWhy(in *ui.Input) bool {
	a := p.asker()
	if a == nil {
		return false
	}
	if in.Keys.Has(ui.IntentWhy) {
		if p.why != nil {
			p.use(ui.HostAction{ID: WhyCloseID})
		} else {
			p.use(ui.HostAction{ID: whyID})
		}
		return true
	}
	if p.why == nil {
		return false
	}
	if in.Keys.Has(ui.IntentBack) {
		p.use(ui.HostAction{ID: WhyCloseID})
		return true
	}
	ptr := in.Pointer()
	if !ptr.JustDown || !p.why.card.Contains(ptr.Pos) {
		return false
	}
	for _, r := range p.why.rows {
		if r.id != "" && r.r.Contains(ptr.Pos) {
			p.use(ui.HostAction{ID: r.id})
			return true
		}
	}
	return true // a click on the card is the card's
}

// whyControls lists Why? for the page: the question, and while the card
// is open each step as a button and a button that closes it.
func (p *Player) whyControls() []ui.Control {
	a := p.asker()
	if a == nil {
		return nil
	}
	out := []ui.Control{{ID: whyID, Group: GroupWhy, Label: ui.WithKey("Why did the last thing happen?", ui.IntentWhy),
		Do: func(ui.HostAction) { p.openWhy(a.WhyNow()) }}}
	if p.why == nil {
		return out
	}
	w := p.why.why
	step := func(s lab.WhyStep, label string) ui.Control {
		return ui.Control{ID: WhyGo + strconv.Itoa(s.Seq), Group: GroupWhy, Label: label, Detail: "go there and ask why of it",
			Do: func(ui.HostAction) { p.whyGoTo(a, s.Seq) }}
	}
	for i, s := range w.Steps {
		label := "because " + s.String()
		if i == 0 {
			label = "Why? " + s.String()
		}
		out = append(out, step(s, label))
	}
	for _, s := range w.Also {
		out = append(out, step(s, "also "+s.String()))
	}
	out = append(out, ui.Control{ID: WhyCloseID, Group: GroupWhy, Label: fmt.Sprintf("Close Why? (it began with %s)", w.Root),
		Do: func(ui.HostAction) { p.why = nil }})
	return out
}

// layoutWhy lays the open card out over the world.
func (p *Player) layoutWhy() {
	if p.why == nil {
		return
	}
	s := p.style
	face := s.Small()
	lh := draw.LineHeight(face)
	area := p.layout.World.Inset(s.U(10))
	in := area.InsetXY(s.U(12), s.U(10))
	w := p.why.why
	var rows []whyRow
	add := func(text, id string, dim bool) {
		rows = append(rows, whyRow{lines: draw.Wrap(text, in.W, face), id: id, dim: dim})
	}
	// The steps are their controls' words (whyControls): the chain, the
	// root between it and the other causes.
	steps := p.whyControls()[1 : 1+len(w.Steps)+len(w.Also)]
	for _, c := range steps[:len(w.Steps)] {
		add(c.Label, c.ID, false)
	}
	add("It began with "+w.Root+".", "", true)
	for _, c := range steps[len(w.Steps):] {
		add(c.Label, c.ID, true)
	}
	add("Click a step to go there and ask why of it; Q or Esc closes.", "", true)
	h := s.U(20)
	for _, r := range rows {
		h += float64(len(r.lines))*lh + s.U(4)
	}
	card := area
	card.H = min(area.H, h)
	y := card.Y + s.U(10)
	for i := range rows {
		rh := float64(len(rows[i].lines)) * lh
		rows[i].r = ui.Rect{X: in.X, Y: y, W: in.W, H: rh}
		y += rh + s.U(4)
	}
	p.why.card, p.why.rows = card, rows
}

// drawWhy draws the open card. Rows that do not fit the world's area are
// left out (the page and the narration have the whole chain).
func (p *Player) drawWhy(screen *ebiten.Image) {
	if p.why == nil {
		return
	}
	s, th := p.style, p.style.Theme
	c := p.why.card
	p.cardFrame(screen, c)
	face := s.Small()
	lh := draw.LineHeight(face)
	for _, r := range p.why.rows {
		if r.r.MaxY() > c.MaxY() {
			break
		}
		clr := th.Text
		if r.dim {
			clr = th.TextDim
		}
		for i, line := range r.lines {
			draw.Text(screen, line, face, r.r.X, r.r.Y+float64(i)*lh, clr)
		}
	}
}

// cardFrame draws the frame of a card laid over the world: Why?, a
// prediction.
func (p *Player) cardFrame(screen *ebiten.Image, c ui.Rect) {
	s, th := p.style, p.style.Theme
	draw.FillRoundRect(screen, c, s.U(8), th.Raised)
	draw.StrokeRoundRect(screen, c, s.U(8), s.U(2), th.Accent)
}
