package game

import (
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"leaselab/game/tick"
	"leaselab/game/ui"
)

// binding is one key that gives an intent.
type binding struct {
	intent ui.Intent
	key    ebiten.Key
	repeat bool
}

// keymap is ui's intent table in Ebitengine key codes: the one place keys
// become intents (Tab, read with Shift, and the digits aside).
var keymap = func() []binding {
	var out []binding
	for _, i := range ui.AllIntents() {
		for _, name := range i.KeyNames() {
			var k ebiten.Key
			if err := k.UnmarshalText([]byte(name)); err != nil {
				panic("the intent table names an unknown key: " + err.Error())
			}
			out = append(out, binding{i, k, i.Repeats()})
		}
	}
	return out
}()

var digitKeys = []ebiten.Key{ebiten.KeyDigit1, ebiten.KeyDigit2, ebiten.KeyDigit3, ebiten.KeyDigit4,
	ebiten.KeyDigit5, ebiten.KeyDigit6, ebiten.KeyDigit7, ebiten.KeyDigit8, ebiten.KeyDigit9}

// watchedKeys are every key the reader turns into input.
var watchedKeys = func() []ebiten.Key {
	keys := []ebiten.Key{ebiten.KeyTab, ebiten.KeyBackspace}
	for _, b := range keymap {
		keys = append(keys, b.key)
	}
	keys = append(keys, digitKeys...)
	slices.Sort(keys)
	return slices.Compact(keys)
}()

// repeats reports whether a held k presses again (a key that gives no
// repeating intent presses once).
func repeats(k ebiten.Key) bool {
	if k == ebiten.KeyTab || k == ebiten.KeyBackspace {
		return true
	}
	for _, b := range keymap {
		if b.key == k && b.repeat {
			return true
		}
	}
	return false
}

// inputReader turns Ebitengine's input state into a ui.Input once a tick.
type inputReader struct {
	ids []ebiten.TouchID
	// keys makes presses of the keys seen down: a key pressed and
	// released between two frames is seen down in one (GLFW's sticky
	// keys), and with one tick a frame (Options.OneTickPerFrame) that
	// tick sees it.
	keys tick.Keys[ebiten.Key]
}

func (r *inputReader) read(window ui.Rect, scale float64, now time.Time) ui.Input {
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

	r.keys.Update(watchedKeys, ebiten.IsKeyPressed, repeats, now)
	r.readKeys(&in, ebiten.IsKeyPressed(ebiten.KeyShift))
	in.Chars = ebiten.AppendInputChars(nil)
	if r.keys.Pressed(ebiten.KeyBackspace) {
		in.Erase++
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

// readKeys sets in's keys and digit from the presses of this tick.
func (r *inputReader) readKeys(in *ui.Input, shift bool) {
	fired := r.keys.Pressed
	if fired(ebiten.KeyTab) {
		if shift {
			in.Keys |= ui.KeysOf(ui.IntentFocusPrev)
		} else {
			in.Keys |= ui.KeysOf(ui.IntentFocusNext)
		}
	}
	for _, b := range keymap {
		if fired(b.key) {
			in.Keys |= ui.KeysOf(b.intent)
		}
	}
	for i, k := range digitKeys {
		if fired(k) {
			in.Digit = i + 1
		}
	}
}

func clampf(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }
