package ui

import "math"

// TextPanel is a scrolling view of wrapped text. Rect is the text area
// itself (the draw layer adds no padding inside it); line i is drawn with
// its top at Rect.Y + i*LineHeight - Scroll(), clipped to Rect.
//
// The panel wraps lazily: setting the text, the measure function or a Rect
// of a new width rewraps on the next Update or Lines call.
type TextPanel struct {
	Rect Rect
	// Gutter is the width kept free at the right of Rect for a scroll bar;
	// text wraps in Rect.W - Gutter.
	Gutter float64

	text       string
	measure    func(string) float64
	lineHeight float64
	lines      []string
	wrapWidth  float64
	dirty      bool

	scroll   float64
	hovered  bool
	focus    Focus
	dragging bool // a finger that went down inside is scrolling the panel
	dragY    float64
}

// wheelLines is how many lines one wheel notch scrolls.
const wheelLines = 3

// SetText replaces the text and scrolls back to the top if it changed.
func (p *TextPanel) SetText(text string) {
	if text == p.text {
		return
	}
	p.text, p.dirty, p.scroll = text, true, 0
}

// Text returns the unwrapped text.
func (p *TextPanel) Text() string { return p.text }

// SetMeasure sets how text is measured and how far apart lines are. Call it
// when the font or its size changes; it rewraps.
func (p *TextPanel) SetMeasure(measure func(string) float64, lineHeight float64) {
	p.measure, p.lineHeight, p.dirty = measure, lineHeight, true
}

// LineHeight is the distance between the tops of two lines.
func (p *TextPanel) LineHeight() float64 { return p.lineHeight }

// Lines returns the wrapped lines.
func (p *TextPanel) Lines() []string {
	p.rewrap()
	return p.lines
}

func (p *TextPanel) rewrap() {
	w := p.TextWidth()
	if p.measure == nil || (!p.dirty && w == p.wrapWidth) {
		return
	}
	p.lines = Wrap(p.text, w, p.measure)
	p.wrapWidth, p.dirty = w, false
	p.scroll = clamp(p.scroll, 0, p.MaxScroll())
}

// TextWidth is the width text wraps in: Rect.W less the gutter.
func (p *TextPanel) TextWidth() float64 { return p.Rect.W - p.Gutter }

// ScrollBar returns the scroll bar's thumb inside the gutter, and false when
// the text fits and no bar is needed.
func (p *TextPanel) ScrollBar() (thumb Rect, ok bool) {
	content := p.ContentHeight()
	if p.MaxScroll() <= 0 || p.Gutter <= 0 || content <= 0 {
		return Rect{}, false
	}
	h := math.Max(p.Gutter*2, p.Rect.H*p.Rect.H/content)
	h = math.Min(h, p.Rect.H)
	y := p.Rect.Y + (p.Rect.H-h)*p.scroll/p.MaxScroll()
	return Rect{p.Rect.MaxX() - p.Gutter, y, p.Gutter, h}, true
}

// ContentHeight is the height of all the lines.
func (p *TextPanel) ContentHeight() float64 { return float64(len(p.Lines())) * p.lineHeight }

// MaxScroll is how far the panel can scroll: zero when the text fits.
func (p *TextPanel) MaxScroll() float64 { return math.Max(0, p.ContentHeight()-p.Rect.H) }

// Scroll is how many pixels of text are hidden above the panel's top.
func (p *TextPanel) Scroll() float64 { return p.scroll }

// SetScroll scrolls to y, clamped to [0, MaxScroll].
func (p *TextPanel) SetScroll(y float64) { p.scroll = clamp(y, 0, p.MaxScroll()) }

// Visible returns the range [first, last) of lines that show at least in
// part, for the draw layer to paint.
func (p *TextPanel) Visible() (first, last int) {
	n := len(p.Lines())
	if p.lineHeight <= 0 || n == 0 {
		return 0, 0
	}
	first = int(math.Floor(p.scroll / p.lineHeight))
	last = int(math.Ceil((p.scroll + p.Rect.H) / p.lineHeight))
	return max(0, min(first, n)), max(0, min(last, n))
}

// LineY is the top of line i on screen.
func (p *TextPanel) LineY(i int) float64 { return p.Rect.Y + float64(i)*p.lineHeight - p.scroll }

// Update scrolls by the wheel while the pointer is over the panel, by a
// finger dragged from inside it, and by the arrow, Page and Home/End intents
// while it has focus. It reports whether the scroll position changed.
func (p *TextPanel) Update(in *Input) (scrolled bool) {
	p.rewrap()
	p.SetScroll(p.scroll) // the panel may have grown since the last tick
	old := p.scroll
	ptr := in.Pointer()
	p.hovered = ptr.Present && p.Rect.Contains(ptr.Pos)
	if p.hovered && in.Wheel.Y != 0 {
		p.SetScroll(p.scroll - in.Wheel.Y*wheelLines*p.lineHeight)
	}
	if ptr.Touch {
		switch {
		case ptr.JustDown && p.hovered:
			p.dragging, p.dragY = true, ptr.Pos.Y
		case p.dragging:
			p.SetScroll(p.scroll + p.dragY - ptr.Pos.Y)
			p.dragY = ptr.Pos.Y
		}
		if ptr.JustUp {
			p.dragging = false
		}
	} else {
		p.dragging = false
	}
	if p.focus != NoFocus {
		page := math.Max(p.lineHeight, p.Rect.H-p.lineHeight)
		switch {
		case in.Keys.Has(IntentUp):
			p.SetScroll(p.scroll - p.lineHeight)
		case in.Keys.Has(IntentDown):
			p.SetScroll(p.scroll + p.lineHeight)
		case in.Keys.Has(IntentPageUp):
			p.SetScroll(p.scroll - page)
		case in.Keys.Has(IntentPageDown):
			p.SetScroll(p.scroll + page)
		case in.Keys.Has(IntentHome):
			p.SetScroll(0)
		case in.Keys.Has(IntentEnd):
			p.SetScroll(p.MaxScroll())
		}
	}
	return p.scroll != old
}

// Hovered reports whether the pointer is over the panel.
func (p *TextPanel) Hovered() bool { return p.hovered }

// Focus reports the panel's keyboard focus.
func (p *TextPanel) Focus() Focus { return p.focus }

// Bounds implements [Focusable].
func (p *TextPanel) Bounds() Rect { return p.Rect }

// CanFocus implements [Focusable]: only a panel that can scroll takes focus.
func (p *TextPanel) CanFocus() bool { return p.MaxScroll() > 0 }

// SetFocus implements [Focusable].
func (p *TextPanel) SetFocus(f Focus) { p.focus = f }
