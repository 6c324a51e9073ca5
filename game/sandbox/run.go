package sandbox

import (
	"fmt"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	sandboxcfg "leaselab/core/sandbox"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/lesson"
	"leaselab/game/page"
	"leaselab/game/player"
	"leaselab/game/scene"
	"leaselab/game/ui"
)

// The sandbox's run side: the run played from the setup, its invariant
// rows in place of the goals and its export buttons in place of the hints.

// play plays lb over the setup; cfg is the setup it was started from
// (nil: a lesson's run carried over).
func (sc *Scene) play(lb *lab.Lab, cfg *sandboxcfg.Config) {
	search := cfg != nil
	sc.exported, sc.runCfg = "", cfg
	spec := lesson.Spec{
		Back: player.BackButton{Label: "< Setup", Do: func() {
			if search {
				sc.m.Played, sc.m.Shared = lb.Log(), false // a switch of system replays them
			}
			sc.Run = nil
			sc.scenes.Pop()
		}},
		// A sandbox has no solution: its hidden button showed through
		// between the export buttons, and L restarted the run with an
		// empty log.
		NoSolution: true,
		Checklist:  player.Checklist{Title: "Invariants (click to jump)", Goals: func() []draw.Goal { return sc.invariants(lb) }},
		Side:       sc.drawSide,
		Regions: func() map[string]ui.Rect {
			m := map[string]ui.Rect{}
			for i := range sc.invs {
				if !sc.invs[i].Rect.Empty() {
					m[fmt.Sprintf("inv:%d", i)] = sc.invs[i].Rect
				}
			}
			m["exportJSONL"], m["exportMermaid"] = sc.jsonl.Rect, sc.mermaid.Rect
			m[RunCompareSystems] = sc.compare.Rect
			return m
		},
	}
	for i := range sc.invs {
		sc.invs[i] = ui.Button{}
		spec.Widgets = append(spec.Widgets, player.Widget{Name: fmt.Sprintf("inv:%d", i), W: &sc.invs[i], Do: func() { sc.jumpToBreak(i) }})
	}
	sc.jsonl = ui.Button{Label: "Trace (.jsonl)"}
	sc.mermaid = ui.Button{Label: "Diagram (.mmd)"}
	sc.compare = ui.Button{Label: compareLabel, Disabled: cfg == nil || cfg.Shards > 0}
	tip := "Play this run's scenario and your actions on every system side by side, from this play head"
	switch {
	case cfg == nil:
		tip = "Not for this run: " + compareRunRefused
	case cfg.Shards > 0:
		tip = "Not for this run: shard leases are modelled on etcd only"
	}
	spec.Widgets = append(spec.Widgets,
		player.Widget{Name: "exportJSONL", W: &sc.jsonl, Do: func() { sc.save(sc.Run.Lab.ExportName("jsonl"), sc.Run.Lab.ExportJSONL()) }},
		player.Widget{Name: "exportMermaid", W: &sc.mermaid, Do: func() { sc.save(sc.Run.Lab.ExportName("mmd"), sc.Run.Lab.ExportMermaid()) }},
		player.Widget{Name: RunCompareSystems, W: &sc.compare, Tip: tip, Do: sc.CompareRun})
	// A setup of the learner's own gets a search fitted to it (a lesson
	// opened here brought its own).
	why := ""
	if search {
		spec.Search, why = lab.SandboxSearch(sc.m.Config)
	}
	sc.Run = lesson.NewWithLab(lb, spec)
	if why != "" {
		sc.Run.Player.Narrate("Find a break is not offered for this setup: " + why + ".")
	}
	sc.scenes.Push((*runScene)(sc))
}

// invariants are the checklist: the invariants of run lb at the play
// head. Those that broke become buttons that jump to where.
func (sc *Scene) invariants(lb *lab.Lab) []draw.Goal {
	sts := lb.Statuses()
	goals := make([]draw.Goal, 0, len(sts))
	for i, st := range sts {
		if i >= ui.MaxGoals {
			break
		}
		goals = append(goals, draw.Goal{Text: st.Name + ": " + st.Summary(), Met: st.Holds})
		sc.invAt[i] = st.FirstBroke
		sc.invs[i].Disabled = st.Holds
		// The row's words are the canvas's; the label (not drawn) is
		// the page's control, offered once the invariant broke.
		sc.invs[i].Label = ""
		if !st.Holds {
			sc.invs[i].Label = "Jump to where " + st.Name + " first broke"
		}
	}
	for i := len(goals); i < ui.MaxGoals; i++ {
		sc.invs[i].Disabled, sc.invs[i].Label = true, ""
	}
	return goals
}

// Layout implements Scene.
func (v *runScene) Layout(window ui.Rect, style draw.Style) {
	sc := (*Scene)(v)
	sc.Run.Layout(window, style)
	p := sc.Run.Player
	l := p.Placed()
	for i := range sc.invs {
		sc.invs[i].Rect = p.GoalRow(i)
		if i >= len(p.Lesson.Goals) {
			sc.invs[i].Rect = ui.Rect{}
		}
	}
	row := l.HintButton
	row.W = l.Hints.W
	sc.placeExports(style, row, sc.runRowRoom(style, l.RunRow))
}

// RunCompareSystems names the run's Compare systems button for the page
// and the bridge.
const RunCompareSystems = "runCompareSystems"

const compareLabel = "Compare systems"

// runRowRoom is the room the run row's own buttons leave between those at
// its left (Restart, Undo) and any at its right (Back to my run).
func (sc *Scene) runRowRoom(style draw.Style, row ui.Rect) ui.Rect {
	g := math.Round(style.U(8))
	left, right := row.X, row.MaxX()
	for _, b := range sc.Run.Player.RunButtonRects() {
		switch {
		case b.Empty():
		case b.Center().X < row.Center().X:
			left = max(left, b.MaxX()+g)
		default:
			right = min(right, b.X-g)
		}
	}
	return ui.Rect{X: left, Y: row.Y, W: max(0, right-left), H: row.H}
}

// placeExports lays out the export row and Compare systems: Compare
// systems at the right of the run row's room when it fits there (it is
// the run's, like Restart and Undo), the export buttons halving their
// row; when Back to my run has taken that room, Compare systems takes
// the export row's right end, and the export buttons are named by what
// they save alone (their tips and the line under them say the formats).
func (sc *Scene) placeExports(style draw.Style, row, room ui.Rect) {
	g := math.Round(style.U(8))
	width := func(label string) float64 { return math.Ceil(draw.Measure(style.Label())(label) + style.U(22)) }
	w := width(compareLabel)
	sc.jsonl.Label, sc.mermaid.Label = "Trace (.jsonl)", "Diagram (.mmd)"
	if w <= room.W {
		sc.compare.Rect = ui.Rect{X: room.MaxX() - w, Y: room.Y, W: w, H: room.H}
		half := math.Floor((row.W - g) / 2)
		sc.jsonl.Rect, row = row.CutLeft(half, g)
		sc.mermaid.Rect = row
		return
	}
	sc.compare.Rect, row = row.CutRight(w, g)
	if width(sc.jsonl.Label)+g+width(sc.mermaid.Label) > row.W {
		sc.jsonl.Label, sc.mermaid.Label = "Trace", "Diagram"
	}
	a, b := width(sc.jsonl.Label), width(sc.mermaid.Label)
	split := math.Floor((row.W - g) * a / (a + b))
	sc.jsonl.Rect, row = row.CutLeft(split, g)
	sc.mermaid.Rect = row
}

// Update implements Scene.
func (v *runScene) Update(st *scene.State) error {
	sc := (*Scene)(v)
	run := sc.Run
	if err := run.Update(st); err != nil {
		return err
	}
	if sc.Run == nil {
		return nil // back to the setup
	}
	// The canvas's clicks pass the run's declarations (Widget.Do), as
	// the page's uses do.
	use := func(id string) { run.Player.Use(ui.HostAction{ID: id}) }
	in := &st.Input
	for i := range sc.invs {
		if sc.invs[i].Update(in) {
			use(fmt.Sprintf("inv:%d", i))
		}
	}
	for _, b := range []struct {
		id string
		w  *ui.Button
	}{{"exportJSONL", &sc.jsonl}, {"exportMermaid", &sc.mermaid}, {RunCompareSystems, &sc.compare}} {
		if b.w.Update(in) {
			use(b.id)
		}
	}
	return nil
}

// jumpToBreak moves the run to where invariant i first broke.
func (sc *Scene) jumpToBreak(i int) {
	p := sc.Run.Player
	p.SetPlaying(false)
	sc.Run.Seek(sc.invAt[i])
	p.Narrate(fmt.Sprintf("Jumped to t=%s, where %q first broke", core.FormatTime(sc.invAt[i]), strings.SplitN(p.Lesson.Goals[i].Text, ":", 2)[0]))
}

// save hands an export to the host and narrates where it went.
func (sc *Scene) save(name string, data []byte) {
	p := sc.Run.Player
	if sc.export == nil {
		sc.exported = "This build cannot save files."
	} else if where, err := sc.export(name, data); err != nil {
		sc.exported = "Could not save " + name + ": " + err.Error()
	} else {
		sc.exported = fmt.Sprintf("Saved %s (%d bytes) %s", name, len(data), where)
		if note := sc.Run.Lab.ExportNote(); note != "" {
			sc.exported = "Saved the whole run: " + sc.exported[len("Saved "):] + ". " + note
		}
	}
	p.Narrate(sc.exported)
}

// drawSide draws the invariant rows' marks and the export buttons where
// the hints would be.
func (sc *Scene) drawSide(dst *ebiten.Image) {
	p := sc.Run.Player
	s, l, th := p.Style(), p.Placed(), p.Style().Theme
	for i, g := range p.Lesson.Goals {
		b := &sc.invs[i]
		if !g.Met {
			row := p.GoalRow(i)
			side := math.Min(row.H-s.U(8), s.U(18))
			box := ui.Rect{X: row.X, Y: row.Y + s.U(4), W: side, H: side}
			draw.FillRoundRect(dst, box, s.U(3), th.Reject)
			draw.CrossMark(dst, box.Center(), side*0.6, s.U(2.5), th.Background)
		}
		if b.Focus() == ui.FocusVisible {
			s.FocusRing(dst, b.Rect, s.U(4))
		} else if b.Hovered() {
			draw.StrokeRoundRect(dst, b.Rect, s.U(4), s.U(1), th.Border)
		}
	}
	s.Button(dst, &sc.jsonl)
	s.Button(dst, &sc.mermaid)
	s.Button(dst, &sc.compare)
	msg, clr := "Export the run up to the play head.", th.TextDim
	if sc.Run.Lab.Now() == 0 {
		msg = "At 0 s an export holds the whole run."
	}
	if sc.exported != "" {
		msg, clr = sc.exported, th.Text
	}
	// One line: the whole message is in the narration.
	draw.TextIn(dst, ui.Ellipsize(msg, l.HintText.W, draw.Measure(s.Small())), s.Small(), l.HintText, draw.AlignStart, clr)
}

// Draw implements Scene.
func (v *runScene) Draw(screen *ebiten.Image) { v.Run.Draw(screen) }

// Inspect implements Inspector.
func (v *runScene) Inspect() page.SceneInfo {
	sc := (*Scene)(v)
	info := v.Run.Inspect()
	info.Name = "sandbox"
	info.Run.Complete = false
	info.Mirror.Checklist = &page.ChecklistWords{Title: "Invariants", Met: "Holds", Open: "Broken"}
	// The invariant rows' jumps, for the page: each broken one takes the
	// play head to where it first broke.
	var jumps []ui.Control
	for i, g := range info.Mirror.Goals {
		if i >= len(sc.invs) || g.Met {
			continue
		}
		name, _, _ := strings.Cut(g.Text, ":")
		jumps = append(jumps, ui.Control{ID: fmt.Sprintf("inv:%d", i), Group: "Invariants",
			Label: fmt.Sprintf("Jump to t=%s, where %s first broke", core.FormatTime(sc.invAt[i]), name)})
	}
	info.Mirror.Controls = append(jumps, info.Mirror.Controls...)
	return info
}
