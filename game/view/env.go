package view

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/tick"
	"leaselab/game/ui"
)

// Env is what a view reads of the tick it is updated in: the input, the
// window and its style, and how much time passed. The Game owns it (inside
// game.State) and refreshes it before each Update.
type Env struct {
	Input  ui.Input   // this tick's input, in screen pixels
	Tick   int64      // ticks since start, counting this one
	Frame  int64      // frames drawn so far (work paced per frame reads it)
	Window ui.Rect    // the whole screen, in pixels
	Style  draw.Style // theme, fonts and the layout unit for this window

	// Elapsed is the real time since the previous tick (at most
	// tick.MaxStep), zero when nothing measured it: read it through
	// TickLength.
	Elapsed time.Duration

	// ReducedMotion is the user's request (prefers-reduced-motion in the
	// browser) to replace decorative animation with instant changes.
	ReducedMotion bool

	// WrapFocus is true on the desktop, where Tab cycles inside the window.
	// In the browser it is false: Tab past the last widget must leave the
	// canvas, and the scene reports that by setting FocusEscape.
	WrapFocus bool

	// FocusEscape is set by the scene when Tab leaves its focus ring; the
	// Game hands it to the host and clears it.
	FocusEscape ui.Escape
}

// TickLength is the real time this tick stands for: Elapsed, or
// tick.Nominal when nothing measured it.
func (st *Env) TickLength() time.Duration {
	if st.Elapsed <= 0 {
		return tick.Nominal
	}
	return st.Elapsed
}

// View draws one region of the player, such as the world or the timeline.
// Like a Scene, it handles input in Update against what it last laid out,
// is laid out for the state that left, and draws without changing it.
type View interface {
	Update(st *Env) error
	Layout(area ui.Rect, style draw.Style)
	Draw(dst *ebiten.Image, area ui.Rect, style draw.Style)
}
