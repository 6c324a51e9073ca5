package view

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// holding reports a message from name that the network holds now.
func (w *World) holding(name string) bool {
	for _, m := range w.view.HeldLinks {
		if m.From == name {
			return true
		}
	}
	return false
}

// drawMessages draws each message in flight as a dot on its link, with
// its fencing token when it carries one. Held messages have not left: one
// marker per link (HeldLinks) at the sender's end says how many wait
// there.
func (w *World) drawMessages(dst *ebiten.Image, s draw.Style) {
	l := w.msgLinks()
	for _, m := range w.view.InFlight {
		if !m.Held {
			l.draw(dst, s, m)
		}
	}
	for _, m := range w.view.HeldLinks {
		m.Progress = 0.18
		l.draw(dst, s, m)
	}
}

// msgLinks is where the world's links run: each process's index among
// the drawn ones and the name of the store (or queue) it writes to.
type msgLinks struct {
	w         *World
	idx       map[string]int
	storeName string
}

func (w *World) msgLinks() msgLinks {
	l := msgLinks{w: w, idx: map[string]int{}}
	for i, p := range w.view.Procs {
		l.idx[p.Name] = i
	}
	switch {
	case w.view.Store != nil:
		l.storeName = w.view.Store.Name
	case w.view.Queue != nil:
		l.storeName = w.view.Queue.Name
	}
	return l
}

// end is where a link from or to actor name meets it: a process's top (or
// its bottom when other is -2, towards the store), or the side of a Redis
// node, the coordinator or the store that faces process other; ok is
// false for an actor not drawn.
func (l msgLinks) end(name string, other int) (ui.Point, bool) {
	w := l.w
	if i, ok := l.idx[name]; ok {
		c := w.geom.Procs[i]
		if other == -2 { // towards the store
			return w.procBottom(i), true
		}
		return ui.Point{X: c.X, Y: c.Y - w.geom.Ring}, true
	}
	switch {
	case w.redisIndex(name) >= 0:
		return w.redisEnd(w.redisIndex(name)), true
	case name == core.CoordinatorName && other >= 0:
		return w.coordEnd(other), true
	case name == l.storeName && other >= 0:
		return w.storeEnd(other), true
	}
	return ui.Point{}, false
}

// path is where m's link runs, from its sender's end to its receiver's;
// ok is false where either end is not drawn.
func (l msgLinks) path(m lab.MsgView) (from, to ui.Point, ok bool) {
	pi, fromProc := l.idx[m.From]
	if !fromProc {
		pi = l.idx[m.To]
	}
	peer := m.To
	if !fromProc {
		peer = m.From
	}
	toStore := peer == l.storeName
	procSide := -1
	if toStore {
		procSide = -2
	}
	procName := m.From
	if !fromProc {
		procName = m.To
	}
	pp, ok1 := l.end(procName, procSide)
	op, ok2 := l.end(peer, pi)
	if !ok1 || !ok2 {
		return ui.Point{}, ui.Point{}, false
	}
	if !fromProc {
		return op, pp, true
	}
	return pp, op, true
}

// draw draws message m as a dot along its link, labelled with how many
// are held there or with the token it carries.
func (l msgLinks) draw(dst *ebiten.Image, s draw.Style, m lab.MsgView) {
	th := s.Theme
	from, to, ok := l.path(m)
	if !ok {
		return
	}
	f := m.Progress
	if l.w.reduced && !m.Held {
		f = 0.5
	}
	dot := ui.Point{X: from.X + (to.X-from.X)*f, Y: from.Y + (to.Y-from.Y)*f}
	clr := th.TextDim
	if m.Token != 0 {
		clr = th.Accent
	}
	draw.FillCircle(dst, dot, s.U(4), clr)
	switch {
	case m.Held && m.Token != 0:
		pill(dst, s, ui.Point{X: dot.X, Y: dot.Y - s.U(14)}, fmt.Sprintf("%d held, token %d", m.Count, m.Token), th.Accent, th.Background)
	case m.Held:
		pill(dst, s, ui.Point{X: dot.X, Y: dot.Y - s.U(14)}, fmt.Sprintf("%d held", m.Count), th.TextDim, th.Background)
	case m.Token != 0:
		// The label goes where it covers no state badge (a write leaving
		// its sender hid the sender's "leader · token 7"); a message
		// still passes over what else lies on its way.
		label := fmt.Sprintf("%s %d", shortKind(m.Kind), m.Token)
		c := msgLabelAt(s, dot, label, l.w.geom.Badges)
		draw.Cover(pillRect(s, c, label))
		pill(dst, s, c, label, th.Accent, th.Background)
	}
}

// msgLabelAt is the centre of a message's label for its dot at dot:
// above the dot, else below it, below the badge it would cover, right or
// left of it, whichever first meets none of avoid (above it if all do).
func msgLabelAt(s draw.Style, dot ui.Point, label string, avoid []ui.Rect) ui.Point {
	size := pillRect(s, ui.Point{}, label)
	above := ui.Point{X: dot.X, Y: dot.Y - s.U(14)}
	places := []ui.Point{above, {X: dot.X, Y: dot.Y + s.U(14)}}
	for _, b := range avoid {
		if b.Overlaps(pillRect(s, above, label)) {
			places = append(places, ui.Point{X: dot.X, Y: b.MaxY() + s.U(2) + size.H/2})
		}
	}
	places = append(places, ui.Point{X: dot.X + s.U(8) + size.W/2, Y: dot.Y}, ui.Point{X: dot.X - s.U(8) - size.W/2, Y: dot.Y})
	for _, c := range places {
		if !slices.ContainsFunc(avoid, pillRect(s, c, label).Overlaps) {
			return c
		}
	}
	return above
}

func shortKind(k string) string {
	switch k {
	case "Write":
		return "write, token"
	case "LockStatus":
		return "granted, token"
	case "Enqueue":
		return "job, token"
	}
	return "token"
}

// pill draws a small rounded label centred at c.
func pill(dst *ebiten.Image, s draw.Style, c ui.Point, label string, bg, fg color.Color) {
	pillIn(dst, s, c, label, bg, fg, math.Inf(1))
}

// pillIn is pill at most maxW wide where its label leaves room: its
// padding gives way first.
func pillIn(dst *ebiten.Image, s draw.Style, c ui.Point, label string, bg, fg color.Color, maxW float64) {
	r := pillRectIn(s, c, label, maxW)
	h := r.H
	draw.FillRoundRect(dst, r, h/2, bg)
	draw.TextIn(dst, label, s.Small(), r, draw.AlignCenter, fg)
}

// dashed draws a dashed line from a to b.
func dashed(dst *ebiten.Image, a, b ui.Point, width, dash float64, clr color.Color) {
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	if l == 0 {
		return
	}
	dx, dy := (b.X-a.X)/l, (b.Y-a.Y)/l
	for d := 0.0; d < l; d += 2 * dash {
		e := math.Min(d+dash, l)
		draw.Line(dst, ui.Point{X: a.X + dx*d, Y: a.Y + dy*d}, ui.Point{X: a.X + dx*e, Y: a.Y + dy*e}, width, clr)
	}
}

// pillRect is where pill draws label centred at c.
func pillRect(s draw.Style, c ui.Point, label string) ui.Rect {
	return pillRectIn(s, c, label, math.Inf(1))
}

// pillRectIn is where pillIn draws label centred at c.
func pillRectIn(s draw.Style, c ui.Point, label string, maxW float64) ui.Rect {
	tw := draw.Measure(s.Small())(label)
	w := math.Max(tw, math.Min(tw+s.U(12), maxW))
	h := s.U(ui.TagH)
	return ui.Rect{X: c.X - w/2, Y: c.Y - h/2, W: w, H: h}
}
