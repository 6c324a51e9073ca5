package exercise

import (
	"leaselab/game/form"
	"leaselab/game/player"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// state is what every screen of an exercise shares: the
// exercise, the learner's answer, their standing (attempts, passes,
// hints seen, whether the model answer was shown), the last verdict and
// its share, the line that says why the last action failed, the
// narration, and the hooks that tell the app. The Scene and its
// answer form hold the same one; each screen keeps its own widgets.
type state struct {
	Ex   *lessons.Exercise
	Form *form.Form
	// Number is the exercise's place in the curriculum, from 1.
	Number int

	attempts int
	passed   bool
	// withAnswer: passed, but only after the model answer was shown.
	withAnswer bool
	// complete: a real attempt was checked (every part answered, not the
	// format example), which unlocks the model answer and the last hint.
	complete  bool
	hintsSeen int
	shown     bool // the model answer has been revealed

	result *lessons.Result
	// graded is the answer the last finished check judged (nil until a
	// check finishes here); shared is its share's link once the learner
	// shared it, sharedWhere where that went.
	graded              *lessons.Answer
	shared, sharedWhere string

	notice string // why the last action failed, until the next one
	// typedRefused: the value last typed in a number's box that was
	// refused, said beside that box.
	typedRefused typedRefusal
	narration    player.Narration

	hooks
}

// hooks are how an exercise tells the app what happened.
type hooks struct {
	// OnBack returns to the menu; OnResult is told every finished check;
	// OnSave is asked to keep the answer (after a check, on leaving the
	// simulator and on leaving the exercise).
	OnBack   func()
	OnResult func(r lessons.Result, complete bool)
	OnSave   func()
	// OnReveal is told the model answer was shown; OnHint that n rungs of
	// the hint ladder are.
	OnReveal func()
	OnHint   func(n int)
	// OnShare hands a shared answer to the platform (nil: the link is
	// shown to copy).
	OnShare Sharer
}

// newState opens exercise ex (number n) with an empty answer and
// the learner's standing so far.
func newState(ex *lessons.Exercise, n int, saved progress.Exercise) *state {
	return &state{Ex: ex, Form: form.New(ex), Number: n, attempts: saved.Attempts, passed: saved.Passed,
		withAnswer: saved.PassedWithAnswer, complete: saved.Complete, shown: saved.Revealed,
		hintsSeen: min(saved.HintsSeen, len(ex.Hints))}
}

// status is the exercise's standing, as the menu shows it.
func (s *state) status() string {
	return progress.Exercise{Attempts: s.attempts, Passed: s.passed, PassedWithAnswer: s.withAnswer}.Status()
}

// ModelAvailable reports whether the model answer may be asked for: only
// after a real attempt was checked, one that answered every part and was
// not the format example (lessons.Exercise.RealAttempt).
func (s *state) ModelAvailable() bool { return s.complete || s.shown }

// lastHintWaits says why the last rung waits.
const lastHintWaits = "The last hint is the key step: like the model answer, it opens once you have checked an answer of your own (every part answered, not the format example)."

// lastHintLocked reports that the next rung is the ladder's last, the key
// step, and no real attempt has been checked yet: like the model answer,
// it opens only after one (see lessons.Exercise.RealAttempt).
func (s *state) lastHintLocked() bool {
	return s.hintsSeen == len(s.Ex.Hints)-1 && !s.ModelAvailable()
}

// Attempts reports the checks made so far and whether one passed (a pass
// with the answer shown included).
func (s *state) Attempts() (int, bool) { return s.attempts, s.passed || s.withAnswer }

// Result is the last finished check's verdict, or nil.
func (s *state) Result() *lessons.Result { return s.result }

// Narrate adds a line to the narration mirrored for screen readers.
func (s *state) Narrate(line string) {
	s.narration.Add(line)
}

// refuse says why an action failed, on the footer and to screen readers.
func (s *state) refuse(why string) {
	s.notice = why
	s.Narrate(why)
}

// save asks the app to keep the answer.
func (s *state) save() {
	if s.OnSave != nil {
		s.OnSave()
	}
}

// record takes a finished check's verdict r of answer a in the
// standing; complete says a was a real attempt.
func (s *state) record(r lessons.Result, a lessons.Answer, complete bool) {
	s.result, s.graded = &r, &a
	s.shared, s.sharedWhere = "", ""
	s.attempts++
	s.complete = s.complete || complete
	switch {
	case r.Pass && s.shown:
		s.withAnswer = true
	case r.Pass:
		s.passed = true
	}
}
