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
	var weights []float64
	for _, g := range s.Groups {
		weights = append(weights, 0.6+0.12*float64(len(g)))
	}
	if s.Workers > 0 {
		weights = append(weights, 0.9+0.02*float64(min(s.Shards, 40)))
	}
	rects := SplitPanes(body, u, weights...)
	for gi, g := range s.Groups {
		v.Panes = append(v.Panes, rects[gi])
		v.PaneGeom = append(v.PaneGeom, LockPaneGeom(rects[gi], u, len(g)))
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
