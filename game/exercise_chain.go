package game

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

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
	c.act(action)
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

// focus lists the chain's widgets in focus order with the names the
// page's controls send.
func (c *chainBuilder) focus() []ui.Focusable {
	if !c.a.chainAsked() {
		return nil
	}
	var out []ui.Focusable
	names := c.a.formNames()
	for i := range c.remove {
		out = append(out, &c.remove[i])
		names[&c.remove[i]] = fmt.Sprintf("%sremove:%d", c.pre(), i)
	}
	out = append(out, &c.clear)
	names[&c.clear] = c.pre() + "clear"
	for i := range c.events {
		out = append(out, &c.events[i])
		names[&c.events[i]] = fmt.Sprintf("%sadd:%d", c.pre(), c.seqs[i])
	}
	return out
}

// pre is the prefix of the widgets' host names.
func (c *chainBuilder) pre() string {
	if c.prefix == "" {
		return "chain:"
	}
	return c.prefix
}

// groups are the headings of the chain and of the run's events.
func (c *chainBuilder) groups() (chain, events string) {
	chain, events = chainGroup, eventsGroup
	if c.group != "" {
		chain = c.group
	}
	if c.eventsHeader != "" {
		events = c.eventsHeader
	}
	return chain, events
}

// stepText is how step i (event seq) of the chain reads on the canvas.
func (c *chainBuilder) stepText(i, seq int) string {
	if j := slices.Index(c.seqs, seq); j >= 0 {
		return fmt.Sprintf("%d. %s", i+1, c.labels[j])
	}
	return fmt.Sprintf("%d. [%d] (not an event of your run as it is now)", i+1, seq)
}

// note says what the chain is for, under its heading.
func (c *chainBuilder) note() string {
	if len(c.a.chainSteps()) == 0 {
		return c.a.chainFor() + " Your chain is empty: add events from the list below."
	}
	return c.a.chainFor()
}

// layout lays out the chain and the run's events in the form's column f.
func (c *chainBuilder) layout(f *formFlow) {
	c.removeAt, c.eventsAt = c.removeAt[:0], c.eventsAt[:0]
	c.clearAt = ui.Rect{}
	if !c.a.chainAsked() {
		return
	}
	w, px := f.w, f.px
	chainHead, eventsHead := c.groups()
	f.y += px(4)
	f.addText(chainHead, false, true)
	f.addText(c.note(), true, false)
	f.y += px(6)
	for i, seq := range c.a.chainSteps() {
		c.removeAt = append(c.removeAt, f.removable(c.stepText(i, seq)))
	}
	c.clearAt = ui.Rect{Y: f.y, W: math.Min(px(180), w), H: px(34)}
	f.y += px(34) + px(14)
	f.addText(eventsHead, false, true)
	if len(c.events) == 0 {
		f.addText("Build your run in the simulator first: its events are listed here.", true, false)
	}
	f.y += px(6)
	for i := range c.events {
		c.eventsAt = append(c.eventsAt, f.option(c.labels[i]))
	}
	f.y += px(10)
}

// place gives the chain's widgets their on-screen rectangles.
func (c *chainBuilder) place() {
	for i := range c.remove {
		c.remove[i].Rect = ui.Rect{}
		if i < len(c.removeAt) {
			c.remove[i].Rect = c.a.toView(c.removeAt[i])
		}
	}
	c.clear.Rect = ui.Rect{}
	if !c.clearAt.Empty() {
		c.clear.Rect = c.a.toView(c.clearAt)
	}
	for i := range c.events {
		c.events[i].Rect = ui.Rect{}
		if i < len(c.eventsAt) {
			c.events[i].Rect = c.a.toView(c.eventsAt[i])
		}
	}
}

// rect is the content rectangle of a chain widget, if f is one.
func (c *chainBuilder) rect(f ui.Focusable) (ui.Rect, bool) {
	for i := range c.remove {
		if f == &c.remove[i] && i < len(c.removeAt) {
			return c.removeAt[i], true
		}
	}
	if f == &c.clear {
		return c.clearAt, true
	}
	for i := range c.events {
		if f == &c.events[i] && i < len(c.eventsAt) {
			return c.eventsAt[i], true
		}
	}
	return ui.Rect{}, false
}

// draw draws the chain's buttons and the run's events (the steps'
// texts are the form's).
func (c *chainBuilder) draw(dst *ebiten.Image) {
	if !c.a.chainAsked() {
		return
	}
	st := c.a.formStyle()
	for i := range c.remove {
		st.Button(dst, &c.remove[i])
	}
	st.Button(dst, &c.clear)
	chain := c.a.chainSteps()
	for i := range c.events {
		c.drawEvent(dst, &c.events[i], c.labels[i], slices.Index(chain, c.seqs[i]))
	}
}

// drawEvent draws an event of the run: a + to add it, or, once it
// is in the chain, its step number in the accent colour with the row
// outlined, so being in the chain never rests on the colour alone.
func (c *chainBuilder) drawEvent(dst *ebiten.Image, b *ui.Button, label string, step int) {
	st := c.a.formStyle()
	th := st.Theme
	r := b.Rect
	m := rowFrame(dst, st, b, step >= 0)
	if step >= 0 {
		draw.FillCircle(dst, m, st.U(11), th.Accent)
		mark := fmt.Sprint(step + 1)
		draw.TextIn(dst, mark, st.Small(), ui.Rect{X: m.X - st.U(11), Y: m.Y - st.U(11), W: st.U(22), H: st.U(22)}, draw.AlignCenter, th.Background)
	} else {
		arm := st.U(6)
		draw.Line(dst, ui.Point{X: m.X - arm, Y: m.Y}, ui.Point{X: m.X + arm, Y: m.Y}, st.U(2), th.TextDim)
		draw.Line(dst, ui.Point{X: m.X, Y: m.Y - arm}, ui.Point{X: m.X, Y: m.Y + arm}, st.U(2), th.TextDim)
	}
	tr := ui.Rect{X: r.X + st.U(38), Y: r.Y, W: r.W - st.U(46), H: r.H}
	draw.Paragraph(dst, label, st.Body(), centredLines(tr, label, st.Body()), th.Text)
}

// Groups of the chain's controls in the page: the chain so far, then the
// events of the learner's run to add to it.
const (
	chainGroup  = "Your chain of events, in order"
	eventsGroup = "Events of your run: add them to your chain in the order they lead to the failure"
)

// controls lists the chain for the page: each step so far as a
// button that removes it, a button that empties it, the host's own
// controls (after: the recap's check), then every event of the
// learner's run as a button that adds it to the end (the run their
// schedule produces; an event already in the chain is off).
func (c *chainBuilder) controls(after ...Control) []Control {
	if !c.a.chainAsked() {
		return nil
	}
	chainHead, eventsHead := c.groups()
	events := c.a.chainEvents()
	words := map[int]string{}
	for _, e := range events {
		words[e.Seq] = e.String()
	}
	chain := c.a.chainSteps()
	out := []Control{}
	for i, seq := range chain {
		w, ok := words[seq]
		if !ok {
			w = fmt.Sprintf("[%d] (not an event of your run as it is now)", seq)
		}
		out = append(out, Control{ID: fmt.Sprintf("%sremove:%d", c.pre(), i), Group: chainHead,
			Label: fmt.Sprintf("Step %d: %s", i+1, w), Detail: "Press to take this step out."})
	}
	detail := c.a.chainFor()
	if len(chain) == 0 {
		detail += " Your chain is empty."
	}
	out = append(out, Control{ID: c.pre() + "clear", Group: chainHead, Label: "Empty the chain", Disabled: len(chain) == 0, Detail: detail})
	out = append(out, after...)
	if len(events) == 0 {
		out = append(out, Control{ID: c.pre() + "none", Group: eventsHead, Label: "Build your run in the simulator first: its events are listed here", Disabled: true})
	}
	for _, e := range events {
		out = append(out, Control{ID: fmt.Sprintf("%sadd:%d", c.pre(), e.Seq), Group: eventsHead, Label: e.String(), Disabled: slices.Contains(chain, e.Seq)})
	}
	return out
}

// act applies a press on one of the chain's controls: add:N,
// remove:I or clear.
func (c *chainBuilder) act(cmd string) {
	verb, arg, _ := strings.Cut(cmd, ":")
	n, err := strconv.Atoi(arg)
	if verb != "clear" && err != nil {
		c.a.chainRefuse("That chain button is not known: " + cmd)
		return
	}
	switch verb {
	case "add", "remove", "clear":
		err = c.a.chainChange(verb, n)
	default:
		err = fmt.Errorf("no chain action %q", verb)
	}
	if err != nil {
		c.a.chainRefuse(err.Error())
		return
	}
	switch steps := len(c.a.chainSteps()); verb {
	case "add":
		c.a.chainSay(fmt.Sprintf("Added event %d to your chain as step %d.", n, steps))
	case "remove":
		c.a.chainSay(fmt.Sprintf("Took step %d out of your chain; it has %d steps.", n+1, steps))
	default:
		c.a.chainSay("Your chain is empty.")
	}
}

// rowFrame draws the frame of a row the learner picks (an option, an
// event of the run): its background as the pointer leaves it, outlined
// in the accent colour when marked, its focus ring; it returns the
// centre of the mark that goes at its left.
func rowFrame(dst *ebiten.Image, st draw.Style, b *ui.Button, marked bool) ui.Point {
	th := st.Theme
	r := b.Rect
	bg := th.Raised
	switch {
	case b.Pressed():
		bg = th.Pressed
	case b.Hovered():
		bg = th.RaisedHover
	}
	radius := st.U(6)
	draw.FillRoundRect(dst, r, radius, bg)
	if marked {
		draw.StrokeRoundRect(dst, r, radius, st.U(2), th.Accent)
	} else {
		draw.StrokeRoundRect(dst, r, radius, math.Max(1, math.Round(st.U(1))), th.Border)
	}
	if b.Focus() == ui.FocusVisible {
		st.FocusRing(dst, r, radius)
	}
	return ui.Point{X: r.X + st.U(20), Y: r.Y + math.Min(r.H/2, st.U(17))}
}

// The answer form as the chain's host (exercises 1 and 3).

func (s *exerciseAnswer) chainAsked() bool                   { return s.Ex.ChainRun != nil }
func (s *exerciseAnswer) chainSteps() []int                  { return s.Form.Chain() }
func (s *exerciseAnswer) chainEvents() []lab.WhyStep         { return s.Form.ChainEvents() }
func (s *exerciseAnswer) chainFor() string                   { return s.Ex.ChainText }
func (s *exerciseAnswer) chainSay(line string)               { s.Narrate(line) }
func (s *exerciseAnswer) chainRefuse(why string)             { s.notice = why }
func (s *exerciseAnswer) formStyle() draw.Style              { return s.style }
func (s *exerciseAnswer) formRing() *ui.FocusRing            { return s.ring }
func (s *exerciseAnswer) formNames() map[ui.Focusable]string { return s.names }
func (s *exerciseAnswer) formScroll() *float64               { return &s.scroll }
func (s *exerciseAnswer) focusSeen()                         { s.focused = s.ring.Current() }

// chainChange changes the answer's chain and keeps the draft.
func (s *exerciseAnswer) chainChange(verb string, n int) error {
	var err error
	switch verb {
	case "add":
		err = s.Form.AddToChain(n)
	case "remove":
		err = s.Form.RemoveFromChain(n)
	default:
		err = s.Form.ClearChain()
	}
	if err == nil {
		s.disarm()
		s.saveDraft()
	}
	return err
}
