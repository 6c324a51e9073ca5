package game

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/setup"
	"leaselab/game/ui"
)

// Exporter saves an export of a run (name is a file name, data its
// bytes) and says where it went: the browser downloads it, the desktop
// writes a file.
type Exporter func(name string, data []byte) (where string, err error)

// SandboxScene is free play. First a setup panel: presets, every
// parameter of core.SandboxConfig with its validation message under it,
// and the live lease-policy verdict; Start is refused while a field is
// invalid. Then the run, in the lesson player with every control, an
// invariant panel in place of the goals (click one that broke to jump to
// the moment it broke) and export buttons in place of the hints.
type SandboxScene struct {
	// m is the setup being built: configuration, preset and fields.
	m *setup.Setup

	presets     []ui.Button
	start, back ui.Button
	// systems opens the setup on every system side by side; note says
	// why it could not.
	systems    ui.Button
	note       string
	ring       *ui.FocusRing
	names      map[ui.Focusable]string
	style      draw.Style
	title      ui.Rect
	reason     ui.Rect
	verdict    ui.Rect
	presetHead ui.Rect
	cells      []ui.Rect

	// scenes is the setup panel, with the run over it while one plays.
	scenes *Stack
	// Run is the run being played, nil during setup.
	Run            *LessonScene
	invs           [ui.MaxGoals]ui.Button
	invAt          [ui.MaxGoals]time.Duration
	jsonl, mermaid ui.Button
	exported       string
	// compare opens the run's scenario and actions on every system at
	// its play head; runCfg is the scenario the run was started from
	// (nil for a lesson's run carried over, which has none).
	compare ui.Button
	runCfg  *core.SandboxConfig

	onMenu func()
	export Exporter
}

// NewSandboxScene returns the setup panel showing preset (the default
// setup if ""). onMenu goes back to the lesson menu; export saves files
// (nil: exports are refused with a word).
func NewSandboxScene(preset string, onMenu func(), export Exporter) (*SandboxScene, error) {
	sc := &SandboxScene{onMenu: onMenu, export: export, m: setup.New()}
	sc.presets = make([]ui.Button, len(core.Presets()))
	sc.back = ui.Button{Label: "< Lessons"}
	sc.start = ui.Button{Label: "Start", Icon: ui.IconPlay}
	sc.systems = ui.Button{Label: "Compare systems"}
	sc.names = map[ui.Focusable]string{&sc.back: "back", &sc.start: "start", &sc.systems: "compareSystems"}
	items := []ui.Focusable{&sc.back}
	for i, p := range core.Presets() {
		sc.presets[i].Label = p.Name
		items = append(items, &sc.presets[i])
		sc.names[&sc.presets[i]] = "preset:" + p.Name
	}
	for _, f := range sc.m.Fields {
		items = append(items, f.Widget())
		sc.names[f.Widget()] = "field:" + f.Name
	}
	sc.ring = ui.NewFocusRing(false, append(items, &sc.systems, &sc.start)...)
	sc.scenes = NewStack((*sandboxSetup)(sc))
	if preset != "" {
		if err := sc.UsePreset(preset); err != nil {
			return nil, err
		}
	}
	sc.check()
	return sc, nil
}

// UsePreset loads a preset into the setup panel.
func (sc *SandboxScene) UsePreset(name string) error {
	if err := sc.m.UsePreset(name); err != nil {
		return err
	}
	sc.note = ""
	sc.check()
	return nil
}

// Config returns the configuration the setup panel shows.
func (sc *SandboxScene) Config() core.SandboxConfig { return sc.m.Config }

// Errors returns the configuration's field errors.
func (sc *SandboxScene) Errors() []core.FieldError { return sc.m.Errs }

// check validates the configuration; Start is refused while it fails.
func (sc *SandboxScene) check() {
	sc.m.Check()
	sc.start.Disabled = len(sc.m.Errs) > 0
	sc.systems.Disabled = sc.start.Disabled || sc.m.Config.Shards > 0
}

// Start runs the configuration in the player. It refuses an invalid one.
func (sc *SandboxScene) Start() error {
	lb, dropped, err := sc.m.Run()
	if err != nil {
		return err
	}
	cfg := sc.m.Config
	sc.play(lb, &cfg)
	if dropped != nil {
		sc.Run.Player.Narrate(dropped.Error())
	}
	return nil
}

// OpenRun plays a run carried over from a lesson (see lab.OpenInSandbox);
// the setup panel behind it shows preset.
func (sc *SandboxScene) OpenRun(lb *lab.Lab) {
	lb.Lesson.Intro = append([]string{"This is the lesson's own world with your actions so far, and every control. " +
		"Back to the setup (Esc) to build a world of your own from any preset."}, lb.Lesson.Intro...)
	sc.play(lb, nil)
}

// play plays lb over the setup; cfg is the setup it was started from
// (nil: a lesson's run carried over).
func (sc *SandboxScene) play(lb *lab.Lab, cfg *core.SandboxConfig) {
	search := cfg != nil
	sc.exported, sc.runCfg = "", cfg
	spec := LessonSpec{
		Back: BackButton{Label: "< Setup", Do: func() {
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
		Checklist:  Checklist{Title: "Invariants (click to jump)", Goals: func() []draw.Goal { return sc.invariants(lb) }},
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
		spec.Widgets = append(spec.Widgets, Widget{Name: fmt.Sprintf("inv:%d", i), W: &sc.invs[i]})
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
	spec.Widgets = append(spec.Widgets, Widget{Name: "exportJSONL", W: &sc.jsonl}, Widget{Name: "exportMermaid", W: &sc.mermaid},
		Widget{Name: RunCompareSystems, W: &sc.compare, Tip: tip})
	// A setup of the learner's own gets a search fitted to it (a lesson
	// opened here brought its own).
	why := ""
	if search {
		spec.Search, why = lab.SandboxSearch(sc.m.Config)
	}
	sc.Run = newLessonScene(lb, spec)
	if why != "" {
		sc.Run.Player.Narrate("Find a break is not offered for this setup: " + why + ".")
	}
	sc.scenes.Push((*sandboxRun)(sc))
}

// invariants are the checklist: the invariants of run lb at the play
// head. Those that broke become buttons that jump to where.
func (sc *SandboxScene) invariants(lb *lab.Lab) []draw.Goal {
	sts := lb.Statuses()
	goals := make([]draw.Goal, 0, len(sts))
	for i, st := range sts {
		if i >= ui.MaxGoals {
			break
		}
		goals = append(goals, draw.Goal{Text: st.Name + ": " + st.Summary(), Met: st.Holds})
		sc.invAt[i] = st.FirstBroke
		sc.invs[i].Disabled = st.Holds
	}
	for i := len(goals); i < ui.MaxGoals; i++ {
		sc.invs[i].Disabled = true
	}
	return goals
}

// sandboxSetup is the setup panel, and sandboxRun the run played from it
// with the invariant rows and export buttons in the lesson panel: the two
// scenes of the sandbox's stack.
type (
	sandboxSetup SandboxScene
	sandboxRun   SandboxScene
)

// Update implements Scene.
func (sc *SandboxScene) Update(st *State) error { return sc.scenes.Update(st) }

// Layout implements Scene.
func (sc *SandboxScene) Layout(window ui.Rect, style draw.Style) { sc.scenes.Layout(window, style) }

// Draw implements Scene.
func (sc *SandboxScene) Draw(screen *ebiten.Image) { sc.scenes.Draw(screen) }

// Inspect implements Inspector.
func (sc *SandboxScene) Inspect() SceneInfo { return sc.scenes.Inspect() }

// Layout implements Scene.
func (v *sandboxRun) Layout(window ui.Rect, style draw.Style) {
	sc := (*SandboxScene)(v)
	sc.Run.Layout(window, style)
	p := sc.Run.Player
	l := p.layout
	for i := range sc.invs {
		sc.invs[i].Rect = p.goalRow(i)
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
func (sc *SandboxScene) runRowRoom(style draw.Style, row ui.Rect) ui.Rect {
	g := math.Round(style.U(8))
	left, right := row.X, row.MaxX()
	for i := range sc.Run.Player.run.buttons {
		b := sc.Run.Player.run.buttons[i].Rect
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
func (sc *SandboxScene) placeExports(style draw.Style, row, room ui.Rect) {
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
func (v *sandboxRun) Update(st *State) error {
	sc := (*SandboxScene)(v)
	run := sc.Run
	if err := run.Update(st); err != nil {
		return err
	}
	if sc.Run == nil {
		return nil // back to the setup
	}
	p := run.Player
	in := &st.Input
	for i := range sc.invs {
		if sc.invs[i].Update(in) {
			p.setPlaying(false)
			run.Seek(sc.invAt[i])
			p.Narrate(fmt.Sprintf("Jumped to t=%s, where %q first broke", core.FormatTime(sc.invAt[i]), strings.SplitN(p.Lesson.Goals[i].Text, ":", 2)[0]))
		}
	}
	if sc.jsonl.Update(in) {
		sc.save(run.Lab.ExportName("jsonl"), run.Lab.ExportJSONL())
	}
	if sc.mermaid.Update(in) {
		sc.save(run.Lab.ExportName("mmd"), run.Lab.ExportMermaid())
	}
	if sc.compare.Update(in) {
		sc.CompareRun()
	}
	return nil
}

// save hands an export to the host and narrates where it went.
func (sc *SandboxScene) save(name string, data []byte) {
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
func (sc *SandboxScene) drawSide(dst *ebiten.Image) {
	p := sc.Run.Player
	s, l, th := p.style, p.layout, p.style.Theme
	for i, g := range p.Lesson.Goals {
		b := &sc.invs[i]
		if !g.Met {
			row := p.goalRow(i)
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

// layout places the setup panel: a header (back, title, why Start is
// refused, Start), the policy verdict, the presets on the left and the
// fields in a grid.
func (sc *SandboxScene) layout(window ui.Rect, s draw.Style) {
	px := func(v float64) float64 { return math.Round(s.U(v)) }
	in := window.Inset(px(12))
	// Past about 1300 units wide the fields would only drift apart.
	if w := px(1300); in.W > w {
		in.X, in.W = in.X+math.Floor((in.W-w)/2), w
	}
	header, in := in.CutTop(px(40), px(8))
	sc.back.Rect, _ = header.CutLeft(px(120), 0)
	_, rest := header.CutLeft(px(120), px(12))
	sc.start.Rect, rest = rest.CutRight(px(130), px(12))
	sc.systems.Rect, rest = rest.CutRight(px(170), px(12))
	sc.title, sc.reason = rest.CutLeft(px(110), px(12))
	// The verdict takes the lines it needs beside its mark and word, as
	// long as every field keeps a line for its note below (the rest shows
	// on hover).
	cols := 4
	if in.W-px(190)-px(12) < px(4*180) {
		cols = 3
	}
	slots := 0
	for _, f := range sc.m.Fields {
		if !f.SharesCell {
			slots++
		}
	}
	rows := float64((slots + cols - 1) / cols)
	v := sc.m.Config.PolicyVerdict()
	textW := in.W - s.U(28) - draw.Measure(s.Label())(verdictWord(v.OK))
	spare := in.H - px(44) - px(8) - rows*(px(50)+math.Ceil(draw.LineHeight(s.Small()))) - (rows-1)*px(4)
	grow := math.Min(math.Max(0, math.Ceil(draw.ParagraphHeight(v.Explanation, s.Small(), textW))-px(44)), math.Max(0, spare))
	sc.verdict, in = in.CutTop(px(44)+grow, px(8))
	col, grid := in.CutLeft(px(190), px(12))
	sc.presetHead, col = col.CutTop(px(22), px(4))
	n := float64(len(sc.presets))
	h := math.Min(px(34), math.Floor((col.H-(n-1)*px(4))/n))
	for i := range sc.presets {
		sc.presets[i].Rect, col = col.CutTop(h, px(4))
	}
	gap := px(12)
	w := math.Floor((grid.W - float64(cols-1)*gap) / float64(cols))
	cellH := math.Min(px(96), math.Floor((grid.H-(rows-1)*px(4))/rows))
	sc.cells = make([]ui.Rect, len(sc.m.Fields))
	slot := -1
	for i, f := range sc.m.Fields {
		if !f.SharesCell {
			slot++
		}
		c := ui.Rect{X: grid.X + float64(slot%cols)*(w+gap), Y: grid.Y + float64(slot/cols)*(cellH+px(4)), W: w, H: cellH}
		if sc.m.Hidden(i) {
			c = ui.Rect{} // its cell shows the field it shares it with
		}
		sc.cells[i] = c
		_, below := c.CutTop(px(20), 0)
		widget, _ := below.CutTop(px(28), 0)
		if f.Choices != nil {
			f.Button.Rect = widget
		} else {
			f.Slider.Rect = widget
		}
	}
}

// Draw implements Scene.
func (v *sandboxRun) Draw(screen *ebiten.Image) { v.Run.Draw(screen) }

// drawUnder writes msg under a field, wrapped to r. Where msg does not
// fit, short (a few words saying the same, if there are) takes its place
// on one line, with the whole of msg on hover; otherwise what does not
// fit shows on hover.
func (sc *SandboxScene) drawUnder(screen *ebiten.Image, msg, short string, r ui.Rect, clr color.Color) {
	face := sc.style.Small()
	if short == "" || draw.ParagraphHeight(msg, face, r.W) <= r.H+0.5 {
		draw.ParagraphTip(screen, msg, face, r, clr)
		return
	}
	line, _ := r.CutTop(draw.LineHeight(face), 0)
	draw.ShortInTip(screen, msg, short, face, line, draw.AlignStart, clr)
}

// fitOr is whole if it fits width w in face, and short otherwise.
func fitOr(whole, short string, w float64, face *draw.Face) string {
	if draw.Measure(face)(whole) <= w {
		return whole
	}
	return short
}

// drawReason writes msg beside Start: one line centred on the button,
// or a paragraph from the top when it needs more.
func (sc *SandboxScene) drawReason(screen *ebiten.Image, msg string, clr color.Color) {
	s := sc.style
	if draw.Measure(s.Small())(msg) <= sc.reason.W {
		draw.TextIn(screen, msg, s.Small(), sc.reason, draw.AlignStart, clr)
		return
	}
	draw.Paragraph(screen, msg, s.Small(), sc.reason, clr)
}

// Inspect implements Inspector.
func (v *sandboxRun) Inspect() SceneInfo {
	sc := (*SandboxScene)(v)
	info := v.Run.Inspect()
	info.Name = "sandbox"
	info.Run.Complete = false
	info.Mirror.Checklist = &ChecklistWords{Title: "Invariants", Met: "Holds", Open: "Broken"}
	// The invariant rows' jumps, for the page: each broken one takes the
	// play head to where it first broke.
	var jumps []Control
	for i, g := range info.Mirror.Goals {
		if i >= len(sc.invs) || g.Met {
			continue
		}
		name, _, _ := strings.Cut(g.Text, ":")
		jumps = append(jumps, Control{ID: fmt.Sprintf("inv:%d", i), Group: "Invariants",
			Label: fmt.Sprintf("Jump to t=%s, where %s first broke", core.FormatTime(sc.invAt[i]), name)})
	}
	info.Mirror.Controls = append(jumps, info.Mirror.Controls...)
	return info
}
