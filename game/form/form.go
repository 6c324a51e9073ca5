// Package form is an exercise's answer form without the drawing: the
// learner's choices, numbers and simulator run as they edit them, the
// check that runs across frames so a long one never freezes the screen,
// and the words the exercise screen says about them (text.go).
// The exercise screen in package game draws it; everything it decides is
// tested here under plain go test, with no display.
package form

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/lessons"
)

// Form is the answer a learner is building for one exercise. Every edit
// keeps the answer valid for the exercise, so Check never fails on it.
type Form struct {
	Ex      *lessons.Exercise
	answer  lessons.Answer
	version int // bumped by every change to answer

	// chainKey is the schedule chainEvents were listed for.
	chainKey    string
	chainEvents []lab.WhyStep
}

// Version changes whenever the answer may have: views cache what they
// derive from the form under it.
func (f *Form) Version() int { return f.version }

// New returns a fresh form for ex: nothing chosen, no run, and each
// number field at its default, which counts as the learner's answer: a
// slider shows a value from the start, and a value the learner can see is
// graded as given, never as "Not answered".
func New(ex *lessons.Exercise) *Form {
	f := &Form{Ex: ex}
	f.answer = f.shown(f.answer)
	return f
}

// shown is a with every number field it lacks at the value its slider
// shows (the default).
func (f *Form) shown(a lessons.Answer) lessons.Answer {
	for _, k := range f.Ex.Numbers {
		if _, ok := a.Numbers[k.ID]; ok {
			continue
		}
		if a.Numbers == nil {
			a.Numbers = map[string]float64{}
		}
		a.Numbers[k.ID] = k.Default
	}
	return a
}

// Answer returns a copy of the answer so far.
func (f *Form) Answer() lessons.Answer { return f.answer.Clone() }

// Chosen reports whether option opt of question q is picked.
func (f *Form) Chosen(q, opt string) bool { return f.answer.Chose(q, opt) }

// Pick is a click on option opt of question q. For a single-choice
// question it selects opt and drops any other (a radio button: clicking the
// chosen one keeps it); for a multiple-choice one it adds or removes opt.
// It reports whether the answer changed.
func (f *Form) Pick(q, opt string) (bool, error) {
	qu := f.Ex.Question(q)
	if qu == nil {
		return false, fmt.Errorf("exercise %s has no question %q", f.Ex.ID, q)
	}
	if !slices.ContainsFunc(qu.Options, func(o lessons.Option) bool { return o.ID == opt }) {
		return false, fmt.Errorf("question %q has no option %q", q, opt)
	}
	if f.answer.Choices == nil {
		f.answer.Choices = map[string][]string{}
	}
	picked := f.answer.Choices[q]
	f.version++
	switch {
	case !qu.Multi:
		if len(picked) == 1 && picked[0] == opt {
			return false, nil
		}
		f.answer.Choices[q] = []string{opt}
	case slices.Contains(picked, opt):
		f.answer.Choices[q] = slices.DeleteFunc(slices.Clone(picked), func(o string) bool { return o == opt })
		if len(f.answer.Choices[q]) == 0 {
			delete(f.answer.Choices, q)
		}
	default:
		// Keep the options in the question's order, so an answer reads
		// (and saves) the same whatever order they were clicked in.
		var out []string
		for _, o := range qu.Options {
			if o.ID == opt || slices.Contains(picked, o.ID) {
				out = append(out, o.ID)
			}
		}
		f.answer.Choices[q] = out
	}
	return true, nil
}

// Answered counts the questions with at least one option picked.
func (f *Form) Answered() int {
	n := 0
	for _, q := range f.Ex.Questions {
		if len(f.answer.Choices[q.ID]) > 0 {
			n++
		}
	}
	return n
}

// IsSet reports whether the answer has a value for number field id (a
// fresh form has each at the default its slider shows).
func (f *Form) IsSet(id string) bool {
	_, ok := f.answer.Numbers[id]
	return ok
}

// Number is number field id's value: the learner's, or the default.
func (f *Form) Number(id string) float64 { return f.Ex.Number(f.answer, id) }

// SetNumber sets number field id; a value the field does not allow is
// refused and leaves the form as it was.
func (f *Form) SetNumber(id string, v float64) error {
	next := f.answer.Clone()
	if next.Numbers == nil {
		next.Numbers = map[string]float64{}
	}
	next.Numbers[id] = v
	if !slices.ContainsFunc(f.Ex.Numbers, func(k lessons.Knob) bool { return k.ID == id }) {
		return fmt.Errorf("exercise %s has no number %q", f.Ex.ID, id)
	}
	if err := f.Ex.Validate(next); err != nil {
		return err
	}
	f.version++
	f.answer = next
	return nil
}

// Defence is the learner's written defence so far.
func (f *Form) Defence() string { return f.answer.Defence }

// SetDefence keeps text as the written defence; one longer than an answer
// may hold is refused, and the defence stays as it was.
func (f *Form) SetDefence(text string) error {
	next := f.answer.Clone()
	next.Defence = text
	if err := f.Ex.Validate(next); err != nil {
		return err
	}
	if next.Defence != f.answer.Defence {
		f.version++
		f.answer = next
	}
	return nil
}

// Ticked reports whether key point i is ticked as made.
func (f *Form) Ticked(i int) bool { return slices.Contains(f.answer.Points, i) }

// TogglePoint ticks key point i, or unticks it.
func (f *Form) TogglePoint(i int) error {
	next := f.answer.Clone()
	if j := slices.Index(next.Points, i); j >= 0 {
		next.Points = slices.Delete(next.Points, j, j+1)
	} else {
		next.Points = append(next.Points, i)
		slices.Sort(next.Points)
	}
	if err := f.Ex.Validate(next); err != nil {
		return err
	}
	f.version++
	f.answer = next
	return nil
}

// Schedule is the simulator run carried into the answer.
func (f *Form) Schedule() core.ActionLog { return f.answer.Schedule }

// SetSchedule carries the simulator run's action log into the answer; a
// log the exercise would refuse is refused and leaves the form as it was.
func (f *Form) SetSchedule(log core.ActionLog) error {
	next := f.answer.Clone()
	next.Schedule = append(core.ActionLog(nil), log...)
	if len(next.Schedule) == 0 {
		next.Schedule = nil
	}
	if err := f.Ex.Validate(next); err != nil {
		return err
	}
	f.version++
	f.answer = next
	return nil
}

// Chain is the learner's chain of events so far: event numbers of their
// run, in the order they picked them.
func (f *Form) Chain() []int { return slices.Clone(f.answer.Chain) }

// InChain reports whether event seq is in the chain.
func (f *Form) InChain(seq int) bool { return slices.Contains(f.answer.Chain, seq) }

// AddToChain appends event seq to the chain; an event already in it, or a
// chain as long as an answer may hold, is refused.
func (f *Form) AddToChain(seq int) error {
	if f.InChain(seq) {
		return fmt.Errorf("event %d is already in your chain", seq)
	}
	return f.setChain(append(f.Chain(), seq))
}

// RemoveFromChain takes step i (from 0) out of the chain.
func (f *Form) RemoveFromChain(i int) error {
	c := f.Chain()
	if i < 0 || i >= len(c) {
		return fmt.Errorf("your chain has %d steps, no step %d", len(c), i+1)
	}
	return f.setChain(slices.Delete(c, i, i+1))
}

// ClearChain empties the chain.
func (f *Form) ClearChain() error { return f.setChain(nil) }

func (f *Form) setChain(c []int) error {
	next := f.answer.Clone()
	next.Chain = c
	if len(c) == 0 {
		next.Chain = nil
	}
	if err := f.Ex.Validate(next); err != nil {
		return err
	}
	f.version++
	f.answer = next
	return nil
}

// ChainEvents lists the events of the learner's run to pick the chain
// from (the run their schedule produces), or nil when the exercise takes
// no chain, there is no run yet, or it cannot be built.
func (f *Form) ChainEvents() []lab.WhyStep {
	if f.Ex.ChainRun == nil || len(f.answer.Schedule) == 0 {
		return nil
	}
	key := fmt.Sprint(f.answer.Schedule)
	if f.chainKey == key && f.chainEvents != nil {
		return f.chainEvents
	}
	w, err := f.Ex.ChainRun(f.answer.Schedule)
	if err != nil {
		return nil
	}
	f.chainKey, f.chainEvents = key, lab.ChainEvents(w.Sim.Trace)
	return f.chainEvents
}

// Load replaces the answer with a copy of a, if a is valid (the model
// answer, for screenshots and tests).
func (f *Form) Load(a lessons.Answer) error {
	if err := f.Ex.Validate(a); err != nil {
		return err
	}
	f.version++
	f.answer = f.shown(a.Clone())
	return nil
}

// Encode is the answer as JSON, for the learner's saved progress.
func (f *Form) Encode() (json.RawMessage, error) { return json.Marshal(f.answer) }

// Restore reads a saved answer. One that no longer fits the exercise (its
// questions or options changed) is refused with the reason, and the form
// stays as it was.
func (f *Form) Restore(saved []byte) error {
	a, err := f.Ex.ParseAnswer(saved)
	if err != nil {
		return err
	}
	f.version++
	f.answer = f.shown(a)
	return nil
}

// Check is a running check of one answer. Frame does as much of it as fits
// in a frame's time budget, so a check of a thousand simulated nights runs
// for a second or two while the screen keeps drawing its progress.
type Check struct {
	job lessons.Job
	now func() time.Time
	// Budget is how long one Frame may work; at least one step is done
	// per frame however small it is.
	Budget time.Duration

	done, cancelled bool
	result          lessons.Result
	frames, steps   int
}

// DefaultBudget leaves most of a 60 Hz frame (16.7 ms) for drawing.
const DefaultBudget = 7 * time.Millisecond

// Start validates the answer and begins checking it. now is the clock that
// bounds each frame's work (time.Now; tests pass a fake one).
func (f *Form) Start(now func() time.Time) (*Check, error) {
	job, err := f.Ex.Start(f.answer)
	if err != nil {
		return nil, err
	}
	return NewCheck(job, now), nil
}

// NewCheck runs job a frame's budget at a time (a shared answer graded
// again uses it as an answer's check does).
func NewCheck(job lessons.Job, now func() time.Time) *Check {
	return &Check{job: job, now: now, Budget: DefaultBudget}
}

// Frame works on the check for up to Budget and reports whether it is done.
func (c *Check) Frame() bool {
	if c.done || c.cancelled {
		return c.done
	}
	c.frames++
	deadline := c.now().Add(c.Budget)
	for {
		c.steps++
		if c.job.Step(1) {
			c.done, c.result = true, c.job.Result()
			return true
		}
		if !c.now().Before(deadline) {
			return false
		}
	}
}

// Progress is the fraction done, 0 to 1.
func (c *Check) Progress() float64 {
	if c.done {
		return 1
	}
	return min(1, max(0, c.job.Progress()))
}

// Done reports whether the result is ready.
func (c *Check) Done() bool { return c.done }

// Result is the verdict once Done.
func (c *Check) Result() lessons.Result { return c.result }

// Cancel stops the check; it does no more work and has no result.
func (c *Check) Cancel() { c.cancelled = true }

// Cancelled reports whether Cancel was called before the check finished.
func (c *Check) Cancelled() bool { return c.cancelled && !c.done }

// Frames and Steps count the frames the check has worked in and the steps
// it has taken, for tests and benchmarks.
func (c *Check) Frames() int { return c.frames }

// Steps is the number of job steps taken so far.
func (c *Check) Steps() int { return c.steps }
