package lab

import (
	"time"

	"leaselab/core"
	"leaselab/lessons"
)

// Resume restores a saved run: the knob values and the learner's log,
// replayed up to the last action, so the learner carries on where they
// stopped. Bad knobs or actions are refused and leave the lab as it was.
func (lb *Lab) Resume(knobs lessons.Knobs, log core.ActionLog) error {
	if err := lb.check(knobs, log); err != nil {
		return err
	}
	old, oldLog, oldNow := lb.knobs, lb.log, lb.Now()
	lb.knobs = lb.Lesson.Defaults(knobs)
	if err := lb.reset(log, lastAction(log)); err != nil {
		lb.knobs = old
		lb.err = lb.reset(oldLog, oldNow)
		return err
	}
	// Another run, and the learner's own: nothing kept aside, nothing
	// to undo.
	lb.carried, lb.carriedOK = nil, nil
	lb.shown, lb.mine, lb.undo = RunMine, nil, nil
	return nil
}

type outsideError struct{ at, length time.Duration }

func (e outsideError) Error() string {
	return "an action at " + core.FormatTime(e.at) + " lies outside the lesson's " + core.FormatTime(e.length)
}

func errOutside(at, length time.Duration) error { return outsideError{at, length} }

// ShowFound shows a run the break search found (knobs and log, the play
// head at its last action) as a run of its own: the learner's is kept
// aside (BackToMine) and the switch can be undone. Bad knobs or actions
// are refused and change nothing.
func (lb *Lab) ShowFound(knobs lessons.Knobs, log core.ActionLog) error {
	if err := lb.check(knobs, log); err != nil {
		return err
	}
	lb.show(RunFound, lb.Lesson.Defaults(knobs), log, lastAction(log))
	return lb.err
}

// check refuses knobs or actions that do not fit the lesson.
func (lb *Lab) check(knobs lessons.Knobs, log core.ActionLog) error {
	if err := lb.Lesson.CheckKnobs(knobs); err != nil {
		return err
	}
	for _, a := range log {
		if err := a.Validate(); err != nil {
			return err
		}
		if a.At < 0 || a.At.D() > lb.Length() {
			return errOutside(a.At.D(), lb.Length())
		}
	}
	return nil
}

// lastAction is the time of log's last action (0 without one).
func lastAction(log core.ActionLog) time.Duration {
	if n := len(log); n > 0 {
		return log.Sorted()[n-1].At.D()
	}
	return 0
}
