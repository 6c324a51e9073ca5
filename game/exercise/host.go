package exercise

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"leaselab/game/form"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// host passes the page's uses of the answer screen's controls through
// their declarations (use), as the canvas's presses on the same widgets
// do. What is left is a use of a control not declared now, which the form
// says it cannot do: a share asked for before a check, a key point not
// shown yet, a chain's button that is not there.
func (s *answerForm) host(in *ui.Input) {
	for _, h := range in.Host {
		switch {
		case s.left:
			// A use left the answer (back, the simulator, the worst run):
			// the rest were meant for it.
		case s.use(h):
		case h.ID == "share":
			s.ShareAnswer() // says why there is nothing to share yet
		case strings.HasPrefix(h.ID, "point:"):
			i, err := strconv.Atoi(strings.TrimPrefix(h.ID, "point:"))
			if err != nil {
				s.notice = pointRefused + err.Error()
				continue
			}
			s.togglePoint(i)
		case strings.HasPrefix(h.ID, "chain:"):
			if !s.chain.Use(h.ID) {
				s.chain.Act(strings.TrimPrefix(h.ID, "chain:")) // says why it is not known
			}
		}
	}
	in.Host = nil
}

// use is the answer form's one door for a declared control, from the page
// or the canvas: the declaration of h.ID does it (ui.Controls.Use), and a
// refusal is the form's notice. It reports whether one was declared.
func (s *answerForm) use(h ui.HostAction) bool {
	handled, err := ui.Controls(s.controls()).Use(h)
	if err != nil {
		s.notice = err.Error()
	}
	return handled
}

// controls lists the answer screen for the page: the way back, the
// reading pane's tabs, the simulator, every question's options and number
// field, then check, hint and the model answer.
func (s *answerForm) controls() []ui.Control {
	out := []ui.Control{{ID: "back", Group: "Exercise", Label: "Back to the exercises", Kind: ui.KindLink,
		Do: func(ui.HostAction) { s.scene.leave(); s.left = true }}}
	for i := range s.tabs {
		t := &s.tabs[i]
		id := t.id
		c := ui.Control{ID: "tab:" + id, Group: "Read", Label: strings.TrimSuffix(t.Label, " >"), Kind: ui.KindToggle, On: id == s.tab,
			Do: func(ui.HostAction) { s.openTab(id) }}
		if id == tabReplay {
			c.Label, c.Kind = "Watch the worst run of the checked design", ""
		}
		out = append(out, c)
	}
	if s.Ex.Lab != nil {
		out = append(out, ui.Control{ID: "simulator", Group: "Your run", Label: "Open the simulator",
			Detail: fmt.Sprintf("Your run has %d actions.", len(s.Form.Schedule())), Disabled: s.scene.Checking(),
			Do: func(ui.HostAction) { s.openSimulator() }})
	}
	for i, k := range s.Ex.Numbers {
		c := ui.RangeControl("Numbers", "number:"+k.ID, lab.KnobLabel(k), &s.numbers[i], lab.KnobValue(k, s.numbers[i].Value))
		c.Typed, c.Entry = true, typedEntry(k, s.numbers[i].Value)
		if r := s.typedRefused; r.id == k.ID && r.form == s.Form.Version() {
			c.Detail = r.why // said beside the box until the answer changes
		}
		c.Do = func(h ui.HostAction) { s.useNumber(i, h) }
		out = append(out, c)
	}
	out = append(out, s.query.controls()...)
	for _, q := range s.Ex.Questions {
		kind := ui.KindRadio
		if q.Multi {
			kind = ui.KindCheck
		}
		for _, o := range q.Options {
			out = append(out, ui.Control{ID: "opt:" + q.ID + ":" + o.ID, Group: q.Text, Label: o.Label, Kind: kind, On: s.Form.Chosen(q.ID, o.ID),
				Do: func(ui.HostAction) { s.pick(q, o) }})
		}
	}
	out = append(out, s.chain.Controls()...)
	out = append(out, ui.Control{ID: "defence", Group: "Your defence", Kind: ui.KindText, Text: s.Form.Defence(),
		Label: "Your reasoning in a few sentences: kept with your answer and shown beside the model answer, not graded",
		Do:    func(h ui.HostAction) { s.setDefence(h.Text) }})
	if s.shown {
		for i, k := range s.Ex.KeyPoints {
			out = append(out, ui.Control{ID: fmt.Sprintf("point:%d", i), Group: keyPointsHeading,
				Label: k, Kind: ui.KindCheck, On: s.Form.Ticked(i), Do: func(ui.HostAction) { s.togglePoint(i) }})
		}
	}
	out = append(out,
		ui.Control{ID: "check", Group: "Your answer", Label: "Check answer", Disabled: s.checkB.Disabled,
			Do: func(ui.HostAction) { s.scene.StartCheck() }})
	if r := s.result; r != nil && !s.scene.Checking() {
		// The verdict under the button that asked for it, where a phone's
		// learner is looking (the result is also at the top of the text).
		parts := make([]string, len(r.Parts))
		for i, p := range r.Parts {
			parts[i] = form.PartText(p)
		}
		out = append(out, ui.Control{ID: "verdict", Group: "Your answer", Kind: ui.KindNote,
			Label: "Result: " + r.Summary(), Detail: strings.Join(parts, "\n")})
	}
	out = append(out,
		ui.Control{ID: "cancel", Group: "Your answer", Label: "Cancel the check", Disabled: s.cancel.Disabled,
			Do: func(ui.HostAction) { s.cancelCheck() }},
		ui.Control{ID: "hint", Group: "Your answer", Label: ui.PlainLabel(s.hintB.Label), Disabled: s.hintB.Disabled, Detail: s.hintDetail(),
			Do: func(ui.HostAction) { s.disarm(); s.ShowHint() }},
		ui.Control{ID: "model", Group: "Your answer", Label: s.model.Label, Disabled: s.model.Disabled,
			Do: func(ui.HostAction) { s.AskModel() }})
	return append(out, s.shareControls()...)
}

// openTab shows tab id in the reading pane, or opens the worst run over
// the answer (tabReplay).
func (s *answerForm) openTab(id string) {
	if id != tabReplay {
		s.setTab(id)
		s.Narrate("Showing " + strings.ToLower(tabLabels[id]))
		return
	}
	if err := s.scene.watchWorstRun(); err != nil {
		s.notice = "The run could not open: " + err.Error()
		return
	}
	s.left = true
}

// openSimulator opens the simulator over the answer with its run.
func (s *answerForm) openSimulator() {
	if err := s.scene.OpenSimulator(); err != nil {
		s.notice = "The simulator could not start: " + err.Error()
		return
	}
	s.left = true
}

// hintDetail says why the last rung is not offered yet ("" when it is).
func (s *answerForm) hintDetail() string {
	if s.lastHintLocked() {
		return lastHintWaits
	}
	return ""
}

// pointRefused begins the notice for a key point that cannot be ticked.
const pointRefused = "That key point cannot be ticked: "

// togglePoint ticks or unticks key point i and keeps the draft: the
// page's checkbox and the canvas's box both come here.
func (s *answerForm) togglePoint(i int) {
	if err := s.Form.TogglePoint(i); err != nil {
		s.notice = pointRefused + err.Error()
		return
	}
	word := "Ticked"
	if !s.Form.Ticked(i) {
		word = "Unticked"
	}
	s.Narrate(word + ": " + s.Ex.KeyPoints[i])
	s.saveDraft()
}

// setNumber sets number field k to v in the answer and says so, or keeps
// why it could not; it reports whether it did. A field already set to v is
// left as it is, unsaid: the page's number field sends its value on input
// and again on change, and "What happened" listed each setting twice.
// typeNumber takes what the learner typed in number k's box: a value in
// its range and on its steps is set (the slider follows); an empty box is
// a prediction withdrawn; anything else is refused with a notice that
// says what the box takes, and the answer stays as it was.
func (s *answerForm) typeNumber(k lessons.Knob, sl *ui.Slider, text string) {
	v, err := parseTyped(k, text)
	if err != nil {
		s.refuse(err.Error())
		s.typedRefused = typedRefusal{id: k.ID, why: err.Error(), form: s.Form.Version()}
		return
	}
	s.notice, s.typedRefused = "", typedRefusal{}
	sl.SetValue(v)
	if s.setNumber(k, v) {
		s.saveDraft()
	}
}

// typedRefusal is the last typed value refused: which number, why, and
// the answer's version then (a later change to the answer ends it).
type typedRefusal struct {
	id, why string
	form    int
}

// parseTyped reads text typed for number k.
func parseTyped(k lessons.Knob, text string) (float64, error) {
	label := lab.KnobLabel(k)
	text = strings.TrimSpace(text)
	if text == "" {
		if k.Unset != "" {
			return k.Min, nil
		}
		return 0, fmt.Errorf("%s: type a number", label)
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(text, ",", "."), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s: %q is not a number", label, text)
	}
	if v < k.Min || v > k.Max {
		return 0, fmt.Errorf("%s goes from %g to %g", label, k.Min, k.Max)
	}
	if r := (v - k.Min) / k.Step; math.Abs(r-math.Round(r)) > 1e-6 {
		if k.Whole != "" {
			return 0, fmt.Errorf("%s goes in steps of %g (%s)", label, k.Step, k.Whole)
		}
		return 0, fmt.Errorf("%s goes in steps of %g", label, k.Step)
	}
	return v, nil
}

// typedEntry is what number k's box shows for value v: nothing for a
// prediction not made.
func typedEntry(k lessons.Knob, v float64) string {
	if !k.Given(v) {
		return ""
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

func (s *answerForm) setNumber(k lessons.Knob, v float64) bool {
	if s.Form.IsSet(k.ID) && s.Form.Number(k.ID) == v {
		return false
	}
	if err := s.Form.SetNumber(k.ID, v); err != nil {
		s.notice = err.Error()
		return false
	}
	s.Narrate(fmt.Sprintf("%s set to %s", lab.KnobLabel(k), lab.KnobValue(k, v)))
	return true
}

// useNumber gives number field i the value h carries, snapped as its
// slider snaps it, from the page's field or the canvas's slider alike
// (the draft is kept once the learner lets go of the slider:
// updateNumbers), or the text typed in the page's box (h.Typed).
func (s *answerForm) useNumber(i int, h ui.HostAction) {
	sl := &s.numbers[i]
	if h.Typed {
		s.typeNumber(s.Ex.Numbers[i], sl, h.Text)
		return
	}
	sl.SetValue(h.Value)
	if s.setNumber(s.Ex.Numbers[i], sl.Value) {
		s.edited = true
	}
}

// pick picks option o of question q and keeps the draft, or says why not.
func (s *answerForm) pick(q lessons.Question, o lessons.Option) {
	if _, err := s.Form.Pick(q.ID, o.ID); err != nil {
		s.notice = err.Error()
		return
	}
	s.Narrate(form.ChoiceText(s.Form, q, o))
	s.disarm()
	s.edited = true
	s.saveDraft()
}

// setDefence keeps the learner's defence and the draft, or says why not.
func (s *answerForm) setDefence(text string) {
	if err := s.Form.SetDefence(text); err != nil {
		s.notice = err.Error()
		return
	}
	s.saveDraft()
}

// cancelCheck cancels the check under way, and says nothing was kept.
func (s *answerForm) cancelCheck() {
	if s.scene.Checking() {
		s.scene.cancelCheck()
		s.Narrate("Check cancelled; nothing was recorded.")
	}
}
