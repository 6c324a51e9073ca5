package lessons

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"leaselab/core"
)

// An exercise's answer: starting and finishing its check, validating it
// (its form, its actors, its size) and reading it from a file.

// Start validates a and begins checking it.
func (e *Exercise) Start(a Answer) (Job, error) {
	if err := e.Validate(a); err != nil {
		return nil, err
	}
	return e.start(a.Clone()), nil
}

// Check validates and checks a to the end.
func (e *Exercise) Check(a Answer) (Result, error) {
	j, err := e.Start(a)
	if err != nil {
		return Result{}, err
	}
	for !j.Step(1 << 20) {
	}
	return j.Result(), nil
}

// Complete reports whether a answers every part of the exercise: every
// question, every number, and the run if it has a simulator. Only a checked
// complete answer unlocks the model answer, so an empty Check gives
// nothing away. A form shows each number at its default from the start and
// counts it as given; numbers all left at their defaults are therefore no
// attempt at them, and the answer is not complete.
func (e *Exercise) Complete(a Answer) bool {
	for _, q := range e.Questions {
		if len(a.Choices[q.ID]) == 0 {
			return false
		}
	}
	moved := len(e.Numbers) == 0
	for _, k := range e.Numbers {
		if k.Unset != "" {
			continue // a prediction: optional, and never the attempt itself
		}
		v, ok := a.Numbers[k.ID]
		if !ok {
			return false
		}
		moved = moved || v != k.Default
	}
	return moved && (e.Lab == nil || len(a.Schedule) > 0) && (e.Queries == nil || len(a.Checks) > 0) && (e.ChainRun == nil || len(a.Chain) > 0)
}

// RealAttempt reports whether a checked answer a counts as a real attempt,
// the condition for showing the model answer and the last rung of the hint
// ladder (in the page, on the desktop and in labctl): it answers every part
// (see Complete) and it is not the format example labctl's help prints,
// whose defence aside, handed in as it stands.
func (e *Exercise) RealAttempt(a Answer) bool {
	return e.Complete(a) && !e.IsFormatExample(a)
}

// IsFormatExample reports whether a gives the choices, numbers and run of
// the format example (the defence and the ticked key points aside).
func (e *Exercise) IsFormatExample(a Answer) bool {
	x := e.FormatExample()
	sameChoices := len(a.Choices) == len(x.Choices)
	for q, c := range x.Choices {
		got := slices.Clone(a.Choices[q])
		slices.Sort(got)
		want := slices.Clone(c)
		slices.Sort(want)
		sameChoices = sameChoices && slices.Equal(got, want)
	}
	sameNumbers := len(a.Numbers) == len(x.Numbers)
	for k, v := range x.Numbers {
		got, ok := a.Numbers[k]
		sameNumbers = sameNumbers && ok && got == v
	}
	return sameChoices && sameNumbers && slices.Equal(a.Schedule, x.Schedule) && slices.Equal(a.Checks, x.Checks) && slices.Equal(a.Chain, x.Chain)
}

// Question returns the question with the given id, or nil.
func (e *Exercise) Question(id string) *Question {
	for i := range e.Questions {
		if e.Questions[i].ID == id {
			return &e.Questions[i]
		}
	}
	return nil
}

// Validate rejects answers that name unknown questions, options or fields,
// pick several options of a single-choice question, or give numbers out of
// range. A missing answer is not invalid: the checker marks it wrong.
func (e *Exercise) Validate(a Answer) error {
	qids := make([]string, 0, len(a.Choices))
	for id := range a.Choices {
		qids = append(qids, id)
	}
	sort.Strings(qids)
	for _, id := range qids {
		q := e.Question(id)
		if q == nil {
			return fmt.Errorf("exercise %s has no question %q", e.ID, id)
		}
		picked := a.Choices[id]
		if !q.Multi && len(picked) > 1 {
			return fmt.Errorf("question %q takes one choice, got %d", id, len(picked))
		}
		for i, o := range picked {
			if slices.Index(picked, o) != i {
				return fmt.Errorf("choices.%s: option %q is picked twice", id, o)
			}
			if !slices.ContainsFunc(q.Options, func(x Option) bool { return x.ID == o }) {
				return fmt.Errorf("question %q has no option %q", id, o)
			}
		}
	}
	if err := checkKnobs("exercise "+e.ID, "number", e.Numbers, Knobs(a.Numbers)); err != nil {
		return err
	}
	if len(a.Schedule) > 0 && e.Lab == nil {
		return fmt.Errorf("exercise %s takes no schedule", e.ID)
	}
	if len(a.Chain) > 0 && e.ChainRun == nil {
		return fmt.Errorf("exercise %s takes no chain", e.ID)
	}
	if len(a.Chain) > maxChain {
		return fmt.Errorf("chain: %d events is more than the %d a chain may have", len(a.Chain), maxChain)
	}
	if len(a.Schedule) > core.MaxActions {
		return fmt.Errorf("schedule: %d actions is more than the %d a run may have", len(a.Schedule), core.MaxActions)
	}
	if err := e.validateChecks(a.Checks); err != nil {
		return err
	}
	if len(a.Defence) > maxDefence {
		return fmt.Errorf("defence: %d bytes, more than the %d allowed", len(a.Defence), maxDefence)
	}
	if !utf8.ValidString(a.Defence) {
		return fmt.Errorf("defence: not text")
	}
	for i, p := range a.Points {
		if p < 0 || p >= len(e.KeyPoints) {
			return fmt.Errorf("points[%d]: exercise %s has %d key points, no point %d", i, e.ID, len(e.KeyPoints), p)
		}
		if slices.Contains(a.Points[:i], p) {
			return fmt.Errorf("points[%d]: point %d is ticked twice", i, p)
		}
	}
	for i, t := range a.Schedule {
		if err := t.Validate(); err != nil {
			return fmt.Errorf("schedule[%d]: %v", i, err)
		}
		if t.At < 0 || (e.Lab != nil && t.At.D() > e.Lab.Duration) {
			return fmt.Errorf("schedule[%d].at: an action at %s is outside the run (0 to %s)", i, core.FormatTime(t.At.D()), core.FormatTime(e.Lab.Duration))
		}
		if err := e.checkActors(i, t); err != nil {
			return err
		}
	}
	return nil
}

// MaxAnswerSize is the most bytes of JSON ParseAnswer reads: a schedule
// as long as an action log may be, and the choices and numbers beside it.
const MaxAnswerSize = core.MaxActionLogSize + 64<<10

// maxDefence bounds the written defence (a few paragraphs).
const maxDefence = 4000

// checkActors refuses a schedule entry that names an actor the exercise's
// simulator does not have: pausing "C" or the coordinator would otherwise
// run as a no-op and be judged as if it meant something. A resource (the
// storage) is an actor of the run too: the network may hold or cut what
// goes to and from it, though it cannot be paused or crashed here.
func (e *Exercise) checkActors(i int, t core.Timed) error {
	names, resources := e.labActors()
	network := t.Do == core.VerbDelay || t.Do == core.VerbPartition || t.Do == core.VerbHeal
	switch {
	case t.Proc == "" || slices.Contains(names, t.Proc):
	case slices.Contains(resources, t.Proc) && network:
	case slices.Contains(resources, t.Proc):
		return fmt.Errorf("schedule[%d].proc: %q is a resource of this exercise: the network can hold or cut its messages (delay, partition, heal), but it cannot %s", i, t.Proc, t.Do)
	case network && len(resources) > 0:
		return fmt.Errorf("schedule[%d].proc: %q is not an actor of this exercise (want one of %s)", i, t.Proc, strings.Join(append(slices.Clone(names), resources...), ", "))
	default:
		return fmt.Errorf("schedule[%d].proc: %q is not a process of this exercise (want one of %s)", i, t.Proc, strings.Join(names, ", "))
	}
	if t.Peer != "" && t.Peer != core.CoordinatorName && !slices.Contains(names, t.Peer) && !slices.Contains(resources, t.Peer) {
		return fmt.Errorf("schedule[%d].peer: %q is not an actor of this exercise (want one of %s)", i, t.Peer, strings.Join(append(append(slices.Clone(names), resources...), core.CoordinatorName), ", "))
	}
	return nil
}

// labProcesses names the processes of the exercise's simulator.
func (e *Exercise) labProcesses() []string {
	names, _ := e.labActors()
	return names
}

// labActors names the processes and the resources of the exercise's
// simulator.
func (e *Exercise) labActors() (procs, resources []string) {
	e.procsOnce.Do(func() {
		w, err := e.Lab.World(1, e.Lab.Defaults(nil))
		if err != nil {
			return
		}
		for _, p := range w.Processes {
			e.procs = append(e.procs, p.Name)
		}
		for _, r := range w.Resources {
			e.resources = append(e.resources, r.Name)
		}
	})
	return e.procs, e.resources
}

// ParseAnswer decodes a JSON answer strictly (unknown fields are errors)
// and validates it against the exercise.
func (e *Exercise) ParseAnswer(data []byte) (Answer, error) {
	if len(data) > MaxAnswerSize {
		return Answer{}, fmt.Errorf("answer is %d bytes, more than the %d an answer may have", len(data), MaxAnswerSize)
	}
	data, err := core.CleanJSON(data)
	if err != nil {
		return Answer{}, fmt.Errorf("answer for exercise %s: %v (see labctl exercise %s --help)", e.ID, err, e.ID)
	}
	var a Answer
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := strictShape(data); err != nil {
		return Answer{}, fmt.Errorf("answer for exercise %s: %v (see labctl exercise %s --help)", e.ID, err, e.ID)
	}
	if err := dec.Decode(&a); err != nil {
		return Answer{}, fmt.Errorf("answer is not valid JSON for exercise %s: %v (see labctl exercise %s --help)", e.ID, err, e.ID)
	}
	if dec.More() {
		return Answer{}, fmt.Errorf("answer has trailing data after the JSON object")
	}
	if err := e.Validate(a); err != nil {
		return Answer{}, err
	}
	return a, nil
}

// Number returns number field id of a, or its default when unanswered.
func (e *Exercise) Number(a Answer, id string) float64 {
	if v, ok := a.Numbers[id]; ok {
		return v
	}
	for _, k := range e.Numbers {
		if k.ID == id {
			return k.Default
		}
	}
	return 0
}

// seconds returns number field id of a as a duration, and whether the
// learner set it (an unset number is never defaulted when judged).
func (a Answer) seconds(id string) (time.Duration, bool) {
	v, ok := a.Numbers[id]
	return time.Duration(v * float64(time.Second)), ok
}

// choice returns the single option chosen for q ("" if none).
func (a Answer) choice(q string) string {
	if c := a.Choices[q]; len(c) > 0 {
		return c[0]
	}
	return ""
}
