package ui

// Focus says whether a widget has the keyboard focus and whether to show it.
type Focus uint8

const (
	// NoFocus: keys do not go to the widget.
	NoFocus Focus = iota
	// FocusQuiet: the widget got focus from a pointer press. Keys go to it
	// but no focus ring is drawn, as browsers do for :focus-visible.
	FocusQuiet
	// FocusVisible: the widget got focus from the keyboard; draw the ring.
	FocusVisible
)

// Focusable is a widget the focus ring can move to.
type Focusable interface {
	// Bounds is where the widget is, so a press there focuses it.
	Bounds() Rect
	// CanFocus is false while the widget is disabled or has nothing to do
	// with keys (a text panel whose text fits); Tab skips it.
	CanFocus() bool
	SetFocus(Focus)
}

// Escape tells the host that Tab moved focus out of the canvas.
type Escape uint8

const (
	NoEscape       Escape = iota
	EscapeForward         // Tab past the last widget
	EscapeBackward        // Shift+Tab before the first widget
)

// FocusRing moves keyboard focus through widgets in a fixed order.
//
// With Wrap set (the desktop program), Tab cycles for ever. Without it (the
// browser), Tab past the last widget leaves the ring unfocused and reports an
// [Escape], so the page can move focus to the HTML beside the canvas: a
// keyboard user must never be trapped in the canvas.
type FocusRing struct {
	Wrap  bool
	items []Focusable
	cur   int // index into items, or -1
	mode  Focus
}

// NewFocusRing returns a ring over items, in Tab order, with nothing focused.
func NewFocusRing(wrap bool, items ...Focusable) *FocusRing {
	r := &FocusRing{Wrap: wrap, cur: -1}
	r.Set(items...)
	return r
}

// Set replaces the widgets, keeping focus on the current one if it is
// still among them.
func (r *FocusRing) Set(items ...Focusable) {
	cur := r.Current()
	if cur != nil {
		cur.SetFocus(NoFocus) // apply gives it back if it stays
	}
	r.items = append(r.items[:0], items...)
	r.cur = -1
	for i, it := range r.items {
		if it == cur {
			r.cur = i
		}
	}
	r.apply()
}

// Current returns the focused widget, or nil.
func (r *FocusRing) Current() Focusable {
	if r.cur < 0 || r.cur >= len(r.items) {
		return nil
	}
	return r.items[r.cur]
}

// Visible reports whether the focused widget should show a focus ring.
func (r *FocusRing) Visible() bool { return r.Current() != nil && r.mode == FocusVisible }

// Focus gives focus to f with the given visibility; nil (or a widget not in
// the ring) clears focus.
func (r *FocusRing) Focus(f Focusable, mode Focus) {
	r.cur = -1
	for i, it := range r.items {
		if it == f && f != nil && mode != NoFocus {
			r.cur, r.mode = i, mode
		}
	}
	r.apply()
}

// Update handles Tab and Shift+Tab, and moves focus quietly to the widget
// under a pointer press (or clears it if the press hit none). Call it before
// the widgets' own Update so they see the new focus this tick.
func (r *FocusRing) Update(in *Input) Escape {
	if p := in.Pointer(); p.JustDown {
		var hit Focusable
		for _, it := range r.items {
			if it.CanFocus() && it.Bounds().Contains(p.Pos) {
				hit = it
			}
		}
		r.Focus(hit, FocusQuiet)
	}
	switch {
	case in.Keys.Has(IntentFocusPrev):
		return r.move(-1)
	case in.Keys.Has(IntentFocusNext):
		return r.move(+1)
	}
	// A widget that became disabled while focused loses focus.
	if c := r.Current(); c != nil && !c.CanFocus() {
		r.Focus(nil, NoFocus)
	}
	return NoEscape
}

// move steps focus by dir (+1 or -1), skipping widgets that cannot focus.
func (r *FocusRing) move(dir int) Escape {
	n := len(r.items)
	i := r.cur
	// n+1 steps visit every widget once even when starting from none.
	for step := 0; n > 0 && step <= n; step++ {
		switch {
		case i < 0 && dir > 0:
			i = 0
		case i < 0:
			i = n - 1
		default:
			i += dir
		}
		if i < 0 || i >= n {
			if !r.Wrap {
				return r.escape(dir)
			}
			i = (i + n) % n
		}
		if r.items[i].CanFocus() {
			r.cur, r.mode = i, FocusVisible
			r.apply()
			return NoEscape
		}
	}
	// Nothing can take focus.
	if r.Wrap {
		r.Focus(nil, NoFocus)
		return NoEscape
	}
	return r.escape(dir)
}

func (r *FocusRing) escape(dir int) Escape {
	r.Focus(nil, NoFocus)
	if dir > 0 {
		return EscapeForward
	}
	return EscapeBackward
}

func (r *FocusRing) apply() {
	for i, it := range r.items {
		if i == r.cur {
			it.SetFocus(r.mode)
		} else {
			it.SetFocus(NoFocus)
		}
	}
}
