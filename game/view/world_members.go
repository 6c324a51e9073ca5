package view

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// A coordinator of several members (lesson 14) is drawn in the
// coordinator's place: its name, revision and lock on two rows, then one
// cell per member, side by side, each saying whether it leads (and in
// which term), whether it is crashed, paused or cut off, what it has
// applied and whether it is in the quorum. Each cell is an actor the
// learner selects like a process; each process's link runs to the member
// it talks to.

// memberHead and MemberCells split box (the coordinator's place) into
// the two heading rows and one cell per member. u is the layout unit.
func memberHead(box ui.Rect, u float64) (title, lock, rest ui.Rect) {
	in := box.Inset(math.Round(8 * u))
	title, in = in.CutTop(math.Round(18*u), math.Round(2*u))
	lock, rest = in.CutTop(math.Round(16*u), math.Round(5*u))
	return title, lock, rest
}

func MemberCells(box ui.Rect, u float64, n int) []ui.Rect {
	if n < 1 {
		return nil
	}
	_, _, row := memberHead(box, u)
	gap := math.Round(6 * u)
	w := (row.W - gap*float64(n-1)) / float64(n)
	h := math.Max(math.Min(row.H, math.Round(48*u)), math.Round(20*u))
	out := make([]ui.Rect, n)
	for i := range out {
		out[i] = ui.Rect{X: math.Round(row.X + float64(i)*(w+gap)), Y: row.Y, W: math.Floor(w), H: h}
	}
	return out
}

// memberEnd is where a process's link meets member i's cell: the middle
// of its bottom edge.
func (w *World) memberEnd(i int) ui.Point {
	c := MemberCells(w.geom.Coord, w.unit, len(w.view.Members))[i]
	return ui.Point{X: c.Center().X, Y: c.MaxY()}
}

// memberOf is the index of the member process name talks to, or -1.
func (w *World) memberOf(name string) int {
	for i, m := range w.view.Members {
		for _, c := range m.Clients {
			if c == name {
				return i
			}
		}
	}
	return -1
}

// drawMembers draws the cluster in box: heading, lock and every member.
func (w *World) drawMembers(dst *ebiten.Image, s draw.Style, box ui.Rect) {
	th := s.Theme
	v := w.view
	s.Card(dst, box)
	title, lockRow, _ := memberHead(box, s.Unit)
	words := v.Words
	if words.Server == "" {
		words = core.SystemEtcd.Words()
	}
	rev := fmt.Sprintf("%s %d", words.Version, v.Rev)
	draw.TextIn(dst, rev, s.Mono(), title, draw.AlignEnd, th.TextDim)
	_, left := title.CutRight(draw.Measure(s.Mono())(rev)+s.U(8), 0)
	name := fmt.Sprintf("%s: %d members, quorum %d", words.Server, len(v.Members), v.QuorumSize())
	draw.FirstFitInTip(dst, name, []string{fmt.Sprintf("%s (%d members)", words.Server, len(v.Members)), words.Server}, s.Label(), left, draw.AlignStart, th.Text)

	holder := "free"
	if l := v.Lock; l.Holder != "" {
		holder = fmt.Sprintf("held by %s, %s %d", l.Holder, words.Token, l.Token)
	}
	lead, clr := fmt.Sprintf("%s leads, term %d", v.LeaderName, v.Term), th.Truth
	if v.LeaderName == "" {
		lead, clr = "no leader: nothing expires", th.Reject
	}
	draw.TextIn(dst, lead, s.Small(), lockRow, draw.AlignEnd, clr)
	_, left = lockRow.CutRight(draw.Measure(s.Small())(lead)+s.U(10), 0)
	draw.FirstFitInTip(dst, v.Lock.Name+": "+holder, []string{holder}, s.Small(), left, draw.AlignStart, th.Text)

	for i, c := range MemberCells(box, s.Unit, len(v.Members)) {
		sel := w.selected >= 0 && w.selected < len(w.actors) && w.actors[w.selected].Member == v.Members[i].Name
		w.drawMember(dst, s, c, v.Members[i], sel)
	}
}

// memberBadge is a member's state in a word or two and its colour: what
// its cell's first row says beside its name.
func memberBadge(v lab.WorldView, m lab.MemberView, th *draw.Theme) (string, string, color.Color) {
	switch {
	case m.Crashed:
		return "crashed", "down", th.Reject
	case m.Paused:
		return "paused", "paused", th.Warning
	case m.CutPeers:
		return "cut off", "cut", th.Reject
	case m.Leader:
		return fmt.Sprintf("leader · term %d", v.Term), fmt.Sprintf("leader %d", v.Term), th.Truth
	}
	return "follower", "", th.TextDim
}

// memberNote is what a member's second row says after its revision:
// the one thing most worth knowing, first that fits.
func memberNote(m lab.MemberView) (long, short string, bad bool) {
	switch {
	case m.Crashed:
		return "", "", false
	case m.CutClients:
		return "clients cut off", "no clients", true
	case !m.InQuorum:
		return "out of quorum", "no quorum", true
	case m.SlowDisk():
		return "disk " + core.Span(m.Disk), core.Span(m.Disk), true
	}
	return "in quorum", "", false
}

// drawMember draws one member's cell: name and state on the first row,
// applied revision and quorum (or what ails it) on the second; a leader's
// cell is outlined in the truth's colour, one out of the quorum in the
// warning's, dashed.
func (w *World) drawMember(dst *ebiten.Image, s draw.Style, c ui.Rect, m lab.MemberView, selected bool) {
	th := s.Theme
	s.Card(dst, c)
	switch {
	case m.Leader:
		draw.StrokeRoundRect(dst, c, s.U(6), s.U(2), th.Truth)
	case !m.InQuorum && !m.Crashed:
		outline(dst, c, s.U(1.5), s.U(5), th.Warning)
	}
	if selected {
		draw.StrokeRoundRect(dst, c.Inset(-s.U(3)), s.U(8), s.U(2), th.Focus)
	}
	badge, short, clr := memberBadge(w.view, m, th)
	in := c.InsetXY(s.U(6), s.U(3))
	nameH := draw.LineHeight(s.Small())
	rows := 2
	if in.H < 2*nameH {
		rows = 1
		in = c.InsetXY(s.U(6), 0)
	}
	row, rest := in.CutTop(math.Min(in.H, nameH), 0)
	if rows == 1 {
		row = in
	}
	draw.TextInTip(dst, m.Name, s.Small(), row, draw.AlignStart, th.Text)
	_, after := row.CutLeft(draw.Measure(s.Small())(m.Name)+s.U(6), 0)
	draw.FirstFitInTip(dst, badge, []string{short}, s.Small(), after, draw.AlignEnd, clr)
	if rows == 1 || m.Crashed {
		return
	}
	row, _ = rest.CutTop(math.Min(rest.H, nameH), 0)
	revText := fmt.Sprintf("rev %d", m.Applied)
	draw.TextIn(dst, revText, s.Mono(), row, draw.AlignStart, th.TextDim)
	long, shortNote, bad := memberNote(m)
	noteClr := th.TextDim
	if bad {
		noteClr = th.Warning
	}
	_, after = row.CutLeft(draw.Measure(s.Mono())(revText)+s.U(6), 0)
	draw.FirstFitInTip(dst, long, []string{shortNote}, s.Small(), after, draw.AlignEnd, noteClr)
}

// outline strokes r's edges dashed.
func outline(dst *ebiten.Image, r ui.Rect, width, dash float64, clr color.Color) {
	a, b := ui.Point{X: r.X, Y: r.Y}, ui.Point{X: r.MaxX(), Y: r.Y}
	c, d := ui.Point{X: r.MaxX(), Y: r.MaxY()}, ui.Point{X: r.X, Y: r.MaxY()}
	dashed(dst, a, b, width, dash, clr)
	dashed(dst, b, c, width, dash, clr)
	dashed(dst, c, d, width, dash, clr)
	dashed(dst, d, a, width, dash, clr)
}

// describeMember is a member as the panel and the narration say it.
func (w *World) describeMember(name string) string {
	if m, ok := w.view.Member(name); ok {
		return w.view.MemberRole(m)
	}
	return ""
}
