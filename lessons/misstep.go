package lessons

import (
	"fmt"
	"sync"
	"time"

	"leaselab/core"
)

// Misstep is a lesson's own sentence for a learner action that, done too
// early, leaves the lesson's goals out of reach: Verb (any, if empty) on
// Proc before Proc reached the state the lesson's solution acts on it in
// ("A has not acquired the lock yet: play until it leads, then pause
// it"). A misstep without a sentence of its own gets a general one (see
// World.Misstep).
type Misstep struct {
	Verb core.Verb
	Proc string
	Why  string
}

// need is what the solution's action on a process needs of it: the
// process is in State (read from the solution's trace just before the
// action) when the action hits it.
type need struct {
	proc  string
	state string
}

var needsMemo sync.Map // *Lesson -> []need

// needs lists, for each solution action on a process, the state the
// process was in when the solution acted on it (only states reached by a
// change during the run: a process's first state needs no waiting).
func (l *Lesson) needs() []need {
	if v, ok := needsMemo.Load(l); ok {
		return v.([]need)
	}
	var out []need
	w, err := l.EvaluateWith(1, l.SolutionKnobs, l.Solution)
	if err == nil {
		for _, a := range l.Solution {
			if a.Action.Proc == "" {
				continue
			}
			if st, ok := stateAt(w, a.Action.Proc, a.At.D()); ok {
				out = append(out, need{proc: a.Action.Proc, state: st})
			}
		}
	}
	needsMemo.Store(l, out)
	return out
}

// stateAt is proc's state just before t, as its last state change before
// t recorded it (false when it had none).
func stateAt(w *World, proc string, t time.Duration) (string, bool) {
	st, ok := "", false
	for e := range w.Sim.Trace.All() {
		if e.At >= t {
			break
		}
		if e.Kind == core.KindState && e.Actor == proc {
			st, ok = e.To(), true
		}
	}
	return st, ok
}

// reached reports whether proc has been in state st at some point of the
// run so far.
func reached(w *World, proc, st string) bool {
	for e := range w.ofKind(core.KindState) {
		if e.Actor == proc && e.To() == st {
			return true
		}
	}
	return false
}

// Misstep says why action a, just done at the play head of w (the last
// entry of its log), leaves the lesson's goals out of reach, or "" when it
// does not. It is one when the lesson's solution acts on the same
// process only once that process reached some state (A leads), the
// process has not reached it yet in this run, and the solution's own
// remaining actions no longer finish the lesson from here though they did
// just before a. The lesson's Missteps give the sentence; otherwise a
// general one says what to wait for.
func (w *World) Misstep(seed uint64, a core.Action) string {
	l := w.Lesson
	if a.Proc == "" || len(w.Log) == 0 {
		return ""
	}
	for _, n := range l.needs() {
		if n.proc != a.Proc || reached(w, n.proc, n.state) {
			continue
		}
		now := w.Sim.Now()
		before := w.Log[:len(w.Log)-1]
		if !l.Finishes(seed, before, now) || l.Finishes(seed, w.Log, now) {
			return ""
		}
		for _, m := range l.Missteps {
			if (m.Verb == "" || m.Verb == a.Do) && m.Proc == a.Proc {
				return m.Why
			}
		}
		return fmt.Sprintf("Too early: this lesson's goals need %s to be %s before anything happens to it. Play until %s is %s, then try again.",
			a.Proc, core.StateWords(n.state), a.Proc, core.StateWords(n.state))
	}
	return ""
}

// Finishes reports whether log, followed by the solution's actions after
// now, meets every goal with the solution's knobs (a knob applies to the
// whole run, so the learner can still set it however late).
func (l *Lesson) Finishes(seed uint64, log core.ActionLog, now time.Duration) bool {
	all := append(core.ActionLog(nil), log...)
	for _, a := range l.Solution {
		if a.At.D() > now {
			all = append(all, a)
		}
	}
	w, err := l.EvaluateWith(seed, l.SolutionKnobs, all)
	return err == nil && w.AllMet()
}
