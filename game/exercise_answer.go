package game

import (
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
)

// The answer side of an exercise: its Update, Layout and Draw, and the
// draft saved as the learner types.

// Update implements Scene.
func (a *exerciseAnswer) Update(st *State) error {
	s := (*ExerciseScene)(a)
	in := &st.Input
	s.ring.Wrap = st.WrapFocus
	s.host(in)

	if s.back.Update(in) || in.Keys.Has(ui.IntentBack) {
		s.leave()
		return nil
	}
	if esc := s.ring.Update(in); esc != ui.NoEscape {
		st.FocusEscape = esc
	}
	// Scroll to a widget when the keyboard moves focus to it, not later:
	// the wheel may move the form away from a focused option.
	if cur := s.ring.Current(); cur != s.focused {
		s.focused = cur
		if s.ring.Visible() {
			s.scrollToFocus()
		}
	}
	for i := range s.tabs {
		if !s.tabs[i].Update(in) {
			continue
		}
		if s.tabs[i].id == tabReplay {
			if err := s.WatchWorstRun(); err != nil {
				s.notice = "The run could not open: " + err.Error()
				continue
			}
			return nil
		}
		s.setTab(s.tabs[i].id)
		s.Narrate("Showing " + strings.ToLower(s.tabs[i].Label))
	}
	s.reading[s.tab].Update(in)

	// The form's widgets see the pointer only inside its scrolled view.
	s.scrollForm(in)
	fin := s.formInput(in)
	s.sim.Disabled = s.Ex.Lab == nil || s.check != nil
	if s.Ex.Lab != nil && s.sim.Update(fin) {
		if err := s.openLab(); err != nil {
			s.notice = "The simulator could not start: " + err.Error()
		} else {
			return nil
		}
	}
	for i, k := range s.Ex.Numbers {
		sl := &s.numbers[i]
		// A press on a slider that still shows its default sets that
		// value: the learner chose it, though it did not change.
		if sl.Update(fin) || sl.Dragging() && !s.Form.IsSet(k.ID) {
			if s.setNumber(k, sl.Value) {
				s.edited = true
			}
		}
		if s.edited && !sl.Dragging() {
			// Keep the draft as it is edited (once a drag ends, not on
			// every pixel of it).
			s.saveDraft()
		}
	}
	s.syncNumbers()
	s.updateQuery(fin)
	for qi, q := range s.Ex.Questions {
		for oi, o := range q.Options {
			if pressed(&s.options[qi][oi], fin) {
				if _, err := s.Form.Pick(q.ID, o.ID); err != nil {
					s.notice = err.Error()
				} else {
					s.Narrate(form.ChoiceText(s.Form, q, o))
					s.disarm()
					s.edited = true
					s.saveDraft()
				}
			}
		}
	}
	s.updateChain(fin)

	if s.defence.Focus() == ui.NoFocus {
		s.defence.Text = s.Form.Defence() // a restored or page-typed defence
	}
	if s.defence.Update(fin) {
		if err := s.Form.SetDefence(s.defence.Text); err != nil {
			s.notice = err.Error()
			s.defence.Text = s.Form.Defence()
		} else {
			s.saveDraft()
		}
	}
	if s.shown {
		for i := range s.points {
			if pressed(&s.points[i], fin) {
				s.togglePoint(i)
			}
		}
	}

	s.checkB.Disabled = s.check != nil
	s.cancel.Disabled = s.check == nil
	s.model.Disabled = !s.ModelAvailable()
	if s.checkB.Update(in) {
		s.StartCheck()
	}
	if s.hintB.Update(in) {
		s.disarm()
		s.ShowHint()
	}
	if s.cancel.Update(in) && s.check != nil {
		s.check.Cancel()
		s.check = nil
		s.Narrate("Check cancelled; nothing was recorded.")
	}
	if s.model.Update(in) {
		s.AskModel()
	}
	s.shareB.Disabled = !s.Shareable()
	if s.shareB.Update(in) {
		s.ShareAnswer()
	}
	s.work(st.Frame)
	return nil
}

// pressed reports whether a box or option of the form fired: clicked,
// or Enter or Space while it has the focus (Space ticks a box, as on a
// web page).
func pressed(b *ui.Button, in *ui.Input) bool {
	return b.Update(in) || b.Focus() != ui.NoFocus && in.Keys.Has(ui.IntentPlayPause)
}

// Layout implements Scene: the form as scrolled, the tabs a check or the
// model answer added.
func (a *exerciseAnswer) Layout(window ui.Rect, style draw.Style) {
	s := (*ExerciseScene)(a)
	s.style, s.outside = style, style.PanelOutside
	s.layout(window)
	s.keepChainPlace()
	if s.toPoints {
		s.toPoints = false
		s.scrollToPoints()
	}
	s.place()
}

// saveDraft keeps the answer being edited, so a reload never loses it.
func (s *ExerciseScene) saveDraft() {
	s.edited = false
	if s.OnSave != nil {
		s.OnSave()
	}
}

// leave goes back to the menu, stopping a running check.
func (s *ExerciseScene) leave() {
	if s.check != nil {
		s.check.Cancel()
		s.check = nil
	}
	if s.OnSave != nil {
		s.OnSave()
	}
	if s.OnBack != nil {
		s.OnBack()
	}
}

// Draw implements Scene.
func (a *exerciseAnswer) Draw(screen *ebiten.Image) { (*ExerciseScene)(a).draw(screen) }
