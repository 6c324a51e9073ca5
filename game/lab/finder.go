package lab

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/explore"
	"leaselab/lessons"
)

// Finder is a "Find a break" search on a lab's world, run a slice at a
// time so a frame is never held up: the simplest fault schedule that
// breaks the search's invariant, with the protection as the learner has
// it. The counterexample it finds becomes the lab's log, ready to play; a
// clean search says what it covered. What it has to say comes back as
// narration lines.
type Finder struct {
	Spec *lessons.Search
	// Status is the last verdict, for the caption row ("" before one).
	Status string
	// Clock is the wall clock slices are timed by.
	Clock func() time.Time

	lb      *Lab
	x       *explore.Explorer
	problem explore.Problem
	knobs   lessons.Knobs
	found   *Command // the found run, to be shown (TakeFound)
}

// TakeFound returns the command that shows the break the search found,
// once: the scene applies it with the tick's other commands.
func (f *Finder) TakeFound() (Command, bool) {
	if f.found == nil {
		return Command{}, false
	}
	c := *f.found
	f.found = nil
	return c, true
}

// NewFinder returns an idle search by spec on lb.
func NewFinder(lb *Lab, spec *lessons.Search) *Finder {
	return &Finder{Spec: spec, Clock: time.Now, lb: lb}
}

// Searching reports a search in progress.
func (f *Finder) Searching() bool { return f.x != nil }

// Progress is how many schedules the search tried, of how many.
func (f *Finder) Progress() (tried int, total float64) {
	if f.x == nil {
		return 0, 0
	}
	return f.x.Progress()
}

// Start builds the search for the world as the learner has it now: the
// lesson's knobs, and its protection as it stands at the play head.
func (f *Finder) Start() []string {
	lb := f.lb
	// Actions due at the play head (a switch at 0 in a link just opened)
	// may not have fired yet: read the protection from a copy that ran
	// them, leaving the lab as it is.
	now := lb.Sim().Clone()
	now.RunUntil(now.Now())
	on := ProtectionOn(now, f.Spec.Protects)
	f.knobs = lb.Knobs()
	f.problem = f.problemFor(core.ActionLog{core.At(0, core.Action{Do: f.Spec.Protects, On: on})})
	x, err := explore.New(f.problem, f.Clock)
	if err != nil {
		f.Status = "Cannot search: " + err.Error()
		return []string{f.Status}
	}
	f.x = x
	f.Status = ""
	return []string{fmt.Sprintf("Searching for the simplest run that breaks %q with %s %s: %.0f schedules",
		f.Spec.Invariant.Name, f.Spec.Switch(), OnOff(on), f.Spec.Bounds.Count())}
}

// ProtectionOn reports whether the switch protects is on in s.
func ProtectionOn(s *core.Sim, protects core.Verb) bool {
	switch {
	case protects == core.VerbIdempotency && s.Queue != nil:
		return s.Queue.Idempotency
	case s.Register != nil:
		return s.Register.Fencing
	case s.Offsets != nil:
		return s.Offsets.Fencing
	}
	return true
}

// OnOff is "on" or "off".
func OnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Slice runs schedules for at most budget of wall time and, when the
// search ends, reports its verdict.
func (f *Finder) Slice(budget time.Duration) []string {
	deadline := f.Clock().Add(budget)
	for f.x != nil && f.Clock().Before(deadline) {
		if f.x.Step(20) {
			return f.finish()
		}
	}
	return nil
}

// Stop cancels the search and reports how far it got.
func (f *Finder) Stop() []string {
	if f.x == nil {
		return nil
	}
	f.x.Cancel()
	return f.finish()
}

// Cancel ends a search without a word (the learner left the lesson).
func (f *Finder) Cancel() {
	if f.x != nil {
		f.x.Cancel()
		f.x = nil
	}
}

// finish takes the verdict; a counterexample becomes the lab's run.
func (f *Finder) finish() []string {
	r := f.x.Result()
	err := f.x.Err()
	f.x = nil
	switch {
	case err != nil:
		f.Status = "The search failed: " + err.Error()
	case r.Found:
		if err := f.lb.check(f.knobs, r.Log); err != nil {
			f.Status = "Found a break but could not load it: " + err.Error()
			break
		}
		c := ShowFoundRun(f.knobs, r.Log)
		f.found = &c
		what := cmp.Or(f.Spec.Given, "the lesson's own script")
		if len(r.Faults) > 0 {
			fs := make([]string, len(r.Faults))
			for i, fl := range r.Faults {
				fs[i] = fl.String()
			}
			what = strings.Join(fs, ", then ")
		}
		f.Status = "Break: " + what
		lines := []string{fmt.Sprintf("Found the simplest break after %d schedules: %s. At %s: %s. Loaded as a run of its own (Back to my run returns to yours): press Play to watch it.",
			r.Tried, what, core.FormatTime(r.Violation.At), Narrate(&r.Violation))}
		if line := f.withProtection(r.Faults); line != "" {
			lines = append(lines, line)
		}
		return append(lines, "Compare "+f.Spec.Switch()+" on/off replays this schedule both ways, side by side.")
	case !r.Complete:
		f.Status = fmt.Sprintf("Cancelled after %d of %.0f schedules", r.Tried, r.Total)
	default:
		f.Status = fmt.Sprintf("No break in %d schedules", r.Tried)
		return []string{"No break within bounds. " + r.Summary()}
	}
	return []string{f.Status}
}

// problemFor is the search problem on the lesson's world as the learner
// set its knobs (f.knobs), with base (the protection switch) at time zero.
func (f *Finder) problemFor(base core.ActionLog) explore.Problem {
	l, seed, knobs := f.lb.Lesson, f.lb.Seed, f.knobs
	return explore.Problem{
		Build: func() (*core.Sim, error) {
			w, err := l.StartWith(seed, knobs, base)
			if err != nil {
				return nil, err
			}
			return w.Sim, nil
		},
		Base: base, Invariant: f.Spec.Invariant, Bounds: f.Spec.Bounds,
	}
}

// withProtection replays the counterexample with the protection switched
// on (when the search ran with it off) and says what changed: the same
// schedule, side by side with its fix.
func (f *Finder) withProtection(faults []explore.Fault) string {
	on := f.problem.Base[0]
	if on.On {
		return ""
	}
	on.On = true
	s, bad, err := f.problemFor(core.ActionLog{on}).Replay(faults)
	if err != nil || bad != nil {
		return ""
	}
	return fmt.Sprintf("The same schedule with %s on keeps %q: %s.", f.Spec.Switch(), f.Spec.Invariant.Name, explore.Refusals(s.Trace))
}

// StatusShort is Status in fewer words, longest first, for a caption too
// narrow for it: a found break is told whole in the lesson text.
func (f *Finder) StatusShort() []string {
	if strings.HasPrefix(f.Status, "Break: ") {
		return []string{"Found a break: see the text", "Found a break"}
	}
	return nil
}
