package exercise

import (
	"fmt"
	"strings"

	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// answerForm is the answer form, the bottom screen of an exercise:
// the reading pane's tabs and the form's widgets, their layout and
// scroll, and the focus ring. It holds the exercise's shared state and
// asks its scene for what spans screens (a check, the simulator, the
// worst run, leaving).
type answerForm struct {
	*state
	scene *Scene

	// armed: the first click on the model answer asked for confirmation.
	armed bool
	// toPoints: the model answer was just revealed, so the next layout
	// scrolls the form to the defence and the key points to tick.
	toPoints bool
	// left: a control's use left the answer for another screen (back,
	// the simulator, the worst run); the rest of the tick is not its.
	left bool
	// edited marks a change not yet saved.
	edited bool
	// mirror caches the text view (mirrorText).
	mirror struct {
		key  mirrorKey
		text string
	}
	tab string
	// outside: the page shows the answer form (draw.Style.PanelOutside).
	outside bool

	// query is exercise 5's check builder (nil builder elsewhere).
	query queryBuilder
	// chain is the chain of events of exercises 1 and 3 (no rows elsewhere).
	chain answer.Chain

	style  draw.Style
	geom   formGeom
	scroll float64 // the form's scroll offset
	drag   answer.Drag

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

// newAnswerForm makes the answer form of scene's exercise, showing
// the standing and last verdict st holds.
func newAnswerForm(st *state, scene *Scene) *answerForm {
	ex := st.Ex
	s := &answerForm{state: st, scene: scene, tab: tabProblem}
	s.chain.Host, s.query.a = s, s
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
	s.setHints()
	if s.result != nil {
		s.reading[tabResult].SetText(draw.Drawable(form.ResultText(*s.result)))
	}
	s.Refocus()
	return s
}

// setHints shows the rungs revealed so far and labels the hint button.
func (s *answerForm) setHints() {
	n := len(s.Ex.Hints)
	var b strings.Builder
	for i, h := range s.Ex.Hints[:s.hintsSeen] {
		fmt.Fprintf(&b, "Hint %d of %d: %s\n\n", i+1, n, h)
	}
	s.reading[tabHints].SetText(draw.Drawable(strings.TrimSpace(b.String())))
	s.hintB.Label = fmt.Sprintf("Hint %d of %d", min(s.hintsSeen+1, n), n)
	s.hintB.Disabled = s.hintsSeen >= n || s.lastHintLocked()
}

// ShowHint reveals the next rung of the hint ladder, as the Hint button
// does.
func (s *answerForm) ShowHint() {
	if s.hintsSeen >= len(s.Ex.Hints) {
		return
	}
	if s.lastHintLocked() {
		s.refuse(lastHintWaits)
		return
	}
	s.hintsSeen++
	s.setHints()
	s.Refocus()
	s.setTab(tabHints)
	s.Narrate(fmt.Sprintf("Hint %d of %d: %s", s.hintsSeen, len(s.Ex.Hints), s.Ex.Hints[s.hintsSeen-1]))
	if s.OnHint != nil {
		s.OnHint(s.hintsSeen)
	}
}

// modelLabel is the model-answer button's label until it is armed.
const modelLabel = "Model answer"

// AskModel is a click on "Show model answer": the first arms it and asks
// for confirmation, the second reveals the answer and records that.
func (s *answerForm) AskModel() {
	if !s.ModelAvailable() {
		return
	}
	if !s.shown && !s.armed {
		s.armed = true
		s.model.Label = "Yes, show it"
		s.refuse("Showing the model answer is recorded: a pass after it counts as passed with the answer shown. Click again to show it.")
		return
	}
	s.reveal()
	s.setTab(tabModel)
	s.Narrate("Model answer: " + strings.Join(s.Ex.Worked, " "))
}

// reveal records that the model answer is shown.
func (s *answerForm) reveal() {
	s.armed = false
	s.model.Label = modelLabel
	s.notice = ""
	if !s.shown {
		s.shown, s.toPoints = true, true
		s.Refocus()
		if s.OnReveal != nil {
			s.OnReveal()
		}
	}
}

// disarm cancels a pending confirmation.
func (s *answerForm) disarm() {
	if s.armed {
		s.armed = false
		s.model.Label = modelLabel
		s.notice = ""
	}
}

// showResult shows a finished check's verdict r (already recorded in the
// standing): the result tab, and the last rung of hints a real attempt
// opens.
func (s *answerForm) showResult(r lessons.Result) {
	s.setHints() // a real attempt opens the last rung
	s.reading[tabResult].SetText(draw.Drawable(form.ResultText(r)))
	s.Refocus()
	s.setTab(tabResult)
	s.Narrate(r.Summary())
	for _, p := range r.Parts {
		s.Narrate(form.PartText(p))
	}
}

// visibleTabs lists the tabs that have something to show.
func (s *answerForm) visibleTabs() []string {
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

// Refocus rebuilds the tabs and the focus order after they change.
func (s *answerForm) Refocus() {
	ids := s.visibleTabs()
	if len(s.tabs) != len(ids) {
		s.tabs = make([]tabButton, len(ids))
	}
	for i, id := range ids {
		s.tabs[i].id, s.tabs[i].Label = id, tabLabels[id]
	}
	s.names = map[ui.Focusable]string{&s.back: "back", &s.checkB: "check",
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
		s.names[&s.sim] = "simulator"
	}
	for i := range s.numbers {
		items = append(items, &s.numbers[i])
		s.names[&s.numbers[i]] = "number:" + s.Ex.Numbers[i].ID
	}
	s.query.sync()
	items = append(items, s.query.focus()...)
	for qi, q := range s.Ex.Questions {
		for oi, o := range q.Options {
			items = append(items, &s.options[qi][oi])
			s.names[&s.options[qi][oi]] = "opt:" + q.ID + ":" + o.ID
		}
	}
	s.chain.Sync()
	items = append(items, s.chain.Focus()...)
	items = append(items, &s.defence)
	s.names[&s.defence] = "defence"
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
func (s *answerForm) setTab(id string) {
	if s.tab != id {
		s.tab = id
		s.Refocus()
	}
}

func (s *answerForm) syncNumbers() {
	for i, k := range s.Ex.Numbers {
		if !s.numbers[i].Dragging() {
			s.numbers[i].SetValue(s.Form.Number(k.ID))
		}
	}
}

// saveDraft keeps the answer being edited, so a reload never loses it.
func (s *answerForm) saveDraft() {
	s.edited = false
	s.save()
}

// The answer form as the chain's host (exercises 1 and 3): the chain
// builder itself is game/answer's, shared with a lesson's recap card.
var _ answer.ChainHost = (*answerForm)(nil)

func (s *answerForm) ChainAsked() bool                   { return s.Ex.ChainRun != nil }
func (s *answerForm) ChainSteps() []int                  { return s.Form.Chain() }
func (s *answerForm) ChainEvents() []lab.WhyStep         { return s.Form.ChainEvents() }
func (s *answerForm) ChainFor() string                   { return s.Ex.ChainText }
func (s *answerForm) ChainSay(line string)               { s.Narrate(line) }
func (s *answerForm) ChainRefuse(why string)             { s.notice = why }
func (s *answerForm) FormStyle() draw.Style              { return s.style }
func (s *answerForm) FormRing() *ui.FocusRing            { return s.ring }
func (s *answerForm) FormNames() map[ui.Focusable]string { return s.names }
func (s *answerForm) FormScroll() *float64               { return &s.scroll }
func (s *answerForm) FocusSeen()                         { s.focused = s.ring.Current() }

// ChainChange changes the answer's chain and keeps the draft.
func (s *answerForm) ChainChange(verb string, n int) error {
	var err error
	switch verb {
	case "add":
		err = s.Form.AddToChain(n)
	case "remove":
		err = s.Form.RemoveFromChain(n)
	default:
		err = s.Form.ClearChain()
	}
	if err == nil {
		s.disarm()
		s.saveDraft()
	}
	return err
}
