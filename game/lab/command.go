package lab

import (
	"fmt"
	"slices"
	"time"

	"leaselab/core"
	"leaselab/lessons"
)

// Command is one thing a learner asked of the run through a view this
// tick (an action at the play head, a seek, a knob's new value, the run
// a search found). Views hand their commands
// to the scene that owns the lab, which applies them in order once the
// views have read the tick's input, before the one snapshot every view
// draws from.
type Command struct {
	action *core.Action
	seek   time.Duration
	isSeek bool
	knob   string // SetKnobTo: the knob's id, with value
	value  float64
	found  *foundRun // ShowFoundRun
}

type foundRun struct {
	knobs lessons.Knobs
	log   core.ActionLog
}

// ShowFoundRun is the command to show the run a search found (knobs and
// log) in place of the learner's, which Back to my run and Undo restore.
func ShowFoundRun(knobs lessons.Knobs, log core.ActionLog) Command {
	return Command{found: &foundRun{knobs: knobs, log: log}}
}

// SetKnobTo is the command to give knob id the value v: the world is
// rebuilt with it and the learner's actions replayed to the play head.
func SetKnobTo(id string, v float64) Command { return Command{knob: id, value: v} }

// Act is the command to perform a at the play head.
func Act(a core.Action) Command { return Command{action: &a} }

// SeekTo is the command to move the play head to t.
func SeekTo(t time.Duration) Command { return Command{seek: t, isSeek: true} }

// Apply performs c and returns what to narrate ("" for nothing): a
// learner's action, or why it was refused.
func (lb *Lab) Apply(c Command) string {
	switch {
	case c.isSeek:
		lb.Seek(c.seek)
	case c.found != nil:
		if err := lb.ShowFound(c.found.knobs, c.found.log); err != nil {
			return "Could not load the break found: " + err.Error()
		}
	case c.knob != "":
		i := slices.IndexFunc(lb.Lesson.Knobs, func(k lessons.Knob) bool { return k.ID == c.knob })
		if i < 0 {
			return "Could not set " + c.knob + ": the lesson has no such setting"
		}
		k := lb.Lesson.Knobs[i]
		if err := lb.SetKnob(k.ID, c.value); err != nil {
			return fmt.Sprintf("Could not set %s: %v", KnobLabel(k), err)
		}
		return fmt.Sprintf("%s set to %s", KnobLabel(k), KnobValue(k, c.value))
	case c.action != nil:
		a := *c.action
		dropped := lb.DroppedText()
		if err := lb.Do(a); err != nil {
			return "Could not " + a.String() + ": " + err.Error()
		}
		if dropped != "" {
			return "You: " + a.String() + ". Acting here dropped " + dropped + "; Undo brings them back."
		}
		return "You: " + a.String()
	}
	return ""
}
