package ui

// press is the pointer and keyboard behaviour Button and Toggle share.
type press struct {
	hovered bool
	armed   bool // a press began inside and has not been released
	focus   Focus
	queued  bool // Press was called: fire on the next update
}

// update reports whether the widget fired this tick: the pointer was
// released inside r after a press that began inside r, or the widget has
// focus and the Activate intent fired. A press that begins outside and
// slides in never fires, and sliding out before release cancels.
func (p *press) update(r Rect, disabled bool, in *Input) bool {
	ptr := in.Pointer()
	p.hovered = !disabled && ptr.Present && r.Contains(ptr.Pos)
	queued := p.queued
	p.queued = false
	if disabled {
		p.armed = false
		return false
	}
	if queued {
		return true
	}
	if ptr.JustDown && p.hovered {
		p.armed = true
	}
	if ptr.JustUp {
		fired := p.armed && r.Contains(ptr.Pos)
		p.armed = false
		if fired {
			return true
		}
	}
	return p.focus != NoFocus && in.Keys.Has(IntentActivate)
}

// Hovered reports whether the pointer is over the widget (never for a
// disabled widget).
func (p *press) Hovered() bool { return p.hovered }

// Pressed reports whether the widget is held down with the pointer over it:
// releasing now would fire it.
func (p *press) Pressed() bool { return p.armed && p.hovered }

// Focus reports the widget's keyboard focus.
func (p *press) Focus() Focus { return p.focus }

// SetFocus is called by the [FocusRing].
func (p *press) SetFocus(f Focus) { p.focus = f }

// Button is a push button. Label is its text; Icon, if set, names a shape
// the draw layer paints instead of (or beside) the label.
type Button struct {
	Rect     Rect
	Label    string
	Icon     Icon
	Disabled bool
	press
}

// Icon names a shape drawn on a button, so controls do not rely on fonts
// having symbol glyphs.
type Icon uint8

const (
	IconNone Icon = iota
	IconPlay
	IconPause
	IconStep
	IconFork
	IconHint
)

// Update reports whether the button was activated this tick.
func (b *Button) Update(in *Input) (clicked bool) { return b.update(b.Rect, b.Disabled, in) }

// Bounds implements [Focusable].
func (b *Button) Bounds() Rect { return b.Rect }

// CanFocus implements [Focusable].
func (b *Button) CanFocus() bool { return !b.Disabled }

// Toggle is a button that flips between on and off each time it fires.
type Toggle struct {
	Rect     Rect
	Label    string
	On       bool
	Disabled bool
	press
}

// Update flips On when the toggle fires and reports whether it did.
func (t *Toggle) Update(in *Input) (changed bool) {
	if t.update(t.Rect, t.Disabled, in) {
		t.On = !t.On
		return true
	}
	return false
}

// Bounds implements [Focusable].
func (t *Toggle) Bounds() Rect { return t.Rect }

// CanFocus implements [Focusable].
func (t *Toggle) CanFocus() bool { return !t.Disabled }
