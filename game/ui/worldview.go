package ui

import "math"

// WorldShape is what the world's layout depends on: how many processes,
// which lock group each belongs to, the shard workers and shards, whether
// a chart takes the right of a lock world, and whether the store (the
// fenced store or job queue of a lock world, the shard offsets of a fleet)
// carries a switch the learner may flip.
type WorldShape struct {
	Procs   int
	Groups  [][]int // per lock, the processes (indices) in it
	Workers int
	Shards  int
	Chart   bool
	Switch  bool
	// Badges says when a single lock world's state badges may take two
	// lines.
	Badges Badges
	// Lines are, per lock group of a split world, the widest line a
	// badge of two lines of its processes must hold whole (a name, or a
	// short state). With them the lock groups wrap to rows where one row
	// leaves a process too narrow a slot for its badge; without them
	// they always share one row.
	Lines []float64
}

// WorldView is the world laid out: a single lock world (Geom) or panes
// (one per lock, then the shard workers), the hit box of every process
// (empty for one in no lock group of a split world) and worker, the
// chart and the switch.
type WorldView struct {
	Single          bool
	Geom            WorldGeom // a single lock world
	Caption, Legend Rect
	Panes           []Rect      // one per lock group, in a split world
	PaneGeom        []WorldGeom // each pane's layout
	Shard           *ShardGeom  // the shard workers' pane, if any
	ShardArea       Rect
	ProcHits        []Rect
	WorkerHits      []Rect
	Chart           Rect
	Switch          Rect
}

// LayoutWorldView lays out a world of shape s in area with unit u.
func LayoutWorldView(area Rect, u float64, s WorldShape) WorldView {
	px := func(x float64) float64 { return math.Round(x * u) }
	var v WorldView
	v.Single = len(s.Groups) <= 1 && s.Workers == 0
	if v.Single {
		if s.Chart {
			// The sweep chart takes the right part of the world.
			var chart Rect
			chart, area = area.CutRight(math.Round(area.W*0.42), 0)
			v.Chart = chart.Inset(px(14))
		}
		v.Geom = layoutWorld(area, u, s.Procs, s.Badges)
		v.Caption, v.Legend = v.Geom.Caption, v.Geom.Legend
		for i, c := range v.Geom.Procs {
			r := v.Geom.Ring
			v.ProcHits = append(v.ProcHits, Rect{X: c.X - r, Y: c.Y - r, W: 2 * r, H: v.Geom.Badges[i].MaxY() - c.Y + r})
		}
		if s.Switch {
			v.Switch = switchRect(v.Geom.Store, u)
		}
		return v
	}
	var body Rect
	v.Caption, body, v.Legend = WorldFrame(area, u)
	rects, rows := splitWorld(body, u, s)
	for gi, g := range s.Groups {
		v.Panes = append(v.Panes, rects[gi])
		if rows == 1 {
			v.PaneGeom = append(v.PaneGeom, LockPaneGeom(rects[gi], u, len(g)))
		} else {
			v.PaneGeom = append(v.PaneGeom, rowPaneGeom(rects[gi], u, len(g), s.Badges))
		}
	}
	// Processes in order, found in their pane.
	v.ProcHits = make([]Rect, s.Procs)
	for gi, g := range s.Groups {
		for k, i := range g {
			pg := v.PaneGeom[gi]
			c, r := pg.Procs[k], pg.Ring
			v.ProcHits[i] = Rect{X: c.X - r, Y: c.Y - r, W: 2 * r, H: pg.Badges[k].MaxY() - c.Y + r}
		}
	}
	if s.Workers > 0 {
		v.ShardArea = rects[len(rects)-1]
		sg := LayoutShards(v.ShardArea, u, s.Workers, s.Shards)
		v.Shard = &sg
		v.WorkerHits = sg.Workers
		if s.Switch {
			v.Switch = switchRect(sg.Store, u)
		}
	}
	return v
}

// splitWorld cuts the body of a split world into one pane per lock group
// and, last, the shard workers' pane, and says in how many rows the lock
// groups sit. One row, where every process's slot holds its badge (or s
// has no Lines): side by side, each as wide as its weight. Else the shard
// pane takes a column at the right and the lock groups wrap, in order,
// to as many rows as they need, each row as tall as the others and each
// pane as wide as its processes' slots need.
func splitWorld(body Rect, u float64, s WorldShape) (rects []Rect, rows int) {
	var weights []float64
	for _, g := range s.Groups {
		weights = append(weights, 0.6+0.12*float64(len(g)))
	}
	if s.Workers > 0 {
		weights = append(weights, 0.9+0.02*float64(min(s.Shards, 40)))
	}
	rects = SplitPanes(body, u, weights...)
	if oneRow(s, u, rects) {
		return rects, 1
	}
	left := body
	if s.Workers > 0 {
		var shard Rect
		shard, left = body.CutRight(shardColumnW(body, u, rects[len(rects)-1]), math.Round(14*u))
		rects[len(rects)-1] = shard
	}
	need := paneNeeds(s, u)
	wrap := packRows(need, left.W, math.Round(14*u))
	for ri, row := range SplitRows(left, u, len(wrap)) {
		var w []float64
		for _, gi := range wrap[ri] {
			w = append(w, need[gi])
		}
		for k, r := range SplitPanes(row, u, w...) {
			rects[wrap[ri][k]] = r
		}
	}
	return rects, len(wrap)
}

// oneRow reports whether the lock groups fit one row as panes: every
// process's slot holds its badge, or s has no Lines to say.
func oneRow(s WorldShape, u float64, panes []Rect) bool {
	if len(s.Lines) != len(s.Groups) {
		return true
	}
	for gi, g := range s.Groups {
		if len(g) > 0 && panes[gi].W/float64(len(g)) < slotFor(s.Lines[gi], u) {
			return false
		}
	}
	return true
}

// shardColumnW is the width of the shard workers' column beside lock
// groups in rows: its share of one row (one), but at least the room its
// store card's title and switch need side by side.
func shardColumnW(body Rect, u float64, one Rect) float64 {
	return math.Min(math.Max(one.W, math.Round(160*u)), math.Round(body.W*0.4))
}

// slotFor is the least width of a process's slot in a lock pane whose
// badge of two lines holds a line line wide whole: the badge's insets
// and the gap between badges around it.
func slotFor(line, u float64) float64 {
	return math.Ceil(line) + math.Round(3*u) + badgeGap(0, u) + 1
}

// paneNeeds is, per lock group, the least width of its pane: its slots,
// and room for its card's title.
func paneNeeds(s WorldShape, u float64) []float64 {
	need := make([]float64, len(s.Groups))
	for gi, g := range s.Groups {
		need[gi] = math.Max(float64(len(g))*slotFor(s.Lines[gi], u), math.Round(150*u))
	}
	return need
}

// packRows puts panes of widths need, in order, into rows width wide with
// gap between panes: each row takes as many as fit, and at least one.
func packRows(need []float64, width, gap float64) [][]int {
	var rows [][]int
	used := 0.0
	for i, n := range need {
		if len(rows) == 0 || used+gap+n > width {
			rows = append(rows, []int{i})
			used = n
			continue
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], i)
		used += gap + n
	}
	return rows
}

// WorldMinH is the least height of the world's area, width wide, for a
// split world of shape s to show each lock group's card, rings and
// badges whole: 0 where its lock groups share one row (the world then
// takes what it is given, as it always has).
func WorldMinH(width, u float64, s WorldShape) float64 {
	if len(s.Groups) <= 1 && s.Workers == 0 {
		return 0
	}
	px := func(x float64) float64 { return math.Round(x * u) }
	_, body, _ := WorldFrame(Rect{W: width, H: 1e6}, u)
	_, rows := splitWorld(body, u, s)
	if rows == 1 {
		return 0
	}
	chrome := 1e6 - body.H
	return math.Ceil(chrome + float64(rows)*lockPaneMinH(u, s.Badges) + float64(rows-1)*px(14))
}

// switchRect is a switch at the right end of a resource box.
func switchRect(box Rect, u float64) Rect {
	px := func(x float64) float64 { return math.Round(x * u) }
	in := box.Inset(px(10))
	r, _ := in.CutRight(px(170), 0)
	if box.W < px(330) {
		// Narrow: just the switch, at the right of the title row.
		return Rect{X: in.MaxX() - px(44), Y: box.Y + px(5), W: px(44), H: px(26)}
	}
	r.W = px(48)
	r.H = px(28)
	r.Y = math.Round(in.Y + (in.H-r.H)/2)
	if box.H < px(64) {
		r.Y = math.Round(box.Y + (box.H-r.H)/2)
	}
	return r
}
