package lesson

import (
	"leaselab/game/page"
	"leaselab/game/scene"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// Comparison replays the learner's schedule twice, the protection switched
// off in one run and on in the other, side by side in the usual world and
// timeline views under one play head. It is a scene of its own, with its
// own player, pushed over the lesson and popped on Esc; it shares the
// lesson's narration.
type Comparison struct {
	f *Finder
	// runs[0] has the protection off, runs[1] on.
	runs     [2]*lab.Lab
	worlds   [2]*view.World
	lines    [2]*view.Timeline
	verdicts [2]string
	// broken says whether each run breaks the invariant.
	broken [2]bool
	header ui.Rect
	labels [2]ui.Rect

	back   ui.Button // the way back, in the header
	player *player.Player
	stack  *scene.Stack // the stack it is shown on
}

// compareLabel is the compare button's label in the normal view.
func (f *Finder) compareLabel() string { return "Compare " + f.spec.Switch() + " on/off" }

// compareTip is its tooltip.
func (f *Finder) compareTip() string {
	return "Replay this schedule twice, " + f.spec.Switch() + " off and on, side by side (Enter when focused)"
}

// newComparison builds the comparison of the lesson's run (lab.Comparison)
// and its player.
func newComparison(f *Finder) (*Comparison, error) {
	m, err := lab.NewComparison(f.sc.Lab, f.spec)
	if err != nil {
		return nil, err
	}
	c := &Comparison{f: f, back: ui.Button{Label: "Back to my run (Esc)"}, runs: m.Runs, verdicts: m.Verdicts, broken: m.Broken}
	for i, lb := range c.runs {
		// A replay to watch: the worlds take no input; a seek on either
		// timeline moves its run at once, and the other follows.
		c.worlds[i] = view.NewWorld(lb, func(string) {}, func(lab.Command) {})
		c.lines[i] = view.NewTimeline(lb, func(cmd lab.Command) { lb.Apply(cmd) })
	}
	// The learner's lesson panel, speed and narration; no knobs (they
	// would change the learner's run, not these two), no solution.
	lp := f.sc.Player
	p := player.NewPlayer(player.PlayerSpec{
		Lesson: lp.Lesson, Clock: lab.PairClock(c.runs), World: (*comparePanes)(c), Timeline: (*compareLanes)(c),
		Back:  player.BackButton{Label: "< My run", Do: c.leave},
		Lanes: func() int { return len(c.runs[0].Timeline().Lanes) + len(c.runs[1].Timeline().Lanes) },
		Regions: func() map[string]ui.Rect {
			return map[string]ui.Rect{"compareLanes:off": c.lines[0].Lanes(), "compareLanes:on": c.lines[1].Lanes(), "compare": c.back.Rect}
		},
		// The runs on screen, at the play head: not the learner's own.
		Checklist: player.Checklist{Title: "These two runs", Goals: func() []draw.Goal {
			var out []draw.Goal
			for _, ch := range m.AtPlayHead() {
				out = append(out, draw.Goal{Text: ch.Text, Note: ch.Note, Met: ch.Holds})
			}
			return out
		}},
		Widgets:   []player.Widget{{Name: "compare", W: &c.back, Tip: f.compareTip(), Do: c.leave}},
		Narration: lp.Narration(), HintsSeen: lp.HintsSeen(), Speed: lp.Speed(),
	})
	c.player = p
	return c, nil
}

// enter shows the comparison over the lesson, on stack.
func (c *Comparison) enter(stack *scene.Stack) {
	p := c.f.sc.Player
	p.SetPlaying(false)
	c.stack = stack
	p.Narrate("Comparing the same schedule with " + c.f.spec.Switch() + " off and on. " + c.verdicts[0] + ". " + c.verdicts[1] + ". Esc returns to your run.")
	stack.Push(c)
}

// leave returns to the learner's run.
func (c *Comparison) leave() {
	c.player.SetPlaying(false)
	c.f.compare = nil
	c.stack.Pop()
	c.player.Narrate("Back to your run at " + c.f.sc.Player.ClockText())
}

// Update implements Scene.
func (c *Comparison) Update(st *scene.State) error { return c.player.Update(&st.Env) }

// Layout implements Scene.
func (c *Comparison) Layout(window ui.Rect, style draw.Style) { c.player.Layout(window, style) }

// Draw implements Scene.
func (c *Comparison) Draw(screen *ebiten.Image) { c.player.Draw(screen) }

// Inspect implements Inspector: the lesson's run, seen through the
// comparison's player.
func (c *Comparison) Inspect() page.SceneInfo {
	info := c.player.Inspect()
	info.Name = "lesson"
	info.Run = c.f.sc.runInfo()
	info.Run.Playing = c.player.Playing()
	w := c.f.sc.Lab.World().Summary()
	info.World = &w
	info.Compare = c.info()
	return info
}

func (c *Comparison) info() *page.CompareInfo {
	return &page.CompareInfo{Protects: c.f.spec.Switch(), Off: c.verdicts[0], On: c.verdicts[1],
		OffBroke: c.broken[0], OnBroke: c.broken[1], Now: c.runs[0].Now().Seconds()}
}

// comparePanes is the world region in the comparison: a header with the
// way back, then the two worlds side by side, each under its verdict.
type comparePanes Comparison

// Layout implements View.
func (v *comparePanes) Layout(area ui.Rect, s draw.Style) {
	c := (*Comparison)(v)
	px := func(x float64) float64 { return math.Round(s.U(x)) }
	in := area.Inset(px(10))
	c.header, in = in.CutTop(px(30), px(8))
	c.back.Rect, _ = c.header.CutRight(px(200), 0)
	for i, pane := range ui.SplitPanes(in, s.Unit, 1, 1) {
		c.labels[i], pane = pane.CutTop(px(26), px(2))
		c.worlds[i].Layout(pane, s)
	}
}

// Update implements View: the way back. The two worlds take no input:
// they are a replay to watch, and an action in one alone would make
// them different schedules.
func (v *comparePanes) Update(st *view.Env) error {
	c := (*Comparison)(v)
	UpdateReplay(st, c.worlds[:], &c.back, func() { c.player.Use(ui.HostAction{ID: "compare"}) })
	return nil
}

// UpdateReplay is the input a comparison's panes take: the worlds are a
// replay to watch (only the motion setting reaches them), and a click on
// back is a use of its control (useBack), which leaves.
func UpdateReplay(st *view.Env, worlds []*view.World, back *ui.Button, useBack func()) {
	for _, w := range worlds {
		w.SetReducedMotion(st.ReducedMotion)
	}
	if back.Update(&st.Input) {
		useBack()
	}
}

func (v *comparePanes) Draw(dst *ebiten.Image, _ ui.Rect, s draw.Style) {
	c := (*Comparison)(v)
	th := s.Theme
	title := "The same schedule, " + c.f.spec.Switch() + " off and on"
	head := c.header
	head.W = math.Min(head.W, c.back.Rect.X-c.header.X-s.U(10))
	draw.TextInTip(dst, title, s.Label(), head, draw.AlignStart, th.Text)
	s.Button(dst, &c.back)
	for i, w := range c.worlds {
		clr := th.Accept
		if c.broken[i] {
			clr = th.Reject
		}
		r := c.labels[i]
		draw.FillRoundRect(dst, r, s.U(4), th.Panel)
		draw.StrokeRoundRect(dst, r, s.U(4), 1.5, clr)
		inner := r.InsetXY(s.U(8), 0)
		// Narrow, the verdict drops its "Fencing off: " (the panes' order
		// and the title say which is which), then its "t=".
		_, what, _ := strings.Cut(c.verdicts[i], ": ")
		draw.FirstFitInTip(dst, c.verdicts[i], []string{what, strings.Replace(what, " at t=", " at ", 1)}, s.Small(), inner, draw.AlignStart, clr)
		w.Draw(dst, w.Area(), s)
	}
}

// compareLanes is the timeline region in the comparison: the two
// timelines side by side, under their worlds. Clicking either seeks both.
type compareLanes Comparison

// Layout implements View.
func (v *compareLanes) Layout(area ui.Rect, s draw.Style) {
	c := (*Comparison)(v)
	for i, p := range ui.SplitPanes(area, s.Unit, 1, 1) {
		c.lines[i].Layout(p, s)
	}
}

// Update implements View.
func (v *compareLanes) Update(st *view.Env) error {
	c := (*Comparison)(v)
	before := c.runs[0].Now()
	for _, tl := range c.lines {
		if err := tl.Update(st); err != nil {
			return err
		}
	}
	switch {
	case c.runs[0].Now() != before:
		c.runs[1].Seek(c.runs[0].Now())
	case c.runs[1].Now() != before:
		c.runs[0].Seek(c.runs[1].Now())
	}
	return nil
}

func (v *compareLanes) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	c := (*Comparison)(v)
	for i, p := range ui.SplitPanes(area, s.Unit, 1, 1) {
		c.lines[i].Draw(dst, p, s)
	}
}
