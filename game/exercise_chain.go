package game

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
// question (the recap card, lesson_recap_card.go).

// chainHost is where a chain builder lives and what it builds: the
// chain, the run's events to pick from, and the scrolling form it is
// laid out in.
type chainHost interface {
	// chainAsked reports whether a chain is asked for at all.
	chainAsked() bool
	// chainSteps is the chain so far (event numbers, in order), and
	// chainEvents the run's events to pick from.
	chainSteps() []int
	chainEvents() []lab.WhyStep
	// chainChange adds event n, removes step n or clears the chain
	// (verb add, remove, clear), or says why not.
	chainChange(verb string, n int) error
	// chainFor says what the chain is for, under its heading.
	chainFor() string
	// chainSay tells what a press did; chainRefuse why it did nothing.
	chainSay(string)
	chainRefuse(string)

	// The form: its style, focus ring, the focus names it reports, its
	// scroll offset; toView moves a content rectangle into its view;
	// refocus rebuilds its focus order; scrollToFocus scrolls to the
	// focused widget; focusSeen notes the focus as the form's own.
	formStyle() draw.Style
	formRing() *ui.FocusRing
	formNames() map[ui.Focusable]string
	formScroll() *float64
	toView(ui.Rect) ui.Rect
	refocus()
	scrollToFocus()
	focusSeen()
}

// chainBuilder is the chain of events of its host a: its widgets, where
// they go in the form, and what a press on one does (on the canvas or in
// the page).
type chainBuilder struct {
	a chainHost
	// prefix begins the host names of its widgets and controls ("chain:"
	// when empty); groups heads its controls on the page (chainGroup and
	// eventsGroup when empty).
	prefix              string
	group, eventsHeader string

	remove []ui.Button // one per step of the chain
	clear  ui.Button
	events []ui.Button // one per event of the run
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
func (c *chainBuilder) sync() bool {
	if !c.a.chainAsked() {
		return false
	}
	events := c.a.chainEvents()
	seqs := make([]int, len(events))
	labels := make([]string, len(events))
	for i, e := range events {
		seqs[i], labels[i] = e.Seq, draw.Drawable(e.String())
	}
	chain := c.a.chainSteps()
	n := len(chain)
	changed := len(c.remove) != n || !slices.Equal(c.seqs, seqs)
	c.remove = resize(c.remove, n)
	for i := range c.remove {
		c.remove[i].Label = "Remove"
	}
	c.events = resize(c.events, len(events))
	c.seqs, c.labels = seqs, labels
	for i, seq := range seqs {
		c.events[i].Label = labels[i]
		c.events[i].Disabled = slices.Contains(chain, seq)
	}
	c.clear.Label = "Empty the chain"
	c.clear.Disabled = n == 0
	return changed
}

// update applies this tick's presses on the chain's widgets.
func (c *chainBuilder) update(in *ui.Input) {
	if !c.a.chainAsked() {
		return
	}
	if c.sync() { // a new run, a restored answer, or the page's press
		c.a.refocus()
	}
	action, removed, added := "", -1, -1
	var at ui.Focusable
	for i := range c.remove {
		if pressed(&c.remove[i], in) && action == "" {
			action, removed, at = fmt.Sprintf("remove:%d", i), i, &c.remove[i]
		}
	}
	if c.clear.Update(in) && action == "" {
		action, at = "clear", &c.clear
	}
	for i := range c.events {
		if pressed(&c.events[i], in) && action == "" {
			action, at, added = fmt.Sprintf("add:%d", c.seqs[i]), &c.events[i], i
		}
	}
	if action == "" {
		return
	}
	if r, ok := c.rect(at); ok {
		c.kept, c.keptAt = at, r.Y-*c.a.formScroll()
	}
	ring := c.a.formRing()
	keys := ring.Visible()
	c.use(c.pre() + action)
	if c.sync() {
		c.a.refocus()
	}
	if added >= 0 && keys && c.events[added].Disabled {
		// The event added can be added no more: the focus goes on to the
		// next that can (or back to the one before), not out of the list.
		if next := c.eventNear(added); next != nil {
			ring.Focus(next, ui.FocusVisible)
			c.a.focusSeen() // the added row stays where it was
		}
	}
	if removed >= 0 && keys {
		// The focus stays on the chain: on the Remove of the step that
		// took this one's place, or of the one before.
		if n := len(c.remove); n > 0 {
			ring.Focus(&c.remove[min(removed, n-1)], ui.FocusVisible)
		} else {
			ring.Focus(c.firstEvent(), ui.FocusVisible)
		}
		c.kept, c.toFocus = nil, true
		c.a.focusSeen()
	}
}

// firstEvent is the first event of the run that can be added, or nil.
func (c *chainBuilder) firstEvent() ui.Focusable {
	for i := range c.events {
		if !c.events[i].Disabled {
			return &c.events[i]
		}
	}
	return nil
}

// eventNear is the first event after row i that can be added, else the
// last before it, or nil.
func (c *chainBuilder) eventNear(i int) ui.Focusable {
	for j := i + 1; j < len(c.events); j++ {
		if !c.events[j].Disabled {
			return &c.events[j]
		}
	}
	for j := i - 1; j >= 0; j-- {
		if !c.events[j].Disabled {
			return &c.events[j]
		}
	}
	return nil
}

// keepPlace scrolls the form so the chain's widget just pressed is
// where it was in the view (after layout).
func (c *chainBuilder) keepPlace() {
	if c.toFocus {
		c.toFocus = false
		c.a.scrollToFocus()
	}
	if c.kept == nil {
		return
	}
	if r, ok := c.rect(c.kept); ok {
		*c.a.formScroll() = r.Y - c.keptAt
	}
	c.kept = nil
}
