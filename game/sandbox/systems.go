package sandbox

import (
	"math"
	"slices"
	"strings"
	"time"

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
	"leaselab/game/view"
)

// Systems plays one sandbox scenario on several systems at once
// (lab.SystemsComparison), in the style of the fencing on/off
// comparison: a pane per system, each world under the line that says what
// that system did, their timelines side by side, one play head. It is a
// scene of its own, pushed over the sandbox and popped on Esc.
type Systems struct {
	m      *lab.SystemsComparison
	worlds []*view.World
	lines  []*view.Timeline
	// shown are the two systems whose worlds (and, in a short window,
	// timelines) are drawn.
	shown  [2]int
	labels [2]ui.Rect
	titles []ui.Rect // the grid's names, when it shows every timeline
	// chips are the header's names, one per system, which choose the
	// system shown: buttons the page lists, Tab visits and a click or a
	// touch presses ("systemsShow:etcd"). Empty rectangles where the
	// header has none (two systems side by side).
	chips  []ui.Button
	header ui.Rect
	tall   bool // the window has room for every system's timeline
	pair   bool // the timeline strip shows only the shown pair
	// single: the world region is too narrow for two worlds side by
	// side (a phone): one system's world and timeline are drawn, the
	// last one chosen (shown[1]), and the chips switch it.
	single bool
	back   ui.Button
	player *player.Player
	stack  *scene.Stack
}

// systemsFrom is where the comparison was opened, and so where its Back
// returns: the sandbox's setup or a run played from it.
type systemsFrom struct{ label, tip, esc string }

var (
	fromSetup = systemsFrom{"< Sandbox", "Back to the sandbox's setup", "Esc returns to the sandboxcfg."}
	fromRun   = systemsFrom{"< Run", "Back to the run, where you left it", "Esc returns to the run."}
)

// openSystems builds the comparison of cfg and log on systems (every one
// when empty), at play head at, and pushes it on stack; its Back returns
// to from.
func openSystems(stack *scene.Stack, cfg sandboxcfg.Config, log core.ActionLog, systems []core.System, at time.Duration, from systemsFrom) error {
	m, err := lab.NewSystemsComparison(cfg, log, systems, at)
	if err != nil {
		return err
	}
	pushSystems(stack, m, cfg.System, from)
	return nil
}

// pushSystems shows comparison m on stack, etcd beside system.
func pushSystems(stack *scene.Stack, m *lab.SystemsComparison, system core.System, from systemsFrom) {
	v := &Systems{m: m, stack: stack, back: ui.Button{Label: "Back (Esc)"}, shown: [2]int{0, min(1, len(m.Runs)-1)}}
	widgets := []player.Widget{{Name: "systemsBack", W: &v.back, Tip: "Back to the sandbox (Esc)", Do: v.leave}}
	v.chips = make([]ui.Button, len(m.Systems))
	for i, sys := range m.Systems {
		if sys == system && i > 0 {
			v.shown[1] = i // etcd beside the system the setup is on
		}
		v.chips[i].Label = "Show " + sys.Title()
		widgets = append(widgets, player.Widget{Name: "systemsShow:" + sys.String(), W: &v.chips[i], Tip: "Show " + sys.Title() + "'s world and timeline",
			Do: func() { v.show(i) }})
	}
	for _, lb := range m.Runs {
		v.worlds = append(v.worlds, view.NewWorld(lb, func(string) {}, func(lab.Command) {}))
		v.lines = append(v.lines, view.NewTimeline(lb, func(cmd lab.Command) { lb.Apply(cmd) }))
	}
	var body []string
	for _, st := range m.Stories {
		body = append(body, st.Line()+".")
	}
	for _, r := range m.Refused {
		body = append(body, "Left out, "+r)
	}
	v.player = player.NewPlayer(player.PlayerSpec{
		Lesson: player.Lesson{Title: "Compare systems", Body: "The same scenario and the same actions on each system, under one play head. " +
			"Each line is read from that system's own run.\n\n" + strings.Join(body, "\n\n")},
		Clock: lab.SystemsClock(m.Runs), World: (*systemsPanes)(v), Timeline: (*systemsLanes)(v),
		Back: player.BackButton{Label: from.label, Tip: ui.WithKey(from.tip, ui.IntentBack), Do: v.leave},
		// Room for two rows of timelines when the window has it; else
		// the usual strip, for the shown pair.
		Lanes: func() int {
			if v.tall {
				return 2*len(m.Runs[0].Timeline().Lanes) + 4
			}
			return len(m.Runs[0].Timeline().Lanes)
		},
		Regions: func() map[string]ui.Rect {
			r := map[string]ui.Rect{"systemsBack": v.back.Rect}
			for i, sys := range m.Systems {
				if !v.chips[i].Rect.Empty() {
					r["systemsShow:"+sys.String()] = v.chips[i].Rect
				}
			}
			for k, i := range v.drawn() {
				r["systemsPane:"+m.Systems[i].String()] = v.labels[k]
			}
			return r
		},
		Checklist: player.Checklist{Title: "Ticked: no late write reached storage", Goals: func() []draw.Goal {
			out := make([]draw.Goal, len(m.Stories))
			for i, st := range m.Stories {
				out[i] = draw.Goal{Text: st.Outcome(), Met: !st.StaleAccepted}
			}
			return out
		}},
		Widgets: widgets,
	})
	v.player.Narrate("Comparing " + systemTitles(m.Systems) + " on the same scenario. " + from.esc)
	stack.Push(v)
}

func systemTitles(ss []core.System) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Title()
	}
	return strings.Join(out, ", ")
}

// leave returns to the sandboxcfg.
func (v *Systems) leave() {
	v.player.SetPlaying(false)
	v.stack.Pop()
}

// Update implements Scene.
func (v *Systems) Update(st *scene.State) error { return v.player.Update(&st.Env) }

// Layout implements Scene.
func (v *Systems) Layout(window ui.Rect, style draw.Style) {
	v.tall = window.H >= style.U(760)
	v.player.Layout(window, style)
}

// Draw implements Scene.
func (v *Systems) Draw(screen *ebiten.Image) { v.player.Draw(screen) }

// Inspect implements Inspector.
func (v *Systems) Inspect() page.SceneInfo {
	info := v.player.Inspect()
	info.Name = "compare-systems"
	si := &page.SystemsInfo{Refused: v.m.Refused, Now: v.m.Runs[0].Now().Seconds()}
	for i, sys := range v.m.Systems {
		si.Systems = append(si.Systems, sys.String())
		si.Lines = append(si.Lines, v.m.Stories[i].Line())
	}
	for _, i := range v.drawn() {
		si.Shown = append(si.Shown, v.m.Systems[i].String())
	}
	info.Systems = si
	return info
}

// drawn are the systems whose worlds are drawn, left to right: the shown
// pair, or on a narrow screen the last one chosen.
func (v *Systems) drawn() []int {
	switch {
	case len(v.m.Systems) == 1:
		return v.shown[:1]
	case v.single:
		return v.shown[1:]
	}
	return v.shown[:]
}

// isDrawn reports whether system i's world is drawn.
func (v *Systems) isDrawn(i int) bool { return slices.Contains(v.drawn(), i) }

// cells lays the timeline strip out: when it is tall enough, a grid of
// every system's timeline, up to three a row, each under its name;
// otherwise a row of names and the shown pair's timelines side by side.
// lanes[i] is empty for a system whose timeline is not drawn.
func (v *Systems) cells(area ui.Rect, s draw.Style) (titles, lanes []ui.Rect) {
	area = area.Inset(math.Round(s.U(10)))
	n := len(v.lines)
	cols := min(n, 3)
	rows := (n + cols - 1) / cols
	gap := math.Round(s.U(8))
	titleH := math.Ceil(draw.LineHeight(s.Label()))
	procs := 0
	for _, lb := range v.m.Runs {
		procs = max(procs, len(lb.Timeline().Lanes))
	}
	need := titleH + s.U(66+16*float64(procs))
	titles, lanes = make([]ui.Rect, n), make([]ui.Rect, n)
	if v.single {
		// The one system drawn, its timeline the strip's width.
		lanes[v.shown[1]] = area
		return nil, lanes
	}
	if n > 2 && (!v.tall || float64(rows)*need+float64(rows-1)*gap > area.H) {
		// The names go in the header (see systemsPanes.Layout).
		for k, r := range ui.SplitPanes(area, s.Unit, 1, 1) {
			lanes[v.shown[k]] = r
		}
		return nil, lanes
	}
	h := math.Floor((area.H - float64(rows-1)*gap) / float64(rows))
	for r := range rows {
		row := ui.Rect{X: area.X, Y: area.Y + float64(r)*(h+gap), W: area.W, H: h}
		for c, cell := range ui.SplitPanes(row, s.Unit, ones(cols)...) {
			if i := r*cols + c; i < n {
				titles[i], lanes[i] = cell.CutTop(titleH, 0)
			}
		}
	}
	return titles, lanes
}

// ones are n equal pane weights.
func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// show puts system i in the world panes beside the last one shown, or on
// a narrow screen in place of it.
func (v *Systems) show(i int) {
	if v.single {
		if i == v.shown[1] {
			return
		}
		v.shown = [2]int{v.shown[1], i}
		v.player.Narrate("Showing " + v.m.Systems[i].Title())
		return
	}
	if i == v.shown[0] || i == v.shown[1] {
		return
	}
	v.shown = [2]int{v.shown[1], i}
	v.player.Narrate("Showing " + v.m.Systems[v.shown[0]].Title() + " and " + v.m.Systems[v.shown[1]].Title() + " side by side")
}

// minPaneW is the narrowest world pane, in units, Compare systems puts two
// of side by side: narrower, a contender's badge met the store's card and
// a "paused" tag the coordinator's (a phone). A narrower region shows one
// system at a time.
const minPaneW = 300

// systemsPanes is the world region: a header with the way back, then
// the worlds of the two systems shown, each under its line.
type systemsPanes Systems

// Layout implements View.
func (p *systemsPanes) Layout(area ui.Rect, s draw.Style) {
	v := (*Systems)(p)
	px := func(x float64) float64 { return math.Round(s.U(x)) }
	in := area.Inset(px(10))
	v.header, in = in.CutTop(px(30), px(8))
	v.back.Rect, _ = v.header.CutRight(px(140), 0)
	v.single = len(v.worlds) > 1 && in.W < px(2*minPaneW+8)
	for i := range v.chips {
		v.chips[i].Rect = ui.Rect{}
	}
	if len(v.worlds) > 2 || v.single {
		// The names that choose the systems shown.
		names, _ := v.header.CutRight(v.header.W-px(60), 0)
		names.W -= px(150)
		for i, r := range ui.SplitPanes(names, s.Unit, ones(len(v.worlds))...) {
			v.chips[i].Rect = r
		}
	}
	for i := range v.chips {
		v.chips[i].Disabled = v.chips[i].Rect.Empty() // both worlds are drawn
	}
	panes, storyH := p.panes(in, s)
	for k, pane := range panes {
		v.labels[k], pane = pane.CutTop(storyH, px(2))
		v.worlds[v.drawn()[k]].Layout(pane, s)
	}
}

// Update implements View: the way back and the names that choose the
// systems shown; the worlds are a replay to watch and take no input.
func (p *systemsPanes) Update(st *view.Env) error {
	v := (*Systems)(p)
	for i, sys := range v.m.Systems {
		if v.chips[i].Update(&st.Input) {
			v.player.Use(ui.HostAction{ID: "systemsShow:" + sys.String()})
		}
	}
	lesson.UpdateReplay(st, v.worlds, &v.back, func() { v.player.Use(ui.HostAction{ID: "systemsBack"}) })
	return nil
}

// Draw implements View.
func (p *systemsPanes) Draw(dst *ebiten.Image, _ ui.Rect, s draw.Style) {
	v := (*Systems)(p)
	th := s.Theme
	title := "The same scenario on " + systemTitles(v.m.Systems)
	if !v.chips[0].Rect.Empty() {
		title = "Show:"
		v.drawChips(dst, s)
	}
	head := v.header
	head.W = math.Min(head.W, v.back.Rect.X-v.header.X-s.U(10))
	draw.TextInTip(dst, title, s.Label(), head, draw.AlignStart, th.Text)
	s.Button(dst, &v.back)
	for k, i := range v.drawn() {
		r := v.labels[k]
		draw.FillRoundRect(dst, r, s.U(4), th.Panel)
		draw.StrokeRoundRect(dst, r, s.U(4), 1.5, th.Accent)
		inner := r.Inset(s.U(4)).InsetXY(s.U(4), 0)
		draw.ParagraphTip(dst, v.m.Stories[i].Line(), s.Small(), inner, th.Text)
		v.worlds[i].Draw(dst, v.worlds[i].Area(), s)
	}
}

// drawChips draws the header's names, every one in the same face and
// wording: the label face where every whole name fits its chip, else the
// small one, else the names people shorten them to (the whole on hover).
func (v *Systems) drawChips(dst *ebiten.Image, s draw.Style) {
	th := s.Theme
	names := make([]string, len(v.chips))
	for i, sys := range v.m.Systems {
		names[i] = sys.Title()
	}
	face, short := chipFace(s, names, v.chips[0].Rect.W-s.U(8))
	for i := range v.chips {
		b := &v.chips[i]
		clr := th.TextDim
		if v.isDrawn(i) {
			clr = th.Accent
			draw.FillRoundRect(dst, b.Rect, s.U(4), th.Raised)
		}
		draw.StrokeRoundRect(dst, b.Rect, s.U(4), 1, clr)
		if b.Focus() == ui.FocusVisible {
			s.FocusRing(dst, b.Rect, s.U(4))
		}
		name := names[i]
		if short {
			draw.FirstFitInTip(dst, name, chipShort[name], face, b.Rect.InsetXY(s.U(4), 0), draw.AlignCenter, clr)
		} else {
			draw.TextIn(dst, name, face, b.Rect.InsetXY(s.U(4), 0), draw.AlignCenter, clr)
		}
	}
}

// chipFace is the one face every chip's name is drawn in, for chips w
// wide: the label face if every name fits, else the small one; short
// says even that cuts one, so the names people shorten them to are used.
func chipFace(s draw.Style, names []string, w float64) (face *draw.Face, short bool) {
	fits := func(f *draw.Face) bool {
		for _, n := range names {
			if draw.Measure(f)(n) > w {
				return false
			}
		}
		return true
	}
	switch {
	case fits(s.Label()):
		return s.Label(), false
	case fits(s.Small()):
		return s.Small(), false
	}
	return s.Small(), true
}

// systemsLanes is the timeline region: every system's timeline in a
// grid, under its name. Clicking lanes seeks them all; clicking a name
// shows that system's world.
type systemsLanes Systems

// Layout implements View.
func (p *systemsLanes) Layout(area ui.Rect, s draw.Style) {
	v := (*Systems)(p)
	titles, lanes := v.cells(area, s)
	v.titles, v.pair = titles, titles == nil
	for i, r := range lanes {
		v.lines[i].Layout(r, s) // an empty r: not drawn, takes no clicks
	}
}

// Update implements View.
func (p *systemsLanes) Update(st *view.Env) error {
	v := (*Systems)(p)
	before := v.m.Runs[0].Now()
	for i, tl := range v.lines {
		if err := tl.Update(st); err != nil {
			return err
		}
		if now := v.m.Runs[i].Now(); now != before {
			lab.SystemsClock(v.m.Runs).Apply(lab.SeekTo(now))
			before = v.m.Runs[0].Now()
		}
	}
	return nil
}

// Draw implements View.
func (p *systemsLanes) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	v := (*Systems)(p)
	th := s.Theme
	_, lanes := v.cells(area, s)
	for i, tl := range v.lines {
		clr := th.TextDim
		if v.isDrawn(i) {
			clr = th.Accent
		}
		if !v.pair {
			draw.TextInTip(dst, v.m.Systems[i].Title(), s.Label(), v.titles[i], draw.AlignStart, clr)
		}
		if !lanes[i].Empty() {
			tl.Draw(dst, lanes[i], s)
		}
	}
}

// CompareSystems opens the setup, with the learner's actions from the
// last run, on every system side by side.
func (sc *Scene) CompareSystems() {
	sc.note = ""
	if err := openSystems(sc.scenes, sc.m.Config, sc.m.Played, nil, 0, fromSetup); err != nil {
		sc.note = "Cannot compare: " + err.Error()
	}
}

// CompareRun opens the running run's own scenario, with its actions so
// far, on every system side by side at its play head; Back returns to
// the run. A run carried over from a lesson has no sandbox scenario to
// play elsewhere and is refused with why.
func (sc *Scene) CompareRun() {
	run := sc.Run
	if run == nil {
		return
	}
	p := run.Player
	if sc.runCfg == nil {
		p.Narrate("Compare systems needs a run started from the setup: " + compareRunRefused)
		return
	}
	p.SetPlaying(false)
	m, err := run.Lab.CompareRun(*sc.runCfg)
	if err != nil {
		p.Narrate("Cannot compare: " + err.Error())
		return
	}
	pushSystems(sc.scenes, m, sc.runCfg.System, fromRun)
}

// compareRunRefused says why a lesson's run offers no comparison.
const compareRunRefused = "this world is the lesson's own, not one the setup can build on another system"

// chipShort are the systems' names as people shorten them, for a header
// chip too narrow for the whole name.
var chipShort = map[string][]string{
	"ZooKeeper":  {"ZK"},
	"Kubernetes": {"k8s"},
	"Redlock":    {"Redl."},
	"Consul":     {"Cons."},
}
