package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"leaselab/core"
)

// Exercise is one of the curriculum's five assessment exercises: a problem,
// an answer form (choices, numbers and, for some, a run the learner builds in
// the simulator) and a checker that explains its verdict part by part.
type Exercise struct {
	ID    string
	Title string
	// Summary is the one-line task the menu shows under the title; Minutes
	// is about how long a first attempt takes.
	Summary string
	Minutes int
	// Brief states the problem in a few paragraphs.
	Brief []string
	// Lab, if set, is the simulator the learner works in. Its goals are
	// checkpoints shown live; the run's action log is Answer.Schedule.
	Lab *Lesson
	// Numbers are numeric answer fields (a TTL, a renewal interval).
	Numbers []Knob
	// Materials are things to read (generated logs), each shown with the
	// questions that refer to it.
	Materials []Material
	Questions []Question
	// Reference is the model answer; Worked explains it, shown after a
	// first attempt.
	Reference Answer
	Worked    []string
	// Format documents the JSON answer for labctl.
	Format string

	// ChainRun, if set, is the run the learner's chain (Answer.Chain) is
	// built from and judged in: the one their schedule produces. ChainText
	// asks for the chain.
	ChainRun  func(log core.ActionLog) (*World, error)
	ChainText string

	// Hints are the exercise's ladder, from a nudge to the key step; none
	// gives the verdict away.
	Hints []string
	// KeyPoints are what a good written defence says, shown with the
	// model answer as a checklist the learner compares their defence with.
	KeyPoints []string

	// Queries: the answer's checks are queries over the materials' logs
	// (exercise 5), in the language QuerySyntax documents.
	Queries *QueryLang

	// start begins checking an answer that passed validation.
	start func(a Answer) Job

	procsOnce        sync.Once
	procs, resources []string
}

// Material is a text the learner reads to answer (a log excerpt).
type Material struct {
	ID, Title string
	// lines makes the text when it is first read: exercise 5's logs come
	// from simulations, which need not run at every program start.
	lines func() []string
}

// Lines returns the material's text, one log line each.
func (m Material) Lines() []string { return m.lines() }

// Question is a single- or multiple-choice question.
type Question struct {
	ID   string
	Text string
	// Material names the Material the question is about ("" for none).
	Material string
	Multi    bool
	Options  []Option
}

// Option is one choice of a question.
type Option struct{ ID, Label string }

// Answer is a learner's answer to an exercise. Choices maps a question id
// to the chosen option ids; Numbers maps a number field id to its value;
// Schedule is the run built in the exercise's simulator.
type Answer struct {
	Choices  map[string][]string `json:"choices,omitempty"`
	Numbers  map[string]float64  `json:"numbers,omitempty"`
	Schedule core.ActionLog      `json:"schedule,omitempty"`
	// Defence is the learner's written reasoning, kept with the answer
	// and shown beside the model answer; it is not graded.
	Defence string `json:"defence,omitempty"`
	// Checks are queries over the exercise's logs (see QuerySyntax), for
	// an exercise that takes them.
	Checks []string `json:"checks,omitempty"`
	// Chain is the learner's explanation built from their own run: the
	// event numbers (the trace's seq) of the events that lead from the
	// cause to the failure, in the order they happened. The run is the one
	// Schedule produces (see Exercise.ChainRun).
	Chain []int `json:"chain,omitempty"`
	// Points are the key points (indices into the exercise's KeyPoints)
	// the learner ticked as made by their defence, once the model answer
	// is shown; not graded either.
	Points []int `json:"points,omitempty"`
}

// Clone returns a deep copy of a.
func (a Answer) Clone() Answer {
	out := Answer{Schedule: append(core.ActionLog(nil), a.Schedule...), Defence: a.Defence, Points: slices.Clone(a.Points), Checks: slices.Clone(a.Checks), Chain: slices.Clone(a.Chain)}
	if a.Choices != nil {
		out.Choices = map[string][]string{}
		for k, v := range a.Choices {
			out.Choices[k] = append([]string(nil), v...)
		}
	}
	if a.Numbers != nil {
		out.Numbers = map[string]float64{}
		for k, v := range a.Numbers {
			out.Numbers[k] = v
		}
	}
	return out
}

// Chose reports whether option opt of question q is chosen.
func (a Answer) Chose(q, opt string) bool { return slices.Contains(a.Choices[q], opt) }

// Exercises returns the five exercises in curriculum order.
func Exercises() []*Exercise { return exercises }

// FindExercise returns the exercise with the given id, or with the given
// number in curriculum order (1 to 5, as labctl exercises numbers them).
func FindExercise(id string) (*Exercise, error) {
	for i, e := range exercises {
		if e.ID == id || id == strconv.Itoa(i+1) {
			return e, nil
		}
	}
	return nil, fmt.Errorf("unknown exercise %q (labctl exercises lists them)", id)
}

var exercises = []*Exercise{exRenewal, exShards, exNoFencing, exCompaction, exLogs}
