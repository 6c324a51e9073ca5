package lab

import (
	"fmt"
	"slices"
	"time"

	"leaselab/core"
	"leaselab/lessons"
)

// Command is one thing a learner asked of the run this tick (an action at
// the play head, a move of the play head, a knob's new value, the run a
// search found): every change to a lab goes through Apply. Views hand their commands
// to the scene that owns the lab, which applies them in order once the
// views have read the tick's input, before the one snapshot every view
// draws from.
type Command struct {
	action *core.Action
	time   TimeOp // a clock command: advance or seek by/to at, step, fork
	at     time.Duration
	knob   string // SetKnobTo: the knob's id, with value
	value  float64
	found  *foundRun // ShowFoundRun
}

// TimeOp is what a clock command does to the play head.
type TimeOp uint8

const (
	NoTime       TimeOp = iota
	TimeAdvance         // play on by a duration (AdvanceBy)
	TimeStep            // to the next event (StepOn)
	TimeSeek            // to an instant (SeekTo)
	TimeFork            // drop the learner's actions after the play head (ForkHere)
	TimeStepBack        // to the previous event (StepBack)
)

// Time returns what a clock command does and its duration or instant
// (NoTime for the other commands). A clock that is not a Lab (a test's)
// reads its commands with it.
func (c Command) Time() (TimeOp, time.Duration) { return c.time, c.at }

// AdvanceBy is the command to play the run on by d.
func AdvanceBy(d time.Duration) Command { return Command{time: TimeAdvance, at: d} }

// StepOn is the command to move the play head to the next event.
func StepOn() Command { return Command{time: TimeStep} }

// StepBack is the command to move the play head back to the previous
// event.
func StepBack() Command { return Command{time: TimeStepBack} }

// ForkHere is the command to drop the learner's actions after the play
// head (Undo brings them back where the run keeps a history).
func ForkHere() Command { return Command{time: TimeFork} }

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
func SeekTo(t time.Duration) Command { return Command{time: TimeSeek, at: t} }

// Apply performs c and returns what to narrate ("" for nothing): a
// learner's action, or why it was refused.
func (lb *Lab) Apply(c Command) string {
	lb.misstep = ""
	switch {
	case c.time == TimeAdvance:
		lb.Play(c.at)
	case c.time == TimeStep:
		lb.Step()
	case c.time == TimeStepBack:
		lb.StepBackward()
	case c.time == TimeSeek:
		lb.Seek(c.at)
	case c.time == TimeFork:
		lb.Fork()
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
		if cur, ok := lb.Knobs()[k.ID]; ok && cur == c.value {
			// Already so (a page's slider sends its value on input and
			// again on change): no rebuild, and nothing to say twice.
			return ""
		}
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
		if why := lb.Misstep(); why != "" && dropped != "" {
			return "You: " + a.String() + ". " + why + " Acting here also dropped " + dropped + "; Undo takes it back and brings them back."
		} else if why != "" {
			return "You: " + a.String() + ". " + why + " Undo takes it back."
		}
		if dropped != "" {
			return "You: " + a.String() + ". Acting here dropped " + dropped + "; Undo brings them back."
		}
		return "You: " + a.String()
	}
	return ""
}
