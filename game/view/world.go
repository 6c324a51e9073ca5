package view

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// World draws a lesson's world and turns clicks and keys on it into
// learner actions. It reads only the lab's snapshot. A world with one lock
// and no shard workers is drawn as a lock world (coordinator on top,
// processes, store or job queue below); anything else is split into panes:
// one per lock, and one for the shard workers with their shard map.
type World struct {
	lab     *lab.Lab
	narrate func(string)
	send    func(lab.Command) // to the scene that applies it

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

	// choices are each actor's menu and decls the world's controls, both
	// as of the last layout (declare): the page lists decls, the popover
	// shows the selected actor's, and a use of either passes decls.Use.
	choices [][]lab.Choice
	decls   ui.Controls
	menu    []lab.Choice // the selected actor's choices, while its menu is open

	buttons []ui.Button
	menuBox ui.Rect
	// menuRoom is where the host lets a menu too tall for the world
	// reach (the world and the timeline under it), drawing it after
	// every view (DrawMenu); empty, the world keeps and draws it.
	menuRoom ui.Rect
	hl       int // the popover item the keyboard points at
	fencing  ui.Toggle
	idem     ui.Toggle
	token    int64 // the token "write with token" sends
	// later is how many of the learner's actions lie after the play
	// head: acting now drops them (the legend row warns).
	later int
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

// NewWorld is the world of lb's run: narrate tells the learner what an
// action did, send passes the action to the scene that applies it.
func NewWorld(lb *lab.Lab, narrate func(string), send func(lab.Command)) *World {
	return &World{lab: lb, narrate: narrate, send: send, selected: -1, token: 3}
}

func (w *World) allows(c lessons.Control) bool { return slices.Contains(w.lab.Lesson.Controls, c) }

// do asks for action a: the scene applies it after the views' update.
func (w *World) do(a core.Action) { w.send(lab.Act(a)) }

// Modal reports whether the world holds the keyboard (an open menu):
// Enter and Esc then act on the menu, not the player.
func (w *World) Modal() bool { return len(w.menu) > 0 }

// SelectedName is the selected actor's name, "" for none.
func (w *World) SelectedName() string {
	if w.selected < 0 || w.selected >= len(w.actors) {
		return ""
	}
	return w.actors[w.selected].Name
}

// Close closes the action menu.
func (w *World) Close() { w.selected = -1; w.layoutMenu() }

func (w *World) selectActor(i int) {
	w.selected, w.hl = i, 0
	w.layoutMenu()
	a := w.actors[i]
	desc := ""
	switch {
	case a.Proc >= 0:
		desc = DescribeProc(w.view.Procs[a.Proc], w.view.Words)
	case a.Node != "":
		desc = w.describeNode(a.Node)
	case a.Member != "":
		desc = w.describeMember(a.Member)
	default:
		wk := w.view.Workers[a.Worker]
		desc = fmt.Sprintf("owns %d shards (coordinator: %d)", wk.Owned, wk.Holds)
	}
	items := make([]string, len(w.menu))
	for k, m := range w.menu {
		items[k] = m.Label
	}
	w.narrate(fmt.Sprintf("Selected %s: %s. Actions: %s", a.Name, desc, strings.Join(items, "; ")) + w.dropWarning())
}

// activate runs menu item i, through its declaration.
func (w *World) activate(i int) { w.use(w.MenuID(i)) }

// MenuID is the id of the open menu's item i.
func (w *World) MenuID(i int) string { return ActID(w.SelectedName(), w.menu[i].ID) }

// Layout implements View: the world's snapshot, taken once the tick's
// actions and time are applied, placed in area. Update and Draw both read
// this snapshot, so what is drawn is what is clicked.
func (w *World) Layout(area ui.Rect, s draw.Style) {
	w.area, w.unit = area, s.Unit
	w.view = w.lab.World()
	w.later = len(w.lab.Later())
	w.layout()
	if w.selected >= len(w.actors) {
		w.selected = -1
	}
	w.declare()
	w.layoutMenu()
}

// Update implements View: selection, the action menu and the switches,
// on the world as last laid out.
func (w *World) Update(st *Env) error {
	in := &st.Input
	area := w.area
	w.reduced = st.ReducedMotion
	if w.decls == nil && len(w.actors) > 0 {
		w.declare() // updated before its first layout
	}
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
	fencingOn, hasFenced := w.fencedOn()
	if hasFenced && w.allows(lessons.CtlFencing) {
		w.fencing.On = fencingOn
		if w.fencing.Update(in) || in.Keys.Has(ui.IntentFencing) {
			w.use("fencing")
		}
	}
	if w.view.Queue != nil && w.allows(lessons.CtlIdem) {
		w.idem.On = w.view.Queue.Idempotency
		if w.idem.Update(in) || in.Keys.Has(ui.IntentIdem) {
			w.use("idempotency")
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

// DescribeProc is a process as the panel and the narration say it: its
// state in words and, as a leader, its token as the canvas's badge says
// it ("no token" for a Redlock holder, which has none).
func DescribeProc(p lab.ProcView, words core.SystemWords) string {
	s := p.State.Words()
	switch {
	case p.Believes && words.Server != "" && words.Token == "":
		s += ", no token"
	case p.Believes:
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
func (w *World) Regions() map[string]ui.Rect {
	m := map[string]ui.Rect{}
	if w.single {
		m["coordinator"], m["store"] = w.geom.Coord, w.geom.Store
		for i, c := range RedisCells(w.geom.Coord, w.unit, len(w.view.Redis)) {
			m["redis:"+w.view.Redis[i].Name] = c
		}
	}
	for _, a := range w.actors {
		m["proc:"+a.Name] = a.hit
	}
	for i, b := range w.buttons {
		m[w.MenuID(i)] = b.Rect
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

func (w *World) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
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
	item := func(r ui.Rect, label ringLabel, clr color.Color) ui.Rect {
		y := r.Y + r.H/2
		draw.Line(dst, ui.Point{X: r.X, Y: y}, ui.Point{X: r.X + s.U(18), Y: y}, s.U(4), clr)
		_, rest := r.CutLeft(s.U(24), 0)
		draw.ShortInTip(dst, label.whole, label.shown, s.Small(), rest, draw.AlignStart, th.TextDim)
		_, next := r.CutLeft(s.U(24)+draw.Measure(s.Small())(label.shown)+s.U(20), 0)
		return next
	}
	r := w.legend
	if w.later > 0 {
		// While acting would drop later actions, the row says so in place
		// of the legend, which would leave it no room.
		hint := ui.Ellipsize(w.LegendWarning(), r.W, draw.Measure(s.Small()))
		draw.TextIn(dst, hint, s.Small(), r, draw.AlignEnd, th.Warning)
		r = ui.Rect{}
	}
	if len(v.Procs) > 0 && !r.Empty() {
		outer, inner := ringLegend(len(v.Redis) > 0, r.W-2*s.U(24)-s.U(20), draw.Measure(s.Small()))
		r = item(r, outer, th.Belief)
		r = item(r, inner, th.Truth)
	}
	hint := "click a process to act on it"
	switch {
	case len(v.Workers) > 0:
		hint = "click a process or worker (or press 1-9, N) to act"
	case len(v.Redis) > 0:
		hint = "click a process or a server to act on it"
	case len(v.Members) > 0:
		hint = "click a process or a member (or press 1-9) to act"
	}
	if !r.Empty() && r.W > draw.Measure(s.Small())(hint)+s.U(10) {
		draw.TextIn(dst, hint, s.Small(), r, draw.AlignEnd, th.TextDim)
	}

	// The action menu on top, unless its host draws it over every view.
	if w.menuRoom.Empty() {
		w.DrawMenu(dst, s)
	}
}

// SetMenuRoom lets the action menu reach over room where the world's own
// area is too short for it: on a phone, a menu of ten actions ran under
// the timeline, its last items hidden. The host then draws it with
// DrawMenu after every view, and keeps the views under it from the
// pointer while it is open (MenuBox).
func (w *World) SetMenuRoom(room ui.Rect) { w.menuRoom = room }

// MenuBox is the open action menu's box (empty when none is open).
func (w *World) MenuBox() ui.Rect {
	if len(w.buttons) == 0 {
		return ui.Rect{}
	}
	return w.menuBox
}

// DrawMenu draws the open action menu, if any.
func (w *World) DrawMenu(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	if len(w.buttons) > 0 {
		draw.Cover(w.menuBox)
		draw.FillRoundRect(dst, w.menuBox, s.U(8), th.Panel)
		draw.StrokeRoundRect(dst, w.menuBox, s.U(8), s.U(1.5), th.Accent)
		for i := range w.buttons {
			s.Button(dst, &w.buttons[i])
		}
	}
}

// ringLabel is one of the ring legend's labels: the words shown and the
// whole wording they stand for (on hover).
type ringLabel struct{ shown, whole string }

// ringLegends are the ring legend's wordings, longest first: the world's
// legend row takes the longest whose two labels fit side by side (at
// 1024 px, the Compare screen's half-width worlds cut "inner ring: the
// coordinat…"). [1] is the inner ring's wording with no coordinator
// (Redlock), where the truth is the majority of the nodes.
var ringLegends = [][3]string{
	{"outer ring: the process's own lease clock", "inner ring: the coordinator's", "inner ring: its keys on a majority"},
	{"outer ring: its own clock", "inner ring: the coordinator's", "inner ring: keys on a majority"},
	{"outer: own clock", "inner: coordinator's", "inner: majority"},
	{"own clock", "coordinator's", "majority"}, // the swatches say which ring (a phone's Compare)
}

// ringLegend picks the ring legend's words for width (both labels, less
// their swatches and gap): the longest wording that fits, else the
// shortest, cut.
func ringLegend(redis bool, width float64, measure func(string) float64) (outer, inner ringLabel) {
	pick := func(w [3]string) (string, string) {
		if redis {
			return w[0], w[2]
		}
		return w[0], w[1]
	}
	wholeOuter, wholeInner := pick(ringLegends[0])
	for _, w := range ringLegends {
		o, i := pick(w)
		outer, inner = ringLabel{o, wholeOuter}, ringLabel{i, wholeInner}
		if measure(o)+measure(i) <= width {
			break
		}
	}
	return outer, inner
}

// LegendWarning is the legend row's warning while actions lie after the
// play head.
func (w *World) LegendWarning() string {
	return "acting now drops " + ActionsText(w.later) + " after the play head (Undo brings them back)"
}

// dropWarning is what selecting an actor adds while acting would drop
// later actions ("" otherwise).
func (w *World) dropWarning() string {
	if d := w.lab.DroppedText(); d != "" {
		return ". Acting now drops " + d + "; Undo brings them back"
	}
	return ""
}

// describeNode says what Redis node name holds now.
func (w *World) describeNode(name string) string {
	for _, r := range w.view.Redis {
		if r.Name == name {
			return lab.DescribeNode(r)
		}
	}
	return ""
}

// ActionsText is a count of the learner's actions in words ("1 action",
// "3 actions").
func ActionsText(n int) string { return fmt.Sprintf("%d %s", n, form.Plural(n, "action", "actions")) }

// Area is where the world was last laid out.
func (w *World) Area() ui.Rect { return w.area }

// SetReducedMotion passes the learner's motion setting to a world that
// takes no input (a replay beside another), which Update would read.
func (w *World) SetReducedMotion(on bool) { w.reduced = on }
