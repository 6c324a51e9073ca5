package game

import (
	"strings"

	"leaselab/game/ui"
)

// Control is one control of a scene as the page around the canvas offers
// it (the browser's HTML lesson panel): using it sends a ui.HostAction
// with its ID, which the scene applies as a click on its own widget of
// that name would be. Every action of a lesson is one, so a learner who
// cannot use the canvas can still finish it.
type Control struct {
	// ID is what the control sends (ui.HostAction.ID); Slot, when set, is
	// the control's lasting place, kept while its ID changes with the
	// state ("Pause" becomes "Resume"), so the page keeps it focused.
	ID   string `json:"id"`
	Slot string `json:"slot,omitempty"`
	// Group is the heading it is listed under: an actor ("A"), "Store",
	// "Playback", "Lesson".
	Group string `json:"group"`
	Label string `json:"label"`
	// Kind is "" for a button; "toggle" for an on/off button (On says
	// which); "range" for a value between Min and Max in Step, shown as
	// Text; "choice" for one of Options (Value is the index); "radio" and
	// "check" for an option of a single- or multiple-choice question
	// (On: chosen); "link" for a way to another screen.
	Kind     string   `json:"kind,omitempty"`
	On       bool     `json:"on,omitempty"`
	Disabled bool     `json:"disabled,omitempty"`
	Value    float64  `json:"value,omitempty"`
	Min      float64  `json:"min,omitempty"`
	Max      float64  `json:"max,omitempty"`
	Step     float64  `json:"step,omitempty"`
	Text     string   `json:"text,omitempty"`
	Options  []string `json:"options,omitempty"`
	// Detail is a line said after the label (a lesson's summary).
	Detail string `json:"detail,omitempty"`
}

// Control kinds.
const (
	KindToggle = "toggle"
	KindRange  = "range"
	KindChoice = "choice"
	KindRadio  = "radio"
	KindCheck  = "check"
	KindLink   = "link"
	KindText   = "text" // a few paragraphs the learner writes; Text holds them
	// KindCopy is text the learner copies (a link): shown read-only in a
	// field they can select by keyboard; Text holds it.
	KindCopy = "copy"
)

// pressNamed applies this tick's host actions to the widgets in names: a
// button or toggle fires on its next Update as if clicked, a slider takes
// the value. It returns the actions no widget there is named for.
func pressNamed(in *ui.Input, names map[ui.Focusable]string) []ui.HostAction {
	if len(in.Host) == 0 {
		return nil
	}
	byName := make(map[string]ui.Focusable, len(names))
	for w, n := range names {
		byName[n] = w
	}
	var rest []ui.HostAction
	for _, h := range in.Host {
		switch w := byName[h.ID].(type) {
		case interface{ Press() }:
			w.Press()
		case *ui.Slider:
			w.Request(h.Value)
		default:
			rest = append(rest, h)
		}
	}
	return rest
}

// KeyPrefix starts a host action that is a key rather than a control:
// "key:" and an intent's name ("key:play-pause", "key:back-step"), a
// shortcut pressed while the page, not the canvas, had the focus
// (ui.PageShortcut).
const KeyPrefix = ui.HostKeyPrefix

// hostIntents turns host actions that are keys (KeyPrefix) into their
// intent this tick, as the key on the canvas would, and "digit" into the
// digit key Value; it keeps the others, the scene's controls.
func hostIntents(in *ui.Input) {
	var rest []ui.HostAction
	for _, h := range in.Host {
		name, isKey := strings.CutPrefix(h.ID, KeyPrefix)
		if i, ok := ui.IntentNamed(name); isKey && ok && !canvasKeys.Has(i) {
			in.Keys |= ui.KeysOf(i)
			continue
		}
		if h.ID == "digit" && h.Value >= 1 && h.Value <= 9 {
			in.Digit = int(h.Value)
			continue
		}
		rest = append(rest, h)
	}
	in.Host = rest
}

// canvasKeys are the intents only the canvas's own keys give: moving and
// pressing its focus. On the page those keys work its own controls.
var canvasKeys = ui.KeysOf(ui.IntentFocusNext, ui.IntentFocusPrev, ui.IntentActivate, ui.IntentLeft, ui.IntentRight,
	ui.IntentUp, ui.IntentDown, ui.IntentPageUp, ui.IntentPageDown, ui.IntentHome, ui.IntentEnd)

// plainLabel drops a canvas label's key hint ("Resume (Z)" is "Resume"):
// the page lists the keys in its own help.
func plainLabel(s string) string {
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") && len(s)-i <= 8 {
		return s[:i]
	}
	return s
}

// rangeControl is the control for slider s, its value said as text.
func rangeControl(group, name, label string, s *ui.Slider, text string) Control {
	return Control{ID: name, Group: group, Label: label, Kind: KindRange, Value: s.Value,
		Min: s.Min, Max: s.Max, Step: s.Step, Text: text, Disabled: s.Disabled}
}
