package lesson

import (
	"math"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
)

// The recap card on the canvas: where its parts go and how they are drawn.

// layoutOpener puts the opener at the right of the goals' heading.
func (c *recapCard) layoutOpener(style draw.Style) {
	c.style = style
	c.sync()
	c.opener.Rect = ui.Rect{}
	if c.opener.Disabled {
		return
	}
	head := c.sc.Player.Placed().GoalHeader()
	w := math.Round(draw.Measure(style.Label())(c.opener.Label) + style.U(24))
	c.opener.Rect, _ = head.CutRight(math.Min(w, head.W*0.6), 0)
}

// layout lays the open card out over window.
func (c *recapCard) layout(window ui.Rect, style draw.Style) {
	if !c.shown {
		return
	}
	c.style = style
	st := style
	px := func(v float64) float64 { return math.Round(st.U(v)) }
	w := math.Min(window.W-2*px(12), px(760))
	c.card = ui.Rect{X: window.X + math.Round((window.W-w)/2), Y: window.Y + px(12), W: w, H: window.H - 2*px(12)}
	in := c.card.Inset(px(16))
	c.header, in = in.CutTop(px(40), px(10))
	closeW := math.Round(draw.Measure(st.Label())(c.close.Label) + st.U(28))
	c.close.Rect, c.title = c.header.CutRight(math.Min(closeW, c.header.W*0.6), px(12))
	c.close.Rect = c.close.Rect.InsetXY(0, px(2))

	lineH := draw.ParagraphHeight(c.footerText(), st.Small(), in.W-px(30))
	c.footer, c.geom.view = in.CutBottom(lineH+px(10)+px(36), px(10))
	c.line, _ = c.footer.CutTop(lineH, 0)
	row := ui.Rect{X: c.footer.X, Y: c.footer.MaxY() - px(36), W: c.footer.W, H: px(36)}
	checkW := math.Round(draw.Measure(st.Label())(c.check.Label) + st.U(28))
	c.check.Rect, row = row.CutLeft(math.Min(checkW, row.W/2-px(4)), px(8))
	c.next.Rect = ui.Rect{}
	if c.sc.next != nil {
		nextW := math.Round(draw.Measure(st.Label())(c.next.Label) + st.U(28))
		c.next.Rect, _ = row.CutRight(math.Min(nextW, row.W), 0)
	}
	if c.chain.Group == "" {
		c.check.Rect = ui.Rect{}
	}

	c.layoutContent(c.geom.view.W)
	if c.geom.content > c.geom.view.H {
		c.layoutContent(c.geom.view.W - px(14)) // room for the scroll bar
	}
	c.chain.KeepPlace()
	c.place()
}

// layoutContent lays the card's scrolled content out in a column of
// width w: the recap, the predictions, the next lesson, the question's
// chain.
func (c *recapCard) layoutContent(w float64) {
	st := c.style
	g := &c.geom
	g.texts = g.texts[:0]
	f := &answer.Flow{Texts: &g.texts, Unit: st.Unit, W: w, Body: st.Body(), Small: st.Small(), Label: st.Label()}
	d := c.sc.done()
	f.AddText(draw.Drawable(d.Recap), false, false)
	if len(d.Predictions) > 0 {
		f.Y += f.Px(12)
		f.AddText("Your predictions beside what happened", false, true)
		for _, p := range d.Predictions {
			f.Y += f.Px(4)
			f.AddText(draw.Drawable(p), false, false)
		}
	}
	if d.Next != "" {
		f.Y += f.Px(12)
		f.AddText(draw.Drawable(ui.Sentence("Next lesson: "+d.Next)), true, false)
	}
	f.Y += f.Px(8)
	c.chain.Layout(f)
	g.content = f.Y
}

// place puts the chain's widgets where the card's scroll has them.
func (c *recapCard) place() {
	c.clampScroll()
	c.chain.Place()
}

// footerText is the footer's line: why the last press did nothing, the
// verdict on the chain, or what to do.
func (c *recapCard) footerText() string {
	r := &c.sc.recap
	switch {
	case c.refused != "":
		return c.refused
	case c.chain.Group == "":
		return "This lesson asks no recap question: its story is above."
	case r.verdict != nil:
		return form.PartText(*r.verdict)
	case len(r.chain) == 0:
		return "Your chain is empty: add events of your run from the list above."
	}
	return "Your chain has " + form.Plural(len(r.chain), "1 step", strconv.Itoa(len(r.chain))+" steps") + ". Check it when it tells the story."
}

// draw draws the open card over everything.
func (c *recapCard) draw(screen *ebiten.Image) {
	if !c.shown {
		return
	}
	st, th := c.style, c.style.Theme
	win := ui.Rect{W: float64(screen.Bounds().Dx()), H: float64(screen.Bounds().Dy())}
	dim := th.Background
	dim.A = 0xe0
	draw.Cover(win)
	draw.FillRect(screen, win, dim)
	draw.FillRoundRect(screen, c.card, st.U(10), th.Panel)
	draw.StrokeRoundRect(screen, c.card, st.U(10), st.U(2), th.Accept)

	d := c.sc.done()
	draw.CheckMark(screen, ui.Point{X: c.title.X + st.U(12), Y: c.title.Center().Y}, st.U(18), st.U(3), th.Accept)
	_, title := c.title.CutLeft(st.U(30), 0)
	face := st.Title()
	if draw.Measure(face)(d.Heading) > title.W {
		face = st.Label()
	}
	draw.TextIn(screen, d.Heading, face, title, draw.AlignStart, th.Accept)
	st.Button(screen, &c.close)

	g := &c.geom
	view := screen.SubImage(answer.Pixels(g.view.Intersect(win))).(*ebiten.Image)
	draw.InScroller(func() {
		answer.DrawTexts(view, st, g.texts, c.ToView)
		c.chain.Draw(view)
	})
	if max := c.maxScroll(); max > 0 {
		track := ui.Rect{X: g.view.MaxX() - st.U(3), Y: g.view.Y, W: st.U(3), H: g.view.H}
		h := math.Max(st.U(24), g.view.H*g.view.H/g.content)
		thumb := ui.Rect{X: track.X, Y: track.Y + (track.H-h)*c.scroll/max, W: track.W, H: h}
		draw.FillRect(screen, track, th.Border)
		draw.FillRoundRect(screen, thumb, st.U(1.5), th.TextDim)
	}

	line, clr := c.footerText(), th.TextDim
	text := c.line
	if v := c.sc.recap.verdict; v != nil && c.refused == "" {
		clr = th.Reject
		if v.OK {
			clr = th.Accept
		}
		st.Verdict(screen, ui.Point{X: text.X + st.U(11), Y: text.Y + draw.LineHeight(st.Small())/2}, st.U(18), v.OK)
	}
	if c.refused != "" {
		clr = th.Warning
	}
	_, text = text.CutLeft(st.U(30), 0)
	draw.Paragraph(screen, line, st.Small(), text, clr)
	if !c.check.Rect.Empty() {
		st.Button(screen, &c.check)
	}
	if !c.next.Rect.Empty() {
		st.Button(screen, &c.next)
	}
}
