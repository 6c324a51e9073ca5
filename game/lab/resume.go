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
	old, oldLog, oldNow := lb.knobs, lb.log, lb.Now()
	lb.knobs = lb.Lesson.Defaults(knobs)
	end := time.Duration(0)
	if n := len(log); n > 0 {
		end = log.Sorted()[n-1].At.D()
	}
	if err := lb.reset(log, end); err != nil {
		lb.knobs = old
		lb.err = lb.reset(oldLog, oldNow)
		return err
	}
	lb.carried, lb.carriedOK = nil, nil // another run
	return nil
}

type outsideError struct{ at, length time.Duration }

func (e outsideError) Error() string {
	return "an action at " + core.FormatTime(e.at) + " lies outside the lesson's " + core.FormatTime(e.length)
}

func errOutside(at, length time.Duration) error { return outsideError{at, length} }
