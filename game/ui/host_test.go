package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAPressedButtonFiresOnceAsAClickWould: the page's copy of a button
// fires it on its next update, once, and never while it is disabled.
func TestAPressedButtonFiresOnceAsAClickWould(t *testing.T) {
	var b Button
	b.Press()
	assert.True(t, b.Update(&Input{}), "fires on the next update")
	assert.False(t, b.Update(&Input{}), "and only once")
	b.Disabled = true
	b.Press()
	assert.False(t, b.Update(&Input{}), "a disabled button does not fire")
	b.Disabled = false
	assert.False(t, b.Update(&Input{}), "nor later, once enabled")

	var tg Toggle
	tg.Press()
	assert.True(t, tg.Update(&Input{}))
	assert.True(t, tg.On, "a pressed toggle flips")
}

// TestARequestedSliderValueIsSnappedAndReported: the value comes clamped
// and on the slider's steps, reported as a change only when it is one.
func TestARequestedSliderValueIsSnappedAndReported(t *testing.T) {
	s := Slider{Min: 0, Max: 10, Step: 2, Value: 4}
	s.Request(6.9)
	assert.True(t, s.Update(&Input{}))
	assert.Equal(t, 6.0, s.Value)
	s.Request(6)
	assert.False(t, s.Update(&Input{}), "no change, none reported")
	s.Request(99)
	s.Update(&Input{})
	assert.Equal(t, 10.0, s.Value, "clamped")
	assert.False(t, s.Update(&Input{}), "a request is taken once")
}

// TestIntentsAreFoundByName: the page sends intents by their names.
func TestIntentsAreFoundByName(t *testing.T) {
	for _, i := range AllIntents() {
		got, ok := IntentNamed(i.String())
		assert.True(t, ok, i.String())
		assert.Equal(t, i, got)
	}
	_, ok := IntentNamed("no-such-intent")
	assert.False(t, ok)
}
