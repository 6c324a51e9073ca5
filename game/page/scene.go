package page

import (
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/place"
	"leaselab/game/ui"
)

// SceneInfo is what a scene reports about itself.
type SceneInfo struct {
	Name string `json:"name"`
	// Page says the scene has no world: in the browser it is shown as the
	// panel alone, and the canvas steps aside (otherwise beside it).
	Page bool `json:"page,omitempty"`
	// ControlsHeading heads the page's controls ("" is "Actions").
	ControlsHeading string             `json:"controlsHeading,omitempty"`
	Regions         map[string]ui.Rect `json:"regions,omitempty"`
	Focus           string             `json:"focus,omitempty"` // the focused widget's name
	Mirror          Mirror             `json:"mirror"`
	// Run is the lesson run's state, for lesson scenes.
	Run *RunInfo `json:"run,omitempty"`
	// Compare is the side-by-side replay with the protection off and on,
	// while it is open.
	Compare *CompareInfo `json:"compare,omitempty"`
	// Systems is the compare-systems view, while it is open.
	Systems *SystemsInfo `json:"systems,omitempty"`
	// Exercise is the exercise's state, for the exercise screen and the
	// simulator it opens.
	Exercise *ExerciseInfo `json:"exercise,omitempty"`
	// Shared is a shared answer graded again, on its screen.
	Shared *SharedInfo `json:"shared,omitempty"`
	// Place is where the learner is (the App sets it): the page names the
	// screen in its address and title, and notices a new one by it.
	Place place.Place `json:"place"`
	// World is the world at the play head in words, for screens with a
	// run.
	World *lab.Summary `json:"world,omitempty"`
}

// Mirror is the scene's text, duplicated as HTML beside the canvas in the
// browser, because a canvas is invisible to screen readers.
type Mirror struct {
	Title     string      `json:"title"`
	Objective string      `json:"objective,omitempty"` // the lesson's aim, kept in view
	Text      string      `json:"text"`
	Goals     []draw.Goal `json:"goals,omitempty"`
	// Checklist, when set, words the goals otherwise than a lesson's
	// ("Invariants": "Holds", "Broken").
	Checklist *ChecklistWords `json:"checklist,omitempty"`
	Hint      string          `json:"hint,omitempty"`
	Narration []string        `json:"narration,omitempty"` // newest last
	// NarrationKey marks, line by line, the key lines a listener must hear
	// however fast the run goes (see Narration.AddKey).
	NarrationKey []bool `json:"narrationKey,omitempty"`
	// NarrationSeq gives, line by line, the trace event each line tells
	// (-1: none): the page offers Why? on those lines (host action
	// "why:N").
	NarrationSeq []int `json:"narrationSeq,omitempty"`
	// Controls are every action the scene offers, for the page to show as
	// its own buttons (see Control), in the order the page lists them.
	Controls []ui.Control `json:"controls,omitempty"`
	// Buttons are the run's own buttons (Restart, Undo, Back to my run,
	// Next lesson) and whether each is offered now, for players with them.
	Buttons []RunButton `json:"buttons,omitempty"`
	// Step is what to do now: the first goal not met yet ("" once all
	// are, or without goals).
	Step string `json:"step,omitempty"`
	// Done is set once the lesson is complete: what the learner proved
	// and what comes next.
	Done *Done `json:"done,omitempty"`
}

// Done is a completed lesson's moment of success.
type Done struct {
	Heading string `json:"heading"` // "Lesson complete"
	Recap   string `json:"recap"`   // what the learner proved
	// Next is the next lesson's title ("" after the last); the run
	// button RunNext opens it.
	Next string `json:"next,omitempty"`
	// Predictions are the questions asked at the lesson's key moments,
	// each with the learner's prediction (or its skip) beside what
	// happened (lab.PredictionRecap).
	Predictions []string `json:"predictions,omitempty"`
	// Chain is the recap question asked with the learner's own run, when
	// the lesson has one (see lessons.RecapChain).
	Chain *RecapInfo `json:"chain,omitempty"`
}

// ChecklistWords are a checklist's heading and how it says an item is met
// or not.
type ChecklistWords struct {
	Title string `json:"title"`
	Met   string `json:"met"`
	Open  string `json:"open"`
}

// RunButton is one of the run's buttons as it stands now: what the canvas
// draws and the HTML page may offer (Mirror.Buttons).
type RunButton struct {
	Name    string `json:"name"`
	Label   string `json:"label"`
	Tip     string `json:"tip,omitempty"`
	Offered bool   `json:"offered"` // shown at all
	Enabled bool   `json:"enabled"` // shown and pressable
}

// RecapInfo is the recap question's state in Done.
type RecapInfo struct {
	Question string `json:"question"`
	Chain    []int  `json:"chain,omitempty"`
	Checked  bool   `json:"checked,omitempty"`
	OK       bool   `json:"ok,omitempty"`
	Verdict  string `json:"verdict,omitempty"`
}
