package game

import (
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"leaselab/game/ui"
)

// Key repeat for held navigation keys, in ticks: the first repeat after
// repeatDelay, then one every repeatEvery.
const (
	repeatDelay = 24
	repeatEvery = 4
)

// keymap is the one place keys become intents.
var keymap = []struct {
	intent ui.Intent
	keys   []ebiten.Key
	repeat bool
}{
	{ui.IntentActivate, []ebiten.Key{ebiten.KeyEnter, ebiten.KeyNumpadEnter, ebiten.KeySpace}, false},
	{ui.IntentLeft, []ebiten.Key{ebiten.KeyArrowLeft}, true},
	{ui.IntentRight, []ebiten.Key{ebiten.KeyArrowRight}, true},
	{ui.IntentUp, []ebiten.Key{ebiten.KeyArrowUp}, true},
	{ui.IntentDown, []ebiten.Key{ebiten.KeyArrowDown}, true},
	{ui.IntentPageUp, []ebiten.Key{ebiten.KeyPageUp}, true},
	{ui.IntentPageDown, []ebiten.Key{ebiten.KeyPageDown}, true},
	{ui.IntentHome, []ebiten.Key{ebiten.KeyHome}, false},
	{ui.IntentEnd, []ebiten.Key{ebiten.KeyEnd}, false},
	{ui.IntentPlayPause, []ebiten.Key{ebiten.KeyP, ebiten.KeyK}, false},
	{ui.IntentStep, []ebiten.Key{ebiten.KeyPeriod}, true},
	{ui.IntentFork, []ebiten.Key{ebiten.KeyF}, false},
	{ui.IntentHint, []ebiten.Key{ebiten.KeyH}, false},
	{ui.IntentPauseProc, []ebiten.Key{ebiten.KeyZ}, false},
	{ui.IntentCrashProc, []ebiten.Key{ebiten.KeyX}, false},
	{ui.IntentCutLink, []ebiten.Key{ebiten.KeyC}, false},
	{ui.IntentExpire, []ebiten.Key{ebiten.KeyE}, false},
	{ui.IntentFencing, []ebiten.Key{ebiten.KeyT}, false},
	{ui.IntentSolution, []ebiten.Key{ebiten.KeyL}, false},
	{ui.IntentHelp, []ebiten.Key{ebiten.KeySlash, ebiten.KeyF1}, false},
	{ui.IntentBack, []ebiten.Key{ebiten.KeyEscape}, false},
	{ui.IntentSlower, []ebiten.Key{ebiten.KeyBracketLeft}, true},
	{ui.IntentFaster, []ebiten.Key{ebiten.KeyBracketRight}, true},
	{ui.IntentBackStep, []ebiten.Key{ebiten.KeyComma}, true},
	{ui.IntentNextActor, []ebiten.Key{ebiten.KeyN}, true},
	{ui.IntentWrite, []ebiten.Key{ebiten.KeyW}, false},
	{ui.IntentWriteTok, []ebiten.Key{ebiten.KeyV}, false},
	{ui.IntentSetTTL, []ebiten.Key{ebiten.KeyY}, false},
	{ui.IntentIdem, []ebiten.Key{ebiten.KeyI}, false},
	{ui.IntentDelete, []ebiten.Key{ebiten.KeyD}, false},
	{ui.IntentPut, []ebiten.Key{ebiten.KeyU}, false},
}

var digitKeys = []ebiten.Key{ebiten.KeyDigit1, ebiten.KeyDigit2, ebiten.KeyDigit3, ebiten.KeyDigit4,
	ebiten.KeyDigit5, ebiten.KeyDigit6, ebiten.KeyDigit7, ebiten.KeyDigit8, ebiten.KeyDigit9}

// fired reports whether key produced a press this tick, counting repeats.
func fired(key ebiten.Key, repeat bool) bool {
	d := inpututil.KeyPressDuration(key)
	if d == 1 {
		return true
	}
	return repeat && d >= repeatDelay && (d-repeatDelay)%repeatEvery == 0
}

// inputReader turns Ebitengine's input state into a ui.Input once a tick.
type inputReader struct {
	ids []ebiten.TouchID
}

func (r *inputReader) read(window ui.Rect, scale float64) ui.Input {
	in := ui.Input{
		MouseDown:     ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft),
		MouseJustDown: inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft),
		MouseJustUp:   inpututil.IsMouseButtonJustReleased(ebiten.MouseButtonLeft),
		WindowW:       window.W,
		WindowH:       window.H,
		Scale:         scale,
	}
	x, y := ebiten.CursorPosition()
	in.Cursor = ui.Point{X: float64(x), Y: float64(y)}
	wx, wy := ebiten.Wheel()
	// Browsers report pixel-sized deltas for touchpads; cap one tick's
	// scroll so a flick cannot jump through a whole lesson.
	in.Wheel = ui.Point{X: clampf(wx, -3, 3), Y: clampf(wy, -3, 3)}

	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	if fired(ebiten.KeyTab, true) {
		if shift {
			in.Keys |= ui.KeysOf(ui.IntentFocusPrev)
		} else {
			in.Keys |= ui.KeysOf(ui.IntentFocusNext)
		}
	}
	for _, m := range keymap {
		for _, k := range m.keys {
			if fired(k, m.repeat) {
				in.Keys |= ui.KeysOf(m.intent)
			}
		}
	}

	for i, k := range digitKeys {
		if fired(k, false) {
			in.Digit = i + 1
		}
	}

	// Touches: fingers down now, then fingers lifted this tick, each in ID
	// order, so the primary pointer is the oldest finger.
	r.ids = ebiten.AppendTouchIDs(r.ids[:0])
	slices.Sort(r.ids)
	for _, id := range r.ids {
		tx, ty := ebiten.TouchPosition(id)
		in.Touches = append(in.Touches, ui.Touch{
			ID:       int(id),
			Pos:      ui.Point{X: float64(tx), Y: float64(ty)},
			JustDown: inpututil.TouchPressDuration(id) == 1,
		})
	}
	released := inpututil.AppendJustReleasedTouchIDs(nil)
	slices.Sort(released)
	for _, id := range released {
		tx, ty := inpututil.TouchPositionInPreviousTick(id)
		in.Touches = append(in.Touches, ui.Touch{ID: int(id), Pos: ui.Point{X: float64(tx), Y: float64(ty)}, JustUp: true})
	}
	return in
}

func clampf(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }
