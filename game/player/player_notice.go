package player

import (
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/ui"
)

// noticeTicks is how long a notice shows over the world: long enough to
// read two lines (a click anywhere or a key closes it sooner).
const noticeTicks = 8 * 60

// Notice shows msg over the top of the world for a while (a link that
// could not be opened, on the canvas and not only in the narration), and
// tells it as a key line.
func (p *Player) Notice(msg string) {
	p.notice, p.noticeShort, p.noticeLeft, p.noticeDone = msg, "", noticeTicks, false
	p.narration.AddKey(msg)
}

// doneTicks is how long a lesson's moment of success shows over the
// world: time to read it and to see the world that earned it.
const doneTicks = 20 * 60

// Celebrate shows a completed lesson's moment of success over the world,
// where the learner is looking: the lesson is complete, the first thing
// it proved, and the next lesson. The narration tells it already.
func (p *Player) Celebrate(d *page.Done) {
	if d == nil {
		return
	}
	first, _ := FirstSentence(d.Recap)
	msg := d.Heading + ". " + first
	if d.Next != "" {
		msg += " " + ui.Sentence("Next lesson: "+d.Next)
	}
	short := d.Heading + ": see the panel."
	p.notice, p.noticeShort, p.noticeLeft, p.noticeDone = msg, short, doneTicks, true
}

// FirstSentence splits s after its first full stop followed by a space:
// the sentence, and the rest ("" when s is one sentence).
func FirstSentence(s string) (first, rest string) {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1], s[i+2:]
	}
	return s, ""
}

// updateNotice counts the notice down; any click or key closes it.
func (p *Player) updateNotice(in *ui.Input) {
	if p.noticeLeft <= 0 {
		return
	}
	p.noticeLeft--
	if in.Keys != 0 || in.Pointer().JustDown {
		p.noticeLeft = 0
	}
}

// noticeRect is where the notice goes: across the top of the world, as
// tall as its text. The moment of success takes the top of the world's
// card, which is laid out below it (worldArea), so it covers no label; a
// passing notice (a link that could not be opened) goes below the
// world's heading row, over its content, and moves nothing.
func (p *Player) noticeRect() ui.Rect {
	r, _ := p.noticeBand()
	return r
}

// noticeText is the notice as drawn: the moment of success said whole,
// or in one line pointing to the panel (where a phone's page says it
// whole, at the panel's top) where the whole would leave the world too
// short.
func (p *Player) noticeText() string {
	_, text := p.noticeBand()
	return text
}

// minWorldBelowBand is the least height, in units, the world keeps under
// the moment of success: less and its cards and contenders overlap.
const minWorldBelowBand = 330

// noticeBand is the notice's rectangle and the text it holds.
func (p *Player) noticeBand() (ui.Rect, string) {
	if p.noticeLeft <= 0 || p.layout.World.Empty() {
		return ui.Rect{}, ""
	}
	if !p.topBand.Empty() {
		return p.topBand, p.noticeShort
	}
	s := p.style
	w := math.Min(p.layout.World.W-s.U(24), s.U(560))
	band := func(text string) ui.Rect {
		h := draw.ParagraphHeight(text, s.Small(), w-s.U(24)) + s.U(16)
		y := p.layout.World.Y + s.U(36)
		if p.noticeDone {
			y = p.layout.World.Y + s.U(6)
		}
		return ui.Rect{X: p.layout.World.X + (p.layout.World.W-w)/2, Y: y, W: w, H: h}
	}
	r := band(p.notice)
	if p.noticeDone && p.noticeShort != "" && !p.worldFitsUnder(r) {
		return band(p.noticeShort), p.noticeShort
	}
	return r, p.notice
}

// worldFitsUnder reports that the world keeps enough room under a band
// at r: most of its height, no less than minWorldBelowBand, and no less
// than its least height.
func (p *Player) worldFitsUnder(r ui.Rect) bool {
	below := p.layout.World.MaxY() - r.MaxY() - p.style.U(4)
	return below >= 0.7*p.layout.World.H && below >= p.style.U(minWorldBelowBand) && below >= p.worldMin
}

// worldArea is the world's region: the layout's, less the band the
// notice takes at its top while one shows.
func (p *Player) worldArea() ui.Rect {
	r := p.noticeRect()
	if r.Empty() || !p.noticeDone || !p.topBand.Empty() {
		// No band, a passing notice over the world, or the band above
		// every region (Layout).
		return p.layout.World
	}
	_, below := p.layout.World.CutTop(r.MaxY()-p.layout.World.Y, p.style.U(4))
	return below
}

func (p *Player) drawNotice(screen *ebiten.Image) {
	r := p.noticeRect()
	if r.Empty() {
		return
	}
	s := p.style
	edge := s.Theme.Warning
	if p.noticeDone {
		edge = s.Theme.Accept
	}
	draw.Cover(r) // over the world's heading row, while it shows
	draw.FillRoundRect(screen, r, s.U(6), s.Theme.Raised)
	draw.StrokeRoundRect(screen, r, s.U(6), s.U(2), edge)
	draw.Paragraph(screen, p.noticeText(), s.Small(), r.InsetXY(s.U(12), s.U(8)), s.Theme.Text)
}
