package game

import (
	"math"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// layout places panes and actors for the current snapshot.
func (w *worldView) layout() {
	v, u := w.view, w.unit
	px := func(x float64) float64 { return math.Round(x * u) }
	w.actors = w.actors[:0]
	w.panes, w.shard, w.chart = nil, nil, ui.Rect{}
	w.fencing.Rect, w.idem.Rect = ui.Rect{}, ui.Rect{}
	w.single = len(v.Groups) <= 1 && len(v.Workers) == 0
	if w.single {
		area := w.area
		if w.lab.Sweep() != nil {
			// The sweep chart takes the right part of the world.
			var chart ui.Rect
			chart, area = area.CutRight(math.Round(area.W*0.42), 0)
			w.chart = chart.Inset(px(14))
		}
		w.geom = ui.LayoutWorld(area, u, len(v.Procs))
		w.caption, w.legend = w.geom.Caption, w.geom.Legend
		for i, p := range v.Procs {
			c := w.geom.Procs[i]
			w.actors = append(w.actors, actor{Actor: lab.Actor{Name: p.Name, Proc: i, Worker: -1},
				hit: ui.Rect{X: c.X - w.geom.Ring, Y: c.Y - w.geom.Ring, W: 2 * w.geom.Ring, H: w.geom.Badges[i].MaxY() - c.Y + w.geom.Ring}})
		}
		switch {
		case v.Store != nil && w.allows(lessons.CtlFencing):
			w.fencing.Rect = w.toggleRect(w.geom.Store)
		case v.Queue != nil && w.allows(lessons.CtlIdem):
			w.idem.Rect = w.toggleRect(w.geom.Store)
		}
		return
	}
	var body ui.Rect
	w.caption, body, w.legend = ui.WorldFrame(w.area, u)
	var weights []float64
	for _, g := range v.Groups {
		weights = append(weights, 0.6+0.12*float64(len(g.Procs)))
	}
	if len(v.Workers) > 0 {
		weights = append(weights, 0.9+0.02*float64(min(len(v.Shards), 40)))
	}
	rects := ui.SplitPanes(body, u, weights...)
	for gi, g := range v.Groups {
		pg := ui.LockPaneGeom(rects[gi], u, len(g.Procs))
		w.panes = append(w.panes, pane{area: rects[gi], group: gi, geom: pg})
	}
	// Actors: processes in view order, found in their pane.
	for i, p := range v.Procs {
		for _, pn := range w.panes {
			for k, pi := range v.Groups[pn.group].Procs {
				if pi == i {
					c, r := pn.geom.Procs[k], pn.geom.Ring
					w.actors = append(w.actors, actor{Actor: lab.Actor{Name: p.Name, Proc: i, Worker: -1},
						hit: ui.Rect{X: c.X - r, Y: c.Y - r, W: 2 * r, H: pn.geom.Badges[k].MaxY() - c.Y + r}})
				}
			}
		}
	}
	if len(v.Workers) > 0 {
		sa := rects[len(rects)-1]
		w.shard = &shardPane{area: sa, geom: ui.LayoutShards(sa, u, len(v.Workers), len(v.Shards))}
		for i, wk := range v.Workers {
			w.actors = append(w.actors, actor{Actor: lab.Actor{Name: wk.Name, Proc: -1, Worker: i}, hit: w.shard.geom.Workers[i]})
		}
		if v.Offsets != nil && w.allows(lessons.CtlFencing) {
			w.fencing.Rect = w.toggleRect(w.shard.geom.Store)
		}
	}
}

// toggleRect is a switch at the right end of a resource box.
func (w *worldView) toggleRect(box ui.Rect) ui.Rect {
	px := func(x float64) float64 { return math.Round(x * w.unit) }
	in := box.Inset(px(10))
	r, _ := in.CutRight(px(170), 0)
	if box.W < px(330) {
		// Narrow: just the switch, at the right of the title row.
		return ui.Rect{X: in.MaxX() - px(44), Y: box.Y + px(5), W: px(44), H: px(26)}
	}
	r.W = px(48)
	r.H = px(28)
	r.Y = math.Round(in.Y + (in.H-r.H)/2)
	if box.H < px(64) {
		r.Y = math.Round(box.Y + (box.H-r.H)/2)
	}
	return r
}

// layoutMenu rebuilds the selected actor's action menu.
func (w *worldView) layoutMenu() {
	w.menu, w.menuBox = nil, ui.Rect{}
	if w.selected < 0 || w.selected >= len(w.actors) {
		w.buttons = nil
		return
	}
	// The snapshot is the one drawn; the action applies now.
	v := w.view
	v.Now = w.lab.Now()
	w.menu = lab.ChoicesFor(w.lab.Lesson, v, w.actors[w.selected].Actor, w.token)
	if len(w.menu) == 0 {
		w.buttons = nil
		return
	}
	face := draw.SharedFonts().Face(draw.Bold, 14*w.unit)
	width := 0.0
	for _, m := range w.menu {
		width = math.Max(width, draw.Measure(face)(m.Label)+28*w.unit)
	}
	box, items := ui.PopoverNear(w.area, w.actors[w.selected].hit, len(w.menu), w.unit, width)
	w.menuBox = box
	if len(w.buttons) != len(w.menu) {
		w.buttons = make([]ui.Button, len(w.menu))
	}
	w.hl = min(max(w.hl, 0), len(w.menu)-1)
	for i := range w.menu {
		w.buttons[i].Rect, w.buttons[i].Label = items[i], w.menu[i].Label
		f := ui.NoFocus
		if i == w.hl {
			f = ui.FocusVisible
		}
		w.buttons[i].SetFocus(f)
	}
}
