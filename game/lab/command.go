package lab

import (
	"time"

	"leaselab/core"
)

// Command is one thing a learner asked of the run through a view this
// tick (an action at the play head, a seek). Views hand their commands
// to the scene that owns the lab, which applies them in order once the
// views have read the tick's input, before the one snapshot every view
// draws from.
type Command struct {
	action *core.Action
	seek   time.Duration
	isSeek bool
}

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
