package game

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// worldView draws a lock world (coordinator, processes, fenced store and
// the messages between them) and turns clicks and keys on it into learner
// actions. It reads only the lab's snapshot.
type worldView struct {
	lab     *lab.Lab
	narrate func(string)

	geom     ui.WorldGeom
	unit     float64
	view     lab.WorldView
	selected int // process index, -1 for none
	menu     []procAction
	buttons  []ui.Button
	menuBox  ui.Rect
	fencing  ui.Toggle
	reduced  bool
}

// procAction is one entry of a process's action menu.
type procAction struct {
	label  string
	action core.Action
}

func newWorldView(lb *lab.Lab, narrate func(string)) *worldView {
	return &worldView{lab: lb, narrate: narrate, selected: -1}
}

func (w *worldView) allows(c lessons.Control) bool {
	for _, x := range w.lab.Lesson.Controls {
		if x == c {
			return true
		}
	}
	return false
}

// actionsFor lists what the learner may do to process p now.
func (w *worldView) actionsFor(p lab.ProcView) []procAction {
	var out []procAction
	l := w.lab.Lesson
	if w.allows(lessons.CtlPause) && !p.Crashed {
		if p.Paused {
			out = append(out, procAction{"Resume (Z)", core.Action{Do: "resume", Proc: p.Name}})
		} else {
			out = append(out, procAction{fmt.Sprintf("Pause %s (Z)", secText(l.PauseFor)), core.Action{Do: "pause", Proc: p.Name, For: core.Duration(l.PauseFor)}})
		}
	}
	if w.allows(lessons.CtlCrash) {
		if p.Crashed {
			out = append(out, procAction{"Restart (X)", core.Action{Do: "restart", Proc: p.Name}})
		} else {
			out = append(out, procAction{"Crash (X)", core.Action{Do: "crash", Proc: p.Name}})
		}
	}
	if w.allows(lessons.CtlPartition) {
		if p.Cut {
			out = append(out, procAction{"Heal link (C)", core.Action{Do: "heal", Proc: p.Name, Peer: core.CoordinatorName}})
		} else {
			out = append(out, procAction{"Cut link (C)", core.Action{Do: "partition", Proc: p.Name, Peer: core.CoordinatorName}})
		}
	}
	if w.allows(lessons.CtlExpire) && p.TruthLeft > 0 {
		out = append(out, procAction{"Expire lease (E)", core.Action{Do: "expire", Proc: p.Name}})
	}
	if w.allows(lessons.CtlWrite) && p.Believes {
		out = append(out, procAction{"Write now", core.Action{Do: "write", Proc: p.Name, Value: p.Name + "-manual"}})
	}
	return out
}

func secText(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// do applies an action and narrates a refusal.
func (w *worldView) do(a core.Action) {
	if err := w.lab.Do(a); err != nil {
		w.narrate("Could not " + a.String() + ": " + err.Error())
	}
}

// keyAction finds the selected process's action for a shortcut.
func (w *worldView) keyAction(in *ui.Input) {
	if w.selected < 0 || w.selected >= len(w.view.Procs) {
		return
	}
	want := map[ui.Intent][]string{
		ui.IntentPauseProc: {"pause", "resume"},
		ui.IntentCrashProc: {"crash", "restart"},
		ui.IntentCutLink:   {"partition", "heal"},
		ui.IntentExpire:    {"expire"},
	}
	for intent, dos := range want {
		if !in.Keys.Has(intent) {
			continue
		}
		for _, a := range w.menu {
			for _, d := range dos {
				if a.action.Do == d {
					w.do(a.action)
					return
				}
			}
		}
	}
}

func (w *worldView) Update(st *State, area ui.Rect) error {
	in := &st.Input
	w.reduced = st.ReducedMotion
	w.view = w.lab.World()
	w.unit = st.Style.Unit
	w.geom = ui.LayoutWorld(area, w.unit, len(w.view.Procs))
	if w.selected >= len(w.view.Procs) {
		w.selected = -1
	}
	if in.Digit > 0 && in.Digit <= len(w.view.Procs) {
		w.selected = in.Digit - 1
		w.narrate(fmt.Sprintf("Selected %s: %s", w.view.Procs[w.selected].Name, describeProc(w.view.Procs[w.selected])))
	}
	w.layoutMenu()
	w.keyAction(in)

	// The menu first: its buttons sit on top of the world.
	for i := range w.buttons {
		if w.buttons[i].Update(in) {
			// Close the menu: it would hide what the action sets off.
			w.do(w.menu[i].action)
			w.selected = -1
			w.layoutMenu()
			return nil
		}
	}
	if w.view.Store != nil && w.allows(lessons.CtlFencing) {
		w.fencing.Rect = w.fencingRect()
		w.fencing.On = w.view.Store.Fencing
		if w.fencing.Update(in) || in.Keys.Has(ui.IntentFencing) {
			w.do(core.Action{Do: "fencing", On: !w.view.Store.Fencing})
		}
	}
	ptr := in.Pointer()
	if ptr.JustDown && area.Contains(ptr.Pos) && !w.menuBox.Contains(ptr.Pos) && !w.fencing.Rect.Contains(ptr.Pos) {
		w.selected = w.geom.HitProcess(ptr.Pos)
		w.layoutMenu()
	}
	return nil
}

// layoutMenu rebuilds the selected process's action menu.
func (w *worldView) layoutMenu() {
	w.view = w.lab.World()
	w.menu, w.menuBox = nil, ui.Rect{}
	if w.selected < 0 || w.selected >= len(w.view.Procs) {
		w.buttons = nil
		return
	}
	w.menu = w.actionsFor(w.view.Procs[w.selected])
	if len(w.menu) == 0 {
		w.buttons = nil
		return
	}
	box, items := w.geom.Popover(w.selected, len(w.menu), w.unit)
	w.menuBox = box
	if len(w.buttons) != len(w.menu) {
		w.buttons = make([]ui.Button, len(w.menu))
	}
	for i := range w.menu {
		w.buttons[i].Rect, w.buttons[i].Label = items[i], w.menu[i].label
	}
}

// fencingRect is the fencing switch, at the store's right end.
func (w *worldView) fencingRect() ui.Rect {
	in := w.geom.Store.Inset(math.Round(10 * w.unit))
	r, _ := in.CutRight(math.Round(170*w.unit), 0)
	r.W = math.Round(48 * w.unit)
	r.H = math.Round(28 * w.unit)
	r.Y = math.Round(in.Y + (in.H-r.H)/2)
	return r
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
	m := map[string]ui.Rect{"coordinator": w.geom.Coord, "store": w.geom.Store}
	for i, c := range w.geom.Procs {
		if i < len(w.view.Procs) {
			m["proc:"+w.view.Procs[i].Name] = ui.Rect{X: c.X - w.geom.R, Y: c.Y - w.geom.R, W: 2 * w.geom.R, H: 2 * w.geom.R}
		}
	}
	for i, b := range w.buttons {
		m["action:"+w.menu[i].action.Do] = b.Rect
	}
	if !w.fencing.Rect.Empty() {
		m["fencing"] = w.fencing.Rect
	}
	return m
}

func (w *worldView) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	th := s.Theme
	g := w.geom
	v := w.view
	draw.TextIn(dst, "World", s.Label(), g.Caption, text.AlignStart, th.TextDim)
	draw.TextIn(dst, "t = "+core.FormatTime(v.Now), s.Mono(), g.Caption, text.AlignEnd, th.TextDim)

	// Links under everything.
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
		if v.Store != nil {
			draw.Line(dst, w.procBottom(i), w.storeEnd(i), s.U(1.5), th.Border)
		}
	}
	w.drawCoordinator(dst, s)
	if v.Store != nil {
		w.drawStore(dst, s)
	}
	for i, p := range v.Procs {
		w.drawProcess(dst, s, i, p)
	}
	w.drawMessages(dst, s)

	// Legend.
	item := func(r ui.Rect, label string, clr color.Color) ui.Rect {
		y := r.Y + r.H/2
		draw.Line(dst, ui.Point{X: r.X, Y: y}, ui.Point{X: r.X + s.U(18), Y: y}, s.U(4), clr)
		_, rest := r.CutLeft(s.U(24), 0)
		draw.TextIn(dst, label, s.Small(), rest, text.AlignStart, th.TextDim)
		_, next := r.CutLeft(s.U(24)+draw.Measure(s.Small())(label)+s.U(20), 0)
		return next
	}
	r := item(g.Legend, "outer ring: the process's own lease clock", th.Belief)
	r = item(r, "inner ring: the coordinator's", th.Truth)
	if r.W > s.U(200) {
		draw.TextIn(dst, "click a process to act on it", s.Small(), r, text.AlignEnd, th.TextDim)
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

func (w *worldView) drawCoordinator(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	box := w.geom.Coord
	v := w.view
	draw.FillRoundRect(dst, box, s.U(8), th.Raised)
	draw.StrokeRoundRect(dst, box, s.U(8), s.U(1), th.Border)
	in := box.Inset(s.U(10))
	row, in := in.CutTop(s.U(20), s.U(4))
	draw.TextIn(dst, "Coordinator", s.Label(), row, text.AlignStart, th.Text)
	draw.TextIn(dst, fmt.Sprintf("revision %d", v.Rev), s.Mono(), row, text.AlignEnd, th.TextDim)
	row, in = in.CutTop(s.U(18), s.U(4))
	holder := "free"
	if v.Lock.Holder != "" {
		holder = fmt.Sprintf("held by %s, token %d", v.Lock.Holder, v.Lock.Token)
	} else if v.Lock.DelayUntil > v.Now {
		holder = "lock-delay until " + core.FormatTime(v.Lock.DelayUntil)
	}
	draw.TextIn(dst, v.Lock.Name+": "+holder, s.Small(), row, text.AlignStart, th.Text)
	lh := draw.LineHeight(s.Mono())
	for _, k := range v.Keys {
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
		draw.TextIn(dst, line, s.Mono(), row, text.AlignStart, clr)
	}
}

func (w *worldView) drawStore(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	st := w.view.Store
	box := w.geom.Store
	draw.FillRoundRect(dst, box, s.U(8), th.Raised)
	draw.StrokeRoundRect(dst, box, s.U(8), s.U(1), th.Border)
	in := box.Inset(s.U(10))
	left := in
	if !w.fencing.Rect.Empty() {
		_, left = in.CutRight(w.fencing.Rect.W+s.U(120), s.U(12))
	}
	row, rest := left.CutTop(s.U(20), s.U(4))
	draw.TextIn(dst, "Store: "+st.Name, s.Label(), row, text.AlignStart, th.Text)
	draw.TextIn(dst, fmt.Sprintf("highest token %d", st.Highest), s.Mono(), row, text.AlignEnd, th.Text)
	row, _ = rest.CutTop(s.U(18), 0)
	draw.TextIn(dst, ui.Ellipsize("value "+st.Value, row.W, draw.Measure(s.Mono())), s.Mono(), row, text.AlignStart, th.TextDim)
	if !w.fencing.Rect.Empty() {
		s.Toggle(dst, &w.fencing)
		label := ui.Rect{X: w.fencing.Rect.MaxX() + s.U(8), Y: w.fencing.Rect.Y, W: s.U(110), H: w.fencing.Rect.H}
		state := "fencing on"
		clr := th.Text
		if !st.Fencing {
			state, clr = "fencing OFF", th.Warning
		}
		draw.TextIn(dst, state, s.Small(), label, text.AlignStart, clr)
	}
}

func (w *worldView) drawProcess(dst *ebiten.Image, s draw.Style, i int, p lab.ProcView) {
	th := s.Theme
	g := w.geom
	c := g.Procs[i]
	frac := func(d time.Duration) float64 {
		if p.TTL <= 0 {
			return 0
		}
		return math.Max(0, math.Min(1, float64(d)/float64(p.TTL)))
	}
	draw.Ring(dst, c, g.Ring, s.U(5), frac(p.BeliefLeft), th.Panel, th.Belief)
	draw.Ring(dst, c, g.Ring-s.U(8), s.U(5), frac(p.TruthLeft), th.Panel, th.Truth)
	fill := th.Raised
	if p.Believes {
		fill = th.Pressed
	}
	draw.FillCircle(dst, c, g.R, fill)
	if i == w.selected {
		draw.StrokeCircle(dst, c, g.Ring+s.U(5), s.U(2), th.Focus)
	}
	nameClr := th.Text
	if p.Crashed {
		nameClr = th.Disabled
	}
	draw.TextAligned(dst, p.Name, s.Title(), c.X, c.Y, text.AlignCenter, text.AlignCenter, nameClr)
	if p.Crashed {
		draw.CrossMark(dst, c, g.R*1.4, s.U(3), th.Reject)
	}

	// State badge: words, not colour alone.
	badge := g.Badges[i]
	label := p.State.String()
	if p.State == core.SteppingDown {
		label = "stepping down"
	}
	if p.Believes {
		label = fmt.Sprintf("leader · token %d", p.Token)
	}
	bg := th.Raised
	if p.Believes {
		bg = th.Pressed
	}
	draw.FillRoundRect(dst, badge, badge.H/2, bg)
	draw.TextIn(dst, label, s.Small(), badge, text.AlignCenter, th.Text)

	// Condition tag above the rings.
	tag, clr := "", th.Warning
	switch {
	case p.Crashed:
		tag, clr = "crashed", th.Reject
	case p.Paused:
		tag = "paused (frozen)"
	}
	if tag != "" {
		pill(dst, s, ui.Point{X: c.X, Y: c.Y - g.Ring - s.U(14)}, tag, clr, th.Background)
	}
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
	if w.view.Store != nil {
		storeName = w.view.Store.Name
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
	for _, m := range w.view.InFlight {
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
			continue
		}
		from, to := pp, op
		if !fromProc {
			from, to = op, pp
		}
		f := m.Progress
		if w.reduced {
			f = 0.5
		}
		dot := ui.Point{X: from.X + (to.X-from.X)*f, Y: from.Y + (to.Y-from.Y)*f}
		clr := th.TextDim
		if m.Token != 0 {
			clr = th.Accent
		}
		draw.FillCircle(dst, dot, s.U(4), clr)
		if m.Token != 0 {
			pill(dst, s, ui.Point{X: dot.X, Y: dot.Y - s.U(14)}, fmt.Sprintf("%s %d", shortKind(m.Kind), m.Token), th.Accent, th.Background)
		}
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
	draw.TextIn(dst, label, s.Small(), r, text.AlignCenter, fg)
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
