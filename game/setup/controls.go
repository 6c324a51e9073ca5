package setup

import "leaselab/game/ui"

// FieldID is the id of field f's control: "field:NAME", on the page, as
// the canvas's region and focus, and in tests.
func FieldID(f *Field) string { return "field:" + f.Name }

// GroupSettings heads the fields on the page.
const GroupSettings = "Settings"

// Controls declare each field once, for the page and the canvas: its id,
// label, value (said as text, with "not used" or its problem), range or
// choices, whether it applies, and what setting it does. The canvas's
// slider or choice button is the same field, and a change of it passes
// the same declaration ([Setup.UpdateFields]).
func (s *Setup) Controls() ui.Controls {
	out := make(ui.Controls, 0, len(s.Fields))
	for _, f := range s.Fields {
		c := ui.Control{ID: FieldID(f), Group: GroupSettings, Label: f.Label, Text: f.Value(&s.Config),
			Disabled: !f.Applies(&s.Config)}
		if f.Choices != nil {
			c.Kind, c.Options, c.Value = ui.KindChoice, f.Choices(&s.Config), f.Get(&s.Config)
		} else {
			c.Kind, c.Value, c.Min, c.Max, c.Step = ui.KindRange, f.Slider.Value, f.Slider.Min, f.Slider.Max, f.Slider.Step
		}
		if c.Disabled {
			c.Text += " (not used)"
		}
		if f.Err != "" {
			c.Text += "; problem: " + f.Err
		}
		c.Do = func(h ui.HostAction) { s.set(f, h.Value) }
		out = append(out, c)
	}
	return out
}

// set gives field f value v: a quantity snapped as its slider snaps it
// (ui.Controls.Use has kept it in range), a choice by its index (which
// Use has checked).
func (s *Setup) set(f *Field, v float64) {
	if f.Choices == nil {
		f.Slider.SetValue(v)
		v = f.Slider.Value
	}
	s.Set(f, v)
}

// UpdateFields gives this tick's input to the fields' canvas widgets and
// passes each change through decls, the declarations' one door, as the
// page's use of the same control does: a slider moved gives its value, a
// choice button pressed the next choice. err says why a change was
// refused.
func (s *Setup) UpdateFields(in *ui.Input, decls ui.Controls) (err error) {
	for _, f := range s.Fields {
		h := ui.HostAction{ID: FieldID(f)}
		switch {
		case f.Choices != nil && f.Button.Update(in):
			h.Value = float64((int(f.Get(&s.Config)) + 1) % len(f.Choices(&s.Config)))
		case f.Choices == nil && f.Slider.Update(in):
			h.Value = f.Slider.Value
		default:
			continue
		}
		if _, e := decls.Use(h); e != nil {
			err = e
		}
	}
	return err
}
