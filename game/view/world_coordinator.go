package view

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// drawSingle draws a lock world: coordinator, processes, store or queue.
func (w *World) drawSingle(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	g := w.geom
	v := w.view
	w.drawRedisLinks(dst, s)
	for i, p := range v.Procs {
		c := g.Procs[i]
		a, b := w.coordEnd(i), ui.Point{X: c.X, Y: c.Y - g.Ring}
		switch {
		case len(v.Redis) > 0:
			// No coordinator to link to: drawRedisLinks drew each node's.
		case !p.Cut && w.memberOf(p.Name) >= 0:
			// A cluster's client talks to one member.
			draw.Line(dst, w.memberEnd(w.memberOf(p.Name)), b, s.U(1.5), th.Border)
		case p.Cut:
			dashed(dst, a, b, s.U(2), s.U(8), th.Reject)
			pill(dst, s, w.cutPillAt(s, a, b, c, g.Ring), "link cut", th.Reject, th.Background)
		default:
			draw.Line(dst, a, b, s.U(1.5), th.Border)
		}
		if v.Store != nil || v.Queue != nil {
			draw.Line(dst, w.procBottom(i), w.storeEnd(i), s.U(1.5), th.Border)
		}
	}
	switch {
	case len(v.Redis) > 0:
		w.drawRedis(dst, s, g.Coord)
	case len(v.Members) > 0:
		w.drawMembers(dst, s, g.Coord)
	default:
		w.drawCoordinator(dst, s, g.Coord, 0, true)
	}
	switch {
	case v.Store != nil:
		w.drawStore(dst, s)
	case v.Queue != nil:
		w.drawQueue(dst, s)
	}
	for i, p := range v.Procs {
		w.drawProcess(dst, s, g.Procs[i], g.Ring, g.R, g.Badges[i], g.Store.Y-s.U(6), g.Coord.MaxY(), p, w.selected == i)
	}
	w.drawMessages(dst, s)
}

// cutPillAt is the centre of the "link cut" pill of the process at c
// (rings of radius ring), whose link runs from a, under the coordinator's
// card, to b, its rings' top: the link's middle where the pill fits
// between the two, else beside the rings' lower half where there is room
// (on a phone with a lesson complete the pill lay over the card's
// border, which hid its top).
func (w *World) cutPillAt(s draw.Style, a, b, c ui.Point, ring float64) ui.Point {
	mid := ui.Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
	pw := pillRectIn(s, ui.Point{}, "link cut", math.Inf(1)).W
	if b.Y-a.Y >= s.U(ui.TagH+4) || w.besideRoom(c, ring, s) < pw {
		return mid
	}
	return ui.Point{X: c.X + ring + s.U(4) + pw/2, Y: c.Y + ring/2}
}

func (w *World) coordEnd(i int) ui.Point {
	c := w.geom.Coord
	n := float64(len(w.geom.Procs))
	return ui.Point{X: c.X + c.W*(0.2+0.6*(float64(i)+0.5)/n), Y: c.MaxY()}
}

func (w *World) storeEnd(i int) ui.Point {
	st := w.geom.Store
	n := float64(len(w.geom.Procs))
	return ui.Point{X: st.X + st.W*(0.2+0.6*(float64(i)+0.5)/n), Y: st.Y}
}

// procBottom is where a process's link to the store starts: under its badge.
func (w *World) procBottom(i int) ui.Point {
	b := w.geom.Badges[i]
	return ui.Point{X: b.Center().X, Y: b.MaxY()}
}

// drawCoordinator draws lock group gi's coordinator box: the lock, its
// holder and, where there is room, its queue of keys.
func (w *World) drawCoordinator(dst *ebiten.Image, s draw.Style, box ui.Rect, gi int, showRev bool) {
	th := s.Theme
	v := w.view
	s.Card(dst, box)
	if gi >= len(v.Groups) {
		return
	}
	grp := v.Groups[gi]
	in := box.Inset(s.U(10))
	row, in := in.CutTop(s.U(20), s.U(4))
	words := v.Words
	if words.Server == "" {
		words = core.SystemEtcd.Words()
	}
	title := words.Server
	if !showRev {
		title = grp.Lock.Name
	}
	draw.TextIn(dst, title, s.Label(), row, draw.AlignStart, th.Text)
	if showRev && words.Version != "" {
		draw.TextIn(dst, fmt.Sprintf("%s %d", words.Version, v.Rev), s.Mono(), row, draw.AlignEnd, th.TextDim)
	}
	row, in = in.CutTop(s.U(18), s.U(4))
	line, shorter := holderLine(grp.Lock, words, showRev, v.Now)
	draw.FirstFitInTip(dst, line, shorter, s.Small(), row, draw.AlignStart, th.Text)
	if len(v.Groups) > 1 && grp.Handovers > 0 && in.H >= s.U(18) {
		// The wake-up count of the last handover: the herd's price.
		row, in = in.CutTop(s.U(18), s.U(4))
		clr := th.Accept
		if grp.Woken > 1 {
			clr = th.Warning
		}
		draw.FirstFitInTip(dst, fmt.Sprintf("last handover woke %d of %d waiters", grp.Woken, grp.Waiting),
			[]string{fmt.Sprintf("handover woke %d of %d", grp.Woken, grp.Waiting), fmt.Sprintf("woke %d of %d", grp.Woken, grp.Waiting)}, s.Small(), row, draw.AlignStart, clr)
	}
	if !showRev {
		// Keys published next to this lock (a status key), with values.
		parent := grp.Lock.Name[:max(0, strings.LastIndex(grp.Lock.Name, "/")+1)]
		for _, n := range v.Notes {
			if parent != "" && strings.HasPrefix(n.Key, parent) && in.H >= s.U(18) {
				row, in = in.CutTop(s.U(18), s.U(2))
				drawNote(dst, s, n.Key, n.Value, row, th.Accept)
			}
		}
	}
	drawKeyQueue(dst, s, in, grp.Keys, words)
}

// holderLine is what lock's card says of its holder, on a line of its own
// under the title: "locks/leader: held by A, token 7" (the lock's name
// left out where it is the card's title, when not showRev), with shorter
// wordings, longest first, for a narrow card (two locks side by side on
// a phone): the holder and its token, then the holder.
func holderLine(lock core.LockInfo, words core.SystemWords, showRev bool, now time.Duration) (line string, shorter []string) {
	holder := "free"
	switch {
	case lock.Holder != "" && words.Token == "":
		holder = "held by " + lock.Holder + ", no token"
		shorter = []string{"held by " + lock.Holder, lock.Holder + " holds it"}
	case lock.Holder != "":
		holder = fmt.Sprintf("held by %s, %s %d", lock.Holder, words.Token, lock.Token)
		shorter = []string{fmt.Sprintf("%s, %s %d", lock.Holder, words.Token, lock.Token), "held by " + lock.Holder, lock.Holder + " holds it"}
	case lock.DelayUntil > now:
		holder = "lock-delay until " + core.FormatTime(lock.DelayUntil)
		shorter = []string{"lock-delay to " + core.FormatTime(lock.DelayUntil), "lock-delay"}
	}
	line = lock.Name + ": " + holder
	if showRev {
		shorter = append([]string{holder}, shorter...)
	} else {
		line = holder
	}
	return line, shorter
}

// drawKeyQueue draws the lock's queue of keys, one a row of in, as many
// as fit: each key's creation revision, owner and role.
func drawKeyQueue(dst *ebiten.Image, s draw.Style, in ui.Rect, keys []lab.KeyView, words core.SystemWords) {
	th := s.Theme
	lh := draw.LineHeight(s.Mono())
	for _, k := range keys {
		if in.H < lh {
			break
		}
		var row ui.Rect
		row, in = in.CutTop(lh, 0)
		role := "waits"
		if k.Holder {
			role = "holds"
		}
		line := fmt.Sprintf("%s %-3d %-4s %s", cmp.Or(words.Created, "#"), k.CreateRev, k.Owner, role)
		clr := th.TextDim
		if k.Holder {
			clr = th.Truth
		}
		// Narrow, the key's revision goes first (the queue's order
		// shows it), then the role.
		draw.FirstFitInTip(dst, line, []string{k.Owner + " " + role, k.Owner}, s.Mono(), row, draw.AlignStart, clr)
	}
}

// drawLockPane draws one lock's group in a split world.
func (w *World) drawLockPane(dst *ebiten.Image, s draw.Style, pn pane) {
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
		w.drawProcess(dst, s, g.Procs[k], g.Ring, g.R, g.Badges[k], g.Area.MaxY(), g.Coord.MaxY(), w.view.Procs[pi], sel)
	}
}

// drawNote draws a key published beside a lock, with its value: whole
// where it fits, else its value's first clause after the key, the value
// alone, or its first clause alone (the whole on hover).
func drawNote(dst *ebiten.Image, s draw.Style, key, value string, row ui.Rect, clr color.Color) {
	first, _, _ := strings.Cut(value, ", ")
	draw.FirstFitInTip(dst, key+" = "+value, []string{key + " = " + first, value, first}, s.Small(), row, draw.AlignStart, clr)
}
