package exercise

import (
	"fmt"
	"leaselab/game/scene"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/answer"
	"leaselab/game/draw"
	"leaselab/game/ui"
)

// The answer form's Update, Layout and Draw: the canvas's input, the
// page's uses (host, in host.go) and the draft saved as the
// learner types.

// Update implements scene.Scene.
func (s *answerForm) Update(st *scene.State) error {
	in := &st.Input
	s.ring.Wrap = st.WrapFocus
	s.host(in)
	if !s.left && (s.back.Update(in) || in.Keys.Has(ui.IntentBack)) {
		s.use(ui.HostAction{ID: "back"})
	}
	if s.left {
		s.left = false
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
			s.ScrollToFocus()
		}
	}
	if s.updateTabs(in) {
		return nil
	}
	s.reading[s.tab].Update(in)

	// The form's widgets see the pointer only inside its scrolled view.
	s.scrollForm(in)
	if s.updateForm(s.formInput(in)) {
		return nil
	}
	s.updateFooter(in)
	s.scene.work(st.Frame)
	return nil
}

// updateTabs passes a press on a tab through its declaration; it
// reports whether the worst run opened over the answer.
func (s *answerForm) updateTabs(in *ui.Input) bool {
	for i := range s.tabs {
		if s.tabs[i].Update(in) {
			s.use(ui.HostAction{ID: "tab:" + s.tabs[i].id})
			break // the tabs may have changed
		}
	}
	return s.takeLeft()
}

// takeLeft reports, once, whether a use left the answer for another
// screen.
func (s *answerForm) takeLeft() bool {
	left := s.left
	s.left = false
	return left
}

// updateForm applies this tick's input fin on the form's widgets; it
// reports whether the simulator opened over the answer.
func (s *answerForm) updateForm(fin *ui.Input) bool {
	s.sim.Disabled = s.Ex.Lab == nil || s.scene.Checking()
	if s.Ex.Lab != nil && s.sim.Update(fin) {
		s.use(ui.HostAction{ID: "simulator"})
		if s.takeLeft() {
			return true
		}
	}
	s.updateNumbers(fin)
	s.query.update(fin)
	s.updateOptions(fin)
	s.chain.Update(fin)

	if s.defence.Focus() == ui.NoFocus {
		s.defence.Text = s.Form.Defence() // a restored or page-typed defence
	}
	if s.defence.Update(fin) {
		s.use(ui.HostAction{ID: "defence", Text: s.defence.Text})
		s.defence.Text = s.Form.Defence() // as kept: unchanged when refused
	}
	if s.shown {
		for i := range s.points {
			if answer.Pressed(&s.points[i], fin) {
				s.use(ui.HostAction{ID: fmt.Sprintf("point:%d", i)})
			}
		}
	}
	return false
}

// updateNumbers applies this tick's input on the number fields' sliders.
func (s *answerForm) updateNumbers(fin *ui.Input) {
	for i, k := range s.Ex.Numbers {
		sl := &s.numbers[i]
		// A press on a slider that still shows its default sets that
		// value: the learner chose it, though it did not change.
		if sl.Update(fin) || sl.Dragging() && !s.Form.IsSet(k.ID) {
			s.use(ui.HostAction{ID: "number:" + k.ID, Value: sl.Value})
		}
		if s.edited && !sl.Dragging() {
			// Keep the draft as it is edited (once a drag ends, not on
			// every pixel of it).
			s.saveDraft()
		}
	}
	s.syncNumbers()
}

// updateOptions applies this tick's presses on the questions' options.
func (s *answerForm) updateOptions(fin *ui.Input) {
	for qi, q := range s.Ex.Questions {
		for oi, o := range q.Options {
			if answer.Pressed(&s.options[qi][oi], fin) {
				s.use(ui.HostAction{ID: "opt:" + q.ID + ":" + o.ID})
			}
		}
	}
}

// updateFooter applies this tick's presses on the footer's buttons and
// the share button.
func (s *answerForm) updateFooter(in *ui.Input) {
	checking := s.scene.Checking()
	s.checkB.Disabled = checking
	s.cancel.Disabled = !checking
	s.model.Disabled = !s.ModelAvailable()
	for _, b := range []struct {
		id string
		w  *ui.Button
	}{{"check", &s.checkB}, {"hint", &s.hintB}, {"cancel", &s.cancel}, {"model", &s.model}} {
		if b.w.Update(in) {
			s.use(ui.HostAction{ID: b.id})
		}
	}
	s.shareB.Disabled = !s.shareable()
	if s.shareB.Update(in) {
		s.use(ui.HostAction{ID: "share"})
	}
}

// Layout implements scene.Scene: the form as scrolled, the tabs a check or the
// model answer added.
func (s *answerForm) Layout(window ui.Rect, style draw.Style) {
	s.style, s.outside = style, style.PanelOutside
	s.layout(window)
	s.chain.KeepPlace()
	if s.toPoints {
		s.toPoints = false
		s.scrollToPoints()
	}
	s.place()
}

// Draw implements scene.Scene.
func (s *answerForm) Draw(screen *ebiten.Image) { s.draw(screen) }
