package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestShortcutsWorkOnTheFocusedSliderAndMenu: P, Esc and the digits do
// what they do on the canvas while a slider, a menu, a checkbox or a
// button has the focus (issue 29: they died on a slider or a menu).
func TestShortcutsWorkOnTheFocusedSliderAndMenu(t *testing.T) {
	slider := PageTarget{Tag: "input", Type: "range"}
	menu := PageTarget{Tag: "select"}
	for _, target := range []PageTarget{slider, menu, {Tag: "input", Type: "checkbox"}, {Tag: "button"}, {Tag: "h1"}, {Tag: "body"}} {
		h, ok := PageShortcut(target, "p", "KeyP", true)
		assert.True(t, ok, "P on %+v", target)
		assert.Equal(t, "key:play-pause", h.ID, "P on %+v", target)
		h, ok = PageShortcut(target, "Escape", "Escape", true)
		assert.True(t, ok, "Esc on %+v", target)
		assert.Equal(t, "key:back", h.ID)
		h, ok = PageShortcut(target, "2", "Digit2", true)
		assert.True(t, ok, "2 on %+v", target)
		assert.Equal(t, HostAction{ID: "digit", Value: 2}, h)
	}
}

// TestATextFieldKeepsEveryKey: typing in a text field never fires a
// shortcut, Esc included.
func TestATextFieldKeepsEveryKey(t *testing.T) {
	for _, target := range []PageTarget{{Tag: "textarea"}, {Tag: "input", Type: "text"}, {Tag: "input", Type: "number"}, {Tag: "input"}, {Tag: "div", Editable: true}} {
		for _, k := range [][2]string{{"p", "KeyP"}, {"Escape", "Escape"}, {"1", "Digit1"}, {" ", "Space"}} {
			_, ok := PageShortcut(target, k[0], k[1], true)
			assert.False(t, ok, "%s in %+v", k[1], target)
		}
	}
}

// TestTheFocusedElementKeepsItsOwnKeys: the arrows, Page Up and Down,
// Home and End work the slider; Space and Enter press the button, pick
// the choice, open the menu; Space plays only where it presses nothing.
func TestTheFocusedElementKeepsItsOwnKeys(t *testing.T) {
	slider := PageTarget{Tag: "input", Type: "range"}
	for _, code := range []string{"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", "Enter", "Tab"} {
		_, ok := PageShortcut(slider, code, code, true)
		assert.False(t, ok, "%s stays the slider's", code)
	}
	for _, target := range []PageTarget{slider, {Tag: "button"}, {Tag: "a"}, {Tag: "select"}, {Tag: "summary"}} {
		_, ok := PageShortcut(target, " ", "Space", true)
		assert.False(t, ok, "Space presses %+v", target)
	}
	h, ok := PageShortcut(PageTarget{Tag: "h1"}, " ", "Space", true)
	assert.True(t, ok, "Space on a heading plays")
	assert.Equal(t, "key:play-pause", h.ID)
	_, ok = PageShortcut(PageTarget{Tag: "h1"}, " ", "Space", false)
	assert.False(t, ok, "without a run Space scrolls the page")
	_, ok = PageShortcut(PageTarget{Tag: "canvas"}, "p", "KeyP", true)
	assert.False(t, ok, "the canvas reads its own keys")
}

// TestAMenuWithoutARunKeepsItsTypeAhead: on a screen with no run (the
// sandbox's setup), a letter picks a menu's option by its first letter;
// Esc still goes back.
func TestAMenuWithoutARunKeepsItsTypeAhead(t *testing.T) {
	menu := PageTarget{Tag: "select"}
	_, ok := PageShortcut(menu, "z", "KeyZ", false)
	assert.False(t, ok, "Z picks ZooKeeper")
	h, ok := PageShortcut(menu, "Escape", "Escape", false)
	assert.True(t, ok)
	assert.Equal(t, "key:back", h.ID)
}
