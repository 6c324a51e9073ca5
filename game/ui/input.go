package ui

// Point is a position in screen pixels. The game draws at device scale, so
// one unit is one physical pixel.
type Point struct{ X, Y float64 }

// Intent is what a key press means to the lab, not which key it was. The
// input reader maps keys to intents (with key repeat already applied), so
// tests construct intents directly and keymaps live in one place.
type Intent uint8

// The intents widgets and scenes understand.
const (
	IntentFocusNext Intent = iota // Tab
	IntentFocusPrev               // Shift+Tab
	IntentActivate                // Enter: press the focused widget (Space is always play/pause)
	IntentLeft
	IntentRight
	IntentUp
	IntentDown
	IntentPageUp
	IntentPageDown
	IntentHome
	IntentEnd
	IntentPlayPause // P
	IntentStep      // period: step to the next event
	IntentFork      // F
	IntentHint      // H
	IntentPauseProc // Z: pause/resume the selected process
	IntentCrashProc // X: crash/restart the selected process
	IntentCutLink   // C: cut/heal the selected process's link to the coordinator
	IntentExpire    // E: expire the selected process's lease now
	IntentFencing   // T: switch the store's token check
	IntentSolution  // L: load and play the lesson's solution
	IntentHelp      // ? or F1: the keyboard help overlay
	IntentBack      // Escape: close an overlay or menu, then back to the lesson menu
	IntentSlower    // [
	IntentFaster    // ]
	IntentBackStep  // comma: scrub back one second
	IntentNextActor // N: select the next process or worker
	IntentWrite     // W: the selected process writes now with its own token
	IntentWriteTok  // V: the selected process writes with the chosen token
	IntentSetTTL    // Y: set the selected process's TTL (first choice)
	IntentIdem      // I: switch the job queue's idempotency check
	IntentDelete    // D: the selected actor deletes the lesson's key
	IntentPut       // U: the selected actor puts the lesson's key
	IntentZoomIn    // + (=): zoom the timeline in about the play head
	IntentZoomOut   // -: zoom the timeline out
	IntentZoomAll   // 0: the timeline shows the whole run
	IntentViewBack  // ;: the timeline shows earlier (the play head stays)
	IntentViewOn    // ': the timeline shows later
	IntentWhy       // Q: why did the last thing happen?
	intentCount
)

func (i Intent) String() string {
	if i < intentCount {
		return intentTable[i].name
	}
	return "intent(?)"
}

// Intents is a set of intents that fired this tick.
type Intents uint64

// KeysOf returns the set holding the given intents.
func KeysOf(intents ...Intent) Intents {
	var s Intents
	for _, i := range intents {
		s |= 1 << i
	}
	return s
}

// Has reports whether i fired this tick.
func (s Intents) Has(i Intent) bool { return s&(1<<i) != 0 }

// Touch is one finger on the screen.
type Touch struct {
	ID       int
	Pos      Point
	JustDown bool // the finger touched down this tick
	JustUp   bool // the finger lifted this tick; Pos is where it was last
}

// Input is everything the user did during one tick, in screen pixels.
type Input struct {
	Cursor        Point // mouse position
	MouseDown     bool  // primary button held
	MouseJustDown bool  // primary button went down this tick
	MouseJustUp   bool  // primary button went up this tick

	// Touches lists fingers that are down or lifted this tick, primary first.
	Touches []Touch

	// Wheel is this tick's wheel movement in notches; Y > 0 means the wheel
	// turned up, which scrolls content back towards its start.
	Wheel Point

	Keys Intents
	// Digit is the digit key pressed this tick (1-9), 0 for none: it
	// selects process (or worker) N in the world.
	Digit int

	WindowW, WindowH float64 // the screen size in pixels
	Scale            float64 // device scale factor: pixels per device-independent pixel

	// Host are the controls of the page around the canvas used this tick
	// (see HostAction), oldest first.
	Host []HostAction

	// Chars are the characters typed this tick, for a focused text field;
	// Erase is how many times Backspace was pressed (held, it repeats).
	Chars []rune
	Erase int
}

// Pointer is the primary pointer, mouse or finger, as widgets see it.
type Pointer struct {
	Pos      Point
	Down     bool
	JustDown bool
	JustUp   bool
	// Present is false for a finger that is not touching (a touch screen
	// has no hover), so widgets show no hover state or tooltip for it.
	Present bool
	Touch   bool
}

// Pointer returns the primary pointer: the first touch if any finger is on
// the screen (or just lifted), otherwise the mouse.
func (in *Input) Pointer() Pointer {
	if len(in.Touches) > 0 {
		t := in.Touches[0]
		return Pointer{
			Pos:      t.Pos,
			Down:     !t.JustUp,
			JustDown: t.JustDown,
			JustUp:   t.JustUp,
			Present:  true,
			Touch:    true,
		}
	}
	return Pointer{
		Pos:      in.Cursor,
		Down:     in.MouseDown,
		JustDown: in.MouseJustDown,
		JustUp:   in.MouseJustUp,
		Present:  true,
	}
}
