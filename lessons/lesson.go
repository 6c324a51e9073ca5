// Package lessons is LeaseLab's curriculum as data: each lesson is a
// scenario (a world and its script), goals checked against the trace, a hint
// ladder and a solution (an action log that meets every goal). It imports
// core only, never a display library, so every lesson is tested headless.
package lessons

import (
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"leaselab/core"
)

// Control is a learner action a lesson offers in its player, named by
// its core verb; a control offers its verb's pair too (pause and resume,
// crash and restart, partition and heal).
type Control core.Verb

const (
	CtlPause     = Control(core.VerbPause)       // pause/resume a process (stop-the-world)
	CtlCrash     = Control(core.VerbCrash)       // crash/restart a process
	CtlPartition = Control(core.VerbPartition)   // cut/heal a process's link to the coordinator
	CtlExpire    = Control(core.VerbExpire)      // expire a process's lease now
	CtlFencing   = Control(core.VerbFencing)     // switch the store's token check
	CtlWrite     = Control(core.VerbWrite)       // make a process write now (optionally with a chosen token)
	CtlSetTTL    = Control(core.VerbSetTTL)      // set a process's TTL: its next session gets it; it renews every TTL/3 from now
	CtlIdem      = Control(core.VerbIdempotency) // switch the job queue's idempotency-key check
	CtlDelete    = Control(core.VerbDelete)      // make a process or worker delete a coordinator key
	CtlPut       = Control(core.VerbPut)         // make a process or worker put a coordinator key
	CtlDelay     = Control(core.VerbDelay)       // hold what a process sends for the lesson's pause length
	CtlClockJump = Control(core.VerbClockJump)   // jump a Redis node's wall clock ahead (Redlock)
	CtlSlowDisk  = Control(core.VerbSlowDisk)    // give a coordinator member a slow disk
	CtlRead      = Control(core.VerbRead)        // read who holds the lock from a coordinator member
	CtlFix       = Control(core.VerbFix)         // deploy a fix to a process's client (core.Fixes)
)

// Goal is one thing the learner must make happen. Met reads only the
// world's trace and action log, so it is evaluated the same way live, in
// tests and in the CLI.
type Goal struct {
	ID string
	// Text says what to do; Proved says what the learner just showed, once
	// the goal is met.
	Text   string
	Proved string
	// Met reports whether the goal holds in the run so far.
	Met func(w *World) bool
	// Measure, if set, is what the run shows so far that the goal is
	// about ("worst renewal delay 5.0 s"), read from the trace and shown
	// beside the goal while it is open ("" while there is nothing to show).
	Measure func(w *World) string
}

// Lesson is one playable lesson.
type Lesson struct {
	ID    string
	Title string
	// Objective is the lesson's aim in one line, shown above the story and
	// kept in view while the learner plays.
	Objective string
	// Summary is the one-line description the menu shows under the title;
	// Minutes is about how long a first attempt takes.
	Summary string
	Minutes int
	// Intro paragraphs are shown before and beside the run; Recap after
	// every goal is met.
	Intro []string
	Recap string
	// World writes the world (actors, parameters) from the knob values;
	// Script is the scenario's own scheduled events, applied before the
	// learner's.
	World func(seed uint64, k Knobs) (core.World, error)
	// Knobs are parameters the learner may set with sliders (TTL, renew
	// interval...). Changing one rebuilds the world and replays the log.
	Knobs []Knob
	// SolutionKnobs are the knob values the solution uses (others default).
	SolutionKnobs Knobs
	Script        core.ActionLog
	Duration      time.Duration
	Controls      []Control
	Goals         []Goal
	// Hints go from a nudge to the answer.
	Hints []string
	// Solution is an action log that meets every goal.
	Solution core.ActionLog
	// PauseFor is the pause length the player's pause button applies;
	// PauseKnob, if set, names the knob (in seconds) that gives it
	// instead, so the button freezes as long as the lesson's own pause.
	PauseFor  time.Duration
	PauseKnob string
	// KnobCheck, if set, judges knob values live (for instance the lease
	// policy rule) so the player can show the verdict beside the sliders.
	KnobCheck func(k Knobs) (ok bool, why string)
	// KnobGoal, if set, is the goal that asks the learner to make
	// KnobCheck fail with the sliders: the verdict then shows a failing
	// rule as what was asked, not as a mistake.
	KnobGoal string

	// Search, if set, offers "Find a break" and the side-by-side
	// comparison of the protection off and on in this lesson's world (and
	// in the sandbox run of it).
	Search *Search
	// SandboxPreset names the sandbox preset (sandbox.FindPreset) closest to
	// this lesson's world: the setup panel behind a run opened in the
	// sandbox shows it.
	SandboxPreset string
	// Sweep, if set, charts the trade-off of one knob beside the world.
	Sweep *Sweep
	// Missteps are the lesson's own sentences for actions done too early
	// to reach its goals (see World.Misstep).
	Missteps []Misstep
	// Predictions are the questions the player stops to ask at the
	// lesson's key moments (see Predict); none is a goal.
	Predictions []Predict
	// RecapChain, if set, is the recap's question asked with the
	// learner's own run (see RecapChain); it is not a goal.
	RecapChain *RecapChain
}

// PauseLength is how long the pause button freezes a process with knobs
// k: the PauseKnob's value, or PauseFor.
func (l *Lesson) PauseLength(k Knobs) time.Duration {
	if l.PauseKnob != "" {
		return l.Defaults(k).Seconds(l.PauseKnob)
	}
	return l.PauseFor
}

// Knob is a lesson parameter with a slider.
type Knob struct {
	ID, Label string
	// Unit is "s" for seconds, "" for a plain number.
	Unit                    string
	Min, Max, Step, Default float64
	// Whole, if set, says why the value must be a whole number (etcd
	// grants leases in whole seconds); a fraction is then refused.
	Whole string
	// Unset, if set, makes the field optional (a prediction): its Min,
	// also its Default and the slider's leftmost place, means "not
	// given", shown as Unset ("no prediction"); an answer may also leave
	// it out.
	Unset string
}

// Given returns v as the field's value, or false when v is the field's
// "not given" value (see Unset).
func (k Knob) Given(v float64) bool { return k.Unset == "" || v != k.Min }

// Knobs maps knob ids to values.
type Knobs map[string]float64

// Seconds returns knob id as a duration (it must be in seconds).
func (k Knobs) Seconds(id string) time.Duration {
	return time.Duration(k[id] * float64(time.Second))
}

// Defaults returns every knob at its default, overridden by over.
func (l *Lesson) Defaults(over Knobs) Knobs {
	k := Knobs{}
	for _, kn := range l.Knobs {
		k[kn.ID] = kn.Default
	}
	for id, v := range over {
		k[id] = v
	}
	return k
}

// CheckKnobs rejects unknown knobs and values out of range.
func (l *Lesson) CheckKnobs(k Knobs) error { return checkKnobs("lesson "+l.ID, "knob", l.Knobs, k) }

// checkKnobs rejects values of k that defs (owner's knobs or number
// fields, called what) do not have or that are out of range. Keys are
// checked in sorted order, so the same input always gets the same error.
func checkKnobs(owner, what string, defs []Knob, k Knobs) error {
	for _, id := range slices.Sorted(maps.Keys(k)) {
		v := k[id]
		i := slices.IndexFunc(defs, func(kn Knob) bool { return kn.ID == id })
		if i < 0 {
			return fmt.Errorf("%s has no %s %q", owner, what, id)
		}
		if kn := defs[i]; v < kn.Min || v > kn.Max || v != v {
			return fmt.Errorf("%ss.%s (%s): %v is outside %v to %v", what, id, kn.Label, v, kn.Min, kn.Max)
		} else if kn.Whole != "" && v != math.Trunc(v) {
			return fmt.Errorf("%ss.%s: %v is not a whole number: %s", what, id, v, kn.Whole)
		}
	}
	return nil
}

// World is a lesson in progress: the simulation, the knobs, the learner's
// log.
type World struct {
	Lesson *Lesson
	Sim    *core.Sim
	Knobs  Knobs
	Log    core.ActionLog

	memo  map[string]memoEntry
	index kindIndex // see positions
}

type memoEntry struct {
	events int
	now    time.Duration
	v      any
}

// cached returns f's result, computed again only once the trace has grown
// or the clock moved: goals that share an expensive reading of a large
// trace (the shard lessons) pay for it once per step, not once per goal.
func cached[T any](w *World, key string, f func() T) T {
	if e, ok := w.memo[key]; ok && e.events == w.Sim.Trace.Len() && e.now == w.Sim.Now() {
		return e.v.(T)
	}
	v := f()
	if w.memo == nil {
		w.memo = map[string]memoEntry{}
	}
	w.memo[key] = memoEntry{events: w.Sim.Trace.Len(), now: w.Sim.Now(), v: v}
	return v
}

// cachedOK is cached for readings that may find nothing.
func cachedOK[T any](w *World, key string, f func() (T, bool)) (T, bool) {
	type found struct {
		v  T
		ok bool
	}
	r := cached(w, key, func() found { v, ok := f(); return found{v, ok} })
	return r.v, r.ok
}

// eventsFrom returns the trace from the first event at or after t (the
// trace is in time order).
func eventsFrom(w *World, t time.Duration) iter.Seq[*core.Event] {
	tr := w.Sim.Trace
	i := sort.Search(tr.Len(), func(i int) bool { return tr.At(i).At >= t })
	return tr.Span(i, tr.Len())
}

// Start builds the lesson world with default knobs and schedules its
// script and log.
func (l *Lesson) Start(seed uint64, log core.ActionLog) (*World, error) {
	return l.StartWith(seed, nil, log)
}

// StartWith is Start with knob values (missing ones take their default).
func (l *Lesson) StartWith(seed uint64, knobs Knobs, log core.ActionLog) (*World, error) {
	if err := l.CheckKnobs(knobs); err != nil {
		return nil, err
	}
	k := l.Defaults(knobs)
	s, err := core.BuildWorld(l.World(seed, k))
	if err == nil {
		err = s.CheckBudget(l.Duration)
	}
	if err != nil {
		return nil, fmt.Errorf("lesson %s: %w", l.ID, err)
	}
	s.Schedule(l.Script)
	w := &World{Lesson: l, Sim: s, Knobs: k}
	for _, a := range log.Sorted() {
		if err := a.Validate(); err != nil {
			return nil, fmt.Errorf("lesson %s: %w", l.ID, err)
		}
		w.Log = append(w.Log, a)
	}
	s.Schedule(w.Log)
	return w, nil
}

// Do applies a learner action now and records it in the log.
func (w *World) Do(a core.Action) error {
	if err := a.Validate(); err != nil {
		return err
	}
	now := w.Sim.Now()
	w.Log = append(w.Log, core.At(now, a))
	w.Sim.ScheduleAction(now, a)
	w.Sim.RunUntil(now)
	return nil
}

// GoalResult is one goal's state after a run.
type GoalResult struct {
	Goal *Goal
	Met  bool
}

// Goals evaluates every goal now.
func (w *World) Goals() []GoalResult {
	out := make([]GoalResult, len(w.Lesson.Goals))
	for i := range w.Lesson.Goals {
		g := &w.Lesson.Goals[i]
		out[i] = GoalResult{Goal: g, Met: g.Met(w)}
	}
	return out
}

// AllMet reports whether every goal holds.
func (w *World) AllMet() bool {
	for _, g := range w.Goals() {
		if !g.Met {
			return false
		}
	}
	return true
}

// Evaluate runs the lesson with default knobs and log to its end.
func (l *Lesson) Evaluate(seed uint64, log core.ActionLog) (*World, error) {
	return l.EvaluateWith(seed, nil, log)
}

// EvaluateWith runs the lesson with knobs and log to its end.
func (l *Lesson) EvaluateWith(seed uint64, knobs Knobs, log core.ActionLog) (*World, error) {
	w, err := l.StartWith(seed, knobs, log)
	if err != nil {
		return nil, err
	}
	w.Sim.RunUntil(l.Duration)
	return w, nil
}

// All returns the lessons in menu order.
func All() []*Lesson { return all }

// Find returns the lesson with the given id.
func Find(id string) (*Lesson, error) {
	for _, l := range all {
		if l.ID == id {
			return l, nil
		}
	}
	return nil, fmt.Errorf("unknown lesson %q (labctl lessons lists them)", id)
}

var all = []*Lesson{leases, scheduler, fencedWrites, redlockPause, handsOnLab, shards, electionOrder, ttlTradeoff, troubleshooting, renewalLoop, security, stateMachine, coordinatorCosts, coordinatorCluster}

// Trace predicates shared by goals.

// holderWithToken reports whether owner became holder with token tok.
func holderWithToken(w *World, owner string, tok int64) bool {
	for e := range w.ofKind(core.KindHolder) {
		if e.Owner() == owner && e.Token() == tok {
			return true
		}
	}
	return false
}

// write finds a register decision by sender, token and result.
func write(w *World, from string, tok int64, result string) bool {
	for e := range w.ofKind(core.KindWrite) {
		if e.From() == from && e.Token() == tok && e.Result() == result {
			return true
		}
	}
	return false
}

// staleAccepted reports whether a store accepted a token below its highest.
func staleAccepted(w *World) bool { return len(w.Sim.Trace.Filter(core.KindStale)) > 0 }

// pauseSpan is one stop-the-world pause read from the trace.
type pauseSpan struct {
	Proc string
	// From and To bound the pause; To is -1 while it lasts. Seq and
	// ToSeq are the pause event's and the wake's (or crash's) places in
	// the trace (ToSeq -1 while it lasts): events at the same instant
	// happened in that order.
	From, To   time.Duration
	Seq, ToSeq int
	For        time.Duration
	// Leader reports whether the process believed it led when it froze.
	Leader bool
	// Crashed reports a crash that ended the pause.
	Crashed bool
}

// pauses lists every pause in the trace, in order.
func pauses(w *World) []pauseSpan {
	return cached(w, "pauses", func() []pauseSpan { return findPauses(w) })
}

func findPauses(w *World) []pauseSpan {
	var out []pauseSpan
	open := map[string]int{}
	state := map[string]string{}
	w.each(0, func(e *core.Event) bool {
		switch e.Kind {
		case core.KindState:
			state[e.Actor] = e.To()
		case core.KindPause:
			open[e.Actor] = len(out)
			out = append(out, pauseSpan{Proc: e.Actor, From: e.At, To: -1, Seq: e.Seq, ToSeq: -1,
				For: e.For(), Leader: state[e.Actor] == core.Leader.String()})
		case core.KindResume, core.KindCrash:
			if i, ok := open[e.Actor]; ok {
				out[i].To, out[i].ToSeq, out[i].Crashed = e.At, e.Seq, e.Kind == core.KindCrash
				delete(open, e.Actor)
			}
		}
		return true
	}, core.KindState, core.KindPause, core.KindResume, core.KindCrash)
	return out
}

// handovers returns the coordinator's holder changes of lock in order.
func handovers(w *World, lock string) []core.Event {
	var out []core.Event
	for e := range w.ofKind(core.KindHolder) {
		if e.Lock() == lock {
			out = append(out, *e)
		}
	}
	return out
}

// handoverDuring returns the first holder change of lock to someone other
// than proc within [from, to], or nil.
func handoverDuring(w *World, lock, proc string, from, to time.Duration) *core.Event {
	for _, e := range handovers(w, lock) {
		if e.At >= from && e.At <= to && e.Owner() != proc {
			return &e
		}
	}
	return nil
}
