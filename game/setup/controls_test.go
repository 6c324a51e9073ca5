package setup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/ui"
)

// The page's settings and the canvas's fields are one declaration: every
// field is declared once under the id the canvas names its widget by,
// with the widget's state (off where the field is not used) and value.
func TestTheSetupsPageAndCanvasAreOneDeclaration(t *testing.T) {
	s := New()
	require.NoError(t, s.UsePreset("leases"))
	cs := s.Controls()
	require.Len(t, cs, len(s.Fields), "one declaration a field")
	for i, f := range s.Fields {
		c := cs[i]
		assert.Equal(t, "field:"+f.Name, c.ID)
		assert.Equal(t, f.Label, c.Label)
		if f.Choices != nil {
			assert.Equal(t, ui.KindChoice, c.Kind, c.ID)
			assert.Equal(t, f.Button.Disabled, c.Disabled, "%s: the canvas's button is off when the page's is", c.ID)
			assert.Equal(t, f.Button.Label, c.Options[int(c.Value)], "%s: the canvas shows the page's choice", c.ID)
		} else {
			assert.Equal(t, ui.KindRange, c.Kind, c.ID)
			assert.Equal(t, f.Slider.Disabled, c.Disabled, "%s: the canvas's slider is off when the page's is", c.ID)
			assert.Equal(t, f.Slider.Value, c.Value, "%s: and shows the page's value", c.ID)
			assert.Equal(t, []float64{f.Slider.Min, f.Slider.Max, f.Slider.Step}, []float64{c.Min, c.Max, c.Step}, c.ID)
		}
	}
}

// A field changed on the canvas (its slider moved by a key, its choice
// button pressed) and the same change sent by the page end in the same
// configuration: both pass the field's declaration. A field not used now
// is refused from the page with why.
func TestASetupFieldChangesAlikeFromThePageAndTheCanvas(t *testing.T) {
	for _, name := range []string{"ttl", "system"} {
		page, canvas := New(), New()
		require.NoError(t, page.UsePreset("leases"))
		require.NoError(t, canvas.UsePreset("leases"))
		f := field(t, canvas, name)
		in := &ui.Input{Keys: ui.KeysOf(ui.IntentActivate)}
		if f.Choices == nil {
			f.Slider.SetFocus(ui.FocusVisible)
			in = &ui.Input{Keys: ui.KeysOf(ui.IntentRight)}
		} else {
			f.Button.SetFocus(ui.FocusVisible)
		}
		require.NoError(t, canvas.UpdateFields(in, canvas.Controls()))
		canvas.Check()
		require.True(t, canvas.Changed, "%s: the canvas changed the setup", name)

		handled, err := page.Controls().Use(ui.HostAction{ID: "field:" + name, Value: f.Get(&canvas.Config)})
		require.NoError(t, err)
		require.True(t, handled)
		page.Check()
		assert.Equal(t, canvas.Config, page.Config, "%s: the page's use made the same configuration", name)
	}
	s := New()
	require.NoError(t, s.UsePreset("leases"))
	var off *Field
	for _, f := range s.Fields {
		if !f.Applies(&s.Config) && f.Choices == nil {
			off = f
			break
		}
	}
	require.NotNil(t, off, "the leases preset has a field it does not use")
	before := s.Config
	_, err := s.Controls().Use(ui.HostAction{ID: FieldID(off), Value: off.Slider.Max})
	assert.EqualError(t, err, off.Label+" is not available now")
	assert.Equal(t, before, s.Config, "and left the setup as it was")
}
