package ui

import "testing"

func TestPointerPrefersTouch(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want Pointer
	}{
		{"mouse", Input{Cursor: Point{3, 4}, MouseDown: true, MouseJustDown: true},
			Pointer{Pos: Point{3, 4}, Down: true, JustDown: true, Present: true}},
		{"mouse release", Input{Cursor: Point{3, 4}, MouseJustUp: true},
			Pointer{Pos: Point{3, 4}, JustUp: true, Present: true}},
		{"first touch wins", Input{Cursor: Point{3, 4}, Touches: []Touch{{ID: 7, Pos: Point{9, 9}, JustDown: true}, {ID: 8, Pos: Point{1, 1}}}},
			Pointer{Pos: Point{9, 9}, Down: true, JustDown: true, Present: true, Touch: true}},
		{"lifted touch", Input{Touches: []Touch{{ID: 7, Pos: Point{9, 9}, JustUp: true}}},
			Pointer{Pos: Point{9, 9}, JustUp: true, Present: true, Touch: true}},
	}
	for _, tt := range tests {
		if got := tt.in.Pointer(); got != tt.want {
			t.Errorf("%s: Pointer() = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestIntents(t *testing.T) {
	s := KeysOf(IntentFocusNext, IntentHint)
	for i := range intentCount {
		want := i == IntentFocusNext || i == IntentHint
		if s.Has(i) != want {
			t.Errorf("Has(%v) = %v", i, !want)
		}
		if i.String() == "" || i.String() == "intent(?)" {
			t.Errorf("intent %d has no name", i)
		}
	}
	if Intent(200).String() != "intent(?)" {
		t.Error("unknown intent should say so")
	}
}

func TestLabelsSayTheirKeyFromTheTable(t *testing.T) {
	if got := WithKey("Resume", IntentPauseProc); got != "Resume (Z)" {
		t.Errorf("WithKey = %q", got)
	}
	if IntentStep.Key() != "." || IntentStep.HelpKeys() != ". (period)" || IntentHint.HelpKeys() != "H" {
		t.Errorf("step %q/%q, hint %q", IntentStep.Key(), IntentStep.HelpKeys(), IntentHint.HelpKeys())
	}
	for _, i := range AllIntents() {
		if i.Key() == "" {
			t.Errorf("%s has no key label", i)
		}
	}
}

// Every key a label names appears in the help, except the arrows and
// pages that only move inside a widget.
func TestTheHelpCoversEveryShortcutKey(t *testing.T) {
	inHelp := map[Intent]bool{}
	for _, s := range Shortcuts {
		for _, i := range s.Intents {
			inHelp[i] = true
		}
	}
	for _, i := range AllIntents() {
		switch i {
		case IntentFocusPrev, IntentLeft, IntentRight, IntentPageUp, IntentPageDown, IntentHome, IntentEnd:
			continue
		}
		if !inHelp[i] {
			t.Errorf("%s is in no help row", i)
		}
	}
	if got := Shortcuts[9].Keys(); got != "Z  X  C  E" {
		t.Errorf("row keys %q", got)
	}
}
