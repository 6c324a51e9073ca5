package answer

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// The form's column: the texts and rows laid out in it (Flow), drawn
// (DrawTexts) and scrolled by a finger or the wheel (Drag).

// Text is a run of wrapped text in the form.
type Text struct {
	R    ui.Rect // in content coordinates
	Text string
	Dim  bool
	Bold bool
}

// Flow lays the form's contents out top to bottom in a column of
// width W, in content coordinates: Y is the height laid out so far, and
// Texts the texts laid out.
type Flow struct {
	Texts              *[]Text
	Unit               float64
	W, Y               float64
	Body, Small, Label *draw.Face
}

// Px is v units in pixels, rounded.
func (f *Flow) Px(v float64) float64 { return math.Round(v * f.Unit) }

// Height is the height of text wrapped in face to width w.
func (f *Flow) Height(text string, face *draw.Face, w float64) float64 {
	return float64(len(draw.Wrap(text, w, face))) * draw.LineHeight(face)
}

// AddText adds a paragraph of the column's width: a heading (bold), a
// note (dim) or body text.
func (f *Flow) AddText(t string, dim, bold bool) {
	face := f.Body
	switch {
	case bold:
		face = f.Label
	case dim:
		face = f.Small
	}
	h := f.Height(t, face, f.W)
	*f.Texts = append(*f.Texts, Text{R: ui.Rect{Y: f.Y, W: f.W, H: h}, Text: t, Dim: dim, Bold: bold})
	f.Y += h
}

// Removable adds a line of text with a Remove button at its right (a
// check, a step of the chain) and returns the button's rectangle.
func (f *Flow) Removable(text string) ui.Rect {
	btnW := f.Px(96)
	tw := math.Max(0, f.W-btnW-f.Px(10))
	h := math.Max(f.Px(34), f.Height(text, f.Body, tw))
	*f.Texts = append(*f.Texts, Text{R: ui.Rect{Y: f.Y, W: tw, H: h}, Text: text})
	r := ui.Rect{X: f.W - btnW, Y: f.Y, W: btnW, H: f.Px(34)}
	f.Y += h + f.Px(6)
	return r
}

// Option adds the row of an option the learner picks (an answer, a key
// point, an event of the run) labelled label, and returns it.
func (f *Flow) Option(label string) ui.Rect {
	h := optionHeight(label, f.Body, f.W, f.Unit)
	r := ui.Rect{Y: f.Y, W: f.W, H: h}
	f.Y += h + f.Px(6)
	return r
}

// optionHeight is the height of an option's or key point's row of width
// w: its label wrapped beside the mark, and at least one button high.
func optionHeight(label string, face *draw.Face, w, unit float64) float64 {
	px := func(v float64) float64 { return math.Round(v * unit) }
	return math.Max(px(34), float64(len(draw.Wrap(label, w-px(46), face)))*draw.LineHeight(face)+px(12))
}

// Drag is a finger scrolling the form.
type Drag struct {
	on     bool    // a finger went down in the form and is still down
	lastY  float64 // where it was last tick
	startY float64
	moved  bool // it moved far enough to be a scroll, not a tap
}

// Scroll follows a finger dragged in view and the wheel over it, calling
// by with each distance to scroll the content by: the form's and the
// recap card's alike.
func (d *Drag) Scroll(in *ui.Input, view ui.Rect, style draw.Style, by func(dy float64)) {
	p := in.Pointer()
	if !d.on {
		// The finger lifted last update (that lift was not a tap): the
		// form takes the pointer again, a mouse's too.
		d.moved = false
	}
	if p.Touch {
		switch {
		case p.JustDown && view.Contains(p.Pos):
			*d = Drag{on: true, lastY: p.Pos.Y, startY: p.Pos.Y}
		case d.on:
			if math.Abs(p.Pos.Y-d.startY) > style.U(10) {
				d.moved = true
			}
			if d.moved {
				by(d.lastY - p.Pos.Y)
			}
			d.lastY = p.Pos.Y
		}
		if p.JustUp {
			d.on = false
		}
	}
	if in.Wheel.Y != 0 && p.Present && view.Contains(p.Pos) {
		by(-in.Wheel.Y * 3 * draw.LineHeight(style.Body()))
	}
}

// Input is the input what lies in view sees: the pointer only while it
// is over view, and not while a finger scrolls it.
func (d *Drag) Input(in *ui.Input, view ui.Rect) *ui.Input {
	if p := in.Pointer(); view.Contains(p.Pos) && !d.moved {
		return in
	}
	out := *in
	away := ui.Point{X: -1e6, Y: -1e6}
	out.Cursor = away
	out.Touches = append([]ui.Touch(nil), in.Touches...)
	for i := range out.Touches {
		out.Touches[i].Pos = away
	}
	return &out
}

// DrawTexts draws a form's texts into its view (toView places a
// form rectangle there): prose, a bold heading, a dim note.
func DrawTexts(view *ebiten.Image, st draw.Style, texts []Text, toView func(ui.Rect) ui.Rect) {
	th := st.Theme
	for _, t := range texts {
		f, c := st.Body(), th.Text
		switch {
		case t.Bold:
			f = st.Label()
		case t.Dim:
			f, c = st.Small(), th.TextDim
		}
		draw.Paragraph(view, t.Text, f, toView(t.R), c)
	}
}

// Pixels is r as the image rectangle that covers it.
func Pixels(r ui.Rect) image.Rectangle {
	return image.Rect(int(math.Floor(r.X)), int(math.Floor(r.Y)), int(math.Ceil(r.MaxX())), int(math.Ceil(r.MaxY())))
}

// Pressed reports whether a box or option of the form fired: clicked,
// or Enter or Space while it has the focus (Space ticks a box, as on a
// web page).
func Pressed(b *ui.Button, in *ui.Input) bool {
	return b.Update(in) || b.Focus() != ui.NoFocus && in.Keys.Has(ui.IntentPlayPause)
}

// ScrollShowing is the scroll of a column viewH tall, now at scroll, that
// shows content rect r with margin to spare above and below: unchanged
// when r is in view already.
func ScrollShowing(scroll float64, r ui.Rect, margin, viewH float64) float64 {
	if r.Y-margin < scroll {
		scroll = r.Y - margin
	}
	if r.MaxY()+margin > scroll+viewH {
		scroll = r.MaxY() + margin - viewH
	}
	return scroll
}
