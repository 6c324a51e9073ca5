package ui

import "strings"

// HostKeyPrefix starts a host action that is a key rather than a control:
// "key:" and an intent's name ("key:play-pause"), a shortcut pressed while
// the page, not the canvas, had the focus.
const HostKeyPrefix = "key:"

// PageTarget is the page element a key press went to: its tag name and,
// for an <input>, its type, both lower case.
type PageTarget struct {
	Tag, Type string
	// Editable: the element is contenteditable.
	Editable bool
}

// TextField reports whether keys typed at t are text the learner writes
// (a text area, a text-like input, an editable element): there, every key
// is theirs and none is a shortcut.
func (t PageTarget) TextField() bool {
	switch t.Tag {
	case "textarea":
		return true
	case "input":
		switch t.Type {
		case "range", "checkbox", "radio", "button", "submit", "reset", "file", "color", "image":
			return false
		}
		return true // text, search, number, email, url, password, date...
	}
	return t.Editable
}

// PageShortcut is what a key pressed on the page (not on the canvas) does:
// the host action the canvas's own key would give, or false when the key
// belongs to the element that has the focus. key and code are the
// KeyboardEvent's; world says the screen shows a run (play is offered).
//
// Shortcuts work wherever the focus is, except in a text field: on a
// slider, a menu, a checkbox, a button or a link too. The element keeps
// the keys that work it: Space, Enter, the arrows, Page Up and Down, Home
// and End (and, on a menu of a screen without a run, the letters and
// digits that pick an option by its first character). Space plays or
// pauses where it presses nothing.
func PageShortcut(t PageTarget, key, code string, world bool) (HostAction, bool) {
	if t.TextField() || t.Tag == "canvas" {
		return HostAction{}, false // the canvas reads its own keys
	}
	control := t.Tag == "button" || t.Tag == "a" || t.Tag == "summary" || t.Tag == "select" || t.Tag == "input"
	if key == " " {
		if control || !world {
			return HostAction{}, false
		}
		return HostAction{ID: HostKeyPrefix + IntentPlayPause.String()}, true
	}
	if t.Tag == "select" && !world && code != "Escape" {
		return HostAction{}, false // the menu's type-ahead
	}
	if d, ok := strings.CutPrefix(code, "Digit"); ok && len(d) == 1 && d[0] >= '1' && d[0] <= '9' {
		return HostAction{ID: "digit", Value: float64(d[0] - '0')}, true
	}
	i, ok := pageKeys[strings.TrimPrefix(code, "Key")]
	if !ok {
		return HostAction{}, false
	}
	return HostAction{ID: HostKeyPrefix + i.String()}, true
}

// pageKeys maps a key's code (KeyboardEvent.code without "Key") to the
// intent it gives on the canvas, from the canvas's own key table, less
// the keys that work the focused element.
var pageKeys = func() map[string]Intent {
	m := map[string]Intent{}
	for _, i := range AllIntents() {
		for _, k := range i.KeyNames() {
			switch k {
			case "Space", "Enter", "NumpadEnter", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End":
				continue // the element's own keys
			}
			m[k] = i
		}
	}
	return m
}()
