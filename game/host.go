package game

import (
	"strings"

	"leaselab/game/ui"
)

// Control is one control of a scene, declared once (ui.Control): the page
// around the canvas (the browser's HTML lesson panel) shows it, and using
// it sends a ui.HostAction with its ID, which the scene passes through
// ui.Controls.Use as a click on its canvas widget does. Every action of a
// lesson is one, so a learner who cannot use the canvas can still finish
// it.
type Control = ui.Control

// Control kinds (see ui.Control).
const (
	KindToggle = ui.KindToggle
	KindRange  = ui.KindRange
	KindChoice = ui.KindChoice
	KindRadio  = ui.KindRadio
	KindCheck  = ui.KindCheck
	KindLink   = ui.KindLink
	KindText   = ui.KindText
	KindCopy   = ui.KindCopy
	KindNote   = ui.KindNote
)

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
