package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A deck's canvas buttons are made from its declarations: one per id, with
// the declaration's words (and key) and state, kept while the id is
// declared, so a button keeps its place and focus; a page's use and a
// click on the button run the same action, once a tick.
func TestADecksButtonsAreItsDeclarations(t *testing.T) {
	var got []string
	do := func(id string) func(HostAction) { return func(HostAction) { got = append(got, id) } }
	var d Deck
	changed := d.Declare(Controls{
		{ID: "open", Label: "Open", Key: IntentHint, Do: do("open")},
		{ID: "shut", Label: "Shut", Disabled: true, Do: do("shut")},
	})
	assert.True(t, changed, "the first declaration makes the buttons")
	open := d.Button("open")
	require.NotNil(t, open)
	assert.Equal(t, WithKey("Open", IntentHint), open.Label, "the canvas's words are the declaration's")
	assert.True(t, d.Button("shut").Disabled, "and so is its state")
	assert.Equal(t, []Focusable{open, d.Button("shut")}, d.Buttons(), "in the declarations' order")
	assert.Equal(t, "open", d.Name(open))

	open.Rect = Rect{X: 0, Y: 0, W: 100, H: 30}
	regions := map[string]Rect{}
	d.Regions(regions)
	assert.Equal(t, map[string]Rect{"open": open.Rect}, regions, "a region under the control's id, once laid out")

	used, rest, err := d.Update(&Input{Host: []HostAction{{ID: "open"}, {ID: "key:hint"}}})
	require.NoError(t, err)
	assert.True(t, used)
	assert.Empty(t, rest, "nothing after a use reaches the screen it may have left")
	assert.Equal(t, []string{"open"}, got, "the page's use ran the action")

	d.Update(mouseDown(50, 15))
	used, _, err = d.Update(mouseUp(50, 15))
	require.NoError(t, err)
	assert.True(t, used)
	assert.Equal(t, []string{"open", "open"}, got, "a click on the canvas ran the same action")

	_, rest, err = d.Update(&Input{Host: []HostAction{{ID: "text"}, {ID: "shut"}}})
	assert.EqualError(t, err, "Shut is not available now", "a disabled control is refused with its reason")
	assert.Equal(t, []HostAction{{ID: "text"}}, rest, "a use of no declaration is the scene's own")

	assert.False(t, d.Declare(Controls{{ID: "open", Label: "Open again", Do: do("open")}, {ID: "shut", Label: "Shut", Do: do("shut")}}),
		"the same ids: the focus ring stays")
	assert.Same(t, open, d.Button("open"), "a button lives as long as its id")
	assert.Equal(t, "Open again", open.Label)
	assert.True(t, d.Declare(Controls{{ID: "open", Label: "Open", Do: do("open")}}))
	assert.Nil(t, d.Button("shut"), "an id no longer declared has no button")
}
