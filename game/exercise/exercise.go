package exercise

import (
	"encoding/json"
	"fmt"
	"leaselab/game/lesson"
	"leaselab/game/page"
	"leaselab/game/scene"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// Scene is one assessment exercise: a stack of screens over the
// exercise's shared state ([state]). At its bottom is the answer
// form (answerForm): a reading pane on the left shows, one tab at a
// time, the problem, the logs to read, the checked result and (after a
// first attempt) the model answer; the form on the right holds the
// questions, number fields, the written defence (with the model answer's
// key points to tick under it once that is shown) and, for an exercise
// with a simulator, the button that opens it. Over it go the simulator
// and the worst run of a checked design (runScreen, in
// run.go).
//
// The scene owns what spans its screens: the check, which runs the
// exercise's checker a few milliseconds a frame (with a progress bar and
// Cancel) whichever screen is on show, and the players shown over the
// answer. The answer form is embedded so that its state reads through
// the scene, as the app and the tests read it.
type Scene struct {
	*state
	*answerForm

	// scenes is the answer screen, with the simulator or the worst run
	// over it while one is shown.
	scenes *scene.Stack
	lab    *lesson.Scene // the simulator, kept while the exercise is open
	// watch is the checked design's worst run while it is shown.
	watch *lesson.Scene
	// ownRun is the learner's run, kept while the simulator shows the
	// model run, so showing it never replaces their work.
	ownRun        core.ActionLog
	solutionShown bool

	check *form.Check
	// checked is the answer the running check judges.
	checked lessons.Answer
	// workedAt is the frame (State.Frame) the check's last slice ran in
	// (see work).
	workedAt int64
	// Now is the clock that bounds a check's work per frame.
	Now func() time.Time
	// CheckBudget, if positive, replaces the check's per-frame budget.
	CheckBudget time.Duration
}

// New opens exercise ex (number n in the curriculum) with an
// empty answer and the learner's standing so far (attempts, passes, hints
// seen, whether the model answer was shown, the last verdict).
func New(ex *lessons.Exercise, n int, saved progress.Exercise) *Scene {
	st := newState(ex, n, saved)
	if len(saved.Result) > 0 {
		var r lessons.Result
		if json.Unmarshal(saved.Result, &r) == nil {
			st.result = &r
		}
	}
	s := &Scene{state: st, Now: time.Now}
	s.answerForm = newAnswerForm(st, s)
	s.scenes = scene.NewStack(s.answerForm)
	return s
}

// Update implements scene.Scene.
func (s *Scene) Update(st *scene.State) error { return s.scenes.Update(st) }

// Layout implements scene.Scene.
func (s *Scene) Layout(window ui.Rect, style draw.Style) { s.scenes.Layout(window, style) }

// Draw implements scene.Scene.
func (s *Scene) Draw(screen *ebiten.Image) { s.scenes.Draw(screen) }

// Inspect implements scene.Inspector.
func (s *Scene) Inspect() page.SceneInfo { return s.scenes.Inspect() }

// Restore fills the form with a saved answer; one that no longer fits the
// exercise is dropped, and the scene says so.
func (s *Scene) Restore(saved []byte) {
	if len(saved) == 0 {
		return
	}
	if err := s.Form.Restore(saved); err != nil {
		s.refuse("Your saved answer could not be restored (" + err.Error() + "); starting with an empty one.")
		return
	}
	s.syncNumbers()
}

// OpenModelAnswer fills the form with the model answer, as the desktop's
// --exercise ID --solution does: only once the model answer may be shown
// (after a real attempt, or once shown before); otherwise it says why and
// changes nothing.
func (s *Scene) OpenModelAnswer() error {
	if !s.ModelAvailable() {
		return fmt.Errorf("the model answer of exercise %s opens after a real attempt: check an answer of your own first (every part answered, not the format example)", s.Ex.ID)
	}
	return s.LoadModelAnswer()
}

// LoadModelAnswer fills the form with the exercise's reference answer (for
// screenshots and tests). It counts as showing the model answer, so a
// pass it earns is recorded as passed with the answer shown.
func (s *Scene) LoadModelAnswer() error {
	if err := s.Form.Load(s.Ex.Reference); err != nil {
		return err
	}
	s.reveal()
	s.syncNumbers()
	return nil
}

// Checking reports whether a check is running.
func (s *Scene) Checking() bool { return s.check != nil }

// StartCheck validates the answer and starts checking it, as the Check
// button does.
func (s *Scene) StartCheck() {
	c, err := s.Form.Start(s.Now)
	if err != nil {
		s.refuse("This answer cannot be checked: " + err.Error())
		return
	}
	s.disarm()
	s.notice = ""
	if s.CheckBudget > 0 {
		c.Budget = s.CheckBudget
	}
	s.check = c
	s.checked = s.Form.Answer()
	s.Narrate("Checking your answer…")
}

// cancelCheck stops a running check; nothing is recorded.
func (s *Scene) cancelCheck() {
	if s.check != nil {
		s.check.Cancel()
		s.check = nil
	}
}

// work runs the check for this frame and takes in its result when done.
// A slice runs once per frame drawn: Ebitengine runs extra updates to
// catch up after a slow frame, and a slice in each would starve drawing.
func (s *Scene) work(frame int64) {
	if s.check == nil || frame != 0 && frame == s.workedAt {
		return
	}
	s.workedAt = frame
	if !s.check.Frame() {
		return
	}
	r := s.check.Result()
	complete := s.Ex.RealAttempt(s.checked)
	s.check = nil
	s.record(r, s.checked, complete)
	s.showResult(r)
	if s.OnResult != nil {
		s.OnResult(r, complete)
	}
}

// leave goes back to the menu, stopping a running check.
func (s *Scene) leave() {
	s.cancelCheck()
	s.save()
	if s.OnBack != nil {
		s.OnBack()
	}
}
