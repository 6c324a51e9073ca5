package ui

import (
	"unicode"
	"unicode/utf8"
)

// TextField is a few paragraphs the learner types: while it has the
// focus, the characters typed go in, Backspace takes the last one out and
// Enter starts a new line. Max bounds it in bytes.
type TextField struct {
	Rect     Rect
	Text     string
	Max      int
	Disabled bool
	focus    Focus
}

// Update types this tick's characters into a focused field and reports
// whether the text changed. Enter, taken as a new line, is removed from
// in's intents so nothing else acts on it.
func (f *TextField) Update(in *Input) (changed bool) {
	if f.Disabled || f.focus == NoFocus {
		return false
	}
	text := f.Text
	for _, r := range in.Chars {
		if r == '\r' {
			r = '\n'
		}
		if r != '\n' && !unicode.IsPrint(r) {
			continue
		}
		text = f.add(text, string(r))
	}
	if in.Keys.Has(IntentActivate) {
		text = f.add(text, "\n")
		in.Keys &^= KeysOf(IntentActivate)
	}
	for range in.Erase {
		if _, n := utf8.DecodeLastRuneInString(text); n > 0 {
			text = text[:len(text)-n]
		}
	}
	changed = text != f.Text
	f.Text = text
	return changed
}

func (f *TextField) add(text, s string) string {
	if f.Max > 0 && len(text)+len(s) > f.Max {
		return text
	}
	return text + s
}

// Bounds implements [Focusable].
func (f *TextField) Bounds() Rect { return f.Rect }

// CanFocus implements [Focusable].
func (f *TextField) CanFocus() bool { return !f.Disabled }

// SetFocus implements [Focusable].
func (f *TextField) SetFocus(fc Focus) { f.focus = fc }

// Focus reports the field's keyboard focus.
func (f *TextField) Focus() Focus { return f.focus }
