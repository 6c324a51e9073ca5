// Package progress is the learner's saved progress: which lessons are done,
// which goals were met, how far down each hint ladder the learner went, the
// last action log and slider values of each lesson, and each exercise's
// verdict. It is a small versioned JSON document kept in a [Store] (a file on
// the desktop, localStorage in the browser), with no display code, so it is
// tested under plain `go test`.
//
// Reading saved progress never fails in a way the learner must fix: [Open]
// always returns usable progress, and when the saved data cannot be read it
// keeps a copy of it (see [Store.Backup]) and returns a notice to show.
//
// The game uses it like this:
//
//	p, notice := progress.Open(opts.Store) // at start; show notice if not ""
//	l := p.Lesson("fenced-writes")          // zero Lesson if never played
//	l.GoalsMet = append(l.GoalsMet, "stale-write-rejected")
//	p.SetLesson("fenced-writes", l)
//	if err := progress.Save(opts.Store, p); err != nil { show(err) }
//
// Save after something the learner would hate to lose (a goal met, a lesson
// completed, a hint revealed, an exercise answered, a slider released, and
// every few seconds while the action log grows), not every frame.
//
// It lives in the module boot.leaselab (cmd/leaselab/boot), not under game/,
// because the desktop program exports and imports progress files before
// Ebitengine starts (leaselab --export-progress works without a display):
// only a package whose import path sorts before Ebitengine's is initialised
// first (see package boot). For the same reason it imports the standard
// library only.
package progress

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"
)

// Version is the document version this code reads and writes. Change it
// whenever a field is removed or changes meaning: a document of another
// version is set aside (kept by [Store.Backup]) rather than misread. A new
// optional field (omitted when empty) keeps the version, because every older
// document is still read exactly as before: Exercise.Answer and the Updated
// stamps came that way. For the same reason a field this code does not know
// (written by a newer LeaseLab) is kept, in Extra, and written back.
const Version = 1

// Limits on what [Decode] accepts. Real progress is a few kilobytes; these
// leave room for long action logs while keeping hostile input cheap to
// refuse (localStorage holds about 5 million characters per origin).
const (
	MaxSize     = 2 << 20 // bytes of JSON
	MaxDepth    = 64      // nesting of arrays and objects, action logs included
	MaxEntries  = 1000    // lessons, exercises, goals per lesson, knobs per lesson
	MaxIDLength = 200     // bytes in a lesson, exercise, goal or knob id
	MaxHints    = 1000    // hints seen in one lesson
)

// Progress is the whole saved document.
type Progress struct {
	Version   int                 `json:"version"`
	Lessons   map[string]Lesson   `json:"lessons"`   // by lesson id
	Exercises map[string]Exercise `json:"exercises"` // by exercise id
	// Extra holds fields a newer LeaseLab wrote, kept as they were.
	Extra map[string]json.RawMessage `json:"-"`
}

// Lesson is the learner's progress in one lesson.
type Lesson struct {
	Completed bool     `json:"completed,omitempty"`
	GoalsMet  []string `json:"goalsMet,omitempty"` // goal ids, in the order they were met
	// HintsSeen is how many rungs of the lesson's hint ladder the learner
	// has revealed (hints are ordered from a nudge to the answer).
	HintsSeen int `json:"hintsSeen,omitempty"`
	// Log is the learner's last action log, as the lesson player encoded
	// it; this package only stores it. Nil when there is none.
	Log json.RawMessage `json:"log,omitempty"`
	// Knobs are the slider values the learner last set, by knob id.
	Knobs map[string]float64 `json:"knobs,omitempty"`
	// Updated is when this lesson's progress last changed through
	// SetLesson or MeetGoal (Unix milliseconds; 0: before stamps): [Merge]
	// keeps the later of two runs.
	Updated int64                      `json:"updated,omitempty"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// Exercise is the learner's progress in one exercise.
type Exercise struct {
	// Passed is a pass earned before the model answer was shown;
	// PassedWithAnswer a pass after it was (an instructor weighs the two
	// differently, so they are kept apart).
	Passed           bool `json:"passed,omitempty"`
	PassedWithAnswer bool `json:"passedWithAnswer,omitempty"`
	Attempts         int  `json:"attempts,omitempty"`
	// Complete reports a real attempt checked (every part answered, and
	// not the format example; lessons.Exercise.RealAttempt): the condition
	// for offering the model answer and the last hint, on the desktop, in
	// the page and in labctl.
	Complete bool `json:"complete,omitempty"`
	// Revealed reports that the learner asked for the model answer (or
	// loaded it); HintsSeen counts the hint rungs revealed.
	Revealed  bool `json:"revealed,omitempty"`
	HintsSeen int  `json:"hintsSeen,omitempty"`
	// Result is the last checked verdict, as the exercise screen encoded
	// it, so it is shown again after a reload. Nil when there is none.
	Result json.RawMessage `json:"result,omitempty"`
	// Answer is the learner's last answer, as the exercise screen encoded
	// it (a lessons.Answer); this package only stores it, and the screen
	// drops one that no longer fits the exercise. Nil when there is none.
	Answer json.RawMessage `json:"answer,omitempty"`
	// Updated is when the answer last changed (see Lesson.Updated).
	Updated int64                      `json:"updated,omitempty"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// now stamps changes (Unix milliseconds); tests replace it.
var now = func() int64 { return time.Now().UnixMilli() }

// restamp is the stamp of a change to an entry last stamped prev: now, or
// just after prev when the clock reads earlier (stepped back, or several
// changes in one millisecond). It cannot wrap: decoded stamps are bounded
// (see boundStamps), and at the largest stamp it stays there.
func restamp(prev int64) int64 {
	if prev == math.MaxInt64 {
		return prev
	}
	return max(now(), prev+1)
}

// stampSlack is how far ahead of the clock a stamp read may be and still
// stand: this machine's own stamps run ahead of it by one millisecond per
// change made within a millisecond, and another machine's clock may be a
// little ahead of this one's.
const stampSlack = 60_000 // one minute, in milliseconds

// boundStamps brings every Updated stamp in p more than stampSlack ahead
// of now back to now, and a negative one to 0, and reports whether it
// changed any. A stamp comes from a file the learner may have edited or
// imported: one far in the future (9223372036854775807) used to outrank
// every later change, so the learner's newer run or answer lost each
// merge, and the next stamp after it wrapped negative. Brought back to
// now, it is older than anything the learner does next.
func (p *Progress) boundStamps() bool {
	t, changed := now(), false
	bound := func(u *int64) {
		c := max(*u, 0)
		if t < math.MaxInt64-stampSlack && c > t+stampSlack {
			c = t
		}
		if c != *u {
			*u, changed = c, true
		}
	}
	for id, l := range p.Lessons {
		bound(&l.Updated)
		p.Lessons[id] = l
	}
	for id, e := range p.Exercises {
		bound(&e.Updated)
		p.Exercises[id] = e
	}
	return changed
}

// New returns empty progress of the current version.
func New() Progress {
	return Progress{Version: Version, Lessons: map[string]Lesson{}, Exercises: map[string]Exercise{}}
}

// Lesson returns the progress in lesson id (the zero Lesson if none).
func (p *Progress) Lesson(id string) Lesson { return p.Lessons[id] }

// SetLesson records the progress in lesson id.
func (p *Progress) SetLesson(id string, l Lesson) {
	if p.Lessons == nil {
		p.Lessons = map[string]Lesson{}
	}
	l.Updated = restamp(p.Lessons[id].Updated)
	p.Lessons[id] = l
}

// MeetGoal records that goal was met in lesson id, once, and reports
// whether it is new.
func (p *Progress) MeetGoal(lesson, goal string) bool {
	l := p.Lesson(lesson)
	if slices.Contains(l.GoalsMet, goal) {
		return false
	}
	l.GoalsMet = append(l.GoalsMet, goal)
	p.SetLesson(lesson, l)
	return true
}

// Exercise returns the progress in exercise id (the zero Exercise if none).
func (p *Progress) Exercise(id string) Exercise { return p.Exercises[id] }

// RecordAttempt counts one checked answer to exercise id: complete says
// every part was answered, passed that it passed. A pass after the model
// answer was revealed is recorded as PassedWithAnswer, never as Passed. An
// exercise once passed stays passed.
func (p *Progress) RecordAttempt(id string, complete, passed bool) {
	if p.Exercises == nil {
		p.Exercises = map[string]Exercise{}
	}
	e := p.Exercises[id]
	if e.Attempts < math.MaxInt32 {
		e.Attempts++
	}
	e.Complete = e.Complete || complete
	switch {
	case passed && e.Revealed:
		e.PassedWithAnswer = true
	case passed:
		e.Passed = true
	}
	e.Updated = restamp(e.Updated)
	p.Exercises[id] = e
}

// Reveal records that the model answer of exercise id was shown.
func (p *Progress) Reveal(id string) {
	if p.Exercises == nil {
		p.Exercises = map[string]Exercise{}
	}
	e := p.Exercises[id]
	e.Revealed = true
	p.Exercises[id] = e
}

// SeeHints records that n hint rungs of exercise id are revealed.
func (p *Progress) SeeHints(id string, n int) {
	if p.Exercises == nil {
		p.Exercises = map[string]Exercise{}
	}
	e := p.Exercises[id]
	e.HintsSeen = max(e.HintsSeen, min(n, MaxHints))
	p.Exercises[id] = e
}

// SetResult keeps the last checked verdict of exercise id (JSON).
func (p *Progress) SetResult(id string, result json.RawMessage) {
	if p.Exercises == nil {
		p.Exercises = map[string]Exercise{}
	}
	e := p.Exercises[id]
	e.Result = result
	e.Updated = restamp(e.Updated) // merges keep the later answer and its verdict together
	p.Exercises[id] = e
}

// Status is the exercise's one-line standing for the menu.
func (e Exercise) Status() string {
	switch {
	case e.Passed:
		return "passed"
	case e.PassedWithAnswer:
		return "passed with the answer shown"
	case e.Attempts == 1:
		return "tried once"
	case e.Attempts > 1:
		return fmt.Sprintf("tried %d times", e.Attempts)
	}
	return "not tried"
}

// SetAnswer keeps answer (JSON; nil for none) as exercise id's last answer,
// without counting an attempt.
func (p *Progress) SetAnswer(id string, answer json.RawMessage) {
	if p.Exercises == nil {
		p.Exercises = map[string]Exercise{}
	}
	e := p.Exercises[id]
	e.Answer = answer
	e.Updated = restamp(e.Updated)
	p.Exercises[id] = e
}
