package ui

import "strings"

// intentTable is the one table of the keyboard: for each intent its name,
// the keys that give it (Ebitengine key names, which the game's input
// reader turns into key codes), whether a held key repeats, the key as a
// label or tooltip shows it, and, where longer, as the help overlay
// shows it. Labels, tooltips, the keymap and the help all read it.
var intentTable = [intentCount]struct {
	name   string
	keys   []string
	repeat bool
	label  string
	help   string // the help overlay's wording; label when empty
}{
	IntentFocusNext: {"focus-next", nil, true, "Tab", ""}, // Tab and Shift+Tab: read with the shift state
	IntentFocusPrev: {"focus-prev", nil, true, "Shift+Tab", ""},
	IntentActivate:  {"activate", []string{"Enter", "NumpadEnter"}, false, "Enter", ""},
	IntentLeft:      {"left", []string{"ArrowLeft"}, true, "Left", ""},
	IntentRight:     {"right", []string{"ArrowRight"}, true, "Right", ""},
	IntentUp:        {"up", []string{"ArrowUp"}, true, "Up", ""},
	IntentDown:      {"down", []string{"ArrowDown"}, true, "Down", ""},
	IntentPageUp:    {"page-up", []string{"PageUp"}, true, "Page Up", ""},
	IntentPageDown:  {"page-down", []string{"PageDown"}, true, "Page Down", ""},
	IntentHome:      {"home", []string{"Home"}, false, "Home", ""},
	IntentEnd:       {"end", []string{"End"}, false, "End", ""},
	IntentPlayPause: {"play-pause", []string{"Space", "P", "K"}, false, "P", "Space or P"},
	IntentStep:      {"step", []string{"Period"}, true, ".", ". (period)"},
	IntentFork:      {"fork", []string{"F"}, false, "F", ""},
	IntentHint:      {"hint", []string{"H"}, false, "H", ""},
	IntentPauseProc: {"pause-process", []string{"Z"}, false, "Z", ""},
	IntentCrashProc: {"crash-process", []string{"X"}, false, "X", ""},
	IntentCutLink:   {"cut-link", []string{"C"}, false, "C", ""},
	IntentExpire:    {"expire-lease", []string{"E"}, false, "E", ""},
	IntentFencing:   {"fencing", []string{"T"}, false, "T", ""},
	IntentSolution:  {"solution", []string{"L"}, false, "L", ""},
	IntentHelp:      {"help", []string{"Slash", "F1"}, false, "?", ""},
	IntentBack:      {"back", []string{"Escape"}, false, "Esc", ""},
	IntentSlower:    {"slower", []string{"BracketLeft"}, true, "[", ""},
	IntentFaster:    {"faster", []string{"BracketRight"}, true, "]", ""},
	IntentBackStep:  {"back-step", []string{"Comma"}, true, ",", ", (comma)"},
	IntentNextActor: {"next-actor", []string{"N"}, true, "N", "1 - 9, N"}, // the digits are Input.Digit
	IntentWrite:     {"write", []string{"W"}, false, "W", ""},
	IntentWriteTok:  {"write-token", []string{"V"}, false, "V", ""},
	IntentSetTTL:    {"set-ttl", []string{"Y"}, false, "Y", ""},
	IntentIdem:      {"idempotency", []string{"I"}, false, "I", ""},
	IntentDelete:    {"delete", []string{"D"}, false, "D", ""},
	IntentPut:       {"put", []string{"U"}, false, "U", ""},
	IntentZoomIn:    {"zoom-in", []string{"Equal", "NumpadAdd"}, true, "+", "+ (or =)"},
	IntentZoomOut:   {"zoom-out", []string{"Minus", "NumpadSubtract"}, true, "-", ""},
	IntentZoomAll:   {"zoom-all", []string{"Digit0", "Numpad0"}, false, "0", ""},
	IntentViewBack:  {"view-back", []string{"Semicolon"}, true, ";", "Semicolon"},
	IntentViewOn:    {"view-on", []string{"Quote"}, true, "'", "Quote"},
	IntentWhy:       {"why", []string{"Q"}, false, "Q", ""},
}

// AllIntents lists every intent, in order.
func AllIntents() []Intent {
	out := make([]Intent, intentCount)
	for i := range out {
		out[i] = Intent(i)
	}
	return out
}

// KeyNames are the Ebitengine names of the keys that give i.
func (i Intent) KeyNames() []string { return intentTable[i].keys }

// Repeats reports whether a held key gives i again and again.
func (i Intent) Repeats() bool { return intentTable[i].repeat }

// Key is i's key as a label shows it: "Z", ".", "Esc".
func (i Intent) Key() string { return intentTable[i].label }

// HelpKeys is i's key as the help overlay shows it: ". (period)".
func (i Intent) HelpKeys() string {
	if h := intentTable[i].help; h != "" {
		return h
	}
	return intentTable[i].label
}

// WithKey is text with i's key after it, as buttons and tooltips say
// it: WithKey("Resume", IntentPauseProc) is "Resume (Z)".
func WithKey(text string, i Intent) string { return text + " (" + i.Key() + ")" }

// Shortcut is one row of the player's keyboard help: what some intents
// do, their keys read from the intent table.
type Shortcut struct {
	Intents []Intent
	Does    string
}

// Shortcuts lists every keyboard shortcut of the player, for its help
// overlay and the mirror.
var Shortcuts = []Shortcut{
	{[]Intent{IntentPlayPause}, "play / pause"},
	{[]Intent{IntentStep}, "step to the next event"},
	{[]Intent{IntentBackStep}, "back one second"},
	{[]Intent{IntentSlower, IntentFaster}, "slower / faster (1/4x to 64x)"},
	{[]Intent{IntentZoomIn, IntentZoomOut, IntentZoomAll}, "timeline: zoom in / out / whole run (or wheel, pinch)"},
	{[]Intent{IntentViewBack, IntentViewOn}, "timeline: show earlier / later"},
	{[]Intent{IntentFork}, "fork: drop later actions, carry on from here"},
	{[]Intent{IntentNextActor}, "select process (or worker) 1 to 9; N: the next one"},
	{[]Intent{IntentUp, IntentDown, IntentActivate}, "choose from the selected one's action menu"},
	{[]Intent{IntentPauseProc, IntentCrashProc, IntentCutLink, IntentExpire}, "pause, crash, cut the link, expire the lease"},
	{[]Intent{IntentWrite, IntentWriteTok}, "write now with its own token / with the picked token"},
	{[]Intent{IntentSetTTL, IntentDelete, IntentPut}, "set its TTL, delete / put the lesson's key"},
	{[]Intent{IntentFencing, IntentIdem}, "switch fencing / the queue's idempotency check"},
	{[]Intent{IntentHint}, "reveal the next hint"},
	{[]Intent{IntentWhy}, "why? what caused the last event"},
	{[]Intent{IntentSolution}, "show the solution"},
	{[]Intent{IntentFocusNext}, "move focus (leaves the canvas after the last widget)"},
	{[]Intent{IntentBack}, "back to the lesson menu"},
	{[]Intent{IntentHelp}, "this help"},
}

// Keys is a help row's key column: its intents' keys, two spaces apart.
func (s Shortcut) Keys() string {
	keys := make([]string, len(s.Intents))
	for i, in := range s.Intents {
		keys[i] = in.HelpKeys()
	}
	sep := "  "
	if len(s.Intents) == 3 && s.Intents[2] == IntentActivate {
		sep = " " // "Up Down Enter": the arrows read as words
	}
	return strings.Join(keys, sep)
}
