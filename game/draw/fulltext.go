package draw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/ui"
)

// FullText is a box whose text was drawn cut (TextInTip), and the whole
// text.
type FullText struct {
	Box  ui.Rect
	Text string
}

var (
	// cuts are this frame's cut texts, lastCuts the last drawn frame's
	// (what is on screen, and what the pointer points at).
	cuts, lastCuts []FullText
	// ring and lastRing are where the focus ring was drawn, likewise.
	ring, lastRing ui.Rect
)

func cutText(box ui.Rect, text string) { cuts = append(cuts, FullText{Box: box, Text: text}) }

// Cover says that what is drawn next hides r (a menu, an overlay): the
// texts cut under it so far this frame no longer show whole on hover,
// and a recording marks the texts under it Covered.
func Cover(r ui.Rect) {
	coverRecorded(r)
	kept := cuts[:0]
	for _, c := range cuts {
		if !c.Box.Overlaps(r) {
			kept = append(kept, c)
		}
	}
	cuts = kept
}

// endFrameTexts makes this frame's cut texts and focus ring the ones on
// screen.
func endFrameTexts() {
	lastCuts, cuts = cuts, lastCuts[:0]
	lastRing, ring = ring, ui.Rect{}
}

// CutTexts are the texts the last drawn frame cut, with their boxes.
func CutTexts() []FullText { return lastCuts }

// FullTextTip shows the whole of a text drawn cut by TextInTip when the
// pointer rests on it, or the keyboard focus ring stays around it, as
// long as a tooltip's delay. It reads the last drawn frame, so it works
// for every scene without the scenes knowing.
type FullTextTip struct {
	tip ui.Tooltip
	box ui.Rect
}

// Update counts one tick of input against the last drawn frame; delay is
// the tooltip's delay in ticks.
func (t *FullTextTip) Update(in *ui.Input, delay int) {
	var hit FullText
	focused := false
	if p := in.Pointer(); p.Present && !p.Touch {
		for _, c := range lastCuts {
			if c.Box.Contains(p.Pos) {
				hit = c
				break
			}
		}
	}
	if hit.Text == "" && lastRing != (ui.Rect{}) {
		for _, c := range lastCuts {
			if lastRing.Contains(c.Box.Center()) {
				hit, focused = c, true
				break
			}
		}
	}
	if hit.Box != t.box || hit.Text != t.tip.Text {
		t.tip, t.box = ui.Tooltip{Text: hit.Text, Delay: delay}, hit.Box
	}
	t.tip.Update(in, hit.Box, focused)
}

// Visible reports whether the tip shows this tick.
func (t *FullTextTip) Visible() bool { return t.tip.Visible() }

// Text is the whole text the tip is for ("" when the pointer and focus
// are on no cut text).
func (t *FullTextTip) Text() string { return t.tip.Text }

// FullTextTip draws t if it is visible, inside window.
func (s Style) FullTextTip(dst *ebiten.Image, t *FullTextTip, window ui.Rect) {
	s.Tooltip(dst, &t.tip, window)
}
