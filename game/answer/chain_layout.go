package answer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// The chain builder's place on screen: its focus order, its words, and
// where its widgets go.

// focus lists the chain's widgets in focus order with the names the
// page's controls send.
func (c *Chain) Focus() []ui.Focusable {
	if !c.Host.ChainAsked() {
		return nil
	}
	var out []ui.Focusable
	names := c.Host.FormNames()
	for i := range c.Remove {
		out = append(out, &c.Remove[i])
		names[&c.Remove[i]] = fmt.Sprintf("%sremove:%d", c.pre(), i)
	}
	out = append(out, &c.Clear)
	names[&c.Clear] = c.pre() + "clear"
	for i := range c.Events {
		out = append(out, &c.Events[i])
		names[&c.Events[i]] = fmt.Sprintf("%sadd:%d", c.pre(), c.seqs[i])
	}
	return out
}

// pre is the prefix of the widgets' host names.
func (c *Chain) pre() string {
	if c.Prefix == "" {
		return "chain:"
	}
	return c.Prefix
}

// groups are the headings of the chain and of the run's events.
func (c *Chain) groups() (chain, events string) {
	chain, events = chainGroup, eventsGroup
	if c.Group != "" {
		chain = c.Group
	}
	if c.EventsHeader != "" {
		events = c.EventsHeader
	}
	return chain, events
}

// stepText is how step i (event seq) of the chain reads on the canvas.
func (c *Chain) stepText(i, seq int) string {
	if j := slices.Index(c.seqs, seq); j >= 0 {
		return fmt.Sprintf("%d. %s", i+1, c.labels[j])
	}
	return fmt.Sprintf("%d. [%d] (not an event of your run as it is now)", i+1, seq)
}

// note says what the chain is for, under its heading.
func (c *Chain) note() string {
	if len(c.Host.ChainSteps()) == 0 {
		return c.Host.ChainFor() + " Your chain is empty: add events from the list below."
	}
	return c.Host.ChainFor()
}

// layout lays out the chain and the run's events in the form's column f.
func (c *Chain) Layout(f *Flow) {
	c.removeAt, c.eventsAt = c.removeAt[:0], c.eventsAt[:0]
	c.clearAt = ui.Rect{}
	if !c.Host.ChainAsked() {
		return
	}
	w, px := f.W, f.Px
	chainHead, eventsHead := c.groups()
	f.Y += px(4)
	f.AddText(chainHead, false, true)
	f.AddText(c.note(), true, false)
	f.Y += px(6)
	for i, seq := range c.Host.ChainSteps() {
		c.removeAt = append(c.removeAt, f.Removable(c.stepText(i, seq)))
	}
	c.clearAt = ui.Rect{Y: f.Y, W: math.Min(px(180), w), H: px(34)}
	f.Y += px(34) + px(14)
	f.AddText(eventsHead, false, true)
	if len(c.Events) == 0 {
		f.AddText("Build your run in the simulator first: its events are listed here.", true, false)
	}
	f.Y += px(6)
	for i := range c.Events {
		c.eventsAt = append(c.eventsAt, f.Option(c.labels[i]))
	}
	f.Y += px(10)
}

// place gives the chain's widgets their on-screen rectangles.
func (c *Chain) Place() {
	for i := range c.Remove {
		c.Remove[i].Rect = ui.Rect{}
		if i < len(c.removeAt) {
			c.Remove[i].Rect = c.Host.ToView(c.removeAt[i])
		}
	}
	c.Clear.Rect = ui.Rect{}
	if !c.clearAt.Empty() {
		c.Clear.Rect = c.Host.ToView(c.clearAt)
	}
	for i := range c.Events {
		c.Events[i].Rect = ui.Rect{}
		if i < len(c.eventsAt) {
			c.Events[i].Rect = c.Host.ToView(c.eventsAt[i])
		}
	}
}

// rect is the content rectangle of a chain widget, if f is one.
func (c *Chain) Rect(f ui.Focusable) (ui.Rect, bool) {
	for i := range c.Remove {
		if f == &c.Remove[i] && i < len(c.removeAt) {
			return c.removeAt[i], true
		}
	}
	if f == &c.Clear {
		return c.clearAt, true
	}
	for i := range c.Events {
		if f == &c.Events[i] && i < len(c.eventsAt) {
			return c.eventsAt[i], true
		}
	}
	return ui.Rect{}, false
}

// draw draws the chain's buttons and the run's events (the steps'
// texts are the form's).
func (c *Chain) Draw(dst *ebiten.Image) {
	if !c.Host.ChainAsked() {
		return
	}
	st := c.Host.FormStyle()
	for i := range c.Remove {
		st.Button(dst, &c.Remove[i])
	}
	st.Button(dst, &c.Clear)
	chain := c.Host.ChainSteps()
	for i := range c.Events {
		c.drawEvent(dst, &c.Events[i], c.labels[i], slices.Index(chain, c.seqs[i]))
	}
}

// drawEvent draws an event of the run: a + to add it, or, once it
// is in the chain, its step number in the accent colour with the row
// outlined, so being in the chain never rests on the colour alone.
func (c *Chain) drawEvent(dst *ebiten.Image, b *ui.Button, label string, step int) {
	st := c.Host.FormStyle()
	th := st.Theme
	r := b.Rect
	m := RowFrame(dst, st, b, step >= 0)
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
	draw.Paragraph(dst, label, st.Body(), draw.CentredLines(tr, label, st.Body()), th.Text)
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
func (c *Chain) Controls(after ...ui.Control) []ui.Control {
	if !c.Host.ChainAsked() {
		return nil
	}
	chainHead, eventsHead := c.groups()
	events := c.Host.ChainEvents()
	words := map[int]string{}
	for _, e := range events {
		words[e.Seq] = e.String()
	}
	chain := c.Host.ChainSteps()
	out := []ui.Control{}
	for i, seq := range chain {
		w, ok := words[seq]
		if !ok {
			w = fmt.Sprintf("[%d] (not an event of your run as it is now)", seq)
		}
		out = append(out, ui.Control{ID: fmt.Sprintf("%sremove:%d", c.pre(), i), Group: chainHead,
			Label: fmt.Sprintf("Step %d: %s", i+1, w), Detail: "Press to take this step out.", Do: c.do(fmt.Sprintf("remove:%d", i))})
	}
	detail := c.Host.ChainFor()
	if len(chain) == 0 {
		detail += " Your chain is empty."
	}
	out = append(out, ui.Control{ID: c.pre() + "clear", Group: chainHead, Label: "Empty the chain", Disabled: len(chain) == 0, Detail: detail,
		Do: c.do("clear")})
	out = append(out, after...)
	if len(events) == 0 {
		out = append(out, ui.Control{ID: c.pre() + "none", Group: eventsHead, Label: "Build your run in the simulator first: its events are listed here", Disabled: true})
	}
	for _, e := range events {
		out = append(out, ui.Control{ID: fmt.Sprintf("%sadd:%d", c.pre(), e.Seq), Group: eventsHead, Label: e.String(), Disabled: slices.Contains(chain, e.Seq),
			Do: c.do(fmt.Sprintf("add:%d", e.Seq))})
	}
	return out
}

// do is the action of the chain's control cmd (add:N, remove:I, clear).
func (c *Chain) do(cmd string) func(ui.HostAction) {
	return func(ui.HostAction) { c.Act(cmd) }
}

// use is the chain's one door: a press of its control id, on the canvas
// or the page, passes its declaration (ui.Controls.Use). One that is off
// now (an event already in the chain) is refused with the host's own
// reason ("event 31 is already in your chain"), not just that it is off.
// It reports whether the id is the chain's.
func (c *Chain) Use(id string) bool {
	handled, err := ui.Controls(c.Controls()).Use(ui.HostAction{ID: id})
	if err != nil {
		c.Act(strings.TrimPrefix(id, c.pre())) // the host refuses it and says why
	}
	return handled
}

// act applies a press on one of the chain's controls: add:N,
// remove:I or clear.
func (c *Chain) Act(cmd string) {
	verb, arg, _ := strings.Cut(cmd, ":")
	n, err := strconv.Atoi(arg)
	if verb != "clear" && err != nil {
		c.Host.ChainRefuse("That chain button is not known: " + cmd)
		return
	}
	switch verb {
	case "add", "remove", "clear":
		err = c.Host.ChainChange(verb, n)
	default:
		err = fmt.Errorf("no chain action %q", verb)
	}
	if err != nil {
		c.Host.ChainRefuse(err.Error())
		return
	}
	switch steps := len(c.Host.ChainSteps()); verb {
	case "add":
		c.Host.ChainSay(fmt.Sprintf("Added event %d to your chain as step %d.", n, steps))
	case "remove":
		c.Host.ChainSay(fmt.Sprintf("Took step %d out of your chain; it has %d steps.", n+1, steps))
	default:
		c.Host.ChainSay("Your chain is empty.")
	}
}

// RowFrame draws the frame of a row the learner picks (an option, an
// event of the run): its background as the pointer leaves it, outlined
// in the accent colour when marked, its focus ring; it returns the
// centre of the mark that goes at its left.
func RowFrame(dst *ebiten.Image, st draw.Style, b *ui.Button, marked bool) ui.Point {
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
