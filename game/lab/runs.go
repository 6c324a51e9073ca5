package lab

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/lessons"
)

// RunKind says whose run the lab has on show: the learner's own, or one
// the lab loaded for them to watch (the lesson's solution, a break the
// search found). While another is on show the learner's is kept aside,
// and BackToMine brings it back.
type RunKind int

const (
	RunMine RunKind = iota
	RunSolution
	RunFound
)

// String names the run as sentences and tooltips do.
func (k RunKind) String() string {
	switch k {
	case RunSolution:
		return "the solution"
	case RunFound:
		return "the break found"
	}
	return "your run"
}

// savedRun is a run as the lab keeps it aside and brings it back: its
// knobs, its log, its play head and what its checklist had seen.
type savedRun struct {
	knobs            lessons.Knobs
	log              core.ActionLog
	now              time.Duration
	met, carried     []time.Duration
	metOK, carriedOK []bool
	kind             RunKind
}

// labState is everything a destructive step changes: the run on show
// and the learner's run kept aside (nil while theirs is on show).
type labState struct {
	run  savedRun
	mine *savedRun
}

// undoStep is the state before the last destructive step, and what the
// step was ("restart", "fork"); redo is set once undone, when undoing
// again brings the step back.
type undoStep struct {
	what  string
	state labState
	redo  bool
}

func (lb *Lab) saveRun() savedRun {
	return savedRun{
		knobs: lb.knobs, log: append(core.ActionLog(nil), lb.log...), now: lb.Now(),
		met: append([]time.Duration(nil), lb.met...), metOK: append([]bool(nil), lb.metOK...),
		carried: append([]time.Duration(nil), lb.carried...), carriedOK: append([]bool(nil), lb.carriedOK...),
		kind: lb.shown,
	}
}

// loadRun puts r on show, with what its checklist had seen.
func (lb *Lab) loadRun(r savedRun) {
	lb.knobs, lb.shown = r.knobs, r.kind
	lb.carried, lb.carriedOK = r.carried, r.carriedOK
	lb.err = lb.reset(r.log, r.now)
	lb.keepMet(r.met, r.metOK)
	lb.retell()
}

// keepMet adds the goal times of an earlier pass over the same run (a
// scrub back forgets those after the play head; the run still meets them).
func (lb *Lab) keepMet(met []time.Duration, ok []bool) {
	for i := range lb.metOK {
		if i < len(ok) && ok[i] && (!lb.metOK[i] || met[i] < lb.met[i]) {
			lb.met[i], lb.metOK[i] = met[i], true
		}
	}
}

// retell carries the narration on from the play head of a run just put
// on show, rather than retelling what came before it.
func (lb *Lab) retell() {
	lb.told = 0
	for lb.told < len(lb.lines) && lb.lines[lb.told].At < lb.Now() {
		lb.told++
	}
}

func (lb *Lab) state() labState { return labState{run: lb.saveRun(), mine: lb.mine} }

// remember keeps the state before a destructive step, for Undo.
func (lb *Lab) remember(what string) { lb.undo = &undoStep{what: what, state: lb.state()} }

// Showing is the run on show.
func (lb *Lab) Showing() RunKind { return lb.shown }

// KeptMine reports whether the learner's run is kept aside while another
// is on show.
func (lb *Lab) KeptMine() bool { return lb.mine != nil }

// MyRun is the learner's own run, on show or kept aside: what progress
// saves.
func (lb *Lab) MyRun() (lessons.Knobs, core.ActionLog) {
	if lb.mine != nil {
		return lb.mine.knobs, lb.mine.log
	}
	return lb.knobs, lb.log
}

// show puts another run on show (kind, with knobs and log, the play head
// at at), keeping the learner's own aside: undoable.
func (lb *Lab) show(kind RunKind, knobs lessons.Knobs, log core.ActionLog, at time.Duration) {
	lb.remember("switch to " + kind.String())
	if lb.mine == nil && lb.shown == RunMine {
		mine := lb.saveRun()
		lb.mine = &mine
	}
	lb.loadRun(savedRun{knobs: knobs, log: log, now: at, kind: kind})
}

// BackToMine brings back the learner's run kept aside (undoable: Undo
// shows the other run again) and says so; "" when theirs is on show.
func (lb *Lab) BackToMine() string {
	if lb.mine == nil {
		return ""
	}
	from := lb.shown
	lb.remember("return to your run")
	mine := *lb.mine
	lb.mine = nil
	lb.loadRun(mine)
	return fmt.Sprintf("Back to your run at %s (%s); Undo shows %s again.", ClockTime(lb.Now()), actionCount(len(lb.log)), from)
}

// Restart begins the lesson again: time zero, no actions, the knobs at
// their defaults, the learner's own run on show. Undoable.
func (lb *Lab) Restart() {
	if lb.Pristine() {
		return
	}
	lb.remember("restart")
	lb.forgetUnseen()
	lb.mine, lb.shown = nil, RunMine
	lb.knobs = nil
	lb.carried, lb.carriedOK = nil, nil
	lb.err = lb.reset(nil, 0)
	lb.told = 0
}

// Pristine reports a lab just begun: the learner's run on show, at time
// zero, with no actions and the default knobs.
func (lb *Lab) Pristine() bool {
	return lb.shown == RunMine && lb.mine == nil && len(lb.log) == 0 && lb.Now() == 0 &&
		maps.Equal(lb.Lesson.Defaults(lb.knobs), lb.Lesson.Defaults(nil))
}

// Later are the actions after the play head: what acting now (or a fork)
// drops.
func (lb *Lab) Later() core.ActionLog {
	var out core.ActionLog
	for _, a := range lb.log {
		if a.At.D() > lb.Now() {
			out = append(out, a)
		}
	}
	return out
}

// DroppedText says which later actions acting now would drop: "2 later
// actions (crash B at 30s, expire A at 41s)", "" for none.
func (lb *Lab) DroppedText() string {
	later := lb.Later().Sorted()
	if len(later) == 0 {
		return ""
	}
	items := make([]string, 0, 3)
	for i, a := range later {
		if i == 3 {
			items = append(items, "…")
			break
		}
		items = append(items, a.Action.String()+" at "+core.Seconds(a.At.D()))
	}
	return fmt.Sprintf("%d later %s (%s)", len(later), plural(len(later), "action"), strings.Join(items, ", "))
}

// CanUndo reports whether there is a step to undo (or, once undone, to
// redo).
func (lb *Lab) CanUndo() bool { return lb.undo != nil }

// UndoLabel is the undo button's label and tooltip: what pressing it
// brings back.
func (lb *Lab) UndoLabel() (label, tip string) {
	u := lb.undo
	if u == nil {
		return "Undo", "Nothing to undo yet: a restart, a fork, an action that drops later ones or another run shown can be undone"
	}
	r := u.state.run
	back := fmt.Sprintf("%s at %s, %s", r.kind, ClockTime(r.now), actionCount(len(r.log)))
	if u.redo {
		return "Redo", "Redo what Undo took back: " + back
	}
	return "Undo", "Undo the " + u.what + ": back to " + back
}

// Undo takes the last destructive step back (and Undo again redoes it:
// nothing the learner had is ever lost), and says what it did; "" when
// there is nothing to undo.
func (lb *Lab) Undo() string {
	u := lb.undo
	if u == nil {
		return ""
	}
	lb.undo = &undoStep{what: u.what, state: lb.state(), redo: !u.redo}
	lb.mine = u.state.mine
	lb.loadRun(u.state.run)
	verb := "Undid"
	if u.redo {
		verb = "Redid"
	}
	return fmt.Sprintf("%s the %s: %s at %s, %s.", verb, u.what, lb.shown, ClockTime(lb.Now()), actionCount(len(lb.log)))
}

func actionCount(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "action")) }

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
