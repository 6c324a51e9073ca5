package ui

// Deck is a scene's controls as declared for this update and the canvas
// buttons made from them, one per id: the page lists [Deck.Controls], the
// canvas lays out and draws [Deck.Button], whose label and state are the
// declaration's, and a use of either, a page's [HostAction] or a click on
// the canvas, passes [Controls.Use] once ([Deck.Update]). A button lives as
// long as a declaration of its id, so it keeps its place, hover and focus
// from one declaration to the next.
type Deck struct {
	decls   Controls
	ids     []string // the buttons' ids, in the order of the declarations
	buttons map[string]*Button
}

// Declare makes cs the deck's declarations: each one's button takes its
// label (with its key, [Control.CanvasLabel]) and state; a button whose id
// is no longer declared goes. It reports whether the ids changed (a focus
// ring over [Deck.Buttons] is to be set again).
func (d *Deck) Declare(cs Controls) (changed bool) {
	if d.buttons == nil {
		d.buttons = map[string]*Button{}
	}
	d.decls = cs
	seen := make(map[string]bool, len(cs))
	changed = len(cs) != len(d.ids)
	for i, c := range cs {
		seen[c.ID] = true
		b := d.buttons[c.ID]
		if b == nil {
			b = &Button{}
			d.buttons[c.ID] = b
		}
		b.Label, b.Disabled = c.CanvasLabel(), c.Disabled
		if !changed && d.ids[i] != c.ID {
			changed = true
		}
	}
	for id := range d.buttons {
		if !seen[id] {
			delete(d.buttons, id)
		}
	}
	if changed {
		d.ids = d.ids[:0]
		for _, c := range cs {
			d.ids = append(d.ids, c.ID)
		}
	}
	return changed
}

// Controls are the declarations, for the page.
func (d *Deck) Controls() Controls { return d.decls }

// Button is the canvas's button for the control id, or nil when none is
// declared.
func (d *Deck) Button(id string) *Button { return d.buttons[id] }

// Buttons are the canvas's buttons in the order of the declarations: the
// focus ring's order.
func (d *Deck) Buttons() []Focusable {
	out := make([]Focusable, len(d.ids))
	for i, id := range d.ids {
		out[i] = d.buttons[id]
	}
	return out
}

// Name is the id of the control whose button f is ("" for none): the
// name the page follows the canvas's focus by.
func (d *Deck) Name(f Focusable) string {
	for _, id := range d.ids {
		if Focusable(d.buttons[id]) == f {
			return id
		}
	}
	return ""
}

// Regions adds each laid-out button's rectangle to m under its control's
// id, the name a test or the browser clicks it by.
func (d *Deck) Regions(m map[string]Rect) {
	for _, id := range d.ids {
		if r := d.buttons[id].Rect; !r.Empty() {
			m[id] = r
		}
	}
}

// Update passes this tick's uses through the declarations' one door: the
// page's (in.Host) first, then the canvas buttons' clicks, each button
// updated so its hover follows the pointer. It stops at the first control
// used, as using one may change the scene (open a lesson): the same use is
// never applied twice, nor one meant for the screen it left. rest is the
// page's uses no declaration names (the scene's own), err why a declared
// control was not used (it is disabled now).
func (d *Deck) Update(in *Input) (used bool, rest []HostAction, err error) {
	uses := in.Host
	for _, id := range d.ids {
		if d.buttons[id].Update(in) {
			uses = append(uses[:len(uses):len(uses)], HostAction{ID: id})
		}
	}
	for i, h := range uses {
		handled, e := d.decls.Use(h)
		switch {
		case !handled && i < len(in.Host):
			rest = append(rest, h)
		case e != nil:
			err = e
		case handled:
			return true, rest, nil
		}
	}
	return false, rest, err
}
