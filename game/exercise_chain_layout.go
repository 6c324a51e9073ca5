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

// The chain builder's place on screen: its focus order, its words, and
// where its widgets go.

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
			Label: fmt.Sprintf("Step %d: %s", i+1, w), Detail: "Press to take this step out.", Do: c.do(fmt.Sprintf("remove:%d", i))})
	}
	detail := c.a.chainFor()
	if len(chain) == 0 {
		detail += " Your chain is empty."
	}
	out = append(out, Control{ID: c.pre() + "clear", Group: chainHead, Label: "Empty the chain", Disabled: len(chain) == 0, Detail: detail,
		Do: c.do("clear")})
	out = append(out, after...)
	if len(events) == 0 {
		out = append(out, Control{ID: c.pre() + "none", Group: eventsHead, Label: "Build your run in the simulator first: its events are listed here", Disabled: true})
	}
	for _, e := range events {
		out = append(out, Control{ID: fmt.Sprintf("%sadd:%d", c.pre(), e.Seq), Group: eventsHead, Label: e.String(), Disabled: slices.Contains(chain, e.Seq),
			Do: c.do(fmt.Sprintf("add:%d", e.Seq))})
	}
	return out
}

// do is the action of the chain's control cmd (add:N, remove:I, clear).
func (c *chainBuilder) do(cmd string) func(ui.HostAction) {
	return func(ui.HostAction) { c.act(cmd) }
}

// use is the chain's one door: a press of its control id, on the canvas
// or the page, passes its declaration (ui.Controls.Use). One that is off
// now (an event already in the chain) is refused with the host's own
// reason ("event 31 is already in your chain"), not just that it is off.
// It reports whether the id is the chain's.
func (c *chainBuilder) use(id string) bool {
	handled, err := ui.Controls(c.controls()).Use(ui.HostAction{ID: id})
	if err != nil {
		c.act(strings.TrimPrefix(id, c.pre())) // the host refuses it and says why
	}
	return handled
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
