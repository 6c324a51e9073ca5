package ui

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A declaration is what the page receives, as it is: its words and state
// marshal, its action does not, and the canvas label adds the key.
func TestADeclarationIsThePagesControl(t *testing.T) {
	c := Control{ID: "act:A:pause", Slot: "act:A:pause", Group: "A: leader", Label: "Pause 20 s", Key: IntentPauseProc,
		Do: func(HostAction) {}}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"act:A:pause","slot":"act:A:pause","group":"A: leader","label":"Pause 20 s"}`, string(b))
	assert.Equal(t, WithKey("Pause 20 s", IntentPauseProc), c.CanvasLabel(), "the canvas shows the key after the words")
	assert.Equal(t, "Resume", Control{Label: "Resume"}.CanvasLabel(), "no key, no hint")
}

// Use is the one door: it runs the named declaration's action once, with
// the value checked, and refuses what the declarations do not offer now.
func TestUseRunsTheDeclaredActionOnceAndChecksIt(t *testing.T) {
	var got []HostAction
	do := func(h HostAction) { got = append(got, h) }
	cs := Controls{
		{ID: "play", Kind: KindToggle, Label: "Play", Do: do},
		{ID: "hint", Label: "Reveal the next hint", Disabled: true, Do: do},
		{ID: "scrub", Kind: KindRange, Label: "Play head", Min: 0, Max: 30, Do: do},
		{ID: "speed", Kind: KindChoice, Label: "Speed", Options: []string{"1x", "2x"}, Do: do},
		{ID: "legacy", Label: "A widget pressed by name"},
	}

	handled, err := cs.Use(HostAction{ID: "play"})
	require.NoError(t, err)
	assert.True(t, handled)
	assert.Equal(t, []HostAction{{ID: "play"}}, got, "the action ran once")

	handled, err = cs.Use(HostAction{ID: "hint"})
	assert.True(t, handled, "a disabled control is the declaration's to refuse")
	assert.EqualError(t, err, "Reveal the next hint is not available now")

	got = nil
	_, err = cs.Use(HostAction{ID: "scrub", Value: 45})
	require.NoError(t, err)
	_, err = cs.Use(HostAction{ID: "scrub", Value: -2})
	require.NoError(t, err)
	assert.Equal(t, []HostAction{{ID: "scrub", Value: 30}, {ID: "scrub", Value: 0}}, got, "a range's value is kept within it")

	_, err = cs.Use(HostAction{ID: "speed", Value: 2})
	assert.EqualError(t, err, "Speed has no option 2")
	_, err = cs.Use(HostAction{ID: "speed", Value: 0.5})
	assert.EqualError(t, err, "Speed has no option 0.5")

	got = nil
	for _, id := range []string{"act:A:pause", "legacy"} {
		handled, err = cs.Use(HostAction{ID: id})
		assert.NoError(t, err)
		assert.False(t, handled, "%s: no declared action, left to the scene", id)
	}
	assert.Empty(t, got, "nothing ran")
}
