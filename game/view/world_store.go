package view

import (
	"fmt"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

func (w *World) drawStore(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	st := w.view.Store
	row, rest := w.storeCard(dst, s, &w.fencing)
	title, highest := "Store: "+st.Name, fmt.Sprintf("highest token %d", st.Highest)
	draw.TextIn(dst, title, s.Label(), row, draw.AlignStart, th.Text)
	value, fence := "value "+st.Value, ""
	if w.fencing.Rect.Empty() {
		// No switch in this lesson: the state in words on the value line.
		fence = map[bool]string{true: " · fencing on", false: " · fencing OFF"}[st.Fencing]
	}
	// A card too short for a second line puts the value after the title.
	short := rest.H < draw.TextHeight(s.Mono())
	if !short && draw.Measure(s.Label())(title)+draw.Measure(s.Mono())(highest)+s.U(16) <= row.W {
		draw.TextIn(dst, highest, s.Mono(), row, draw.AlignEnd, th.Text)
	} else {
		value = fmt.Sprintf("highest %d, %s", st.Highest, value)
	}
	// Narrow, the line drops the words the card says elsewhere: the
	// value's name, then the value (on the timeline too), then the
	// fencing state (its switch or the store's verdicts show it).
	hi := fmt.Sprintf("highest %d", st.Highest)
	shorter := []string{strings.Replace(value, "value ", "", 1) + fence, hi + fence, hi}
	if strings.HasPrefix(value, "value ") {
		shorter = []string{st.Value + fence, st.Value}
	}
	value += fence
	if short {
		_, row = row.CutLeft(draw.Measure(s.Label())(title), s.U(12))
		draw.FirstFitInTip(dst, value, shorter, s.Mono(), row, draw.AlignEnd, th.TextDim)
	} else {
		row, _ = rest.CutTop(s.U(18), 0)
		draw.FirstFitInTip(dst, value, shorter, s.Mono(), row, draw.AlignStart, th.TextDim)
	}
	if !w.fencing.Rect.Empty() {
		w.drawSwitch(dst, s, &w.fencing, "fencing on", "fencing OFF")
	}
}

// storeCard draws the store's card and returns its title row and the
// rows under it, left of the card's switch (when it has one).
func (w *World) storeCard(dst *ebiten.Image, s draw.Style, sw *ui.Toggle) (row, rest ui.Rect) {
	box := w.geom.Store
	s.Card(dst, box)
	left := box.Inset(s.U(10))
	if !sw.Rect.Empty() {
		_, left = left.CutRight(left.MaxX()-sw.Rect.X+s.U(8), 0)
	}
	return left.CutTop(s.U(20), s.U(4))
}

// drawSwitch draws a toggle with its state in words beside it.
func (w *World) drawSwitch(dst *ebiten.Image, s draw.Style, t *ui.Toggle, on, off string) {
	th := s.Theme
	s.Toggle(dst, t)
	label := ui.Rect{X: t.Rect.MaxX() + s.U(8), Y: t.Rect.Y, W: s.U(118), H: t.Rect.H}
	state, clr := on, th.Text
	if !t.On {
		state, clr = off, th.Warning
	}
	draw.TextIn(dst, state, s.Small(), label, draw.AlignStart, clr)
}

// drawQueue draws the job queue: what ran, what was a repeat, and the
// idempotency switch.
func (w *World) drawQueue(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	q := w.view.Queue
	row, rest := w.storeCard(dst, s, &w.idem)
	draw.TextIn(dst, "Job queue: "+q.Name, s.Label(), row, draw.AlignStart, th.Text)
	draw.TextIn(dst, fmt.Sprintf("jobs run %d", q.Jobs), s.Mono(), row, draw.AlignEnd, th.Text)
	row, rest = rest.CutTop(s.U(18), s.U(2))
	// Counts with a mark each, so the verdict does not rest on colour.
	x := row.X
	mark := func(n int, word string, danger bool) {
		c := ui.Point{X: x + s.U(7), Y: row.Y + row.H/2}
		gap := s.U(18)
		if danger {
			s.Danger(dst, c, s.U(14))
			if n > 0 {
				// A ring calls the eye to a harm that happened; the
				// words step aside to clear it.
				draw.StrokeCircle(dst, c, s.U(10), s.U(2), th.Warning)
				gap = s.U(22)
			}
		} else {
			s.Verdict(dst, c, s.U(14), false)
		}
		label := fmt.Sprintf("%d %s", n, word)
		draw.TextIn(dst, label, s.Small(), ui.Rect{X: x + gap, Y: row.Y, W: row.MaxX() - x - gap, H: row.H}, draw.AlignStart, th.Text)
		x += gap + s.U(12) + draw.Measure(s.Small())(label)
	}
	mark(q.DuplicatesIgnored, "duplicates ignored", false)
	if x < row.MaxX()-s.U(120) {
		mark(q.DuplicatesExecuted, "duplicates run twice", true)
	}
	if row, _ = rest.CutTop(s.U(18), 0); !row.Empty() && q.LastKey != "" && rest.H >= s.U(16) {
		draw.TextIn(dst, "last: "+q.LastKey+" "+q.LastResult, s.Mono(), row, draw.AlignStart, th.TextDim)
	}
	if !w.idem.Rect.Empty() {
		w.drawSwitch(dst, s, &w.idem, "idempotency on", "idempotency OFF")
	}
}
