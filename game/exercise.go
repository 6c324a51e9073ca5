package game

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// ExerciseScene is one assessment exercise. A reading pane on the left
// shows, one tab at a time, the problem, the logs to read, the checked
// result and (after a first attempt) the model answer; the answer form on
// the right holds the questions, number fields, the written defence (with
// the model answer's key points to tick under it once that is shown) and,
// for an exercise with a simulator, the button that opens it. Check runs the exercise's checker a
// few milliseconds a frame, with a progress bar and Cancel.
//
// The simulator is the ordinary lesson player on the exercise's Lab; its
// back button returns here and carries the run's action log into the
// answer.
type ExerciseScene struct {
	// workedAt is the frame (State.Frame) the check's last slice ran in
	// (see work).
	workedAt int64

	Ex   *lessons.Exercise
	Form *form.Form
	// Number is the exercise's place in the curriculum, from 1.
	Number int

	attempts int
	passed   bool
	// withAnswer: passed, but only after the model answer was shown.
	withAnswer bool
	// complete: a real attempt was checked (every part answered, not the
	// format example), which unlocks the model answer and the last hint;
	// armed: the first click on the model answer asked for confirmation.
	complete, armed bool
	hintsSeen       int
	check           *form.Check
	result          *lessons.Result
	shown           bool // the model answer has been revealed
	// toPoints: the model answer was just revealed, so the next layout
	// scrolls the form to the defence and the key points to tick.
	toPoints bool
	// ownRun is the learner's run, kept while the simulator shows the
	// model run, so showing it never replaces their work.
	ownRun        core.ActionLog
	solutionShown bool
	// checked is the answer the running check judges; edited marks a change
	// not yet saved.
	checked lessons.Answer
	edited  bool
	// graded is the answer the last finished check judged (nil until a
	// check finishes here); shared is its share's link once the learner
	// shared it, sharedWhere where that went.
	graded              *lessons.Answer
	shared, sharedWhere string
	// mirror caches the text view (mirrorText).
	mirror struct {
		key  mirrorKey
		text string
	}
	notice string // why the last action failed, until the next one
	tab    string
	// outside: the page shows the answer form (draw.Style.PanelOutside).
	outside bool

	lab *LessonScene // the simulator, kept while the exercise is open
	// watch is the checked design's worst run while it is shown.
	watch *LessonScene
	// scenes is the answer screen, with the simulator or the worst run
	// over it while one is shown.
	scenes *Stack

	// OnBack returns to the menu; OnResult is told every finished check;
	// OnSave is asked to keep the answer (after a check, on leaving the
	// simulator and on leaving the exercise). Now is the clock that bounds
	// a check's work per frame.
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
	Now     func() time.Time
	// CheckBudget, if positive, replaces the check's per-frame budget.
	CheckBudget time.Duration

	// query is exercise 5's check builder (nil builder elsewhere).
	query queryWidgets
	// chain is the chain of events of exercises 1 and 3 (no rows elsewhere).
	chain chainWidgets

	narration Narration
	style     draw.Style
	geom      exerciseGeom
	scroll    float64 // the form's scroll offset
	drag      formDrag

	back, sim, checkB, cancel, model, hintB ui.Button
	shareB                                  ui.Button
	defence                                 ui.TextField
	points                                  []ui.Button // the key points' boxes, by point
	tabs                                    []tabButton
	options                                 [][]ui.Button // by question, by option
	numbers                                 []ui.Slider
	reading                                 map[string]*ui.TextPanel // by tab
	ring                                    *ui.FocusRing
	focused                                 ui.Focusable // last tick's focus
	names                                   map[ui.Focusable]string
}

// tabButton is one tab of the reading pane.
type tabButton struct {
	ui.Button
	id string
}

// The reading pane's tabs.
const (
	tabProblem = "problem"
	tabLogs    = "logs"
	tabResult  = "result"
	tabModel   = "model"
	tabHints   = "hints"
	// tabReplay is not a pane: it opens the checked design's worst run.
	tabReplay = "replay"
)

// NewExerciseScene opens exercise ex (number n in the curriculum) with an
// empty answer and the learner's standing so far (attempts, passes, hints
// seen, whether the model answer was shown, the last verdict).
func NewExerciseScene(ex *lessons.Exercise, n int, saved progress.Exercise) *ExerciseScene {
	s := &ExerciseScene{Ex: ex, Form: form.New(ex), Number: n, attempts: saved.Attempts, passed: saved.Passed,
		withAnswer: saved.PassedWithAnswer, complete: saved.Complete, shown: saved.Revealed,
		hintsSeen: min(saved.HintsSeen, len(ex.Hints)), tab: tabProblem, Now: time.Now}
	s.back = ui.Button{Label: "< Exercises"}
	s.sim = ui.Button{Label: "Open the simulator"}
	s.checkB = ui.Button{Label: "Check answer"}
	s.cancel = ui.Button{Label: "Cancel"}
	s.model = ui.Button{Label: modelLabel}
	s.hintB = ui.Button{}
	s.shareB = ui.Button{Label: shareLabel}
	s.defence = ui.TextField{Max: 4000}
	s.reading = map[string]*ui.TextPanel{tabProblem: {}, tabLogs: {}, tabResult: {}, tabModel: {}, tabHints: {}}
	s.reading[tabProblem].SetText(draw.Drawable(strings.Join(ex.Brief, "\n\n")))
	s.reading[tabLogs].SetText(draw.Drawable(form.MaterialsText(ex)))
	s.reading[tabModel].SetText(draw.Drawable(form.ModelTextBesideBoxes(ex)))
	s.options = make([][]ui.Button, len(ex.Questions))
	for i, q := range ex.Questions {
		s.options[i] = make([]ui.Button, len(q.Options))
	}
	s.points = make([]ui.Button, len(ex.KeyPoints))
	s.numbers = make([]ui.Slider, len(ex.Numbers))
	for i, k := range ex.Numbers {
		s.numbers[i] = ui.Slider{Min: k.Min, Max: k.Max, Step: k.Step, Value: k.Default}
	}
	if ex.Queries != nil {
		s.query.qb = form.NewBuilder(ex.Queries)
	}
	s.ring = ui.NewFocusRing(false)
	s.scenes = NewStack((*exerciseAnswer)(s))
	s.setHints()
	if len(saved.Result) > 0 {
		var r lessons.Result
		if json.Unmarshal(saved.Result, &r) == nil {
			s.result = &r
			s.reading[tabResult].SetText(draw.Drawable(form.ResultText(r)))
		}
	}
	s.refocus()
	return s
}

// setHints shows the rungs revealed so far and labels the hint button.
func (s *ExerciseScene) setHints() {
	n := len(s.Ex.Hints)
	var b strings.Builder
	for i, h := range s.Ex.Hints[:s.hintsSeen] {
		fmt.Fprintf(&b, "Hint %d of %d: %s\n\n", i+1, n, h)
	}
	s.reading[tabHints].SetText(draw.Drawable(strings.TrimSpace(b.String())))
	s.hintB.Label = fmt.Sprintf("Hint %d of %d", min(s.hintsSeen+1, n), n)
	s.hintB.Disabled = s.hintsSeen >= n || s.lastHintLocked()
}

// lastHintWaits says why the last rung waits.
const lastHintWaits = "The last hint is the key step: like the model answer, it opens once you have checked an answer of your own (every part answered, not the format example)."

// lastHintLocked reports that the next rung is the ladder's last, the key
// step, and no real attempt has been checked yet: like the model answer,
// it opens only after one (see lessons.Exercise.RealAttempt).
func (s *ExerciseScene) lastHintLocked() bool {
	return s.hintsSeen == len(s.Ex.Hints)-1 && !s.ModelAvailable()
}

// ShowHint reveals the next rung of the hint ladder, as the Hint button
// does.
func (s *ExerciseScene) ShowHint() {
	if s.hintsSeen >= len(s.Ex.Hints) {
		return
	}
	if s.lastHintLocked() {
		s.notice = lastHintWaits
		s.Narrate(s.notice)
		return
	}
	s.hintsSeen++
	s.setHints()
	s.refocus()
	s.setTab(tabHints)
	s.Narrate(fmt.Sprintf("Hint %d of %d: %s", s.hintsSeen, len(s.Ex.Hints), s.Ex.Hints[s.hintsSeen-1]))
	if s.OnHint != nil {
		s.OnHint(s.hintsSeen)
	}
}

// modelLabel is the model-answer button's label until it is armed.
const modelLabel = "Model answer"

// ModelAvailable reports whether the model answer may be asked for: only
// after a real attempt was checked, one that answered every part and was
// not the format example (lessons.Exercise.RealAttempt).
func (s *ExerciseScene) ModelAvailable() bool { return s.complete || s.shown }

// AskModel is a click on "Show model answer": the first arms it and asks
// for confirmation, the second reveals the answer and records that.
func (s *ExerciseScene) AskModel() {
	if !s.ModelAvailable() {
		return
	}
	if !s.shown && !s.armed {
		s.armed = true
		s.model.Label = "Yes, show it"
		s.notice = "Showing the model answer is recorded: a pass after it counts as passed with the answer shown. Click again to show it."
		s.Narrate(s.notice)
		return
	}
	s.reveal()
	s.setTab(tabModel)
	s.Narrate("Model answer: " + strings.Join(s.Ex.Worked, " "))
}

// reveal records that the model answer is shown.
func (s *ExerciseScene) reveal() {
	s.armed = false
	s.model.Label = modelLabel
	s.notice = ""
	if !s.shown {
		s.shown, s.toPoints = true, true
		s.refocus()
		if s.OnReveal != nil {
			s.OnReveal()
		}
	}
}

// disarm cancels a pending confirmation.
func (s *ExerciseScene) disarm() {
	if s.armed {
		s.armed = false
		s.model.Label = modelLabel
		s.notice = ""
	}
}

// Status is the exercise's standing, as the menu shows it.
func (s *ExerciseScene) Status() string {
	return progress.Exercise{Attempts: s.attempts, Passed: s.passed, PassedWithAnswer: s.withAnswer}.Status()
}

// visibleTabs lists the tabs that have something to show.
func (s *ExerciseScene) visibleTabs() []string {
	out := []string{tabProblem}
	if len(s.Ex.Materials) > 0 {
		out = append(out, tabLogs)
	}
	if s.result != nil {
		out = append(out, tabResult)
	}
	if s.hintsSeen > 0 {
		out = append(out, tabHints)
	}
	if s.result != nil && s.result.Replay != nil {
		out = append(out, tabReplay)
	}
	if s.shown {
		out = append(out, tabModel)
	}
	return out
}

var tabLabels = map[string]string{tabProblem: "Problem", tabLogs: "Logs", tabResult: "Result", tabModel: "Model answer", tabHints: "Hints", tabReplay: "Worst run >"}

// refocus rebuilds the tabs and the focus order after they change.
func (s *ExerciseScene) refocus() {
	ids := s.visibleTabs()
	if len(s.tabs) != len(ids) {
		s.tabs = make([]tabButton, len(ids))
	}
	for i, id := range ids {
		s.tabs[i].id, s.tabs[i].Label = id, tabLabels[id]
	}
	s.names = map[ui.Focusable]string{&s.back: "back", &s.sim: "simulator", &s.checkB: "check",
		&s.cancel: "cancel", &s.hintB: "hint", &s.model: "model"}
	items := []ui.Focusable{&s.back}
	for i := range s.tabs {
		items = append(items, &s.tabs[i])
		s.names[&s.tabs[i]] = "tab:" + s.tabs[i].id
	}
	items = append(items, s.reading[s.tab])
	s.names[s.reading[s.tab]] = "reading"
	if s.shareOnShow() {
		items = append(items, &s.shareB)
		s.names[&s.shareB] = "share"
	}
	if s.Ex.Lab != nil {
		items = append(items, &s.sim)
	}
	for i := range s.numbers {
		items = append(items, &s.numbers[i])
		s.names[&s.numbers[i]] = "number:" + s.Ex.Numbers[i].ID
	}
	s.syncQuery()
	items = append(items, s.queryFocus()...)
	for qi, q := range s.Ex.Questions {
		for oi, o := range q.Options {
			items = append(items, &s.options[qi][oi])
			s.names[&s.options[qi][oi]] = "opt:" + q.ID + ":" + o.ID
		}
	}
	s.syncChain()
	items = append(items, s.chainFocus()...)
	items = append(items, &s.defence)
	s.names[&s.defence] = "defenceField"
	if s.shown {
		for i := range s.points {
			items = append(items, &s.points[i])
			s.names[&s.points[i]] = fmt.Sprintf("point:%d", i)
		}
	}
	items = append(items, &s.checkB, &s.cancel, &s.hintB, &s.model)
	s.ring.Set(items...)
}

// setTab shows tab id in the reading pane.
func (s *ExerciseScene) setTab(id string) {
	if s.tab != id {
		s.tab = id
		s.refocus()
	}
}

// Narrate adds a line to the narration mirrored for screen readers.
func (s *ExerciseScene) Narrate(line string) {
	s.narration.Add(line)
}

// Restore fills the form with a saved answer; one that no longer fits the
// exercise is dropped, and the scene says so.
func (s *ExerciseScene) Restore(saved []byte) {
	if len(saved) == 0 {
		return
	}
	if err := s.Form.Restore(saved); err != nil {
		s.notice = "Your saved answer could not be restored (" + err.Error() + "); starting with an empty one."
		s.Narrate(s.notice)
		return
	}
	s.syncNumbers()
}

// OpenModelAnswer fills the form with the model answer, as the desktop's
// --exercise ID --solution does: only once the model answer may be shown
// (after a real attempt, or once shown before); otherwise it says why and
// changes nothing.
func (s *ExerciseScene) OpenModelAnswer() error {
	if !s.ModelAvailable() {
		return fmt.Errorf("the model answer of exercise %s opens after a real attempt: check an answer of your own first (every part answered, not the format example)", s.Ex.ID)
	}
	return s.LoadModelAnswer()
}

// LoadModelAnswer fills the form with the exercise's reference answer (for
// screenshots and tests). It counts as showing the model answer, so a
// pass it earns is recorded as passed with the answer shown.
func (s *ExerciseScene) LoadModelAnswer() error {
	if err := s.Form.Load(s.Ex.Reference); err != nil {
		return err
	}
	s.reveal()
	s.syncNumbers()
	return nil
}

func (s *ExerciseScene) syncNumbers() {
	for i, k := range s.Ex.Numbers {
		if !s.numbers[i].Dragging() {
			s.numbers[i].SetValue(s.Form.Number(k.ID))
		}
	}
}

// Attempts reports the checks made so far and whether one passed (a pass
// with the answer shown included).
func (s *ExerciseScene) Attempts() (int, bool) { return s.attempts, s.passed || s.withAnswer }

// Checking reports whether a check is running.
func (s *ExerciseScene) Checking() bool { return s.check != nil }

// Result is the last finished check's verdict, or nil.
func (s *ExerciseScene) Result() *lessons.Result { return s.result }

// Simulator is the exercise's simulator scene, nil until first opened.
func (s *ExerciseScene) Simulator() *LessonScene { return s.lab }

// openLab shows the simulator, built on first use and resumed with the
// answer's run, so the learner carries on where the answer stands.
func (s *ExerciseScene) openLab() error {
	if s.lab == nil {
		// The lab's solution is the model answer's run: offered only once
		// the model answer itself has been shown, and it never replaces
		// the learner's own run in the answer.
		sc, err := NewLessonScene(s.Ex.Lab, LessonSpec{
			Back:            BackButton{Label: "< Answer", Tip: "Back to the answer, with this run as its schedule (Esc)", Do: s.closeLab},
			Solution:        s.showModelRun,
			SolutionOffered: func() bool { return s.shown },
		})
		if err != nil {
			return err
		}
		if log := s.Form.Schedule(); len(log) > 0 {
			if err := sc.Lab.Resume(nil, log); err != nil {
				sc.Player.Narrate("Your answer's run could not be replayed (" + err.Error() + "); starting afresh.")
			} else {
				// Show the whole run, not one cut at its last action: the
				// evidence (a handover, a stale write) comes after it.
				sc.Lab.Seek(sc.Lab.Length())
			}
		}
		s.lab = sc
	}
	s.scenes.Push(&exerciseRun{ex: s, run: s.lab})
	s.Narrate("Opened the simulator. Its back button returns to the answer with your run.")
	return nil
}

// showModelRun plays the model answer's run in the simulator, keeping
// the learner's own run for the answer.
func (s *ExerciseScene) showModelRun() {
	if !s.solutionShown {
		s.ownRun = append(core.ActionLog(nil), s.Form.Schedule()...)
	}
	s.solutionShown = true
	s.lab.ShowSolution()
	s.lab.Player.Narrate("This is the model run. Your own run stays your answer unless you change this one.")
}

// closeLab returns from the simulator, carrying its action log into the
// answer.
func (s *ExerciseScene) closeLab() {
	s.scenes.Pop()
	s.lab.Play(false)
	s.takeRun()
	s.Narrate("Back to the answer. " + form.RunText(s.Form.Schedule()))
	if s.OnSave != nil {
		s.OnSave()
	}
}

// InSimulator reports that the simulator is on show.
func (s *ExerciseScene) InSimulator() bool {
	r, ok := s.scenes.Top().(*exerciseRun)
	return ok && r.run == s.lab
}

// takeRun makes the simulator's run the answer's schedule (the model run,
// untouched, leaves the learner's own in place).
func (s *ExerciseScene) takeRun() {
	log := s.lab.Lab.Log()
	if s.solutionShown && slices.Equal(log, s.Ex.Lab.Solution) {
		// The model run, untouched: the learner's answer keeps theirs.
		log = s.ownRun
	}
	if err := s.Form.SetSchedule(log); err != nil {
		s.notice = "Your run could not be used as the answer's schedule: " + err.Error()
	} else {
		s.notice = ""
	}
}

// StartCheck validates the answer and starts checking it, as the Check
// button does.
func (s *ExerciseScene) StartCheck() {
	c, err := s.Form.Start(s.Now)
	if err != nil {
		s.notice = "This answer cannot be checked: " + err.Error()
		s.Narrate(s.notice)
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

// work runs the check for this frame and takes in its result when done.
// A slice runs once per frame drawn: Ebitengine runs extra updates to
// catch up after a slow frame, and a slice in each would starve drawing.
func (s *ExerciseScene) work(frame int64) {
	if s.check == nil || frame != 0 && frame == s.workedAt {
		return
	}
	s.workedAt = frame
	if !s.check.Frame() {
		return
	}
	r := s.check.Result()
	complete := s.Ex.RealAttempt(s.checked)
	graded := s.checked
	s.check, s.result, s.graded = nil, &r, &graded
	s.shared, s.sharedWhere = "", ""
	s.attempts++
	s.complete = s.complete || complete
	s.setHints() // a real attempt opens the last rung
	switch {
	case r.Pass && s.shown:
		s.withAnswer = true
	case r.Pass:
		s.passed = true
	}
	s.reading[tabResult].SetText(draw.Drawable(form.ResultText(r)))
	s.refocus()
	s.setTab(tabResult)
	s.Narrate(r.Summary())
	for _, p := range r.Parts {
		s.Narrate(form.PartText(p))
	}
	if s.OnResult != nil {
		s.OnResult(r, complete)
	}
}

// exerciseAnswer is the answer screen, the bottom of the exercise's
// stack; exerciseRun is a player shown over it (the simulator, or the
// worst run of a checked design), which keeps a check going and reports
// the exercise with the run.
type (
	exerciseAnswer ExerciseScene
	exerciseRun    struct {
		ex  *ExerciseScene
		run *LessonScene
	}
)

// shows reports whether sc is the player on show.
func (s *ExerciseScene) shows(sc *LessonScene) bool {
	r, ok := s.scenes.Top().(*exerciseRun)
	return ok && sc != nil && r.run == sc
}

// Update implements Scene.
func (r *exerciseRun) Update(st *State) error {
	err := r.run.Update(st)
	r.ex.work(st.Frame)
	return err
}

// Layout implements Scene.
func (r *exerciseRun) Layout(window ui.Rect, style draw.Style) { r.run.Layout(window, style) }

// Draw implements Scene.
func (r *exerciseRun) Draw(screen *ebiten.Image) { r.run.Draw(screen) }

// Inspect implements Inspector.
func (r *exerciseRun) Inspect() SceneInfo {
	info := r.run.Inspect()
	info.Exercise = r.ex.info()
	return info
}

// Update implements Scene.
func (s *ExerciseScene) Update(st *State) error { return s.scenes.Update(st) }

// Layout implements Scene.
func (s *ExerciseScene) Layout(window ui.Rect, style draw.Style) { s.scenes.Layout(window, style) }

// Draw implements Scene.
func (s *ExerciseScene) Draw(screen *ebiten.Image) { s.scenes.Draw(screen) }

// Inspect implements Inspector.
func (s *ExerciseScene) Inspect() SceneInfo { return s.scenes.Inspect() }

// WatchWorstRun opens the last checked design's worst run in the player,
// as the "Worst run" tab does.
func (s *ExerciseScene) WatchWorstRun() error {
	if s.result == nil || s.result.Replay == nil {
		return fmt.Errorf("no checked run to watch")
	}
	var sc *LessonScene
	sc, err := NewLessonScene(s.result.Replay, LessonSpec{
		Back: BackButton{Label: "< Answer", Do: func() {
			sc.Play(false)
			s.watch = nil
			s.scenes.Pop()
			s.Narrate("Back to the answer.")
		}},
		NoSolution: true, // a recorded run has none
	})
	if err != nil {
		return err
	}
	s.watch = sc
	s.scenes.Push(&exerciseRun{ex: s, run: sc})
	s.Narrate("Watching " + s.result.Replay.Title + ". Its back button returns to the answer.")
	return nil
}
