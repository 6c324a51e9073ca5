// Package tick is the frame loop's sense of time, apart from Ebitengine so
// it is tested without a display: how much real time a tick stands for
// (Clock), whether the machine draws too slowly for the full picture
// (SlowWatch), and which keys a tick's key states make presses (Keys).
package tick

import (
	"fmt"
	"time"
)

// Nominal is one tick's length when ticks come 60 a second, as Ebitengine
// schedules them by default: what a tick counts as when it is not
// measured (the first; a State the tests build by hand).
const Nominal = time.Second / 60

// MaxStep bounds the real time one tick may stand for: after a stall (a
// window dragged, a machine waking from sleep) the play head moves at most
// this far at 1x instead of jumping over what happened.
const MaxStep = 250 * time.Millisecond

// Clock measures the real time between ticks on a wall clock, so that
// virtual time can follow real time however few frames a second the
// machine draws: 1x is one simulated second per real second at 60 frames
// a second and at 10 alike. The simulation never reads it: the learner's
// actions are stamped at the play head's simulated time, so the trace
// depends on the action log alone.
type Clock struct {
	Now  func() time.Time // the wall clock (nil: time.Now)
	last time.Time
}

// Tick returns the real time since the previous Tick, within
// (0, MaxStep]; the first counts as Nominal.
func (c *Clock) Tick() time.Duration {
	if c.Now == nil {
		c.Now = time.Now
	}
	t := c.Now()
	if c.last.IsZero() {
		c.last = t
		return Nominal
	}
	d := t.Sub(c.last)
	c.last = t
	return max(time.Nanosecond, min(d, MaxStep))
}

// Last is the time of the last Tick.
func (c *Clock) Last() time.Time { return c.last }

// The low frame rate the lab reacts to: a machine that draws fewer than
// SlowFPS frames a second over SlowFor of drawing (a software renderer, a
// weak GPU) gets the cheaper picture.
const (
	SlowFPS = 20
	SlowFor = 3 * time.Second
	// A gap longer than stallGap between two frames is a stall (a hidden
	// tab, a window being dragged), not a frame rate, and is not counted.
	stallGap = time.Second
)

// SlowWatch decides from frame times that the machine draws too slowly.
// It is given only frames that follow a drawn frame: an idle lab draws
// nothing, and the gap after it says nothing about the drawing's speed.
type SlowWatch struct {
	span   time.Duration // frame time counted in this window
	frames int
	slow   bool
	fps    float64
}

// Frame records that a frame took d after a drawn one. It reports true
// once: when the frames of a whole window of SlowFor came slower than
// SlowFPS.
func (w *SlowWatch) Frame(d time.Duration) bool {
	if w.slow || d <= 0 || d > stallGap {
		return false
	}
	w.span += d
	w.frames++
	if w.span < SlowFor {
		return false
	}
	fps := float64(w.frames) / w.span.Seconds()
	w.span, w.frames = 0, 0
	if fps >= SlowFPS {
		return false
	}
	w.slow, w.fps = true, fps
	return true
}

// Slow reports whether the watch found the frames too slow.
func (w *SlowWatch) Slow() bool { return w.slow }

// Notice is what the learner is told, once, when the lab draws with less
// detail to keep up.
func (w *SlowWatch) Notice() string {
	rate := fmt.Sprintf("about %.0f frames a second", w.fps)
	if w.fps < 1.5 {
		rate = "under 2 frames a second"
	}
	return "Drawing in software or on a slow graphics card (" + rate + "): reduced quality to keep up."
}

// Key repeat for held keys, in real time (ticks come as often as frames:
// 144 a second on some displays, a few under software drawing): the first
// repeat after RepeatDelay, then one every RepeatEvery.
const (
	RepeatDelay = 400 * time.Millisecond
	RepeatEvery = 67 * time.Millisecond
)

// Keys turns the keys seen down, tick by tick, into presses: a key seen
// down in a tick after one it was not down in is one press, however short
// the tick or the press was; a repeating key held down presses again by
// the clock, at most once a tick.
type Keys[K comparable] struct {
	held  map[K]time.Time // key -> when it next repeats
	fired map[K]bool
}

// Update reads the keys at time now: down says whether a key is down,
// repeats whether holding it presses again.
func (t *Keys[K]) Update(keys []K, down, repeats func(K) bool, now time.Time) {
	if t.held == nil {
		t.held, t.fired = map[K]time.Time{}, map[K]bool{}
	}
	clear(t.fired)
	for _, k := range keys {
		next, wasDown := t.held[k]
		switch {
		case !down(k):
			delete(t.held, k)
		case !wasDown:
			t.held[k] = now.Add(RepeatDelay)
			t.fired[k] = true
		case !now.Before(next):
			if next = next.Add(RepeatEvery); next.Before(now) {
				next = now.Add(RepeatEvery) // a slow tick does not burst
			}
			t.held[k] = next
			t.fired[k] = repeats(k)
		}
	}
}

// Pressed reports whether k pressed in the last Update.
func (t *Keys[K]) Pressed(k K) bool { return t.fired[k] }
