package view

import (
	"fmt"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// A Redlock world has no coordinator: in its place the world draws the
// independent Redis nodes side by side, each with the client whose value
// it holds and how long that key's PX has left, under a line saying who
// holds a majority of them.

// redisHead and RedisCells split box (the coordinator's place) into the
// heading row and one cell per node.
// u is the layout unit.
func redisHead(box ui.Rect, u float64) (head, rest ui.Rect) {
	return box.CutTop(math.Round(20*u), math.Round(6*u))
}

func RedisCells(box ui.Rect, u float64, n int) []ui.Rect {
	if n < 1 {
		return nil
	}
	_, row := redisHead(box, u)
	gap := math.Round(8 * u)
	if n > 5 {
		gap = math.Round(5 * u)
	}
	w := (row.W - gap*float64(n-1)) / float64(n)
	// As tall as a cell's three lines and its bar need, no taller: the
	// room under the cells keeps a process's tags off them.
	h := math.Min(row.H, math.Round(76*u))
	out := make([]ui.Rect, n)
	for i := range out {
		out[i] = ui.Rect{X: math.Round(row.X + float64(i)*(w+gap)), Y: row.Y, W: math.Floor(w), H: h}
	}
	return out
}

// drawRedisLinks draws a thin line from every process to every node: a
// Redlock client talks to each node itself.
func (w *World) drawRedisLinks(dst *ebiten.Image, s draw.Style) {
	g := w.geom
	for i, p := range w.view.Procs {
		c := g.Procs[i]
		top := ui.Point{X: c.X, Y: c.Y - g.Ring}
		for k, r := range w.view.Redis {
			if slices.Contains(p.CutFrom, r.Name) {
				// A cut link, as the coordinator's is drawn: dashed, red.
				dashed(dst, top, w.redisEnd(k), s.U(2), s.U(8), s.Theme.Reject)
				continue
			}
			draw.Line(dst, top, w.redisEnd(k), s.U(1), s.Theme.Border)
		}
	}
}

// redisEnd is where messages to and from node i meet its cell: the
// middle of its bottom edge.
func (w *World) redisEnd(i int) ui.Point {
	c := RedisCells(w.geom.Coord, w.unit, len(w.view.Redis))[i]
	return ui.Point{X: c.Center().X, Y: c.MaxY()}
}

// drawRedis draws the heading and every node's cell in box.
func (w *World) drawRedis(dst *ebiten.Image, s draw.Style, box ui.Rect) {
	th := s.Theme
	v := w.view
	words := v.Words
	head, _ := redisHead(box, s.Unit)
	summary := v.RedisSummary()
	fits := draw.Measure(s.Label())(words.Server)+draw.Measure(s.Small())(summary)+s.U(16) <= head.W
	if fits {
		draw.TextIn(dst, words.Server, s.Label(), head, draw.AlignStart, th.Text)
	}
	clr := th.Truth
	if v.Lock.Holder == "" {
		clr = th.TextDim
	}
	align := draw.AlignEnd
	if !fits {
		align = draw.AlignStart
	}
	draw.TextInTip(dst, summary, s.Small(), head, align, clr)
	for i, c := range RedisCells(box, s.Unit, len(v.Redis)) {
		w.drawRedisNode(dst, s, c, v.Redis[i])
		if w.selected >= 0 && w.selected < len(w.actors) && w.actors[w.selected].Node == v.Redis[i].Name {
			draw.StrokeRoundRect(dst, c.Inset(-s.U(3)), s.U(8), s.U(2), th.Focus)
		}
	}
}

// drawRedisNode draws one node: its name, whose value it holds (or that
// it is empty or down) and its key's PX left, in words and as a bar. A
// cell too short for three lines (a comparison's pane) puts the PX beside
// the holder, and one too short for two puts all three on one line,
// each where it fits.
func (w *World) drawRedisNode(dst *ebiten.Image, s draw.Style, c ui.Rect, r lab.RedisView) {
	th := s.Theme
	s.Card(dst, c)
	who, clr := "empty", th.TextDim
	switch {
	case r.Down:
		who, clr = "down", th.Reject
	case r.Owner != "" && r.Owner == w.view.Lock.Holder:
		who, clr = r.Owner, th.Truth
	case r.Owner != "":
		// A value no majority shares: this node alone is not the lock.
		who, clr = r.Owner, th.Warning
	}
	left := ""
	if r.Owner != "" {
		left = fmt.Sprintf("%.1f s", r.Left.Seconds())
	}
	in := c.InsetXY(s.U(6), s.U(5))
	nameH, whoH := draw.LineHeight(s.Small()), draw.LineHeight(s.Label())
	// after draws the PX left at the end of row, if it fits after used.
	after := func(row ui.Rect, used float64) {
		if left != "" && used+draw.Measure(s.Mono())(left)+s.U(6) <= row.W {
			draw.TextIn(dst, left, s.Mono(), row, draw.AlignEnd, th.TextDim)
		}
	}
	if in.H < nameH+whoH {
		row := c.InsetXY(s.U(6), 0)
		draw.TextInTip(dst, r.Name, s.Small(), row, draw.AlignStart, th.TextDim)
		used := draw.Measure(s.Small())(r.Name) + s.U(6)
		if used+draw.Measure(s.Label())(who) <= row.W {
			_, rest := row.CutLeft(used, 0)
			draw.TextIn(dst, who, s.Label(), rest, draw.AlignStart, clr)
			after(row, used+draw.Measure(s.Label())(who))
		}
		return
	}
	row, in := in.CutTop(nameH, 0)
	draw.TextInTip(dst, r.Name, s.Small(), row, draw.AlignStart, th.TextDim)
	row, in = in.CutTop(whoH, 0)
	draw.TextInTip(dst, who, s.Label(), row, draw.AlignStart, clr)
	if left == "" {
		return
	}
	if in.H < draw.TextHeight(s.Mono()) {
		after(row, draw.Measure(s.Label())(who))
		return
	}
	bar, in := in.CutBottom(s.U(3), s.U(2))
	row, _ = in.CutTop(math.Min(in.H, nameH), 0)
	draw.TextInTip(dst, "PX "+left, s.Mono(), row, draw.AlignStart, th.TextDim)
	if r.PX > 0 {
		draw.FillRect(dst, bar, th.Panel)
		f := math.Max(0, math.Min(1, float64(r.Left)/float64(r.PX)))
		draw.FillRect(dst, ui.Rect{X: bar.X, Y: bar.Y, W: math.Round(bar.W * f), H: bar.H}, clr)
	}
}

// redisIndex is the index of the Redis node called name, or -1.
func (w *World) redisIndex(name string) int {
	for i, r := range w.view.Redis {
		if r.Name == name {
			return i
		}
	}
	return -1
}
