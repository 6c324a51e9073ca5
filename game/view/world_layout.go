package view

import (
	"math"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// layout places panes and actors for the current snapshot
// (ui.LayoutWorldView).
func (w *World) layout() {
	v := w.view
	shape, fencing, idem := w.shape(v, w.unit)
	g := ui.LayoutWorldView(w.area, w.unit, shape)
	w.single, w.geom, w.caption, w.legend, w.chart = g.Single, g.Geom, g.Caption, g.Legend, g.Chart
	w.panes, w.shard = nil, nil
	for gi := range g.Panes {
		w.panes = append(w.panes, pane{area: g.Panes[gi], group: gi, geom: g.PaneGeom[gi]})
	}
	if g.Shard != nil {
		w.shard = &shardPane{area: g.ShardArea, geom: *g.Shard}
	}
	w.actors = w.actors[:0]
	for i, p := range v.Procs {
		if !g.ProcHits[i].Empty() {
			w.actors = append(w.actors, actor{Actor: lab.Actor{Name: p.Name, Proc: i, Worker: -1}, hit: g.ProcHits[i]})
		}
	}
	for i, wk := range v.Workers {
		w.actors = append(w.actors, actor{Actor: lab.Actor{Name: wk.Name, Proc: -1, Worker: i}, hit: g.WorkerHits[i]})
	}
	if len(v.Redis) > 0 && g.Single {
		// Redlock's servers are actors too: crash one, or jump its clock.
		for i, c := range RedisCells(g.Geom.Coord, w.unit, len(v.Redis)) {
			r := v.Redis[i]
			w.actors = append(w.actors, actor{Actor: lab.Actor{Name: r.Name, Proc: -1, Worker: -1, Node: r.Name}, hit: c})
		}
	}
	if len(v.Members) > 0 && g.Single {
		// A cluster's members are actors too: crash, pause, cut off, slow
		// down or read from one.
		for i, c := range MemberCells(g.Geom.Coord, w.unit, len(v.Members)) {
			m := v.Members[i]
			w.actors = append(w.actors, actor{Actor: lab.Actor{Name: m.Name, Proc: -1, Worker: -1, Member: m.Name}, hit: c})
		}
	}
	w.fencing.Rect, w.idem.Rect = ui.Rect{}, ui.Rect{}
	if fencing {
		w.fencing.Rect = g.Switch
	} else if idem {
		w.idem.Rect = g.Switch
	}
}

// shape is the shape of world v laid out with unit u, and whether its
// store carries the fencing switch or the idempotency switch.
func (w *World) shape(v lab.WorldView, u float64) (shape ui.WorldShape, fencing, idem bool) {
	shape = ui.WorldShape{Procs: len(v.Procs), Workers: len(v.Workers), Shards: len(v.Shards), Chart: w.lab.Sweep() != nil}
	for _, g := range v.Groups {
		shape.Groups = append(shape.Groups, g.Procs)
	}
	single := len(v.Groups) <= 1 && len(v.Workers) == 0
	fencing = w.allows(lessons.CtlFencing) && (single && v.Store != nil || !single && len(v.Workers) > 0 && v.Offsets != nil)
	idem = single && !fencing && v.Queue != nil && w.allows(lessons.CtlIdem)
	shape.Switch = fencing || idem
	s := draw.NewStyle(u)
	shape.Badges = badgeNeeds(s, v)
	shape.Lines = badgeLines(s, v)
	return shape, fencing, idem
}

// MinHeight is the least height of the world's area, width wide, for
// its lock groups to show whole when they wrap to rows (ui.WorldMinH):
// 0 for a world that takes what it is given.
func (w *World) MinHeight(width float64, s draw.Style) float64 {
	shape, _, _ := w.shape(w.lab.World(), s.Unit)
	return ui.WorldMinH(width, s.Unit, shape)
}

// ClearHeight is MinHeight, and for a single lock world the height at
// which its state badges end clear of the store's card (ui.LockWorldMinH).
func (w *World) ClearHeight(width float64, s draw.Style) float64 {
	shape, _, _ := w.shape(w.lab.World(), s.Unit)
	if len(shape.Groups) > 1 || shape.Workers > 0 {
		return ui.WorldMinH(width, s.Unit, shape)
	}
	if shape.Chart {
		width -= math.Round(width * 0.42) // the sweep chart's (ui.LayoutWorldView)
	}
	return ui.LockWorldMinH(width, s.Unit, shape.Procs, shape.Badges)
}

// layoutMenu rebuilds the selected actor's action menu.
func (w *World) layoutMenu() {
	w.menu, w.menuBox = nil, ui.Rect{}
	if w.selected < 0 || w.selected >= len(w.actors) {
		w.buttons = nil
		return
	}
	// The menu declared at the last layout: the one drawn, and the one
	// the page lists.
	if w.selected < len(w.choices) {
		w.menu = w.choices[w.selected]
	}
	if len(w.menu) == 0 {
		w.buttons = nil
		return
	}
	face := draw.SharedFonts().Face(draw.Bold, 14*w.unit)
	width := 0.0
	labels := make([]string, len(w.menu))
	for i := range w.menu {
		c, _ := w.decls.Find(w.MenuID(i))
		labels[i] = c.CanvasLabel()
		width = math.Max(width, draw.Measure(face)(labels[i])+28*w.unit)
	}
	box, items := ui.PopoverNear(w.area, w.actors[w.selected].hit, len(w.menu), w.unit, width)
	if box.MaxY() > w.area.MaxY() && !w.menuRoom.Empty() {
		// Too tall for the world: over the timeline too, drawn on top.
		box, items = ui.PopoverNear(w.menuRoom, w.actors[w.selected].hit, len(w.menu), w.unit, width)
	}
	w.menuBox = box
	if len(w.buttons) != len(w.menu) {
		w.buttons = make([]ui.Button, len(w.menu))
	}
	w.hl = min(max(w.hl, 0), len(w.menu)-1)
	for i := range w.menu {
		w.buttons[i].Rect, w.buttons[i].Label = items[i], labels[i]
		f := ui.NoFocus
		if i == w.hl {
			f = ui.FocusVisible
		}
		w.buttons[i].SetFocus(f)
	}
}

// badgeLines is, per lock group of v, the widest name a badge of two
// lines of its processes holds (drawProcess): one that may not fit in
// the smallest rings a lock pane draws (ui.LockPaneGeom's); 0 where
// every name fits in its circle. (The state under it is shorter: a
// state's words, or a leader's word alone where its token does not fit.)
func badgeLines(s draw.Style, v lab.WorldView) []float64 {
	m := draw.Measure(s.Small())
	ring := s.U(16)
	room := nameRoom(s, ring, ring-s.U(14), ringWidth(s, ring)) - s.U(2)
	out := make([]float64, len(v.Groups))
	for gi, g := range v.Groups {
		for _, i := range g.Procs {
			if w := m(v.Procs[i].Name); w > room {
				out[gi] = math.Max(out[gi], w)
			}
		}
	}
	return out
}

// badgeNeeds is what the state badges of world v may need (see
// ui.Badges): a badge of two lines (drawProcess's name over a leader's
// state) wherever a badge is narrower than the widest name beside a
// leader's short state, "api-3 · leader 43".
func badgeNeeds(s draw.Style, v lab.WorldView) ui.Badges {
	b := ui.Badges{Two: TwoLineBadgeH(s)}
	for _, p := range v.Procs {
		label := p.Name + " · " + lab.LeaderBadge(v.Words, max(p.Token, 99), func(string) bool { return false })
		b.OneW = math.Max(b.OneW, draw.Measure(s.Small())(label)+s.U(6))
	}
	return b
}
