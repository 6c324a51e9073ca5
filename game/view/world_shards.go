package view

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// ownerColours tell workers apart; every cell also carries its owner's
// number, so nothing rests on colour alone.
var ownerColours = []color.RGBA{
	{0x5a, 0xa9, 0xff, 0xff}, {0x4c, 0xc3, 0x8a, 0xff}, {0xf0, 0xa4, 0x3a, 0xff}, {0xb4, 0x8c, 0xff, 0xff},
	{0x4f, 0xd1, 0xc5, 0xff}, {0xff, 0x8f, 0xab, 0xff}, {0xc9, 0xd4, 0x5c, 0xff}, {0x8f, 0xa8, 0xc8, 0xff},
	{0xe0, 0x7b, 0x4f, 0xff}, {0x7c, 0x9c, 0xff, 0xff}, {0x9f, 0xd9, 0x6b, 0xff}, {0xd0, 0x8c, 0xd9, 0xff},
}

func ownerColour(i int) color.RGBA {
	c := ownerColours[i%len(ownerColours)]
	// Dark enough for light text: Text on each reads at 4.5:1 or more.
	dark := func(v uint8, lift float64) uint8 { return uint8(float64(v)*0.44 + lift) }
	c.R, c.G, c.B = dark(c.R, 0x10), dark(c.G, 0x10), dark(c.B, 0x14)
	return c
}

// ownerPattern marks a shard cell (or a worker's swatch) with its
// owner's pattern, so owners differ by shape as well as colour where a
// cell is too small for a label.
func ownerPattern(dst *ebiten.Image, s draw.Style, r ui.Rect, owner int) {
	clr := color.RGBA{0xec, 0xf0, 0xf4, 0xb0}
	c := r.Center()
	w := math.Max(1, s.U(1.2))
	switch owner % 4 {
	case 1:
		draw.Line(dst, ui.Point{X: r.X + 1, Y: r.MaxY() - 1}, ui.Point{X: r.MaxX() - 1, Y: r.Y + 1}, w, clr)
	case 2:
		draw.Line(dst, ui.Point{X: r.X + 1, Y: c.Y}, ui.Point{X: r.MaxX() - 1, Y: c.Y}, w, clr)
	case 3:
		draw.FillCircle(dst, c, math.Max(1, math.Min(r.W, r.H)*0.18), clr)
	}
}

// ShortWorker is a worker's number: "worker-03" -> "03".
func ShortWorker(name string) string {
	if i := strings.LastIndex(name, "-"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// drawShardPane draws the shard workers' pane: the coordinator's card,
// the offset store's, the shard map and a chip for each worker.
func (w *World) drawShardPane(dst *ebiten.Image, s draw.Style) {
	w.drawShardCoordinator(dst, s)
	w.drawOffsetStore(dst, s)
	w.drawShardMap(dst, s)
	w.drawWorkerChips(dst, s)
}

// drawShardCoordinator draws the coordinator's summary (its revision,
// the shards held or the ACL's denials, a note) and its load sparkline.
func (w *World) drawShardCoordinator(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	g := w.shard.geom
	v := w.view
	box := g.Coord
	s.Card(dst, box)
	in := box.InsetXY(s.U(10), s.U(6))
	text1, _ := in.CutLeft(g.Spark.X-in.X-s.U(6), 0)
	row, rest := text1.CutTop(s.U(18), s.U(2))
	draw.FirstFitInTip(dst, fmt.Sprintf("Coordinator · rev %d", v.Rev), []string{"Coordinator", fmt.Sprintf("rev %d", v.Rev)}, s.Label(), row, draw.AlignStart, th.Text)
	held := 0
	for _, o := range v.Shards {
		if o >= 0 {
			held++
		}
	}
	line := fmt.Sprintf("%d/%d shards held", held, len(v.Shards))
	shorter := []string{fmt.Sprintf("%d/%d shards", held, len(v.Shards)), fmt.Sprintf("%d/%d held", held, len(v.Shards)), fmt.Sprintf("%d/%d", held, len(v.Shards))}
	if v.Denied > 0 {
		line, shorter = fmt.Sprintf("ACL denied: %d", v.Denied), []string{fmt.Sprintf("denied %d", v.Denied)}
	}
	row, rest = rest.CutTop(s.U(16), 0)
	clr := th.TextDim
	if v.Denied > 0 {
		clr = th.Reject
	}
	draw.FirstFitInTip(dst, line, shorter, s.Small(), row, draw.AlignStart, clr)
	if rest.H >= s.U(14) {
		row, _ = rest.CutTop(s.U(16), 0)
		switch {
		case v.Denied > 0:
			draw.ClausesInTip(dst, v.LastDenied, s.Small(), row, draw.AlignStart, th.TextDim)
		case len(v.Notes) > 0:
			drawNote(dst, s, v.Notes[0].Key, v.Notes[0].Value, row, th.TextDim)
		}
	}
	w.drawSpark(dst, s, g.Spark)
}

// drawOffsetStore draws the offset store's card: the fencing state, the
// rejected and stale writes, and the fencing switch.
func (w *World) drawOffsetStore(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	box := w.shard.geom.Store
	v := w.view
	s.Card(dst, box)
	narrow := box.W < s.U(330)
	if o := v.Offsets; o != nil {
		in := box.InsetXY(s.U(10), s.U(6))
		left := in
		if !w.fencing.Rect.Empty() {
			left, _ = in.CutLeft(w.fencing.Rect.X-in.X-s.U(6), 0)
		}
		row, rest := left.CutTop(s.U(18), s.U(2))
		draw.TextIn(dst, "Offset store", s.Label(), row, draw.AlignStart, th.Text)
		row, rest = rest.CutTop(s.U(16), s.U(2))
		if narrow || w.fencing.Rect.Empty() {
			// No switch, or no room for words beside it: the fencing
			// state in words, leading the counts' row, or on a row of
			// its own over them where the card is narrow.
			word, clr := "fencing on:", th.Text
			if !o.Fencing {
				word, clr = "fencing OFF:", th.Warning
			}
			row = ui.Rect{X: in.X, Y: row.Y, W: in.W, H: row.H}
			ww := draw.Measure(s.Small())(word) + s.U(8)
			if narrow && !rest.Empty() {
				draw.TextIn(dst, strings.TrimSuffix(word, ":"), s.Small(), row, draw.AlignStart, clr)
				row, _ = rest.CutTop(s.U(16), 0)
				row = ui.Rect{X: in.X, Y: row.Y, W: in.W, H: row.H}
			} else {
				draw.TextIn(dst, word, s.Small(), row, draw.AlignStart, clr)
				row.X, row.W = row.X+ww, row.W-ww
			}
		}
		x := row.X
		mark := func(n int, word string, danger bool) {
			c := ui.Point{X: x + s.U(6), Y: row.Y + row.H/2}
			if danger {
				s.Danger(dst, c, s.U(12))
			} else {
				s.Verdict(dst, c, s.U(12), false)
			}
			// The count alone where its word does not fit (the mark
			// says which; the whole on hover).
			label, box := fmt.Sprintf("%d %s", n, word), ui.Rect{X: x + s.U(17), Y: row.Y, W: math.Max(0, row.MaxX()-x-s.U(17)), H: row.H}
			shown := draw.FirstFit(label, []string{fmt.Sprint(n)}, s.Small(), box.W)
			draw.ShortInTip(dst, label, shown, s.Small(), box, draw.AlignStart, th.Text)
			x += s.U(28) + draw.Measure(s.Small())(shown)
		}
		mark(o.Rejected, "rejected", false)
		if x < row.MaxX()-s.U(40) {
			mark(o.StaleAccepted, "stale taken", true)
		}
		if !w.fencing.Rect.Empty() {
			if narrow {
				s.Toggle(dst, &w.fencing)
			} else {
				w.drawSwitch(dst, s, &w.fencing, "fencing on", "fencing OFF")
			}
		}
	}
}

// drawShardMap draws the shard map: each cell in its owner's colour with
// its number, and the map's caption under it where there is room.
func (w *World) drawShardMap(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	g := w.shard.geom
	v := w.view
	// The cells' shapes come first and their labels after, so the shapes go to
	// the GPU as one batch rather than one per cell (a label sits inside
	// its own cell, so the order between cells does not show).
	small := s.Small()
	for pass := range 2 {
		for i, r := range g.Cells {
			owner := -1
			if i < len(v.Shards) {
				owner = v.Shards[i]
			}
			if owner < 0 {
				if pass == 0 {
					draw.StrokeRoundRect(dst, r, s.U(2), s.U(1), th.Border)
				}
				continue
			}
			wk := v.Workers[owner]
			label := r.H >= s.U(13) && r.W >= draw.Measure(small)("00")+s.U(2)
			if pass == 1 {
				if label {
					draw.TextIn(dst, ShortWorker(wk.Name), small, r, draw.AlignCenter, th.Text)
				}
				continue
			}
			draw.FillRoundRect(dst, r, s.U(2), ownerColour(owner))
			if !label {
				ownerPattern(dst, s, r, owner)
			}
			if wk.Paused || wk.Crashed || wk.Cut {
				// Its owner has stopped: the lease is running out.
				draw.StrokeRoundRect(dst, r, s.U(2), math.Max(1, s.U(1.5)), th.Warning)
			}
		}
	}
	if len(g.Cells) > 0 {
		last := g.Cells[len(g.Cells)-1]
		capR := ui.Rect{X: g.Grid.X, Y: last.MaxY() + s.U(2), W: g.Grid.W, H: s.U(16)}
		if capR.MaxY() <= g.Grid.MaxY() {
			draw.FirstFitInTip(dst, "shard map: each cell is a shard key, labelled with the worker the coordinator gave it to",
				[]string{"shard map: each cell is a shard key, labelled with its worker", "each cell: a shard key and its worker", "shard keys and workers"}, s.Small(), capR, draw.AlignCenter, th.TextDim)
		}
	}
}

// drawWorkerChips draws a chip for each worker: its colour and pattern,
// its name, its state and the shards it holds, as much as fits.
func (w *World) drawWorkerChips(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	g := w.shard.geom
	v := w.view
	for i, r := range g.Workers {
		wk := v.Workers[i]
		fill := ownerColour(i)
		if wk.Crashed {
			fill = th.Panel
		}
		draw.FillRoundRect(dst, r, s.U(5), fill)
		sw := ui.Rect{X: r.X + s.U(3), Y: r.Y + s.U(3), W: s.U(8), H: r.H - s.U(6)}
		ownerPattern(dst, s, sw, i)
		sel := w.selected >= 0 && w.actors[w.selected].Worker == i
		if sel {
			draw.StrokeRoundRect(dst, r.Inset(-s.U(3)), s.U(7), s.U(2), th.Focus)
		}
		in := r.InsetXY(s.U(6), 0)
		in.X, in.W = in.X+s.U(8), in.W-s.U(8)
		if in.W <= 0 {
			// A chip too narrow for any word (twelve in a phone's side
			// column) is its colour and pattern: the timeline names it.
			if wk.Crashed {
				c, size := ChipCross(s, r, false)
				draw.CrossMark(dst, c, size, s.U(2), th.Reject)
			}
			continue
		}
		name, right, tagged := chipWords(s, wk, in.W)
		// Its number alone where the whole name does not fit ("03"), the
		// whole name on hover or focus: the chip names its worker.
		draw.ShortInTip(dst, wk.Name, name, s.Label(), in, draw.AlignStart, th.Text)
		clr := th.Text
		if tagged {
			clr = th.Focus
		}
		draw.TextIn(dst, right, s.Small(), in, draw.AlignEnd, clr)
		if wk.Crashed {
			c, size := ChipCross(s, r, true)
			draw.CrossMark(dst, c, size, s.U(2), th.Reject)
		}
	}
}

// ChipCross is where a crashed worker's chip r draws its cross, and how
// big: over its swatch where the chip has words, clear of its name (on
// the chip's centre it struck "03" out), else on its centre.
func ChipCross(s draw.Style, r ui.Rect, words bool) (c ui.Point, size float64) {
	if !words {
		return r.Center(), r.H * 0.8
	}
	return ui.Point{X: r.X + s.U(7), Y: r.Center().Y}, math.Min(r.H*0.8, s.U(16))
}

// chipWords is what a worker's chip of width w says: its name, shortened
// to its number where the whole does not fit, and on the right its state
// and the shards it holds, as much of them as fits; tagged says the right
// names a state.
func chipWords(s draw.Style, wk lab.WorkerView, w float64) (name, right string, tagged bool) {
	small := s.Small()
	name = wk.Name
	count := fmt.Sprintf("%d", wk.Holds)
	if wk.Owned != wk.Holds {
		count = fmt.Sprintf("%d/%d", wk.Holds, wk.Owned)
	}
	tag := ""
	switch {
	case wk.Crashed:
		tag = "crashed"
	case wk.Paused:
		tag = "paused"
	case wk.Cut:
		tag = "cut"
	case wk.HeldUntil > 0:
		tag = "held"
	}
	right = count
	if tag != "" {
		right = tag + " " + count
	}
	fits := func() bool {
		return draw.Measure(s.Label())(name)+draw.Measure(small)(right)+s.U(8) <= w
	}
	if !fits() {
		name = ShortWorker(name)
	}
	if !fits() && tag != "" {
		right = tag
	}
	if !fits() {
		right = count
	}
	if !fits() {
		right = ""
	}
	return name, right, tag != ""
}
