package page

import "leaselab/lessons"

// RunInfo is the state of a lesson run the browser bridge exposes to tests
// and the page.
type RunInfo struct {
	Lesson   string      `json:"lesson"`
	Now      float64     `json:"now"`
	Playing  bool        `json:"playing"`
	Holder   string      `json:"holder"`
	Token    int64       `json:"token"`
	Procs    []ProcInfo  `json:"procs"`
	Writes   []WriteInfo `json:"writes"`
	Complete bool        `json:"complete"`
	// Showing is the run on show ("your run", "the solution", "the break
	// found"); KeptMine is set while the learner's is kept aside.
	Showing  string `json:"showing"`
	KeptMine bool   `json:"keptMine"`
	// Resumed says why the run opened where it did ("" at its start).
	Resumed string `json:"resumed,omitempty"`
}

// ProcInfo is one process in RunInfo.
type ProcInfo struct {
	Name    string `json:"name"`
	State   string `json:"state"`
	Token   int64  `json:"token"`
	Paused  bool   `json:"paused"`
	Crashed bool   `json:"crashed"`
}

// WriteInfo is one store decision in RunInfo.
type WriteInfo struct {
	At       float64 `json:"t"`
	From     string  `json:"from"`
	Token    int64   `json:"token"`
	Accepted bool    `json:"accepted"`
}

// CompareInfo is the side-by-side mode as the bridge reports it.
type CompareInfo struct {
	Protects string  `json:"protects"`
	Off      string  `json:"off"` // the verdict of the run with it off
	On       string  `json:"on"`
	OffBroke bool    `json:"offBroke"`
	OnBroke  bool    `json:"onBroke"`
	Now      float64 `json:"now"`
}

// SystemsInfo is the compare-systems view as the bridge reports it.
type SystemsInfo struct {
	Systems []string `json:"systems"`
	Lines   []string `json:"lines"` // what each system did, in pane order
	Shown   []string `json:"shown"` // the systems whose worlds are drawn
	Refused []string `json:"refused,omitempty"`
	Now     float64  `json:"now"`
}

// ExerciseInfo is the exercise screen's state for the browser bridge.
type ExerciseInfo struct {
	ID       string `json:"id"`
	Attempts int    `json:"attempts"`
	Passed   bool   `json:"passed"`
	// Status is the standing the menu shows ("passed with the answer
	// shown"); HintsSeen the rungs revealed; ModelAvailable whether the
	// model answer may be asked for, ModelArmed whether it awaits the
	// confirming click.
	Status         string         `json:"status"`
	HintsSeen      int            `json:"hintsSeen"`
	ModelAvailable bool           `json:"modelAvailable"`
	ModelArmed     bool           `json:"modelArmed"`
	Answer         lessons.Answer `json:"answer"`
	Actions        int            `json:"actions"` // in the answer's run
	Checking       bool           `json:"checking"`
	Progress       float64        `json:"progress"` // of the running check
	Tab            string         `json:"tab"`
	ModelShown     bool           `json:"modelShown"`
	Simulator      bool           `json:"simulator"` // the simulator is showing
	Notice         string         `json:"notice,omitempty"`
	Result         *ResultInfo    `json:"result,omitempty"`
	// Shareable: an answer graded here can be shared; Shared is its link
	// once shared, SharedWhere where it went.
	Shareable   bool   `json:"shareable,omitempty"`
	Shared      string `json:"shared,omitempty"`
	SharedWhere string `json:"sharedWhere,omitempty"`
}

// ResultInfo is a checked answer in ExerciseInfo.
type ResultInfo struct {
	Pass    bool       `json:"pass"`
	Summary string     `json:"summary"`
	Parts   []PartInfo `json:"parts"`
	Figures []string   `json:"figures,omitempty"`
}

// PartInfo is one part of a verdict.
type PartInfo struct {
	Part string `json:"part"`
	OK   bool   `json:"ok"`
	Why  string `json:"why"`
}

// SharedInfo is the shared-answer screen's state for the browser bridge
// and tests.
type SharedInfo struct {
	Exercise string  `json:"exercise,omitempty"`
	Problem  string  `json:"problem,omitempty"`
	Grading  bool    `json:"grading,omitempty"`
	Progress float64 `json:"progress,omitempty"`
	// Done: graded; Pass the verdict now, Claimed the share's, Agrees
	// whether they are one; Help the record of help taken.
	Done    bool   `json:"done,omitempty"`
	Pass    bool   `json:"pass,omitempty"`
	Claimed bool   `json:"claimed,omitempty"`
	Agrees  bool   `json:"agrees,omitempty"`
	Help    string `json:"help,omitempty"`
	Verdict string `json:"verdict"`
}
