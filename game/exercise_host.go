package game

import (
	"fmt"
	"strconv"
	"strings"

	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// host applies the page's uses of the answer screen's controls: buttons,
// tabs and options fire as clicks on them would; a number takes the value
// the page's field holds, chosen even when it is the default.
func (s *exerciseAnswer) host(in *ui.Input) {
	var rest []ui.HostAction
	for _, h := range in.Host {
		if h.ID == "defence" {
			if err := s.Form.SetDefence(h.Text); err != nil {
				s.notice = err.Error()
				continue
			}
			s.saveDraft()
			continue
		}
		if h.ID == "share" {
			s.ShareAnswer()
			continue
		}
		if s.query.host(h) {
			continue
		}
		if strings.HasPrefix(h.ID, "chain:") {
			if !s.chain.use(h.ID) {
				s.chain.act(strings.TrimPrefix(h.ID, "chain:")) // says why it is not known
			}
			continue
		}
		if p, ok := strings.CutPrefix(h.ID, "point:"); ok {
			i, err := strconv.Atoi(p)
			if err != nil {
				s.notice = pointRefused + err.Error()
				continue
			}
			s.togglePoint(i)
			continue
		}
		id, ok := strings.CutPrefix(h.ID, "number:")
		if !ok {
			rest = append(rest, h)
			continue
		}
		for i, k := range s.Ex.Numbers {
			if k.ID != id {
				continue
			}
			sl := &s.numbers[i]
			sl.SetValue(h.Value)
			if s.setNumber(k, sl.Value) {
				s.saveDraft()
			}
		}
	}
	in.Host = rest
	pressNamed(in, s.names)
}

// controls lists the answer screen for the page: the way back, the
// reading pane's tabs, the simulator, every question's options and number
// field, then check, hint and the model answer.
func (s *exerciseAnswer) controls() []Control {
	out := []Control{{ID: "back", Group: "Exercise", Label: "Back to the exercises", Kind: KindLink}}
	for i := range s.tabs {
		t := &s.tabs[i]
		c := Control{ID: "tab:" + t.id, Group: "Read", Label: strings.TrimSuffix(t.Label, " >"), Kind: KindToggle, On: t.id == s.tab}
		if t.id == tabReplay {
			c.Label, c.Kind = "Watch the worst run of the checked design", ""
		}
		out = append(out, c)
	}
	if s.Ex.Lab != nil {
		out = append(out, Control{ID: "simulator", Group: "Your run", Label: "Open the simulator",
			Detail: fmt.Sprintf("Your run has %d actions.", len(s.Form.Schedule())), Disabled: s.sim.Disabled})
	}
	for i, k := range s.Ex.Numbers {
		out = append(out, rangeControl("Numbers", "number:"+k.ID, lab.KnobLabel(k), &s.numbers[i], lab.KnobValue(k, s.numbers[i].Value)))
	}
	out = append(out, s.query.controls()...)
	for _, q := range s.Ex.Questions {
		kind := KindRadio
		if q.Multi {
			kind = KindCheck
		}
		for _, o := range q.Options {
			out = append(out, Control{ID: "opt:" + q.ID + ":" + o.ID, Group: q.Text, Label: o.Label, Kind: kind, On: s.Form.Chosen(q.ID, o.ID)})
		}
	}
	out = append(out, s.chain.controls()...)
	out = append(out, Control{ID: "defence", Group: "Your defence", Kind: KindText, Text: s.Form.Defence(),
		Label: "Your reasoning in a few sentences: kept with your answer and shown beside the model answer, not graded"})
	if s.shown {
		for i, k := range s.Ex.KeyPoints {
			out = append(out, Control{ID: fmt.Sprintf("point:%d", i), Group: keyPointsHeading,
				Label: k, Kind: KindCheck, On: s.Form.Ticked(i)})
		}
	}
	out = append(out,
		Control{ID: "check", Group: "Your answer", Label: "Check answer", Disabled: s.checkB.Disabled},
		Control{ID: "cancel", Group: "Your answer", Label: "Cancel the check", Disabled: s.cancel.Disabled},
		Control{ID: "hint", Group: "Your answer", Label: plainLabel(s.hintB.Label), Disabled: s.hintB.Disabled, Detail: s.hintDetail()},
		Control{ID: "model", Group: "Your answer", Label: s.model.Label, Disabled: s.model.Disabled})
	return append(out, s.shareControls()...)
}

// hintDetail says why the last rung is not offered yet ("" when it is).
func (s *exerciseAnswer) hintDetail() string {
	if s.lastHintLocked() {
		return lastHintWaits
	}
	return ""
}

// pointRefused begins the notice for a key point that cannot be ticked.
const pointRefused = "That key point cannot be ticked: "

// togglePoint ticks or unticks key point i and keeps the draft: the
// page's checkbox and the canvas's box both come here.
func (s *exerciseAnswer) togglePoint(i int) {
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
func (s *exerciseAnswer) setNumber(k lessons.Knob, v float64) bool {
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
