// Package lab runs a lesson for the front end: it owns the simulation, the
// learner's action log and the play head, and turns the trace into what the
// views draw (world snapshot, timeline lanes, narration, goals). It also
// holds what the views decide without drawing: which actions an actor's
// menu offers (actions.go), the "Find a break" search (finder.go), the
// protection off/on comparison (compare.go), a sandbox world's search
// (search.go) and how durations are written (format.go). It never imports
// Ebitengine, so all of it is tested headless.
package lab

import (
	"fmt"
	"slices"
	"time"

	"leaselab/core"
	"leaselab/lessons"
)

// Lab is one lesson in progress. The play head (Now) only moves forward
// through the live simulation; moving it back re-simulates from the start
// with the action log cut at the new time, which is exact because the
// simulator is deterministic.
type Lab struct {
	Lesson *lessons.Lesson
	Seed   uint64

	world *lessons.World
	knobs lessons.Knobs
	log   core.ActionLog // everything the learner did, in time order
	// met records when each goal was first seen met in this run (metOK:
	// it was). carried keeps goals met under an earlier knob setting of
	// the same run: a scrub back re-simulates and must not forget them.
	met   []time.Duration
	metOK []bool
	// achieved are the goals met at some point of this lab's life (a
	// scrub back does not take one away); announced those already
	// reported by NewlyMet.
	achieved, announced []bool
	carried             []time.Duration
	carriedOK           []bool
	// shown is the run on show; mine keeps the learner's own aside while
	// another is (see runs.go); undo is the last destructive step.
	shown    RunKind
	mine     *savedRun
	undo     *undoStep
	narrated int    // trace events already turned into narration
	told     int    // narration lines already handed out by Untold
	stopped  bool   // the world's run budget stopped it, and the narration said so
	misstep  string // why the last action left the goals out of reach (Misstep)
	// predictions are the questions asked at the lesson's key moments
	// (predict.go); asking indexes the open one (-1: none).
	predictions []Prediction
	asking      int
	lines       []Line
	err         error

	// gen counts resets; the snapshot caches are keyed by it.
	gen          int
	wv           *WorldView
	wvGen, wvLen int
	wvAt         time.Duration
	tl           *Timeline
	tlGen, tlLen int
	tlAt         time.Duration
	// tlShown is tl summarised to MaxLanes keeping tlFor's lane, asked
	// for every frame (TimelineShowing); nil when tl changed since.
	tlShown *Timeline
	tlFor   string
	sweep   []lessons.SweepPoint
	// The invariant statuses at (stGen, stLen, stAt); see Statuses.
	st           []core.InvariantStatus
	stGen, stLen int
	stAt         time.Duration
}

// Line is one sentence of narration.
type Line struct {
	At   time.Duration
	Text string
	// Key marks a turn of the story a listener must not miss: a lock
	// acquired or lost, a lease expired, a write rejected, a stale write
	// accepted. Routine, when set, names a repeat of the same routine
	// event (the same writer's accepted writes with the same token), which
	// a listener hears summarised.
	Key     bool
	Routine string
	// Seq is the trace event the line tells (the key one, when it tells
	// several at one instant), for asking why it happened; -1 for a line
	// that tells no event.
	Seq int
}

// New starts a lesson at time zero with an empty log.
func New(l *lessons.Lesson, seed uint64) (*Lab, error) {
	lb := &Lab{Lesson: l, Seed: seed, achieved: make([]bool, len(l.Goals)), announced: make([]bool, len(l.Goals)), asking: -1}
	if err := lb.reset(nil, 0); err != nil {
		return nil, err
	}
	return lb, nil
}

// reset rebuilds the world with log and runs it to t.
func (lb *Lab) reset(log core.ActionLog, t time.Duration) error {
	w, err := lb.Lesson.StartWith(lb.Seed, lb.knobs, log)
	if err != nil {
		return err
	}
	lb.world, lb.log = w, w.Log
	lb.gen++
	lb.met = make([]time.Duration, len(lb.Lesson.Goals))
	lb.metOK = make([]bool, len(lb.Lesson.Goals))
	lb.narrated, lb.lines, lb.stopped = 0, nil, false
	lb.runTo(t)
	return nil
}

// Now returns the play head.
func (lb *Lab) Now() time.Duration { return lb.world.Sim.Now() }

// Length is the lesson's span of virtual time.
func (lb *Lab) Length() time.Duration { return lb.Lesson.Duration }

// Sim exposes the live simulation to views.
func (lb *Lab) Sim() *core.Sim { return lb.world.Sim }

// Log returns the learner's action log so far.
func (lb *Lab) Log() core.ActionLog { return lb.log }

// Advance moves the play head forward by d (clamped to the lesson's end).
// It never stops to ask (see Play).
func (lb *Lab) Advance(d time.Duration) { lb.runTo(min(lb.Now()+d, lb.Length())) }

// Play moves the play head forward by d as the player's Play does (the
// AdvanceBy command): like Advance, but it stops early at a key moment of
// the lesson, where a question opens (Asking), and goes on past one that
// is open.
func (lb *Lab) Play(d time.Duration) { lb.play(min(lb.Now()+d, lb.Length())) }

// play runs to t like runTo, stopping where a question opens.
func (lb *Lab) play(t time.Duration) {
	if lb.asking >= 0 {
		lb.runTo(t)
		return
	}
	for lb.Now() < t && !lb.askDue() {
		next, ok := lb.world.Sim.NextEventAt()
		if !ok || next > t {
			next = t
		}
		lb.world.Sim.RunUntil(next)
		lb.observe()
	}
	lb.observe()
	lb.askDue()
}

// Step moves the play head to the next event (at most 5 s ahead, so a
// quiet world still moves).
func (lb *Lab) Step() {
	next, ok := lb.world.Sim.NextEventAt()
	if !ok || next > lb.Now()+5*time.Second {
		next = lb.Now() + 5*time.Second
	}
	if next == lb.Now() {
		lb.world.Sim.Step()
		lb.observe()
		lb.askDue()
		return
	}
	lb.play(min(next, lb.Length()))
}

// StepBackward moves the play head back to the last event before it (to
// the start when there is none): the play head's slider steps event by
// event both ways.
func (lb *Lab) StepBackward() {
	now, tr := lb.Now(), lb.world.Sim.Trace
	to := time.Duration(0)
	for i := tr.Len() - 1; i >= 0; i-- {
		if tr.At(i).At < now {
			to = tr.At(i).At
			break
		}
	}
	lb.Seek(to)
}

// Seek moves the play head to t. Going back re-simulates with the whole
// log: actions after t still happen when the play head reaches them again
// (use Fork to drop them), and the goals this run met later stay met.
func (lb *Lab) Seek(t time.Duration) {
	t = max(0, min(t, lb.Length()))
	if t >= lb.Now() {
		lb.runTo(t)
		return
	}
	met, ok := lb.met, lb.metOK
	lb.err = lb.reset(lb.log, t)
	lb.keepMet(met, ok)
}

// Fork drops every action after the play head, so the learner can try
// something else from here. Undoable.
func (lb *Lab) Fork() {
	now := lb.Now()
	kept := lb.log.Before(now + 1)
	if len(kept) == len(lb.log) {
		return
	}
	lb.remember("fork")
	lb.err = lb.reset(kept, now)
}

// LoadSolution shows the lesson's solution (with its knob values) from
// time zero, as a run of its own: the learner's is kept aside (BackToMine)
// and the switch can be undone.
func (lb *Lab) LoadSolution() {
	lb.show(RunSolution, lb.Lesson.Defaults(lb.Lesson.SolutionKnobs), lb.Lesson.Solution, 0)
	lb.told = 0
}

// Knobs returns the current knob values.
func (lb *Lab) Knobs() lessons.Knobs { return lb.world.Knobs }

// SetKnob changes one parameter. The world is rebuilt with it and the
// learner's log replayed up to the play head; a bad value is refused and
// changes nothing. Goals met before the change stay met: a lesson may ask
// for one thing with a knob one way and another with it the other way
// ("break it with fencing off, then slide fencing on").
func (lb *Lab) SetKnob(id string, v float64) error {
	k := lb.Lesson.Defaults(lb.world.Knobs)
	k[id] = v
	if err := lb.Lesson.CheckKnobs(k); err != nil {
		return err
	}
	old := lb.knobs
	if lb.carriedOK == nil {
		lb.carried, lb.carriedOK = make([]time.Duration, len(lb.met)), make([]bool, len(lb.met))
	}
	for i := range lb.met {
		if ok, at := lb.goal(i); ok {
			lb.carried[i], lb.carriedOK[i] = at, true
		}
	}
	lb.forgetUnseen()
	lb.knobs = k
	err := lb.reset(lb.log, lb.Now())
	if err != nil {
		lb.knobs = old
		lb.err = lb.reset(lb.log, lb.Now())
	}
	return err
}

// goal reports whether goal i is met, and since when: in this run, or
// under an earlier knob setting (the earlier time wins).
func (lb *Lab) goal(i int) (bool, time.Duration) {
	ok, at := lb.metOK[i], lb.met[i]
	if lb.carriedOK != nil && lb.carriedOK[i] && (!ok || lb.carried[i] < at) {
		return true, lb.carried[i]
	}
	return ok, at
}

// Err returns the last error of a re-simulation (none expected).
func (lb *Lab) Err() error { return lb.err }

// Do applies a learner action at the play head. Actions after the play
// head (after a scrub back) are dropped first: acting in the past forks,
// and Undo brings them back (DroppedText, asked first, says which).
func (lb *Lab) Do(a core.Action) error {
	if err := a.Validate(); err != nil {
		return err // before the fork below: a bad action changes nothing
	}
	before := lb.state()
	forked := len(lb.log.Before(lb.Now()+1)) != len(lb.log)
	if forked {
		lb.Fork()
		lb.undo.what = "action at " + ClockTime(lb.Now()) + ", which dropped later ones"
	}
	if err := lb.world.Do(a); err != nil {
		return err
	}
	lb.log = lb.world.Log
	lb.observe()
	lb.misstep = lb.world.Misstep(lb.Seed, a)
	if lb.misstep != "" {
		what := a.String() + " at " + ClockTime(lb.Now())
		if forked {
			what += ", which dropped later ones"
		}
		lb.undo = &undoStep{what: what, state: before}
	}
	return nil
}

// Misstep says why the last action done (Do) leaves the lesson's goals
// out of reach, or "" (see lessons.World.Misstep); Undo takes it back.
func (lb *Lab) Misstep() string { return lb.misstep }

func (lb *Lab) runTo(t time.Duration) {
	// Run in slices so goals are seen met at (about) the right time.
	for lb.Now() < t {
		next, ok := lb.world.Sim.NextEventAt()
		if !ok || next > t {
			next = t
		}
		lb.world.Sim.RunUntil(next)
		lb.observe()
	}
	lb.observe()
}

// observe ticks goals and extends the narration.
func (lb *Lab) observe() {
	now := lb.Now()
	for i, g := range lb.world.Goals() {
		if g.Met && !lb.metOK[i] {
			lb.metOK[i], lb.met[i] = true, now
		}
		if g.Met {
			lb.achieved[i] = true
		}
	}
	lb.seeOutcomes()
	tr := lb.world.Sim.Trace
	for ; lb.narrated < tr.Len(); lb.narrated++ {
		e := tr.At(lb.narrated)
		if s := Narrate(e); s != "" {
			key, routine := Weight(e)
			if n := len(lb.lines); n > 0 && lb.lines[n-1].At == e.At {
				last := &lb.lines[n-1]
				last.Text += "; " + s
				if key || !last.Key {
					last.Seq = e.Seq
				}
				last.Key = last.Key || key
				last.Routine = "" // two events at once are no repeat
			} else {
				lb.lines = append(lb.lines, Line{At: e.At, Text: s, Key: key, Routine: routine, Seq: e.Seq})
			}
		}
	}
	if err := lb.world.Sim.Exhausted(); err != nil && !lb.stopped {
		// The world stopped itself (core's run budget): say so once,
		// rather than let the learner watch a world that froze.
		lb.stopped = true
		lb.lines = append(lb.lines, Line{At: tr.Last().At, Text: "The simulation stopped here: " + err.Error() + ". Renew less often (a longer TTL) to run further.", Seq: -1})
	}
}

// GoalState is one goal as the checklist shows it. Met stays set once
// the goal was met, whatever the play head does afterwards; InRun says
// the run on show meets it, at At; Later that the play head is before
// that moment, so the world on screen does not show it yet.
type GoalState struct {
	Text   string
	Proved string
	Met    bool
	InRun  bool
	At     time.Duration
	Later  bool
	// Measure is what the run shows so far about an open goal (the
	// lesson's Goal.Measure at the play head), or "".
	Measure string
}

// Note is the goal's time as the checklist writes it: "met at 24.0 s",
// "met at 24.0 s; at the play head: not yet", "met earlier" (before a
// restart, in the solution, on an earlier visit); for an open goal, what
// the run measured so far, or "".
func (g GoalState) Note() string {
	switch {
	case !g.Met:
		return g.Measure
	case !g.InRun:
		return "met earlier"
	case g.Later:
		return fmt.Sprintf("met at %.1f s; at the play head: not yet", g.At.Seconds())
	}
	return fmt.Sprintf("met at %.1f s", g.At.Seconds())
}

// Goals returns the checklist.
func (lb *Lab) Goals() []GoalState {
	out := make([]GoalState, len(lb.Lesson.Goals))
	for i, g := range lb.Lesson.Goals {
		in, at := lb.goal(i)
		out[i] = GoalState{Text: g.Text, Proved: g.Proved, Met: in || lb.achieved[i], InRun: in, At: at, Later: in && at > lb.Now()}
		if g.Measure != nil && !out[i].Met {
			out[i].Measure = g.Measure(lb.world)
		}
	}
	return out
}

// MetBefore counts the goals with these ids as met already (the learner
// met them on an earlier visit, as their progress records): the checklist
// shows them met, and NewlyMet does not announce them again.
func (lb *Lab) MetBefore(ids []string) {
	for i, g := range lb.Lesson.Goals {
		if slices.Contains(ids, g.ID) {
			lb.achieved[i], lb.announced[i] = true, true
		}
	}
}

// NewlyMet lists the goals met for the first time in this lab's life
// since the last call: each goal is reported once, however often a scrub
// back and forth or another run meets it again. The one record of
// progress the scene narrates and saves from.
func (lb *Lab) NewlyMet() []int {
	var out []int
	for i := range lb.achieved {
		if ok, _ := lb.goal(i); ok {
			lb.achieved[i] = true
		}
		if lb.achieved[i] && !lb.announced[i] {
			lb.announced[i] = true
			out = append(out, i)
		}
	}
	return out
}

// Achieved reports, per goal, whether it was met at some point.
func (lb *Lab) Achieved() []bool { return append([]bool(nil), lb.achieved...) }

// AllMet reports whether the lesson is complete: every goal met at some
// point (a scrub back or a restart does not take that away).
func (lb *Lab) AllMet() bool {
	for i := range lb.achieved {
		if ok, _ := lb.goal(i); !ok && !lb.achieved[i] {
			return false
		}
	}
	return true
}

// Narration returns every line so far, oldest first.
func (lb *Lab) Narration() []Line { return lb.lines }

// Untold returns the narration lines not handed out before, and counts
// them told: the run's one stream of commentary for the front end. After
// a scrub back (the narration restarts) it carries on from the play head.
// While playing, the last line at the play head waits: more may still
// happen at that instant.
func (lb *Lab) Untold(playing bool) []Line {
	lines := lb.lines
	if len(lines) < lb.told {
		lb.told = 0
		for lb.told < len(lines) && lines[lb.told].At < lb.Now() {
			lb.told++
		}
	}
	start := lb.told
	for ; lb.told < len(lines); lb.told++ {
		if l := lines[lb.told]; l.At == lb.Now() && lb.told == len(lines)-1 && playing {
			break
		}
	}
	return lines[start:lb.told]
}

// Retell returns the narration up to the play head (the lines before it,
// in time order) and counts them told, so Untold carries on from there:
// after a scrub, the story so far is told again.
func (lb *Lab) Retell() []Line {
	lb.told = 0
	for lb.told < len(lb.lines) && lb.lines[lb.told].At < lb.Now() {
		lb.told++
	}
	return lb.lines[:lb.told]
}
