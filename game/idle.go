package game

import (
	"time"

	"leaselab/game/draw"
	"leaselab/game/player"
	"leaselab/game/ui"
)

// idleAfter is how many quiet ticks pass before the Game stops drawing a
// scene that says nothing on it moves by itself (a Stiller: no playback, no
// search or check running). Once the learner has not touched anything for
// idleAfter ticks, and what the scene reports (its text, focus, run) is
// unchanged (and no text waits to be drawn: draw.TextPending), the screen
// keeps the last frame (ebiten.SetScreenClearedEveryFrame(false)) and
// Ebitengine presents nothing new, so a lab left paused costs next to no
// CPU or battery. Any input or change draws again at once. It is just
// past the tooltips' delay (player.TooltipDelay), the only thing that changes with
// ticks alone, so a tooltip that is about to show is drawn first. (Ticks,
// not seconds: a software renderer may manage only a few frames a second.)
const idleAfter = player.TooltipDelay + 2

// idleNap is how long an idle desktop lab sleeps each frame (see
// Game.sleep): some 10 polls of the window a second (about 1.5 % of a core
// under Xvfb, against 0.1 s before the first frame after an input; 50 ms
// took twice the CPU).
const idleNap = 100 * time.Millisecond

// idleTracker counts the ticks in a row that nothing changed.
type idleTracker struct {
	quiet int
	last  ui.Input
	sig   sceneSig
}

// sceneSig is the part of a snapshot that shows on screen and can change
// without input: a link opened from the page, a message to the learner.
type sceneSig struct {
	name, focus, title, text, hint string
	narrated, goals, regions       int
	now                            float64
}

func signatureOf(s *Snapshot) sceneSig {
	sc := &s.Scene
	sig := sceneSig{name: sc.Name, focus: sc.Focus, title: sc.Mirror.Title, text: sc.Mirror.Text,
		hint: sc.Mirror.Hint, narrated: len(sc.Mirror.Narration), regions: len(sc.Regions)}
	for _, g := range sc.Mirror.Goals {
		if g.Met {
			sig.goals++
		}
	}
	if sc.Run != nil {
		sig.now = sc.Run.Now
	}
	return sig
}

// observe records one update's input and outcome.
func (t *idleTracker) observe(in *ui.Input, scene Scene, snap *Snapshot) {
	sig := signatureOf(snap)
	s, ok := scene.(Stiller)
	if ok && s.Still() && quiet(in, &t.last) && sig == t.sig && !draw.TextPending() {
		t.quiet++
	} else {
		t.quiet = 0
	}
	t.last, t.sig = *in, sig
	t.last.Touches, t.last.Host, t.last.Chars = nil, nil, nil
}

// wake counts this tick as one that changed the screen.
func (t *idleTracker) wake() { t.quiet = 0 }

// idle reports that the screen already shows what a new frame would.
func (t *idleTracker) idle() bool { return t.quiet > idleAfter }

// quiet reports that in, after last, carries no input at all: no button,
// finger, wheel or key, and the pointer and window where they were.
func quiet(in, last *ui.Input) bool {
	return !in.MouseDown && !in.MouseJustDown && !in.MouseJustUp && len(in.Touches) == 0 &&
		in.Wheel == (ui.Point{}) && in.Keys == 0 && in.Digit == 0 && len(in.Host) == 0 && len(in.Chars) == 0 && in.Erase == 0 &&
		in.Cursor == last.Cursor && in.WindowW == last.WindowW && in.WindowH == last.WindowH && in.Scale == last.Scale
}

// Still implements Stiller for the scene on show.
func (a *App) Still() bool { return a.scenes.Still() }
