package lesson

import (
	"fmt"
	"leaselab/game/scene"
	"math"
	"slices"

	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// The recap card: a completed lesson's moment of success on the desktop's
// canvas, with its recap question (issue 29 item 2, issue 31 item 2).
// Once the lesson is complete, a button at the right of the goals'
// heading ("Recap question", or "Recap" for a lesson that asks none)
// opens a card over the player: what the learner proved, their
// predictions beside what happened, the next lesson, and, for a lesson
// with a lessons.RecapChain, the chain of events of their own run to
// build, with the same chain builder exercises 1 and 3 use (its steps
// with Remove, Empty the chain, every event of the run as a row that adds
// it), a button that checks it and the verdict, which names the gap,
// never the answer, and is said as a key line of the narration. Tab,
// Shift+Tab and the arrows move the focus, Enter or Space presses, Esc
// (or Back to the run) closes it; a click or a tap presses too, and the
// wheel or a finger scrolls it. The page shows all of this in its panel
// (lesson_recap.go's controls), so the card is the canvas's only where
// the canvas has the panel (not draw.Style.PanelOutside).

// recapCard is the card and its widgets.
type recapCard struct {
	sc    *Scene
	shown bool
	// opener is the button under the goals' heading that opens the card.
	opener ui.Button

	chain              answer.Chain
	close, check, next ui.Button
	ring               *ui.FocusRing
	names              map[ui.Focusable]string
	focused            ui.Focusable
	// refused is why the last press did nothing, shown in the footer
	// until the next press.
	refused string

	style  draw.Style
	geom   recapGeom // the card's view, its content and texts
	scroll float64
	drag   answer.Drag
	// card, header and footer are the card's rectangles; title is the
	// header's heading, line the footer's verdict or state.
	card, header, title, footer, line ui.Rect
}

// Host names of the card's own buttons.
const (
	RecapOpenName  = "recapCard"
	RecapCloseName = "recap:close"
	RecapCheckName = "recap:check"
	RecapNextName  = "recap:next"
)

// recapFor is what the recap's chain is for, under its heading.
const recapFor = "Pick events of your run, in order, from the cause to the outcome. It is not a goal, and nothing is counted against you."

// recapGeom is the card's scrolled view, its content's height and the
// texts laid out in it (in content coordinates).
type recapGeom struct {
	view    ui.Rect
	content float64
	texts   []answer.Text
}

func newRecapCard(sc *Scene) *recapCard {
	c := &recapCard{sc: sc, ring: ui.NewFocusRing(true)}
	c.chain = answer.Chain{Host: c, Prefix: "recap:", EventsHeader: recapEventsGroup}
	c.close.Label = ui.WithKey("Back to the run", ui.IntentBack)
	c.check.Label = "Check my chain"
	c.next.Label = "Next lesson >"
	c.opener.Disabled = true
	c.Refocus()
	return c
}

// offered reports whether the card can open now: the lesson is complete
// and the canvas has the lesson panel.
func (c *recapCard) offered() bool { return c.sc.done() != nil && !c.style.PanelOutside }

// sync labels the opener and the chain's heading for the state now.
func (c *recapCard) sync() {
	c.chain.Group = ""
	if q := c.sc.recapQuestion(); q != "" {
		c.chain.Group = "Recap question: " + q
	}
	c.opener.Label, c.opener.Disabled = "", !c.offered()
	switch {
	case c.opener.Disabled:
	case c.chain.Group != "":
		c.opener.Label = "Recap question"
	default:
		c.opener.Label = "Recap"
	}
	c.next.Disabled = c.sc.next == nil
	c.check.Disabled = c.chain.Group == "" || len(c.sc.recap.chain) == 0
}

// open shows the card; by the keyboard, its first widget has the focus.
func (c *recapCard) open(keys bool) {
	c.sync()
	if !c.offered() {
		return
	}
	c.shown, c.scroll, c.refused = true, 0, ""
	c.sc.Player.SetPlaying(false)
	c.Refocus()
	if keys {
		c.ring.Focus(&c.close, ui.FocusVisible)
	}
	c.focused = c.ring.Current()
	d := c.sc.done()
	say := d.Heading + ". " + d.Recap
	for _, p := range d.Predictions {
		say += " Your prediction: " + p
	}
	if c.chain.Group != "" {
		say += " " + c.chain.Group + " Tab to the events of your run and press Enter to add each to your chain; Esc goes back to the run."
	}
	c.sc.Player.Narration().AddKey(say)
}

// hide closes the card; the focus goes back to its opener.
func (c *recapCard) hide(keys bool) {
	c.shown = false
	if keys {
		c.sc.Player.Ring().Focus(&c.opener, ui.FocusVisible)
	}
}

// Refocus rebuilds the card's focus order: Back to the run, the chain,
// Check my chain, Next lesson.
func (c *recapCard) Refocus() {
	c.names = map[ui.Focusable]string{&c.close: RecapCloseName, &c.check: RecapCheckName, &c.next: RecapNextName}
	items := []ui.Focusable{&c.close}
	c.chain.Sync()
	items = append(items, c.chain.Focus()...)
	c.ring.Set(append(items, &c.check, &c.next)...)
}

// updateOpener presses the opener (a click, or Enter while it has the
// player's focus).
func (c *recapCard) updateOpener(in *ui.Input) {
	c.sync()
	if c.opener.Update(in) {
		c.sc.Player.Use(ui.HostAction{ID: RecapOpenName})
	}
}

// update handles the open card's input: the card is modal, so nothing
// under it sees any.
func (c *recapCard) update(st *scene.State) {
	in := &st.Input
	c.sync()
	if !c.offered() {
		c.shown = false
		return
	}
	if c.chain.Sync() {
		c.Refocus()
	}
	c.ring.Wrap = st.WrapFocus
	keys := c.ring.Visible() || in.Keys.Has(ui.IntentFocusNext) || in.Keys.Has(ui.IntentFocusPrev)
	if c.close.Update(in) || in.Keys.Has(ui.IntentBack) {
		c.hide(keys || in.Keys.Has(ui.IntentBack)) // the card's, with or without a question
		return
	}
	// The arrows move the focus as Tab does: the card has no slider.
	if in.Keys.Has(ui.IntentDown) || in.Keys.Has(ui.IntentRight) {
		in.Keys |= ui.KeysOf(ui.IntentFocusNext)
	}
	if in.Keys.Has(ui.IntentUp) || in.Keys.Has(ui.IntentLeft) {
		in.Keys |= ui.KeysOf(ui.IntentFocusPrev)
	}
	if esc := c.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	if cur := c.ring.Current(); cur != c.focused {
		c.focused = cur
		if c.ring.Visible() {
			c.ScrollToFocus()
		}
	}
	c.scrollCard(in)
	before := len(c.sc.recap.chain)
	c.chain.Update(c.cardInput(in))
	if len(c.sc.recap.chain) != before {
		c.refused = ""
	}
	if answer.Pressed(&c.check, in) {
		c.sc.recapUse(ui.HostAction{ID: RecapCheckName})
	}
	if answer.Pressed(&c.next, in) {
		c.sc.recapUse(ui.HostAction{ID: RecapNextName})
	}
}

// The card as the chain's host: the lesson scene's recap chain.

func (c *recapCard) ChainAsked() bool                   { return c.sc.recapQuestion() != "" }
func (c *recapCard) ChainSteps() []int                  { return slices.Clone(c.sc.recap.chain) }
func (c *recapCard) ChainEvents() []lab.WhyStep         { return c.sc.recapEvents() }
func (c *recapCard) ChainFor() string                   { return recapFor }
func (c *recapCard) ChainSay(line string)               { c.refused = ""; c.sc.Player.Narrate(line) }
func (c *recapCard) ChainRefuse(why string)             { c.refused = why; c.sc.Player.Narrate(why) }
func (c *recapCard) FormStyle() draw.Style              { return c.style }
func (c *recapCard) FormRing() *ui.FocusRing            { return c.ring }
func (c *recapCard) FormNames() map[ui.Focusable]string { return c.names }
func (c *recapCard) FormScroll() *float64               { return &c.scroll }
func (c *recapCard) FocusSeen()                         { c.focused = c.ring.Current() }
func (c *recapCard) ToView(r ui.Rect) ui.Rect {
	return ui.Rect{X: c.geom.view.X + r.X, Y: c.geom.view.Y + r.Y - c.scroll, W: r.W, H: r.H}
}
func (c *recapCard) maxScroll() float64                         { return math.Max(0, c.geom.content-c.geom.view.H) }
func (c *recapCard) clampScroll()                               { c.scroll = math.Max(0, math.Min(c.scroll, c.maxScroll())) }
func (c *recapCard) contentRect(f ui.Focusable) (ui.Rect, bool) { return c.chain.Rect(f) }

// maxRecapChain is the longest chain the card keeps: an argument needs a
// few steps, and the judge says so past its own limit.
const maxRecapChain = 64

// ChainChange changes the recap's chain; a changed chain waits for a new
// check.
func (c *recapCard) ChainChange(verb string, n int) error {
	r := &c.sc.recap
	switch verb {
	case "add":
		if slices.Contains(r.chain, n) {
			return fmt.Errorf("event %d is already in your chain", n)
		}
		if len(r.chain) >= maxRecapChain {
			return fmt.Errorf("your chain has %d steps: take some out first", len(r.chain))
		}
		r.chain = append(r.chain, n)
	case "remove":
		if n < 0 || n >= len(r.chain) {
			return fmt.Errorf("your chain has %d steps, no step %d", len(r.chain), n+1)
		}
		r.chain = slices.Delete(r.chain, n, n+1)
	default:
		r.chain = nil
	}
	r.verdict = nil
	return nil
}

// ScrollToFocus scrolls the card so the focused widget is in view.
func (c *recapCard) ScrollToFocus() {
	r, ok := c.contentRect(c.ring.Current())
	if !ok {
		return
	}
	c.scroll = answer.ScrollShowing(c.scroll, r, c.style.U(8), c.geom.view.H)
	c.place()
}

// scrollCard scrolls the card by the wheel over it or a finger dragged
// in it; a drag is no tap.
func (c *recapCard) scrollCard(in *ui.Input) {
	c.drag.Scroll(in, c.geom.view, c.style, func(dy float64) {
		c.scroll += dy
		c.place()
	})
}

// cardInput is the input the chain's rows see: the pointer only over the
// card's view, and not while a finger scrolls it.
func (c *recapCard) cardInput(in *ui.Input) *ui.Input { return c.drag.Input(in, c.geom.view) }

// regions names the card's places and its widgets in view, for the
// bridge and tests.
func (c *recapCard) regions(m map[string]ui.Rect) {
	if !c.opener.Rect.Empty() {
		m[RecapOpenName] = c.opener.Rect
	}
	if !c.shown {
		return
	}
	m["recapCard"], m["recapForm"] = c.card, c.geom.view
	for w, name := range c.names {
		r := w.Bounds()
		if _, scrolled := c.chain.Rect(w); scrolled {
			r = r.Intersect(c.geom.view) // the part in view
		}
		if !r.Empty() {
			m[name] = r
		}
	}
}

// invitation says where the card is, once the lesson is complete.
func (c *recapCard) invitation() string {
	c.sync()
	if c.chain.Group != "" {
		return "The recap and its question open from " + c.opener.Label + ", at the right of the goals' heading (Tab to it and press Enter)."
	}
	return "The recap opens from " + c.opener.Label + ", at the right of the goals' heading."
}

// controls are the open card's own buttons, for the desktop's voice (the
// page never shows the card: its panel has the recap).
func (c *recapCard) controls() []ui.Control {
	out := []ui.Control{{ID: RecapCloseName, Group: "Recap", Label: "Back to the run", Do: func(ui.HostAction) { c.hide(false) }}}
	if next := c.sc.next; next != nil {
		out = append(out, ui.Control{ID: RecapNextName, Group: "Recap", Label: "Next lesson: " + next.Title, Do: func(ui.HostAction) { next.Open() }})
	}
	return out
}
