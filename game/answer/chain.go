package answer

import (
	"fmt"
	"slices"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// The chain of events on the canvas, as the page has it: the chain's
// steps so far, each with a Remove button, a button that empties it,
// then every event of the learner's run as a row that adds it to the end
// (Enter, Space or a click). The rows and buttons are in the focus order
// under the host names the page's controls use (chain:remove:I,
// chain:clear, chain:add:N; recap:... for a lesson's recap question), and
// go to act like the page's. One builder serves both places that ask for
// a chain: exercises 1 and 3 (the answer form) and a lesson's recap
// question (the recap card, game/lesson's lesson_recap_card.go).

// ChainHost is where a chain builder lives and what it builds: the
// chain, the run's events to pick from, and the scrolling form it is
// laid out in.
type ChainHost interface {
	// ChainAsked reports whether a chain is asked for at all.
	ChainAsked() bool
	// ChainSteps is the chain so far (event numbers, in order), and
	// ChainEvents the run's events to pick from.
	ChainSteps() []int
	ChainEvents() []lab.WhyStep
	// ChainChange adds event n, removes step n or clears the chain
	// (verb add, remove, clear), or says why not.
	ChainChange(verb string, n int) error
	// ChainFor says what the chain is for, under its heading.
	ChainFor() string
	// ChainSay tells what a press did; ChainRefuse why it did nothing.
	ChainSay(string)
	ChainRefuse(string)

	// The form: its style, focus ring, the focus names it reports, its
	// scroll offset; ToView moves a content rectangle into its view;
	// Refocus rebuilds its focus order; ScrollToFocus scrolls to the
	// focused widget; FocusSeen notes the focus as the form's own.
	FormStyle() draw.Style
	FormRing() *ui.FocusRing
	FormNames() map[ui.Focusable]string
	FormScroll() *float64
	ToView(ui.Rect) ui.Rect
	Refocus()
	ScrollToFocus()
	FocusSeen()
}

// Chain is the chain of events of its Host: its widgets, where
// they go in the form, and what a press on one does (on the canvas or in
// the page).
type Chain struct {
	Host ChainHost
	// Prefix begins the host names of its widgets and controls ("chain:"
	// when empty); Group and EventsHeader head its controls on the page
	// (chainGroup and eventsGroup when empty).
	Prefix              string
	Group, EventsHeader string

	Remove []ui.Button // one per step of the chain
	Clear  ui.Button
	Events []ui.Button // one per event of the run
	seqs   []int       // the events' numbers, by row
	labels []string    // the events' words, by row

	// kept is the widget just pressed and where it was in the form's
	// view: the next layout scrolls it back there, so a step added or
	// taken out above it does not move it from under the pointer.
	kept   ui.Focusable
	keptAt float64
	// toFocus: the focus moved to another of the chain's widgets; the
	// next layout scrolls to it.
	toFocus bool

	// Where the widgets go, in the form's content coordinates: each
	// step's Remove button, the button that empties the chain, each
	// event of the run.
	removeAt, eventsAt []ui.Rect
	clearAt            ui.Rect
}

// resize makes b n buttons long, keeping the first ones (and so the
// focus, which points at one) and blanking the new ones. It moves the
// buttons (so the focus names must be made again) only when it grows b
// past its capacity: slices.Grow's n is the room to add, and asking it
// for n more each time moved them on a resize that changed nothing.
func resize(b []ui.Button, n int) []ui.Button {
	old := len(b)
	keep := min(old, n)
	b = slices.Grow(b[:keep], n-keep)[:n]
	for i := old; i < n; i++ {
		b[i] = ui.Button{}
	}
	return b
}

// sync sizes the chain's widgets to the chain and the run's events
// and labels them; it reports whether the widgets changed (the focus
// order must then be rebuilt).
func (c *Chain) Sync() bool {
	if !c.Host.ChainAsked() {
		return false
	}
	events := c.Host.ChainEvents()
	seqs := make([]int, len(events))
	labels := make([]string, len(events))
	for i, e := range events {
		seqs[i], labels[i] = e.Seq, draw.Drawable(e.String())
	}
	chain := c.Host.ChainSteps()
	n := len(chain)
	changed := len(c.Remove) != n || !slices.Equal(c.seqs, seqs)
	c.Remove = resize(c.Remove, n)
	for i := range c.Remove {
		c.Remove[i].Label = "Remove"
	}
	c.Events = resize(c.Events, len(events))
	c.seqs, c.labels = seqs, labels
	for i, seq := range seqs {
		c.Events[i].Label = labels[i]
		c.Events[i].Disabled = slices.Contains(chain, seq)
	}
	c.Clear.Label = "Empty the chain"
	c.Clear.Disabled = n == 0
	return changed
}

// update applies this tick's presses on the chain's widgets.
func (c *Chain) Update(in *ui.Input) {
	if !c.Host.ChainAsked() {
		return
	}
	if c.Sync() { // a new run, a restored answer, or the page's press
		c.Host.Refocus()
	}
	action, removed, added := "", -1, -1
	var at ui.Focusable
	for i := range c.Remove {
		if Pressed(&c.Remove[i], in) && action == "" {
			action, removed, at = fmt.Sprintf("remove:%d", i), i, &c.Remove[i]
		}
	}
	if c.Clear.Update(in) && action == "" {
		action, at = "clear", &c.Clear
	}
	for i := range c.Events {
		if Pressed(&c.Events[i], in) && action == "" {
			action, at, added = fmt.Sprintf("add:%d", c.seqs[i]), &c.Events[i], i
		}
	}
	if action == "" {
		return
	}
	if r, ok := c.Rect(at); ok {
		c.kept, c.keptAt = at, r.Y-*c.Host.FormScroll()
	}
	ring := c.Host.FormRing()
	keys := ring.Visible()
	c.Use(c.pre() + action)
	if c.Sync() {
		c.Host.Refocus()
	}
	if added >= 0 && keys && c.Events[added].Disabled {
		// The event added can be added no more: the focus goes on to the
		// next that can (or back to the one before), not out of the list.
		if next := c.eventNear(added); next != nil {
			ring.Focus(next, ui.FocusVisible)
			c.Host.FocusSeen() // the added row stays where it was
		}
	}
	if removed >= 0 && keys {
		// The focus stays on the chain: on the Remove of the step that
		// took this one's place, or of the one before.
		if n := len(c.Remove); n > 0 {
			ring.Focus(&c.Remove[min(removed, n-1)], ui.FocusVisible)
		} else {
			ring.Focus(c.firstEvent(), ui.FocusVisible)
		}
		c.kept, c.toFocus = nil, true
		c.Host.FocusSeen()
	}
}

// firstEvent is the first event of the run that can be added, or nil.
func (c *Chain) firstEvent() ui.Focusable {
	for i := range c.Events {
		if !c.Events[i].Disabled {
			return &c.Events[i]
		}
	}
	return nil
}

// eventNear is the first event after row i that can be added, else the
// last before it, or nil.
func (c *Chain) eventNear(i int) ui.Focusable {
	for j := i + 1; j < len(c.Events); j++ {
		if !c.Events[j].Disabled {
			return &c.Events[j]
		}
	}
	for j := i - 1; j >= 0; j-- {
		if !c.Events[j].Disabled {
			return &c.Events[j]
		}
	}
	return nil
}

// keepPlace scrolls the form so the chain's widget just pressed is
// where it was in the view (after layout).
func (c *Chain) KeepPlace() {
	if c.toFocus {
		c.toFocus = false
		c.Host.ScrollToFocus()
	}
	if c.kept == nil {
		return
	}
	if r, ok := c.Rect(c.kept); ok {
		*c.Host.FormScroll() = r.Y - c.keptAt
	}
	c.kept = nil
}
