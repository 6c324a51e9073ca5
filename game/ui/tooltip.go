package ui

// Tooltip is a short text that appears after the pointer has rested on (or
// the keyboard focus has stayed on) a widget for Delay ticks. Pressing hides
// it until the pointer leaves and the focus moves on.
type Tooltip struct {
	Text  string
	Delay int // ticks; 30 is half a second at 60 ticks per second

	ticks      int
	suppressed bool
	anchor     Rect
}

// Update counts one tick. anchor is the widget the tip belongs to and
// focused whether it has keyboard focus.
func (t *Tooltip) Update(in *Input, anchor Rect, focused bool) {
	t.anchor = anchor
	ptr := in.Pointer()
	over := ptr.Present && !ptr.Touch && anchor.Contains(ptr.Pos)
	if !over && !focused {
		t.ticks, t.suppressed = 0, false
		return
	}
	if ptr.JustDown || ptr.Down || in.Keys.Has(IntentActivate) {
		t.suppressed = true
	}
	t.ticks++
}

// Visible reports whether the tip should be drawn this tick.
func (t *Tooltip) Visible() bool { return !t.suppressed && t.Text != "" && t.ticks > t.Delay }

// Place returns where to draw a w×h tip: centred below the anchor with gap
// between, or above it when there is no room below, and shifted to stay
// inside window.
func (t *Tooltip) Place(w, h, gap float64, window Rect) Rect {
	a := t.anchor
	r := Rect{a.X + a.W/2 - w/2, a.MaxY() + gap, w, h}
	if r.MaxY() > window.MaxY() {
		r.Y = a.Y - gap - h
	}
	r.X = clamp(r.X, window.X, window.MaxX()-w)
	r.Y = clamp(r.Y, window.Y, window.MaxY()-h)
	return r
}
