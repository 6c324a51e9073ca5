package lesson

import (
	"leaselab/game/page"
	"leaselab/game/scene"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/game/view"
	"leaselab/lessons"
)

// Scene plays one lesson: the simulator (through game/lab) drives the
// player's clock, world and timeline, and the goals tick as the trace
// shows them met.
type Scene struct {
	Lab    *lab.Lab
	Player *player.Player

	world    *view.World
	complete bool
	// pending are the views' commands of this tick, applied once they
	// have all read the input.
	pending []lab.Command

	// finder is the "Find a break" search, for lessons it fits.
	finder *Finder
	// stack is the Stack the lesson was last updated on, where its
	// comparison opens.
	stack *scene.Stack
	// toldTo is the play head when the narration was last told, and mark
	// where the narration stood when this tick began.
	toldTo time.Duration
	mark   int
	// next is the lesson after this one, offered once it is complete;
	// note says why the run is not at its start ("" when it is).
	next *Next
	note string
	// recap is the chain built for the recap question (lesson_recap.go),
	// and card shows it on the canvas (lesson_recap_card.go).
	recap recapChain
	card  *recapCard

	// OnProgress is told the goals met so far whenever one ticks.
	OnProgress func(id string, met []bool, complete bool)
}

// Spec is what the opener of a lesson scene decides: the way back
// and what the player offers beyond the run itself. The zero value plays
// a lesson with its goals, its solution and its own search.
type Spec struct {
	Back player.BackButton
	// NoSolution hides the solution (a sandbox, a recorded run);
	// Solution, if set, replaces loading the lesson's own, offered while
	// SolutionOffered says so.
	NoSolution      bool
	Solution        func()
	SolutionOffered func() bool
	// Sandbox, when set, opens the run in the sandbox.
	Sandbox func()
	// Checklist replaces the lesson's goals in the goal rows; Side the
	// hints under them.
	Checklist player.Checklist
	Side      func(dst *ebiten.Image)
	// Widgets and Regions are the opener's own, after the lesson's.
	Widgets []player.Widget
	Regions func() map[string]ui.Rect
	// Search, when set, offers "Find a break" with it (after a search
	// the lesson declares itself, if any).
	Search    *lessons.Search
	HintsSeen int
	// MetBefore are the ids of the goals the learner met on an earlier
	// visit: they show met, and a lesson with all of them is complete.
	MetBefore []string
	// Next, when set, is offered once the lesson is complete.
	Next *Next
	// OnProgress is told the goals met so far whenever one ticks.
	OnProgress func(id string, met []bool, complete bool)
}

// New starts lesson l at time zero.
func New(l *lessons.Lesson, spec Spec) (*Scene, error) {
	lb, err := lab.New(l, 1)
	if err != nil {
		return nil, err
	}
	return NewWithLab(lb, spec), nil
}

// NewWithLab plays the run lb (a lesson's, or a sandbox's) as spec
// says: the player is built once, with the world, the timeline, the
// knobs, the finder and the opener's own widgets.
func NewWithLab(lb *lab.Lab, spec Spec) *Scene {
	l := lb.Lesson
	sc := &Scene{Lab: lb, OnProgress: spec.OnProgress, next: spec.Next}
	lb.MetBefore(spec.MetBefore)
	sc.complete = len(l.Goals) > 0 && lb.AllMet()
	sc.card = newRecapCard(sc)
	narration := &player.Narration{}
	send := func(c lab.Command) { sc.pending = append(sc.pending, c) }
	sc.world = view.NewWorld(lb, narration.Add, send)
	tv := view.NewTimeline(lb, send)
	tv.KeepShown(sc.world.SelectedName) // a selected worker's lane is never summarised
	ps := player.PlayerSpec{
		Lesson: player.Lesson{Title: l.Title, Objective: l.Objective, Body: strings.Join(l.Intro, "\n\n"), Hints: l.Hints},
		Clock:  lb, World: sc.world, Timeline: tv, Apply: sc.apply,
		Back: spec.Back, Sandbox: spec.Sandbox, Side: spec.Side,
		Solution: sc.ShowSolution, SolutionOffered: spec.SolutionOffered,
		Lanes:     func() int { return len(lb.Timeline().Lanes) },
		Run:       sc.runRow(),
		Checklist: spec.Checklist,
		Narration: narration, HintsSeen: spec.HintsSeen,
	}
	if spec.Solution != nil {
		ps.Solution = spec.Solution
	}
	if spec.NoSolution {
		ps.Solution = nil
	}
	if ps.Checklist.Goals == nil {
		ps.Checklist.Goals = sc.goals
	}
	if len(l.Knobs) > 0 {
		ps.Knobs = player.NewKnobPanel(lb, send)
	}
	// The lesson's own search, then the opener's widgets, then a search
	// the opener brings.
	if l.Search != nil {
		sc.addFinder(&ps, l.Search)
	}
	ps.Widgets = append(ps.Widgets, player.Widget{Name: RecapOpenName, W: &sc.card.opener,
		Do: func() { sc.card.open(sc.Player.Ring().Visible()) }})
	ps.Widgets = append(ps.Widgets, spec.Widgets...)
	if spec.Search != nil {
		sc.addFinder(&ps, spec.Search)
	}
	back := spec.Back.Do
	if sc.finder != nil && back != nil {
		// Leaving the lesson ends its search (and the coroutine it runs on).
		ps.Back.Do = func() { sc.finder.cancel(); back() }
	}
	ps.Regions = func() map[string]ui.Rect {
		m := sc.world.Regions()
		// The lanes: clicking at x seeks to the time under x.
		m["lanes"] = tv.Lanes()
		if f := sc.finder; f != nil {
			m["explore"], m["compare"] = f.btn.Rect, f.cmp.Rect
		}
		if spec.Regions != nil {
			for k, r := range spec.Regions() {
				m[k] = r
			}
		}
		return m
	}
	sc.Player = player.NewPlayer(ps)
	return sc
}

// ShowSolution restarts the lesson with its solution loaded; Play starts
// time; Seek moves the play head. The desktop's flags use them.
func (sc *Scene) ShowSolution() { sc.Lab.LoadSolution() }

// Play starts or stops time.
func (sc *Scene) Play(on bool) { sc.Player.SetPlaying(on) }

// Seek moves the play head to t.
func (sc *Scene) Seek(t time.Duration) { sc.Lab.Seek(t) }

// goals is the lesson's checklist: a met goal shows what the learner
// just proved.
func (sc *Scene) goals() []draw.Goal {
	goals := sc.Lab.Goals()
	out := make([]draw.Goal, len(goals))
	for i, g := range goals {
		out[i] = draw.Goal{Text: g.Text, Met: g.Met, Note: g.Note(), Later: g.Later}
		if g.Met {
			out[i].Text = g.Proved
		}
	}
	return out
}

// apply applies the views' commands of this tick, in order, and tells
// the learner what each did. The player calls it before time runs on
// (PlayerSpec.Apply), so a click acts at the time it was made on.
func (sc *Scene) apply() {
	for _, c := range sc.pending {
		line := sc.Lab.Apply(c)
		switch {
		case sc.Lab.Misstep() != "":
			// An action that leaves the goals out of reach: said over
			// the world at once, not only in the list.
			sc.Player.Notice(line)
		case line != "":
			// The learner's own action, or why it was refused: always told.
			sc.Player.Narration().AddKey(line)
		}
	}
	sc.pending = sc.pending[:0]
}

// Update implements Scene.
func (sc *Scene) Update(st *scene.State) error {
	sc.stack = st.Stack() // the comparison opens over the lesson on it
	sc.mark = sc.Player.Narration().Mark()
	sc.recapHost(&st.Input)
	if sc.card.shown {
		// The recap card is modal: the run waits under it.
		sc.card.update(st)
		return sc.Lab.Err()
	}
	if err := sc.Player.Update(&st.Env); err != nil {
		return err
	}
	sc.card.updateOpener(&st.Input)
	sc.apply() // what the page's controls asked, if the player left it
	sc.narrate()
	newly := sc.Lab.NewlyMet()
	for _, i := range newly {
		sc.Player.Narration().AddKey("Goal met: " + sc.Lab.Lesson.Goals[i].Proved)
	}
	changed := len(newly) > 0
	if changed && sc.Lab.AllMet() && !sc.complete {
		sc.complete = true
		l := sc.Lab.Lesson
		if l.Recap == "" {
			// An exercise's simulator: its goals are checkpoints, and the
			// verdict comes from checking the answer.
			sc.Player.Narration().AddKey("Every checkpoint met. Go back to the answer to use this run.")
		} else {
			next := ""
			if sc.next != nil {
				next = " Next lesson: " + sc.next.Title
				if !strings.HasSuffix(next, "?") && !strings.HasSuffix(next, "!") && !strings.HasSuffix(next, ".") {
					next += "." // a title that asks keeps its own mark
				}
			}
			if !sc.Player.Style().PanelOutside {
				// On the canvas: where the recap card opens.
				next = " " + sc.card.invitation() + next
			}
			sc.Player.Narration().AddKey("Lesson complete. " + l.Recap + next)
			for _, line := range sc.Lab.PredictionRecap() {
				sc.Player.Narration().AddKey("Your prediction: " + line)
			}
			sc.Player.Celebrate(sc.done())
			sc.resumed(sc.note)
			sc.Player.ShowText(sc.Player.Lesson.Body)
		}
	}
	if changed && sc.OnProgress != nil {
		sc.OnProgress(sc.Lab.Lesson.ID, sc.Lab.Achieved(), sc.complete)
	}
	return sc.Lab.Err()
}

// narrate forwards the run's new narration lines to the player (and so
// to the HTML panel). After the play head moved back, the narration is
// told again up to it, in time order, so it never speaks of a future the
// scrub undid.
func (sc *Scene) narrate() {
	now := sc.Lab.Now()
	if now < sc.toldTo {
		n := sc.Player.Narration()
		said := n.Mark() > sc.mark // this tick's step said what it did
		n.Retold(sc.mark, sc.Lab.Retell())
		if !said {
			sc.Player.Narrate("Back at t=" + core.FormatTime(now) + ": what happened up to here is above.")
		}
	}
	sc.toldTo = now
	for _, l := range sc.Lab.Untold(sc.Player.Playing()) {
		sc.Player.Narration().AddRun(l)
	}
}

// Layout implements Scene.
func (sc *Scene) Layout(window ui.Rect, style draw.Style) {
	sc.Player.Layout(window, style)
	sc.card.layoutOpener(style)
	sc.card.layout(window, style)
}

// Draw implements Scene.
func (sc *Scene) Draw(screen *ebiten.Image) {
	sc.Player.Draw(screen)
	if !sc.card.opener.Rect.Empty() {
		sc.card.style.Button(screen, &sc.card.opener)
	}
	sc.card.draw(screen)
}

// Inspect implements Inspector.
func (sc *Scene) Inspect() page.SceneInfo {
	info := sc.Player.Inspect()
	info.Name = "lesson"
	info.Run = sc.runInfo()
	sc.addNow(&info)
	sc.card.regions(info.Regions)
	if sc.card.shown {
		info.Focus = sc.card.names[sc.card.ring.Current()]
		info.Mirror.Controls = append(info.Mirror.Controls, sc.card.controls()...)
	}
	return info
}

// addNow adds what the run shows now in words: the world, the step to
// take, and the moment of success once the lesson is complete.
func (sc *Scene) addNow(info *page.SceneInfo) {
	w := sc.Lab.World().Summary()
	info.World = &w
	for _, g := range sc.Lab.Goals() {
		if !g.Met {
			info.Mirror.Step = g.Text
			break
		}
	}
	if d := sc.done(); d != nil {
		d.Chain = sc.recapInfo()
		info.Mirror.Done, info.Mirror.Step = d, ""
		info.Mirror.Controls = append(info.Mirror.Controls, sc.recapControls()...)
	}
}

// done is the lesson's moment of success, once it is complete (nil
// before, and for an exercise's simulator, whose goals are checkpoints).
func (sc *Scene) done() *page.Done {
	l := sc.Lab.Lesson
	if !sc.complete || l.Recap == "" {
		return nil
	}
	d := &page.Done{Heading: "Lesson complete", Recap: l.Recap, Predictions: sc.Lab.PredictionRecap()}
	if sc.next != nil {
		d.Next = sc.next.Title
	}
	return d
}

// runInfo is the run as the bridge reports it.
func (sc *Scene) runInfo() *page.RunInfo {
	w := sc.Lab.World()
	run := &page.RunInfo{Lesson: sc.Lab.Lesson.ID, Now: w.Now.Seconds(), Playing: sc.Player.Playing(),
		Holder: w.Lock.Holder, Token: w.Lock.Token, Complete: sc.Lab.AllMet(),
		Showing: sc.Lab.Showing().String(), KeptMine: sc.Lab.KeptMine(), Resumed: sc.note}
	for _, p := range w.Procs {
		run.Procs = append(run.Procs, page.ProcInfo{Name: p.Name, State: p.State.String(), Token: p.Token, Paused: p.Paused, Crashed: p.Crashed})
	}
	for _, m := range sc.Lab.Timeline().Writes {
		if m.Kind != lab.MarkWrite {
			continue
		}
		run.Writes = append(run.Writes, page.WriteInfo{At: m.At.Seconds(), From: m.From, Token: m.Token, Accepted: m.Accepted})
	}
	return run
}

// SetSpeed sets the lesson's playback speed.
func (sc *Scene) SetSpeed(x float64) error { return sc.Player.SetSpeed(x) }

// Still implements Stiller: a lesson is still while it is paused, with no
// break search running and no comparison open.
func (sc *Scene) Still() bool {
	return !sc.Player.Playing() && sc.Player.NoticeLeft() <= 0 && (sc.finder == nil || !sc.finder.Searching() && sc.finder.compare == nil)
}
