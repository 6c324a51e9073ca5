package ui

import "math"

// WorldFrame splits the world region into its caption row (title and
// clock), a legend row at the bottom and the body between them.
func WorldFrame(area Rect, u float64) (caption, body, legend Rect) {
	px := func(v float64) float64 { return math.Round(v * u) }
	in := area.Inset(px(14))
	caption, in = in.CutTop(px(20), px(6))
	legend, body = in.CutBottom(px(18), px(8))
	return caption, body, legend
}

// SplitPanes cuts r into side-by-side panes whose widths follow weights,
// separated by gap units; every edge is on a whole pixel.
func SplitPanes(r Rect, u float64, weights ...float64) []Rect {
	g := math.Round(14 * u)
	total := 0.0
	for _, w := range weights {
		total += w
	}
	free := r.W - g*float64(len(weights)-1)
	out := make([]Rect, len(weights))
	x, acc := r.X, 0.0
	for i, w := range weights {
		acc += w
		end := math.Round(r.X + free*acc/total + g*float64(i))
		if i == len(weights)-1 {
			end = r.MaxX()
		}
		out[i] = Rect{X: x, Y: r.Y, W: end - x, H: r.H}
		x = end + g
	}
	return out
}

// SplitRows cuts r into n rows of one height, separated by gap units;
// every edge is on a whole pixel.
func SplitRows(r Rect, u float64, n int) []Rect {
	g := math.Round(14 * u)
	out := make([]Rect, n)
	y := r.Y
	for i := range n {
		end := math.Round(r.Y + (r.H-g*float64(n-1))*float64(i+1)/float64(n) + g*float64(i))
		if i == n-1 {
			end = r.MaxY()
		}
		out[i] = Rect{X: r.X, Y: y, W: r.W, H: end - y}
		y = end + g
	}
	return out
}

// LockPaneGeom places one lock's coordinator box and its contenders in a
// pane (with no store band): a lock group inside a larger world.
func LockPaneGeom(area Rect, u float64, n int) WorldGeom {
	px := func(v float64) float64 { return math.Round(v * u) }
	return lockPane(area, u, n, math.Min(px(118), math.Round(area.H*0.42)), px(26), px(22)+px(6))
}

// rowPaneGeom is LockPaneGeom for a pane in one of several rows of lock
// groups, as short as lockPaneMinH: the rings leave room under them for
// badges of two lines where b says they may take two, and where the pane
// is short for that the card gives up its empty room (down to its title
// and holder), then the room above the rings for a tag (the game draws
// it beside the rings then, TagAbove), and the rings shrink.
func rowPaneGeom(area Rect, u float64, n int, b Badges) WorldGeom {
	px := func(v float64) float64 { return math.Round(v * u) }
	coordH, gap := math.Min(px(118), math.Round(area.H*0.42)), px(TagH+6)
	under := px(22) + px(6)
	if slot := area.W / float64(max(n, 1)); math.Min(slot-badgeGap(slot, u), px(150)) < b.OneW {
		under = math.Max(under, b.Two+px(6))
	}
	if short := coordH + gap + 2*px(minPaneRing) + under - area.H; n > 0 && short > 0 {
		// Shorter than lockPaneMinH (a world that did not get its least
		// height): then the gap between the rings and a badge of two
		// lines (which starts under the rings, twoLineBadge), and more
		// of the room above them, the rings shrinking too.
		for _, give := range []struct {
			h     *float64
			floor float64
		}{{&coordH, px(paneCardMinH)}, {&gap, px(12)}, {&under, math.Max(px(22)+px(6), b.Two)}, {&gap, px(6)}} {
			cut := math.Max(0, math.Min(short, *give.h-give.floor))
			*give.h, short = *give.h-cut, short-cut
		}
	}
	return lockPane(area, u, n, coordH, gap, under)
}

const (
	// paneCardMinH is the least height, in units, of a lock pane's card:
	// its title and its holder's line.
	paneCardMinH = 62
	// minPaneRing is the least ring radius, in units, of a process in a
	// lock pane in rows.
	minPaneRing = 20
)

// lockPaneMinH is the least height of a lock pane in rows (rowPaneGeom)
// whose processes' badges may take two lines as b says.
func lockPaneMinH(u float64, b Badges) float64 {
	px := func(v float64) float64 { return math.Round(v * u) }
	under := math.Max(px(22)+px(6), math.Ceil(b.Two)+px(6))
	return px(paneCardMinH) + px(12) + 2*px(minPaneRing) + under
}

// lockPane places a lock's card coordH tall at the top of area, gap above
// the row of n processes whose rings leave under room for their badges.
func lockPane(area Rect, u float64, n int, coordH, gap, under float64) WorldGeom {
	px := func(v float64) float64 { return math.Round(v * u) }
	g := WorldGeom{Area: area}
	in := area
	// Room above the rings for a "paused" or "crashed" tag.
	g.Coord, in = in.CutTop(coordH, gap)
	if n < 1 {
		return g
	}
	badgeH := px(22)
	slot := in.W / float64(n)
	g.Ring = math.Max(px(16), math.Min(math.Min(px(46), slot*0.32), (in.H-under)/2))
	g.R = g.Ring - px(14)
	cy := in.Y + math.Max(g.Ring, (in.H-under)/2)
	for i := range n {
		c := Point{X: math.Round(in.X + slot*(float64(i)+0.5)), Y: math.Round(cy)}
		g.Procs = append(g.Procs, c)
		bw := math.Min(slot-badgeGap(slot, u), px(150))
		g.Badges = append(g.Badges, Rect{X: math.Round(c.X - bw/2), Y: c.Y + g.Ring + px(6), W: bw, H: badgeH})
	}
	return g
}

// PopoverNear places a vertical menu of n buttons beside the rectangle
// anchor, inside area: right of it if it fits, else left, else below.
// Width is the buttons' width in pixels (at least 150 units, at most
// what fits in area).
func PopoverNear(area, anchor Rect, n int, u, width float64) (box Rect, items []Rect) {
	px := func(v float64) float64 { return math.Round(v * u) }
	w, h := math.Round(math.Min(math.Max(width, px(150)), area.W-px(24))), px(34)
	gapY := px(6)
	box = Rect{W: w + 2*px(8), H: float64(n)*h + float64(n-1)*gapY + 2*px(8)}
	box.X = anchor.MaxX() + px(10)
	if box.MaxX() > area.MaxX()-px(4) {
		box.X = anchor.X - px(10) - box.W
	}
	box.Y = anchor.Center().Y - box.H/2
	box.X = clamp(box.X, area.X+px(4), area.MaxX()-box.W-px(4))
	box.Y = clamp(box.Y, area.Y+px(4), area.MaxY()-box.H-px(4))
	box.X, box.Y = math.Round(box.X), math.Round(box.Y)
	in := box.Inset(px(8))
	for range n {
		var r Rect
		r, in = in.CutTop(h, gapY)
		items = append(items, r)
	}
	return box, items
}

// ShardGeom is a pane of shard workers: the coordinator's summary with its
// load sparkline, the shard map as a grid of cells, the workers as a row
// of chips, and the offset store.
type ShardGeom struct {
	Area    Rect
	Coord   Rect // coordinator summary
	Spark   Rect // load sparkline inside Coord
	Grid    Rect
	Cells   []Rect // one per shard
	Workers []Rect // one chip per worker
	Store   Rect   // the offset store
}

// LayoutShards lays out a pane of workers and shards: the coordinator and
// the offset store side by side on top, then the shard grid, with the
// worker chips beside it in a wide pane or under it in a narrow one.
func LayoutShards(area Rect, u float64, workers, shards int) ShardGeom {
	px := func(v float64) float64 { return math.Round(v * u) }
	g := ShardGeom{Area: area}
	in := g.layoutCards(area, px)
	if workers > 0 {
		in = g.layoutWorkers(in, px, workers)
	}
	g.Grid = in
	if shards > 0 && !in.Empty() {
		g.layoutCells(in, px, shards)
	}
	return g
}

// layoutCards places the coordinator's and the store's cards (and the
// coordinator's sparkline) at the top of area, and returns what is left.
func (g *ShardGeom) layoutCards(area Rect, px func(float64) float64) (in Rect) {
	if area.W >= px(520) {
		// As tall as the store's lines: three in a column where its card
		// is under 330 units wide (the browser's canvas beside the page's
		// panel), else two.
		least := px(48)
		if area.W-math.Round(area.W*0.55)-px(10) < px(330) {
			least = px(66)
		}
		var top Rect
		top, in = area.CutTop(math.Max(least, math.Min(px(56), math.Round(area.H*0.3))), px(10))
		g.Coord, g.Store = top.CutLeft(math.Round(top.W*0.55), px(10))
	} else {
		// Narrow: the coordinator and the store stacked, full width, each
		// at least as tall as its lines (the store's three in a column:
		// its name, the fencing state, its counts).
		g.Coord, in = area.CutTop(math.Max(px(48), math.Min(px(56), math.Round(area.H*0.22))), px(8))
		storeH := px(48)
		if area.W < px(330) {
			storeH = px(66)
		}
		g.Store, in = in.CutTop(math.Max(storeH, math.Min(px(50), math.Round(area.H*0.2))), px(10))
	}
	_, g.Spark = g.Coord.InsetXY(px(8), px(6)).CutLeft(math.Round(g.Coord.W*0.42), px(8))
	return in
}

// layoutWorkers places the worker chips: a column (or a few) on the
// right of in, where the chips are wide enough to name their workers
// ("03"), a little shorter if that lets them stack; else a band under the
// grid (twelve chips in a phone's side column were slivers). It returns
// what is left for the grid.
func (g *ShardGeom) layoutWorkers(in Rect, px func(float64) float64, workers int) Rect {
	chipH, gp := px(30), px(6)
	side, ok := Rect{}, false
	if in.W > 1.6*in.H && in.W >= px(420) {
		for h := chipH; h >= px(22) && !ok; h -= px(2) {
			perCol := max(1, int((in.H+gp)/(h+gp)))
			cols := (workers + perCol - 1) / perCol
			need := float64(cols)*px(MinWorkerChipW) + float64(cols-1)*gp
			if need <= math.Round(in.W*0.55) {
				side, in = in.CutRight(math.Max(need, math.Round(math.Min(in.W*0.34, px(330)))), px(12))
				chipH, ok = h, true
			}
		}
	}
	if ok {
		perCol := max(1, int((side.H+gp)/(chipH+gp)))
		cols := (workers + perCol - 1) / perCol
		w := math.Floor((side.W - float64(cols-1)*gp) / float64(cols))
		for i := range workers {
			c, r := i%cols, i/cols
			g.Workers = append(g.Workers, Rect{X: side.X + float64(c)*(w+gp), Y: side.Y + float64(r)*(chipH+gp), W: w, H: chipH})
		}
		return in
	}
	// One row if every chip keeps room for its number (closer together
	// if need be), else rows of half as many, and so on.
	perRow := workers
	chipW := func(gp float64) float64 { return (in.W - float64(perRow-1)*gp) / float64(perRow) }
	if chipW(gp) < px(MinWorkerChipW) && chipW(px(3)) >= px(MinWorkerChipW) {
		gp = px(3)
	}
	for perRow > 1 && chipW(gp) < px(MinWorkerChipW) {
		perRow = (perRow + 1) / 2
	}
	rows := (workers + perRow - 1) / perRow
	var band Rect
	band, in = in.CutBottom(float64(rows)*chipH+float64(rows-1)*gp, px(10))
	w := math.Min(math.Floor((band.W-float64(perRow-1)*gp)/float64(perRow)), px(170))
	left := band.X + math.Floor((band.W-(float64(perRow)*w+float64(perRow-1)*gp))/2)
	for i := range workers {
		r, c := i/perRow, i%perRow
		g.Workers = append(g.Workers, Rect{X: left + float64(c)*(w+gp), Y: band.Y + float64(r)*(chipH+gp), W: w, H: chipH})
	}
	return in
}

// layoutCells fills in with the squarest grid of shards cells whose
// cells are at most 2:1 wide.
func (g *ShardGeom) layoutCells(in Rect, px func(float64) float64, shards int) {
	cols := shards
	for c := 1; c <= shards; c++ {
		rows := (shards + c - 1) / c
		if in.W/float64(c) <= 2*in.H/float64(rows) {
			cols = c
			break
		}
	}
	rows := (shards + cols - 1) / cols
	ch := math.Min(math.Floor(in.H/float64(rows)), px(40))
	cw := math.Min(math.Floor(in.W/float64(cols)), 2*ch)
	x0 := in.X + math.Floor((in.W-cw*float64(cols))/2)
	for i := range shards {
		r, c := i/cols, i%cols
		g.Cells = append(g.Cells, Rect{X: x0 + float64(c)*cw, Y: in.Y + float64(r)*ch, W: cw - 1, H: ch - 1})
	}
}

// MinWorkerChipW is the narrowest worker chip, in units: room for its
// colour swatch and its number.
const MinWorkerChipW = 38

// HitWorker returns the worker chip under p, or -1.
func (g ShardGeom) HitWorker(p Point) int {
	for i, r := range g.Workers {
		if r.Contains(p) {
			return i
		}
	}
	return -1
}
