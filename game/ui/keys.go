package ui

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
	IntentActivate:  {"activate", []string{"Enter", "NumpadEnter", "Space"}, false, "Enter", ""},
	IntentLeft:      {"left", []string{"ArrowLeft"}, true, "Left", ""},
	IntentRight:     {"right", []string{"ArrowRight"}, true, "Right", ""},
	IntentUp:        {"up", []string{"ArrowUp"}, true, "Up", ""},
	IntentDown:      {"down", []string{"ArrowDown"}, true, "Down", ""},
	IntentPageUp:    {"page-up", []string{"PageUp"}, true, "Page Up", ""},
	IntentPageDown:  {"page-down", []string{"PageDown"}, true, "Page Down", ""},
	IntentHome:      {"home", []string{"Home"}, false, "Home", ""},
	IntentEnd:       {"end", []string{"End"}, false, "End", ""},
	IntentPlayPause: {"play-pause", []string{"P", "K"}, false, "P", "Space or P"},
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
