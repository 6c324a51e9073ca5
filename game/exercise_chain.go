package game

import (
	"fmt"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// The chain of events (exercises 1 and 3) on the canvas, as the page
// has it: the chain's steps so far, each with a Remove button, a button
// that empties it, then every event of the learner's run as a row that
// adds it to the end (Enter, Space or a click). The rows and buttons
// are in the focus order under the host names the page's controls use
// (chain:remove:I, chain:clear, chain:add:N), and go to chainAction
// like the page's.

// chainWidgets are the canvas's widgets of the chain.
type chainWidgets struct {
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
}

// resize makes b n buttons long, keeping the first ones (and so the
// focus, which points at one) and blanking the new ones.
func resize(b []ui.Button, n int) []ui.Button {
	old := len(b)
	b = slices.Grow(b[:min(old, n)], n)[:n]
	for i := old; i < n; i++ {
		b[i] = ui.Button{}
	}
	return b
}

// syncChain sizes the chain's widgets to the chain and the run's events
// and labels them; it reports whether the widgets changed (the focus
// order must then be rebuilt).
func (s *exerciseAnswer) syncChain() bool {
	c := &s.chain
	if s.Ex.ChainRun == nil {
		return false
	}
	events := s.Form.ChainEvents()
	seqs := make([]int, len(events))
	labels := make([]string, len(events))
	for i, e := range events {
		seqs[i], labels[i] = e.Seq, draw.Drawable(e.String())
	}
	n := len(s.Form.Chain())
	changed := len(c.remove) != n || !slices.Equal(c.seqs, seqs)
	c.remove = resize(c.remove, n)
	for i := range c.remove {
		c.remove[i].Label = "Remove"
	}
	c.events = resize(c.events, len(events))
	c.seqs, c.labels = seqs, labels
	for i, seq := range seqs {
		c.events[i].Label = labels[i]
		c.events[i].Disabled = s.Form.InChain(seq)
	}
	c.clear.Label = "Empty the chain"
	c.clear.Disabled = n == 0
	return changed
}

// updateChain applies this tick's presses on the chain's widgets.
func (s *exerciseAnswer) updateChain(in *ui.Input) {
	c := &s.chain
	if s.Ex.ChainRun == nil {
		return
	}
	if s.syncChain() { // a new run, a restored answer, or the page's press
		s.refocus()
	}
	action, removed := "", -1
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
			action, at = fmt.Sprintf("add:%d", c.seqs[i]), &c.events[i]
		}
	}
	if action == "" {
		return
	}
	if r, ok := s.chainRect(at); ok {
		c.kept, c.keptAt = at, r.Y-s.scroll
	}
	keys := s.ring.Visible()
	s.chainAction(action)
	if s.syncChain() {
		s.refocus()
	}
	if removed >= 0 && keys {
		// The focus stays on the chain: on the Remove of the step that
		// took this one's place, or of the one before.
		if n := len(c.remove); n > 0 {
			s.ring.Focus(&c.remove[min(removed, n-1)], ui.FocusVisible)
		} else {
			s.ring.Focus(s.firstEvent(), ui.FocusVisible)
		}
		c.kept, c.toFocus = nil, true
		s.focused = s.ring.Current()
	}
}

// firstEvent is the first event of the run that can be added, or nil.
func (s *exerciseAnswer) firstEvent() ui.Focusable {
	for i := range s.chain.events {
		if !s.chain.events[i].Disabled {
			return &s.chain.events[i]
		}
	}
	return nil
}

// keepChainPlace scrolls the form so the chain's widget just pressed is
// where it was in the view (after layout).
func (s *exerciseAnswer) keepChainPlace() {
	c := &s.chain
	if c.toFocus {
		c.toFocus = false
		s.scrollToFocus()
	}
	if c.kept == nil {
		return
	}
	if r, ok := s.chainRect(c.kept); ok {
		s.scroll = r.Y - c.keptAt
	}
	c.kept = nil
}

// chainFocus lists the chain's widgets in focus order with the names the
// page's controls send.
func (s *exerciseAnswer) chainFocus() []ui.Focusable {
	c := &s.chain
	if s.Ex.ChainRun == nil {
		return nil
	}
	var out []ui.Focusable
	for i := range c.remove {
		out = append(out, &c.remove[i])
		s.names[&c.remove[i]] = fmt.Sprintf("chain:remove:%d", i)
	}
	out = append(out, &c.clear)
	s.names[&c.clear] = "chain:clear"
	for i := range c.events {
		out = append(out, &c.events[i])
		s.names[&c.events[i]] = fmt.Sprintf("chain:add:%d", c.seqs[i])
	}
	return out
}

// stepText is how step i (event seq) of the chain reads on the canvas.
func (s *exerciseAnswer) stepText(i, seq int) string {
	c := &s.chain
	if j := slices.Index(c.seqs, seq); j >= 0 {
		return fmt.Sprintf("%d. %s", i+1, c.labels[j])
	}
	return fmt.Sprintf("%d. [%d] (not an event of your run as it is now)", i+1, seq)
}

// chainNote says what the chain is for, under its heading.
func (s *exerciseAnswer) chainNote() string {
	if len(s.Form.Chain()) == 0 {
		return s.Ex.ChainText + " Your chain is empty: add events from the list below."
	}
	return s.Ex.ChainText
}

// layoutChain lays out the chain and the run's events at *y (the form's
// running height, which addText moves too) in a column of width w.
func (s *exerciseAnswer) layoutChain(y *float64, w float64, addText func(string, bool, bool), height func(string, *draw.Face, float64) float64) {
	c, g := &s.chain, &s.geom
	g.chainRemove, g.chainEvents = g.chainRemove[:0], g.chainEvents[:0]
	g.chainClear = ui.Rect{}
	if s.Ex.ChainRun == nil {
		return
	}
	st := s.style
	px := func(v float64) float64 { return math.Round(v * st.Unit) }
	body := st.Body()
	*y += px(4)
	addText(chainGroup, false, true)
	addText(s.chainNote(), true, false)
	*y += px(6)
	btnW := px(96)
	for i, seq := range s.Form.Chain() {
		text := s.stepText(i, seq)
		tw := math.Max(0, w-btnW-px(10))
		h := math.Max(px(34), height(text, body, tw))
		g.texts = append(g.texts, formText{r: ui.Rect{Y: *y, W: tw, H: h}, text: text})
		g.chainRemove = append(g.chainRemove, ui.Rect{X: w - btnW, Y: *y, W: btnW, H: px(34)})
		*y += h + px(6)
	}
	g.chainClear = ui.Rect{Y: *y, W: math.Min(px(180), w), H: px(34)}
	*y += px(34) + px(14)
	addText(eventsGroup, false, true)
	if len(c.events) == 0 {
		addText("Build your run in the simulator first: its events are listed here.", true, false)
	}
	*y += px(6)
	for i := range c.events {
		h := optionHeight(c.labels[i], body, w, st.Unit)
		g.chainEvents = append(g.chainEvents, ui.Rect{Y: *y, W: w, H: h})
		*y += h + px(6)
	}
	*y += px(10)
}

// placeChain gives the chain's widgets their on-screen rectangles.
func (s *exerciseAnswer) placeChain() {
	c, g := &s.chain, &s.geom
	for i := range c.remove {
		c.remove[i].Rect = ui.Rect{}
		if i < len(g.chainRemove) {
			c.remove[i].Rect = s.toView(g.chainRemove[i])
		}
	}
	c.clear.Rect = ui.Rect{}
	if !g.chainClear.Empty() {
		c.clear.Rect = s.toView(g.chainClear)
	}
	for i := range c.events {
		c.events[i].Rect = ui.Rect{}
		if i < len(g.chainEvents) {
			c.events[i].Rect = s.toView(g.chainEvents[i])
		}
	}
}

// chainRect is the content rectangle of a chain widget, if f is one.
func (s *exerciseAnswer) chainRect(f ui.Focusable) (ui.Rect, bool) {
	c, g := &s.chain, &s.geom
	for i := range c.remove {
		if f == &c.remove[i] && i < len(g.chainRemove) {
			return g.chainRemove[i], true
		}
	}
	if f == &c.clear {
		return g.chainClear, true
	}
	for i := range c.events {
		if f == &c.events[i] && i < len(g.chainEvents) {
			return g.chainEvents[i], true
		}
	}
	return ui.Rect{}, false
}

// drawChain draws the chain's buttons and the run's events (the steps'
// texts are the form's).
func (s *exerciseAnswer) drawChain(dst *ebiten.Image) {
	c := &s.chain
	if s.Ex.ChainRun == nil {
		return
	}
	st := s.style
	for i := range c.remove {
		st.Button(dst, &c.remove[i])
	}
	st.Button(dst, &c.clear)
	chain := s.Form.Chain()
	for i := range c.events {
		s.drawChainEvent(dst, &c.events[i], c.labels[i], slices.Index(chain, c.seqs[i]))
	}
}

// drawChainEvent draws an event of the run: a + to add it, or, once it
// is in the chain, its step number in the accent colour with the row
// outlined, so being in the chain never rests on the colour alone.
func (s *exerciseAnswer) drawChainEvent(dst *ebiten.Image, b *ui.Button, label string, step int) {
	st, th := s.style, s.style.Theme
	r := b.Rect
	c := s.drawRowFrame(dst, b, step >= 0)
	if step >= 0 {
		draw.FillCircle(dst, c, st.U(11), th.Accent)
		mark := fmt.Sprint(step + 1)
		draw.TextIn(dst, mark, st.Small(), ui.Rect{X: c.X - st.U(11), Y: c.Y - st.U(11), W: st.U(22), H: st.U(22)}, draw.AlignCenter, th.Background)
	} else {
		arm := st.U(6)
		draw.Line(dst, ui.Point{X: c.X - arm, Y: c.Y}, ui.Point{X: c.X + arm, Y: c.Y}, st.U(2), th.TextDim)
		draw.Line(dst, ui.Point{X: c.X, Y: c.Y - arm}, ui.Point{X: c.X, Y: c.Y + arm}, st.U(2), th.TextDim)
	}
	tr := ui.Rect{X: r.X + st.U(38), Y: r.Y, W: r.W - st.U(46), H: r.H}
	draw.Paragraph(dst, label, st.Body(), centredLines(tr, label, st.Body()), th.Text)
}
