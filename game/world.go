package game

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// worldView draws a lesson's world and turns clicks and keys on it into
// learner actions. It reads only the lab's snapshot. A world with one lock
// and no shard workers is drawn as a lock world (coordinator on top,
// processes, store or job queue below); anything else is split into panes:
// one per lock, and one for the shard workers with their shard map.
type worldView struct {
	lab     *lab.Lab
	narrate func(string)

	area    ui.Rect
	unit    float64
	view    lab.WorldView
	reduced bool

	// Layout: single lock world (geom) or panes.
	single  bool
	geom    ui.WorldGeom
	caption ui.Rect
	legend  ui.Rect
	panes   []pane
	shard   *shardPane
	chart   ui.Rect // ttl-tradeoff's sweep chart, empty elsewhere

	// actors are the processes then the shard workers, each with where it
	// is drawn, for hit tests and popovers.
	actors   []actor
	selected int // index into actors, -1 for none
	menu     []lab.Choice
	buttons  []ui.Button
	menuBox  ui.Rect
	hl       int // the popover item the keyboard points at
	fencing  ui.Toggle
	idem     ui.Toggle
	token    int64 // the token "write with token" sends
}

// pane is one lock's group inside a split world.
type pane struct {
	area  ui.Rect
	group int
	geom  ui.WorldGeom
}

type shardPane struct {
	area ui.Rect
	geom ui.ShardGeom
}

// actor is one clickable process or worker, with where it is drawn.
type actor struct {
	lab.Actor
	hit ui.Rect
}

func newWorldView(lb *lab.Lab, narrate func(string)) *worldView {
	return &worldView{lab: lb, narrate: narrate, selected: -1, token: 3}
}

func (w *worldView) allows(c lessons.Control) bool { return slices.Contains(w.lab.Lesson.Controls, c) }

// do applies an action and narrates a refusal.
func (w *worldView) do(a core.Action) {
	if err := w.lab.Do(a); err != nil {
		w.narrate("Could not " + a.String() + ": " + err.Error())
		return
	}
	w.narrate("You: " + a.String())
}

// Modal reports whether the world holds the keyboard (an open menu):
// Enter and Esc then act on the menu, not the player.
func (w *worldView) Modal() bool { return len(w.menu) > 0 }

// Close closes the action menu.
func (w *worldView) Close() { w.selected = -1; w.layoutMenu() }

func (w *worldView) selectActor(i int) {
	w.selected, w.hl = i, 0
	w.layoutMenu()
	a := w.actors[i]
	desc := ""
	if a.Proc >= 0 {
		desc = describeProc(w.view.Procs[a.Proc])
	} else {
		wk := w.view.Workers[a.Worker]
		desc = fmt.Sprintf("owns %d shards (coordinator: %d)", wk.Owned, wk.Holds)
	}
	items := make([]string, len(w.menu))
	for k, m := range w.menu {
		items[k] = m.Label
	}
	w.narrate(fmt.Sprintf("Selected %s: %s. Actions: %s", a.Name, desc, strings.Join(items, "; ")))
}

// activate runs menu item i.
func (w *worldView) activate(i int) {
	m := w.menu[i]
	if m.NextToken {
		w.token = lab.NextToken(w.token)
		w.narrate(fmt.Sprintf("Write with token %d next", w.token))
		w.layoutMenu()
		return
	}
	w.do(m.Action)
	// Close the menu: it would hide what the action sets off.
	w.selected = -1
	w.layoutMenu()
}

// Layout implements View: the world's snapshot, taken once the tick's
// actions and time are applied, placed in area. Update and Draw both read
// this snapshot, so what is drawn is what is clicked.
func (w *worldView) Layout(area ui.Rect, s draw.Style) {
	w.area, w.unit = area, s.Unit
	w.view = w.lab.World()
	w.layout()
	if w.selected >= len(w.actors) {
		w.selected = -1
	}
	w.layoutMenu()
}

// Update implements View: selection, the action menu and the switches,
// on the world as last laid out.
func (w *worldView) Update(st *State) error {
	in := &st.Input
	area := w.area
	w.reduced = st.ReducedMotion
	switch {
	case in.Digit > 0 && in.Digit <= len(w.actors):
		w.selectActor(in.Digit - 1)
	case in.Keys.Has(ui.IntentNextActor) && len(w.actors) > 0:
		w.selectActor((w.selected + 1) % len(w.actors))
	}
	w.layoutMenu()

	// Keys on the open menu: shortcuts, arrows and Enter.
	if len(w.menu) > 0 {
		for i, m := range w.menu {
			if m.Key != 0 && in.Keys.Has(m.Key) {
				w.activate(i)
				return nil
			}
		}
		switch {
		case in.Keys.Has(ui.IntentDown):
			w.hl = (w.hl + 1) % len(w.menu)
		case in.Keys.Has(ui.IntentUp):
			w.hl = (w.hl + len(w.menu) - 1) % len(w.menu)
		case in.Keys.Has(ui.IntentActivate) && w.hl >= 0 && w.hl < len(w.menu):
			w.activate(w.hl)
			return nil
		}
		w.layoutMenu()
	}
	// The menu first: its buttons sit on top of the world.
	for i := range w.buttons {
		if w.buttons[i].Update(in) {
			w.activate(i)
			return nil
		}
	}
	fencingOn, hasFenced := false, false
	switch {
	case w.view.Store != nil:
		fencingOn, hasFenced = w.view.Store.Fencing, true
	case w.view.Offsets != nil:
		fencingOn, hasFenced = w.view.Offsets.Fencing, true
	}
	if hasFenced && w.allows(lessons.CtlFencing) {
		w.fencing.On = fencingOn
		if w.fencing.Update(in) || in.Keys.Has(ui.IntentFencing) {
			w.do(core.Fencing(!fencingOn))
		}
	}
	if w.view.Queue != nil && w.allows(lessons.CtlIdem) {
		w.idem.On = w.view.Queue.Idempotency
		if w.idem.Update(in) || in.Keys.Has(ui.IntentIdem) {
			w.do(core.Idempotency(!w.view.Queue.Idempotency))
		}
	}
	ptr := in.Pointer()
	if ptr.JustDown && area.Contains(ptr.Pos) && !w.menuBox.Contains(ptr.Pos) && !w.fencing.Rect.Contains(ptr.Pos) && !w.idem.Rect.Contains(ptr.Pos) {
		hit := -1
		for i, a := range w.actors {
			if a.hit.Contains(ptr.Pos) {
				hit = i
			}
		}
		if hit >= 0 {
			w.selectActor(hit)
		} else {
			w.selected = -1
			w.layoutMenu()
		}
	}
	return nil
}

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

func describeProc(p lab.ProcView) string {
	s := p.State.String()
	if p.Believes {
		s += fmt.Sprintf(" with token %d", p.Token)
	}
	switch {
	case p.Crashed:
		s += ", crashed"
	case p.Paused:
		s += ", paused"
	}
	return s
}

// Regions names the world's clickable places for tests and the bridge.
func (w *worldView) Regions() map[string]ui.Rect {
	m := map[string]ui.Rect{}
	if w.single {
		m["coordinator"], m["store"] = w.geom.Coord, w.geom.Store
	}
	for _, a := range w.actors {
		m["proc:"+a.Name] = a.hit
	}
	for i, b := range w.buttons {
		m["action:"+w.menu[i].ID] = b.Rect
	}
	if !w.fencing.Rect.Empty() {
		m["fencing"] = w.fencing.Rect
	}
	if !w.idem.Rect.Empty() {
		m["idempotency"] = w.idem.Rect
	}
	if !w.chart.Empty() {
		m["chart"] = w.chart
	}
	return m
}

func (w *worldView) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	th := s.Theme
	v := w.view
	draw.TextIn(dst, "World", s.Label(), w.caption, draw.AlignStart, th.TextDim)
	draw.TextIn(dst, "t = "+core.FormatTime(v.Now), s.Mono(), w.caption, draw.AlignEnd, th.TextDim)
	if w.single {
		w.drawSingle(dst, s)
	} else {
		for _, pn := range w.panes {
			w.drawLockPane(dst, s, pn)
		}
		if w.shard != nil {
			w.drawShardPane(dst, s)
		}
	}
	if !w.chart.Empty() {
		w.drawChart(dst, s)
	}

	// Legend.
	item := func(r ui.Rect, label string, clr color.Color) ui.Rect {
		y := r.Y + r.H/2
		draw.Line(dst, ui.Point{X: r.X, Y: y}, ui.Point{X: r.X + s.U(18), Y: y}, s.U(4), clr)
		_, rest := r.CutLeft(s.U(24), 0)
		draw.TextIn(dst, label, s.Small(), rest, draw.AlignStart, th.TextDim)
		_, next := r.CutLeft(s.U(24)+draw.Measure(s.Small())(label)+s.U(20), 0)
		return next
	}
	r := w.legend
	if len(v.Procs) > 0 {
		r = item(r, "outer ring: the process's own lease clock", th.Belief)
		r = item(r, "inner ring: the coordinator's", th.Truth)
	}
	hint := "click a process to act on it"
	if len(v.Workers) > 0 {
		hint = "click a process or worker (or press 1-9, N) to act"
	}
	if r.W > draw.Measure(s.Small())(hint)+s.U(10) {
		draw.TextIn(dst, hint, s.Small(), r, draw.AlignEnd, th.TextDim)
	}

	// The action menu on top.
	if len(w.buttons) > 0 {
		draw.FillRoundRect(dst, w.menuBox, s.U(8), th.Panel)
		draw.StrokeRoundRect(dst, w.menuBox, s.U(8), s.U(1.5), th.Accent)
		for i := range w.buttons {
			s.Button(dst, &w.buttons[i])
		}
	}
}

// drawSingle draws a lock world: coordinator, processes, store or queue.
func (w *worldView) drawSingle(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	g := w.geom
	v := w.view
	for i, p := range v.Procs {
		c := g.Procs[i]
		a, b := w.coordEnd(i), ui.Point{X: c.X, Y: c.Y - g.Ring}
		if p.Cut {
			dashed(dst, a, b, s.U(2), s.U(8), th.Reject)
			mid := ui.Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
			pill(dst, s, mid, "link cut", th.Reject, th.Background)
		} else {
			draw.Line(dst, a, b, s.U(1.5), th.Border)
		}
		if v.Store != nil || v.Queue != nil {
			draw.Line(dst, w.procBottom(i), w.storeEnd(i), s.U(1.5), th.Border)
		}
	}
	w.drawCoordinator(dst, s, g.Coord, 0, true)
	switch {
	case v.Store != nil:
		w.drawStore(dst, s)
	case v.Queue != nil:
		w.drawQueue(dst, s)
	}
	for i, p := range v.Procs {
		w.drawProcess(dst, s, g.Procs[i], g.Ring, g.R, g.Badges[i], p, w.selected == i)
	}
	w.drawMessages(dst, s)
}

func (w *worldView) coordEnd(i int) ui.Point {
	c := w.geom.Coord
	n := float64(len(w.geom.Procs))
	return ui.Point{X: c.X + c.W*(0.2+0.6*(float64(i)+0.5)/n), Y: c.MaxY()}
}

func (w *worldView) storeEnd(i int) ui.Point {
	st := w.geom.Store
	n := float64(len(w.geom.Procs))
	return ui.Point{X: st.X + st.W*(0.2+0.6*(float64(i)+0.5)/n), Y: st.Y}
}

// procBottom is where a process's link to the store starts: under its badge.
func (w *worldView) procBottom(i int) ui.Point {
	b := w.geom.Badges[i]
	return ui.Point{X: b.Center().X, Y: b.MaxY()}
}

// drawCoordinator draws lock group gi's coordinator box: the lock, its
// holder and, where there is room, its queue of keys.
func (w *worldView) drawCoordinator(dst *ebiten.Image, s draw.Style, box ui.Rect, gi int, showRev bool) {
	th := s.Theme
	v := w.view
	s.Card(dst, box)
	if gi >= len(v.Groups) {
		return
	}
	grp := v.Groups[gi]
	in := box.Inset(s.U(10))
	row, in := in.CutTop(s.U(20), s.U(4))
	title := "Coordinator"
	if !showRev {
		title = grp.Lock.Name
	}
	draw.TextIn(dst, title, s.Label(), row, draw.AlignStart, th.Text)
	if showRev {
		draw.TextIn(dst, fmt.Sprintf("revision %d", v.Rev), s.Mono(), row, draw.AlignEnd, th.TextDim)
	}
	row, in = in.CutTop(s.U(18), s.U(4))
	holder := "free"
	if grp.Lock.Holder != "" {
		holder = fmt.Sprintf("held by %s, token %d", grp.Lock.Holder, grp.Lock.Token)
	} else if grp.Lock.DelayUntil > v.Now {
		holder = "lock-delay until " + core.FormatTime(grp.Lock.DelayUntil)
	}
	line := grp.Lock.Name + ": " + holder
	if !showRev {
		line = holder
	}
	draw.TextIn(dst, line, s.Small(), row, draw.AlignStart, th.Text)
	if len(v.Groups) > 1 && grp.Handovers > 0 && in.H >= s.U(18) {
		// The wake-up count of the last handover: the herd's price.
		row, in = in.CutTop(s.U(18), s.U(4))
		clr := th.Accept
		if grp.Woken > 1 {
			clr = th.Warning
		}
		draw.TextIn(dst, fmt.Sprintf("last handover woke %d of %d waiters", grp.Woken, grp.Waiting), s.Small(), row, draw.AlignStart, clr)
	}
	if !showRev {
		// Keys published next to this lock (a status key), with values.
		parent := grp.Lock.Name[:max(0, strings.LastIndex(grp.Lock.Name, "/")+1)]
		for _, n := range v.Notes {
			if parent != "" && strings.HasPrefix(n.Key, parent) && in.H >= s.U(18) {
				row, in = in.CutTop(s.U(18), s.U(2))
				draw.TextIn(dst, n.Key+" = "+n.Value, s.Small(), row, draw.AlignStart, th.Accept)
			}
		}
	}
	lh := draw.LineHeight(s.Mono())
	for _, k := range grp.Keys {
		if in.H < lh {
			break
		}
		row, in = in.CutTop(lh, 0)
		role := "waits"
		if k.Holder {
			role = "holds"
		}
		line := fmt.Sprintf("rev %-3d %-4s %s", k.CreateRev, k.Owner, role)
		clr := th.TextDim
		if k.Holder {
			clr = th.Truth
		}
		draw.TextIn(dst, line, s.Mono(), row, draw.AlignStart, clr)
	}
}

func (w *worldView) drawStore(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	st := w.view.Store
	box := w.geom.Store
	s.Card(dst, box)
	in := box.Inset(s.U(10))
	left := in
	if !w.fencing.Rect.Empty() {
		_, left = in.CutRight(in.MaxX()-w.fencing.Rect.X+s.U(8), 0)
	}
	row, rest := left.CutTop(s.U(20), s.U(4))
	title, highest := "Store: "+st.Name, fmt.Sprintf("highest token %d", st.Highest)
	draw.TextIn(dst, title, s.Label(), row, draw.AlignStart, th.Text)
	value := "value " + st.Value
	if w.fencing.Rect.Empty() {
		// No switch in this lesson: the state in words on the value line.
		value += map[bool]string{true: " · fencing on", false: " · fencing OFF"}[st.Fencing]
	}
	if draw.Measure(s.Label())(title)+draw.Measure(s.Mono())(highest)+s.U(16) <= row.W {
		draw.TextIn(dst, highest, s.Mono(), row, draw.AlignEnd, th.Text)
	} else {
		value = fmt.Sprintf("highest %d, %s", st.Highest, value)
	}
	row, _ = rest.CutTop(s.U(18), 0)
	draw.TextIn(dst, value, s.Mono(), row, draw.AlignStart, th.TextDim)
	if !w.fencing.Rect.Empty() {
		w.drawSwitch(dst, s, &w.fencing, "fencing on", "fencing OFF")
	}
}

// drawSwitch draws a toggle with its state in words beside it.
func (w *worldView) drawSwitch(dst *ebiten.Image, s draw.Style, t *ui.Toggle, on, off string) {
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
func (w *worldView) drawQueue(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	q := w.view.Queue
	box := w.geom.Store
	s.Card(dst, box)
	in := box.Inset(s.U(10))
	left := in
	if !w.idem.Rect.Empty() {
		_, left = in.CutRight(in.MaxX()-w.idem.Rect.X+s.U(8), 0)
	}
	row, rest := left.CutTop(s.U(20), s.U(4))
	draw.TextIn(dst, "Job queue: "+q.Name, s.Label(), row, draw.AlignStart, th.Text)
	draw.TextIn(dst, fmt.Sprintf("jobs run %d", q.Jobs), s.Mono(), row, draw.AlignEnd, th.Text)
	row, rest = rest.CutTop(s.U(18), s.U(2))
	// Counts with a mark each, so the verdict does not rest on colour.
	x := row.X
	mark := func(n int, word string, ok bool) {
		c := ui.Point{X: x + s.U(7), Y: row.Y + row.H/2}
		s.Verdict(dst, c, s.U(14), ok)
		label := fmt.Sprintf("%d %s", n, word)
		draw.TextIn(dst, label, s.Small(), ui.Rect{X: x + s.U(18), Y: row.Y, W: row.MaxX() - x - s.U(18), H: row.H}, draw.AlignStart, th.Text)
		x += s.U(30) + draw.Measure(s.Small())(label)
	}
	mark(q.DuplicatesIgnored, "duplicates ignored", false)
	if x < row.MaxX()-s.U(120) {
		mark(q.DuplicatesExecuted, "duplicates run twice", true)
	}
	if q.DuplicatesExecuted > 0 {
		draw.StrokeCircle(dst, ui.Point{X: x - draw.Measure(s.Small())(fmt.Sprintf("%d duplicates run twice", q.DuplicatesExecuted)) - s.U(23), Y: row.Y + row.H/2}, s.U(10), s.U(2), th.Warning)
	}
	if row, _ = rest.CutTop(s.U(18), 0); !row.Empty() && q.LastKey != "" && rest.H >= s.U(16) {
		draw.TextIn(dst, "last: "+q.LastKey+" "+q.LastResult, s.Mono(), row, draw.AlignStart, th.TextDim)
	}
	if !w.idem.Rect.Empty() {
		w.drawSwitch(dst, s, &w.idem, "idempotency on", "idempotency OFF")
	}
}

// drawProcess draws one process: lease rings, name, state badge and
// condition tag.
func (w *worldView) drawProcess(dst *ebiten.Image, s draw.Style, c ui.Point, ring, r float64, badge ui.Rect, p lab.ProcView, selected bool) {
	th := s.Theme
	frac := func(d time.Duration) float64 {
		if p.TTL <= 0 {
			return 0
		}
		return math.Max(0, math.Min(1, float64(d)/float64(p.TTL)))
	}
	rw := math.Max(s.U(3), math.Min(s.U(5), ring*0.12))
	draw.Ring(dst, c, ring, rw, frac(p.BeliefLeft), th.Panel, th.Belief)
	draw.Ring(dst, c, ring-rw-s.U(3), rw, frac(p.TruthLeft), th.Panel, th.Truth)
	fill := th.Raised
	if p.Believes {
		fill = th.Pressed
	}
	draw.FillCircle(dst, c, r, fill)
	if selected {
		draw.StrokeCircle(dst, c, ring+s.U(5), s.U(2), th.Focus)
	}
	nameClr := th.Text
	if p.Crashed {
		nameClr = th.Disabled
	}
	face := s.Title()
	if draw.Measure(face)(p.Name) > 2*r-s.U(4) {
		face = s.Label()
	}
	inBadge := draw.Measure(face)(p.Name) > 2*r-s.U(2)
	if !inBadge {
		draw.TextAligned(dst, p.Name, face, c.X, c.Y, draw.AlignCenter, draw.AlignCenter, nameClr)
	}
	if p.Crashed {
		draw.CrossMark(dst, c, r*1.4, s.U(3), th.Reject)
	}

	// State badge: words, not colour alone.
	label := p.State.String()
	if p.State == core.SteppingDown {
		label = "stepping down"
	}
	if p.Believes {
		label = fmt.Sprintf("leader · token %d", p.Token)
		if draw.Measure(s.Small())(label) > badge.W-s.U(6) {
			label = fmt.Sprintf("leader %d", p.Token)
		}
	}
	if inBadge {
		// The name did not fit in the circle: it leads the badge.
		label = p.Name + " · " + strings.Replace(label, "leader · token", "leader", 1)
	}
	if draw.Measure(s.Small())(label) > badge.W-s.U(6) {
		label = strings.NewReplacer("candidate", "cand.", "follower", "follow.", "stepping down", "stepping").Replace(label)
	}
	bg := th.Raised
	if p.Believes {
		bg = th.Pressed
	}
	draw.FillRoundRect(dst, badge, badge.H/2, bg)
	draw.TextIn(dst, label, s.Small(), badge.InsetXY(s.U(3), 0), draw.AlignCenter, th.Text)

	// Condition tag above the rings.
	tag, clr := "", th.Warning
	switch {
	case p.Crashed:
		tag, clr = "crashed", th.Reject
	case p.Paused:
		tag = "paused (frozen)"
		if ring < s.U(36) {
			tag = "paused"
		}
	case p.HeldUntil > 0 && !w.holding(p.Name):
		// Once something is held, the link's marker says so instead.
		tag, clr = "sends held", th.Accent
	}
	if tag != "" {
		pill(dst, s, ui.Point{X: c.X, Y: c.Y - ring - s.U(10)}, tag, clr, th.Background)
	}
	if conn := p.ConnTag(); conn != "" && !w.single {
		// Above the condition tag, if any; and a row higher than a
		// neighbour's own connection tag, so two never overlap.
		y := c.Y - ring - s.U(10)
		if tag != "" {
			y -= s.U(18)
		}
		if i := slices.IndexFunc(w.view.Procs, func(q lab.ProcView) bool { return q.Name == p.Name }); i%2 == 1 && w.view.Procs[i-1].ConnTag() != "" {
			y -= s.U(18)
		}
		pill(dst, s, ui.Point{X: c.X, Y: y}, conn, th.Reject, th.Background)
	}
}

// drawLockPane draws one lock's group in a split world.
func (w *worldView) drawLockPane(dst *ebiten.Image, s draw.Style, pn pane) {
	th := s.Theme
	g := pn.geom
	grp := w.view.Groups[pn.group]
	for k, pi := range grp.Procs {
		c := g.Procs[k]
		a := ui.Point{X: c.X, Y: g.Coord.MaxY()}
		b := ui.Point{X: c.X, Y: c.Y - g.Ring}
		if w.view.Procs[pi].Cut {
			dashed(dst, a, b, s.U(2), s.U(6), th.Reject)
		} else {
			draw.Line(dst, a, b, s.U(1.5), th.Border)
		}
	}
	w.drawCoordinator(dst, s, g.Coord, pn.group, false)
	// The recipe, in words, at the box's top right.
	if in := g.Coord.Inset(s.U(10)); in.W > s.U(260) {
		row, _ := in.CutTop(s.U(20), 0)
		note := "watches predecessor"
		if grp.Recipe == core.RecipeHerd {
			note = "everyone watches the lock"
		}
		draw.TextIn(dst, note, s.Small(), row, draw.AlignEnd, th.TextDim)
	}
	for k, pi := range grp.Procs {
		sel := w.selected >= 0 && w.actors[w.selected].Proc == pi
		w.drawProcess(dst, s, g.Procs[k], g.Ring, g.R, g.Badges[k], w.view.Procs[pi], sel)
	}
}

// ownerColours tell workers apart; every cell also carries its owner's
// number, so nothing rests on colour alone.
var ownerColours = []color.RGBA{
	{0x5a, 0xa9, 0xff, 0xff}, {0x4c, 0xc3, 0x8a, 0xff}, {0xf0, 0xa4, 0x3a, 0xff}, {0xb4, 0x8c, 0xff, 0xff},
	{0x4f, 0xd1, 0xc5, 0xff}, {0xff, 0x8f, 0xab, 0xff}, {0xc9, 0xd4, 0x5c, 0xff}, {0x8f, 0xa8, 0xc8, 0xff},
	{0xe0, 0x7b, 0x4f, 0xff}, {0x7c, 0x9c, 0xff, 0xff}, {0x9f, 0xd9, 0x6b, 0xff}, {0xd0, 0x8c, 0xd9, 0xff},
}

func ownerColour(i int) color.RGBA {
	c := ownerColours[i%len(ownerColours)]
	c.R, c.G, c.B = c.R/2+0x10, c.G/2+0x10, c.B/2+0x14 // dark enough for light text
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

// shortWorker is a worker's number: "worker-03" -> "03".
func shortWorker(name string) string {
	if i := strings.LastIndex(name, "-"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// drawShardPane draws the shard workers' pane.
func (w *worldView) drawShardPane(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	g := w.shard.geom
	v := w.view

	// Coordinator summary and load sparkline.
	box := g.Coord
	s.Card(dst, box)
	in := box.InsetXY(s.U(10), s.U(6))
	text1, _ := in.CutLeft(g.Spark.X-in.X-s.U(6), 0)
	row, rest := text1.CutTop(s.U(18), s.U(2))
	draw.TextIn(dst, fmt.Sprintf("Coordinator · rev %d", v.Rev), s.Label(), row, draw.AlignStart, th.Text)
	held := 0
	for _, o := range v.Shards {
		if o >= 0 {
			held++
		}
	}
	line := fmt.Sprintf("%d/%d shards held", held, len(v.Shards))
	if v.Denied > 0 {
		line = fmt.Sprintf("ACL denied: %d", v.Denied)
	}
	row, rest = rest.CutTop(s.U(16), 0)
	clr := th.TextDim
	if v.Denied > 0 {
		clr = th.Reject
	}
	draw.TextIn(dst, line, s.Small(), row, draw.AlignStart, clr)
	if rest.H >= s.U(14) {
		row, _ = rest.CutTop(s.U(16), 0)
		switch {
		case v.Denied > 0:
			draw.TextIn(dst, v.LastDenied, s.Small(), row, draw.AlignStart, th.TextDim)
		case len(v.Notes) > 0:
			draw.TextIn(dst, v.Notes[0].Key+" = "+v.Notes[0].Value, s.Small(), row, draw.AlignStart, th.TextDim)
		}
	}
	w.drawSpark(dst, s, g.Spark)

	// The offset store.
	box = g.Store
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
		row, _ = rest.CutTop(s.U(16), 0)
		if narrow || w.fencing.Rect.Empty() {
			// No switch, or no room for words beside it: they lead this row.
			word, clr := "fencing on · ", th.Text
			if !o.Fencing {
				word, clr = "fencing OFF · ", th.Warning
			}
			row = ui.Rect{X: in.X, Y: row.Y, W: in.W, H: row.H}
			draw.TextIn(dst, word, s.Small(), row, draw.AlignStart, clr)
			ww := draw.Measure(s.Small())(word) + s.U(4)
			row.X, row.W = row.X+ww, row.W-ww
		}
		x := row.X
		mark := func(n int, word string, ok bool) {
			c := ui.Point{X: x + s.U(6), Y: row.Y + row.H/2}
			s.Verdict(dst, c, s.U(12), ok)
			label := fmt.Sprintf("%d %s", n, word)
			draw.TextIn(dst, label, s.Small(), ui.Rect{X: x + s.U(15), Y: row.Y, W: math.Max(0, row.MaxX()-x-s.U(15)), H: row.H}, draw.AlignStart, th.Text)
			x += s.U(26) + draw.Measure(s.Small())(label)
		}
		mark(o.Rejected, "rejected", false)
		if x < row.MaxX()-s.U(60) {
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

	// The shard map: each cell in its owner's colour with its number.
	small := s.Small()
	for i, r := range g.Cells {
		owner := -1
		if i < len(v.Shards) {
			owner = v.Shards[i]
		}
		if owner < 0 {
			draw.StrokeRoundRect(dst, r, s.U(2), s.U(1), th.Border)
			continue
		}
		wk := v.Workers[owner]
		draw.FillRoundRect(dst, r, s.U(2), ownerColour(owner))
		if r.H >= s.U(13) && r.W >= draw.Measure(small)("00")+s.U(2) {
			draw.TextIn(dst, shortWorker(wk.Name), small, r, draw.AlignCenter, th.Text)
		} else {
			ownerPattern(dst, s, r, owner)
		}
		if wk.Paused || wk.Crashed || wk.Cut {
			// Its owner has stopped: the lease is running out.
			draw.StrokeRoundRect(dst, r, s.U(2), math.Max(1, s.U(1.5)), th.Warning)
		}
	}
	if len(g.Cells) > 0 {
		last := g.Cells[len(g.Cells)-1]
		capR := ui.Rect{X: g.Grid.X, Y: last.MaxY() + s.U(2), W: g.Grid.W, H: s.U(16)}
		if capR.MaxY() <= g.Grid.MaxY() {
			draw.TextIn(dst, "shard map: each cell is a shard key, labelled with the worker the coordinator gave it to", s.Small(), capR, draw.AlignCenter, th.TextDim)
		}
	}

	// Worker chips.
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
		name := wk.Name
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
		right := count
		if tag != "" {
			right = tag + " " + count
		}
		fits := func() bool {
			return draw.Measure(s.Label())(name)+draw.Measure(small)(right)+s.U(8) <= in.W
		}
		if !fits() {
			name = shortWorker(name)
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
		draw.TextIn(dst, name, s.Label(), in, draw.AlignStart, th.Text)
		clr := th.Text
		if tag != "" {
			clr = th.Focus
		}
		draw.TextIn(dst, right, small, in, draw.AlignEnd, clr)
		if wk.Crashed {
			draw.CrossMark(dst, r.Center(), r.H*0.8, s.U(2), th.Reject)
		}
	}
}

// drawSpark draws the coordinator's requests per 100 ms as a sparkline,
// its busiest window marked.
func (w *worldView) drawSpark(dst *ebiten.Image, s draw.Style, r ui.Rect) {
	th := s.Theme
	load := w.view.Load
	label, area := r.CutTop(s.U(14), s.U(2))
	draw.TextIn(dst, fmt.Sprintf("load/100 ms, peak %d at %s", w.view.Peak, strings.TrimSuffix(core.FormatTime(w.view.PeakAt), "0")), s.Small(), label, draw.AlignStart, th.TextDim)
	draw.FillRect(dst, area, th.Background)
	if len(load) == 0 || area.W < 4 {
		return
	}
	// The whole run so far, one column per pixel (the busiest window wins).
	span := max(len(load), int(w.lab.Length()/(100*time.Millisecond)))
	peak := float64(max(w.view.Peak, 1))
	cols := int(area.W)
	for x := range cols {
		lo, hi := x*span/cols, (x+1)*span/cols
		m := int32(0)
		for i := lo; i < hi && i < len(load); i++ {
			m = max(m, load[i])
		}
		if m == 0 {
			continue
		}
		h := math.Max(1, area.H*float64(m)/peak)
		clr := th.Truth
		if float64(m) >= peak*0.999 {
			clr = th.Warning
		}
		draw.FillRect(dst, ui.Rect{X: area.X + float64(x), Y: area.MaxY() - h, W: 1, H: h}, clr)
	}
}

// drawChart draws ttl-tradeoff's sweep: failover time (line, dots) and
// false failovers (bars) against TTL, the bounds and the learner's TTL.
func (w *worldView) drawChart(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	pts := w.lab.Sweep()
	box := w.chart
	draw.FillRoundRect(dst, box, s.U(8), th.Raised)
	in := box.Inset(s.U(10))
	row, in := in.CutTop(s.U(20), s.U(2))
	draw.TextIn(dst, "TTL trade-off, same pauses for each TTL", s.Label(), row, draw.AlignStart, th.Text)
	leg, in := in.CutTop(s.U(18), s.U(4))
	// Legend: shapes, not colour alone.
	draw.Line(dst, ui.Point{X: leg.X, Y: leg.Y + leg.H/2}, ui.Point{X: leg.X + s.U(16), Y: leg.Y + leg.H/2}, s.U(2), th.Truth)
	draw.FillCircle(dst, ui.Point{X: leg.X + s.U(8), Y: leg.Y + leg.H/2}, s.U(3), th.Truth)
	lbl := "failover (s)"
	draw.TextIn(dst, lbl, s.Small(), ui.Rect{X: leg.X + s.U(22), Y: leg.Y, W: leg.W, H: leg.H}, draw.AlignStart, th.TextDim)
	x2 := leg.X + s.U(36) + draw.Measure(s.Small())(lbl)
	draw.FillRect(dst, ui.Rect{X: x2, Y: leg.Y + s.U(4), W: s.U(8), H: leg.H - s.U(8)}, th.Warning)
	draw.TextIn(dst, "false failovers", s.Small(), ui.Rect{X: x2 + s.U(12), Y: leg.Y, W: math.Max(0, leg.MaxX()-x2-s.U(12)), H: leg.H}, draw.AlignStart, th.TextDim)

	verdict, in := in.CutBottom(s.U(36), s.U(4))
	axis, plot := in.CutBottom(s.U(16), s.U(2))
	_, plot = plot.CutLeft(s.U(26), s.U(4))
	axis.X, axis.W = plot.X, plot.W
	if len(pts) == 0 || plot.W < 20 || plot.H < 20 {
		return
	}
	draw.FillRect(dst, plot, th.Background)
	minT, maxT := pts[0].TTL.Seconds(), pts[len(pts)-1].TTL.Seconds()
	maxF, maxN := 0.0, 1
	for _, p := range pts {
		maxF = math.Max(maxF, p.Failover.Seconds())
		maxN = max(maxN, p.FalseFailovers)
	}
	maxF = math.Ceil(maxF/10) * 10
	xOf := func(t float64) float64 { return plot.X + plot.W*(t-minT)/math.Max(1, maxT-minT) }
	yF := func(f float64) float64 { return plot.MaxY() - plot.H*f/math.Max(1, maxF) }
	bw := math.Max(2, plot.W/float64(len(pts))*0.6)
	for _, p := range pts {
		if p.FalseFailovers > 0 {
			h := plot.H * 0.9 * float64(p.FalseFailovers) / float64(maxN)
			draw.FillRect(dst, ui.Rect{X: xOf(p.TTL.Seconds()) - bw/2, Y: plot.MaxY() - h, W: bw, H: h}, th.Warning)
		}
	}
	// The 20 s failover bound.
	yb := yF(20)
	dashed(dst, ui.Point{X: plot.X, Y: yb}, ui.Point{X: plot.MaxX(), Y: yb}, s.U(1), s.U(5), th.Reject)
	draw.TextAligned(dst, "20 s bound", s.Small(), plot.MaxX()-s.U(2), yb-s.U(2), draw.AlignEnd, draw.AlignEnd, th.Reject)
	for i := 1; i < len(pts); i++ {
		a := ui.Point{X: xOf(pts[i-1].TTL.Seconds()), Y: yF(pts[i-1].Failover.Seconds())}
		b := ui.Point{X: xOf(pts[i].TTL.Seconds()), Y: yF(pts[i].Failover.Seconds())}
		draw.Line(dst, a, b, s.U(2), th.Truth)
	}
	for _, p := range pts {
		draw.FillCircle(dst, ui.Point{X: xOf(p.TTL.Seconds()), Y: yF(p.Failover.Seconds())}, s.U(2), th.Truth)
	}
	// Axes.
	for _, t := range []float64{minT, 10, 20, 30, maxT} {
		if t < minT || t > maxT {
			continue
		}
		draw.TextAligned(dst, fmt.Sprintf("%g", t), s.Small(), xOf(t), axis.Y+axis.H/2, draw.AlignCenter, draw.AlignCenter, th.TextDim)
	}
	draw.TextAligned(dst, fmt.Sprintf("%g", maxF), s.Small(), plot.X-s.U(4), plot.Y, draw.AlignEnd, draw.AlignStart, th.TextDim)
	draw.TextAligned(dst, "0", s.Small(), plot.X-s.U(4), plot.MaxY(), draw.AlignEnd, draw.AlignEnd, th.TextDim)
	// The learner's pick.
	ttl := w.lab.Knobs()["ttl"]
	x := xOf(ttl)
	draw.Line(dst, ui.Point{X: x, Y: plot.Y}, ui.Point{X: x, Y: plot.MaxY()}, s.U(2), th.Focus)
	draw.Polygon(dst, th.Focus, ui.Point{X: x - s.U(5), Y: plot.Y - s.U(1)}, ui.Point{X: x + s.U(5), Y: plot.Y - s.U(1)}, ui.Point{X: x, Y: plot.Y + s.U(7)})
	for _, p := range pts {
		if math.Abs(p.TTL.Seconds()-ttl) < 0.01 {
			ok := p.FalseFailovers == 0 && p.Failover <= 20*time.Second
			c := ui.Point{X: verdict.X + s.U(9), Y: verdict.Y + s.U(9)}
			s.Verdict(dst, c, s.U(16), ok)
			word := "meets both bounds"
			if !ok {
				word = "misses a bound"
			}
			l1, l2 := verdict.CutTop(s.U(18), 0)
			l1.X, l1.W = l1.X+s.U(22), l1.W-s.U(22)
			draw.TextIn(dst, fmt.Sprintf("your TTL %g s %s:", ttl, word), s.Small(), l1, draw.AlignStart, th.Text)
			draw.TextIn(dst, fmt.Sprintf("failover %.1f s, %d false failovers", p.Failover.Seconds(), p.FalseFailovers), s.Small(), l2.InsetXY(s.U(11), 0), draw.AlignStart, th.Text)
		}
	}
}

// holding reports a message from name that the network holds now.
func (w *worldView) holding(name string) bool {
	for _, m := range w.view.HeldLinks {
		if m.From == name {
			return true
		}
	}
	return false
}

// drawMessages draws each message in flight as a dot on its link, with
// its fencing token when it carries one.
func (w *worldView) drawMessages(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	idx := map[string]int{}
	for i, p := range w.view.Procs {
		idx[p.Name] = i
	}
	storeName := ""
	switch {
	case w.view.Store != nil:
		storeName = w.view.Store.Name
	case w.view.Queue != nil:
		storeName = w.view.Queue.Name
	}
	end := func(name string, other int) (ui.Point, bool) {
		if i, ok := idx[name]; ok {
			c := w.geom.Procs[i]
			if other == -2 { // towards the store
				return w.procBottom(i), true
			}
			return ui.Point{X: c.X, Y: c.Y - w.geom.Ring}, true
		}
		switch {
		case name == core.CoordinatorName && other >= 0:
			return w.coordEnd(other), true
		case name == storeName && other >= 0:
			return w.storeEnd(other), true
		}
		return ui.Point{}, false
	}
	// Held messages have not left: one marker per link (HeldLinks) at the
	// sender's end says how many wait there.
	drawMsg := func(m lab.MsgView) {
		pi, fromProc := idx[m.From]
		if !fromProc {
			pi = idx[m.To]
		}
		peer := m.To
		if !fromProc {
			peer = m.From
		}
		toStore := peer == storeName
		procSide := -1
		if toStore {
			procSide = -2
		}
		procName := m.From
		if !fromProc {
			procName = m.To
		}
		pp, ok1 := end(procName, procSide)
		op, ok2 := end(peer, pi)
		if !ok1 || !ok2 {
			return
		}
		from, to := pp, op
		if !fromProc {
			from, to = op, pp
		}
		f := m.Progress
		if w.reduced && !m.Held {
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
			pill(dst, s, ui.Point{X: dot.X, Y: dot.Y - s.U(14)}, fmt.Sprintf("%s %d", shortKind(m.Kind), m.Token), th.Accent, th.Background)
		}
	}
	for _, m := range w.view.InFlight {
		if !m.Held {
			drawMsg(m)
		}
	}
	for _, m := range w.view.HeldLinks {
		m.Progress = 0.18
		drawMsg(m)
	}
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
	w := draw.Measure(s.Small())(label) + s.U(12)
	h := s.U(20)
	r := ui.Rect{X: c.X - w/2, Y: c.Y - h/2, W: w, H: h}
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
