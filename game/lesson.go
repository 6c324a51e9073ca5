package game

import (
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// LessonScene plays one lesson: the simulator (through game/lab) drives the
// player's clock, world and timeline, and the goals tick as the trace
// shows them met.
type LessonScene struct {
	Lab    *lab.Lab
	Player *Player

	world    *worldView
	narrated int
	met      []bool
	complete bool

	// finder is the "Find a break" search, for lessons it fits.
	finder *breakFinder

	// OnProgress is told the goals met so far whenever one ticks.
	OnProgress func(id string, met []bool, complete bool)
}

// NewLessonScene starts lesson l at time zero. onMenu returns to the menu.
func NewLessonScene(l *lessons.Lesson, onMenu func()) (*LessonScene, error) {
	lb, err := lab.New(l, 1)
	if err != nil {
		return nil, err
	}
	return newLessonScene(lb, onMenu), nil
}

// newLessonScene plays the run lb (a lesson's, or a sandbox's).
func newLessonScene(lb *lab.Lab, onMenu func()) *LessonScene {
	l := lb.Lesson
	sc := &LessonScene{Lab: lb, met: make([]bool, len(l.Goals))}
	text := Lesson{Title: l.Title, Body: strings.Join(l.Intro, "\n\n"), Hints: l.Hints}
	sc.world = newWorldView(lb, func(s string) { sc.Player.Narrate(s) })
	tv := newTimelineView(lb)
	sc.Player = NewPlayer(text, lb, sc.world, tv)
	sc.Player.OnSolution = sc.ShowSolution
	sc.Player.OnMenu = onMenu
	sc.Player.Extra = func() map[string]ui.Rect {
		m := sc.world.Regions()
		// The lanes: clicking at x seeks to the time under x.
		m["lanes"] = tv.geom.Lanes
		return m
	}
	sc.Player.Lanes = func() int { return len(lb.Timeline().Lanes) }
	if len(l.Knobs) > 0 {
		sc.Player.setKnobs(newKnobPanel(lb, func(s string) { sc.Player.Narrate(s) }))
	}
	sc.syncGoals()
	sc.attachBreakFinder()
	return sc
}

// ShowSolution restarts the lesson with its solution loaded; Play starts
// time; Seek moves the play head. The desktop's flags use them.
func (sc *LessonScene) ShowSolution() { sc.Lab.LoadSolution(); sc.narrated = 0 }

// Play starts or stops time.
func (sc *LessonScene) Play(on bool) { sc.Player.setPlaying(on) }

// Seek moves the play head to t.
func (sc *LessonScene) Seek(t time.Duration) { sc.Lab.Seek(t) }

// syncGoals copies the lab's checklist into the player: a met goal shows
// what the learner just proved.
func (sc *LessonScene) syncGoals() {
	goals := sc.Lab.Goals()
	out := make([]draw.Goal, len(goals))
	for i, g := range goals {
		out[i] = draw.Goal{Text: g.Text, Met: g.Met}
		if g.Met {
			out[i].Text = g.Proved
		}
	}
	sc.Player.Lesson.Goals = out
}

// Update implements Scene.
func (sc *LessonScene) Update(st *State) error {
	if err := sc.Player.Update(st); err != nil {
		return err
	}
	sc.syncGoals()
	sc.narrate()
	changed := false
	for i, g := range sc.Lab.Goals() {
		if g.Met && !sc.met[i] {
			sc.met[i], changed = true, true
			sc.Player.Narrate("Goal met: " + g.Proved)
		}
	}
	if changed && sc.Lab.AllMet() && !sc.complete {
		sc.complete = true
		l := sc.Lab.Lesson
		if l.Recap == "" {
			// An exercise's simulator: its goals are checkpoints, and the
			// verdict comes from checking the answer.
			sc.Player.Narrate("Every checkpoint met. Go back to the answer to use this run.")
		} else {
			sc.Player.Narrate("Lesson complete. " + l.Recap)
			sc.Player.text.SetText(strings.Join(l.Intro, "\n\n") + "\n\nRecap: " + l.Recap)
			sc.Player.text.SetScroll(sc.Player.text.MaxScroll())
		}
	}
	if changed && sc.OnProgress != nil {
		sc.OnProgress(sc.Lab.Lesson.ID, append([]bool(nil), sc.met...), sc.complete)
	}
	return sc.Lab.Err()
}

// narrate forwards new lines of the run's narration to the player (and so
// to the HTML mirror). After a scrub back the lab restarts its narration.
func (sc *LessonScene) narrate() {
	lines := sc.Lab.Narration()
	if len(lines) < sc.narrated {
		sc.narrated = 0
		for sc.narrated < len(lines) && lines[sc.narrated].At < sc.Lab.Now() {
			sc.narrated++
		}
	}
	for ; sc.narrated < len(lines); sc.narrated++ {
		l := lines[sc.narrated]
		if l.At == sc.Lab.Now() && sc.narrated == len(lines)-1 && sc.Player.Playing() {
			break // more may still happen at this instant
		}
		sc.Player.Narrate("t=" + secs(l.At) + " " + l.Text)
	}
}

func secs(d time.Duration) string { return strings.TrimSuffix(core.FormatTime(d), "0") }

// Layout implements Scene.
func (sc *LessonScene) Layout(window ui.Rect, style draw.Style) { sc.Player.Layout(window, style) }

// Draw implements Scene.
func (sc *LessonScene) Draw(screen *ebiten.Image) { sc.Player.Draw(screen) }

// RunInfo is the state of a lesson run the browser bridge exposes to tests
// and the page.
type RunInfo struct {
	Lesson   string      `json:"lesson"`
	Now      float64     `json:"now"`
	Playing  bool        `json:"playing"`
	Holder   string      `json:"holder"`
	Token    int64       `json:"token"`
	Procs    []ProcInfo  `json:"procs"`
	Writes   []WriteInfo `json:"writes"`
	Complete bool        `json:"complete"`
}

// ProcInfo is one process in RunInfo.
type ProcInfo struct {
	Name    string `json:"name"`
	State   string `json:"state"`
	Token   int64  `json:"token"`
	Paused  bool   `json:"paused"`
	Crashed bool   `json:"crashed"`
}

// WriteInfo is one store decision in RunInfo.
type WriteInfo struct {
	At       float64 `json:"t"`
	From     string  `json:"from"`
	Token    int64   `json:"token"`
	Accepted bool    `json:"accepted"`
}

// Inspect implements Inspector.
func (sc *LessonScene) Inspect() SceneInfo {
	info := sc.Player.Inspect()
	info.Name = "lesson"
	info.Run = sc.runInfo()
	return info
}

// runInfo is the run as the bridge reports it.
func (sc *LessonScene) runInfo() *RunInfo {
	w := sc.Lab.World()
	run := &RunInfo{Lesson: sc.Lab.Lesson.ID, Now: w.Now.Seconds(), Playing: sc.Player.Playing(),
		Holder: w.Lock.Holder, Token: w.Lock.Token, Complete: sc.Lab.AllMet()}
	for _, p := range w.Procs {
		run.Procs = append(run.Procs, ProcInfo{Name: p.Name, State: p.State.String(), Token: p.Token, Paused: p.Paused, Crashed: p.Crashed})
	}
	for _, m := range sc.Lab.Timeline().Writes {
		if m.Kind != lab.MarkWrite {
			continue
		}
		run.Writes = append(run.Writes, WriteInfo{At: m.At.Seconds(), From: m.From, Token: m.Token, Accepted: m.Accepted})
	}
	return run
}
