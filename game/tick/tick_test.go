package tick

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeWall is a wall clock the test moves by hand.
type fakeWall struct{ t time.Time }

func (w *fakeWall) now() time.Time       { return w.t }
func (w *fakeWall) wait(d time.Duration) { w.t = w.t.Add(d) }
func newWall() *fakeWall                 { return &fakeWall{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)} }
func playFor(c *Clock, w *fakeWall, seconds, perSecond int) (simulated time.Duration) {
	for range seconds * perSecond {
		w.wait(time.Second / time.Duration(perSecond))
		simulated += c.Tick() // 1x: one simulated second per real second
	}
	return simulated
}

// 1x is one simulated second per real second however often the loop
// ticks: 60 ticks a second and 10 (a machine drawing in software) alike.
func TestOneXFollowsTheWallClockAtAnyTickRate(t *testing.T) {
	for _, perSecond := range []int{60, 10, 4} {
		w := newWall()
		c := &Clock{Now: w.now}
		require.Equal(t, Nominal, c.Tick(), "the first tick counts as one nominal tick")
		assert.InDelta(t, time.Second, playFor(c, w, 1, perSecond), float64(time.Microsecond), "%d ticks a second", perSecond)
		assert.InDelta(t, 5*time.Second, playFor(c, w, 5, perSecond), float64(time.Microsecond), "%d ticks a second", perSecond)
	}
}

// A stall (a window dragged, a laptop asleep) moves time by at most
// MaxStep, so the play head does not jump over what happened.
func TestAStallCountsAsOneBoundedTick(t *testing.T) {
	w := newWall()
	c := &Clock{Now: w.now}
	c.Tick()
	w.wait(30 * time.Second)
	assert.Equal(t, MaxStep, c.Tick())
	w.wait(100 * time.Millisecond)
	assert.Equal(t, 100*time.Millisecond, c.Tick(), "the next tick is measured again")
	assert.Equal(t, w.t, c.Last())
}

// frames feeds the watch n frames of d each and reports whether it
// tripped during them.
func frames(w *SlowWatch, n int, d time.Duration) (tripped int) {
	for range n {
		if w.Frame(d) {
			tripped++
		}
	}
	return tripped
}

// Ten frames a second for three seconds is slow; sixty is not; the
// verdict is given once.
func TestTheSlowWatchTripsOnceOnThreeSecondsOfSlowFrames(t *testing.T) {
	var fast SlowWatch
	assert.Zero(t, frames(&fast, 60*30, time.Second/60), "60 frames a second for 30 s")
	assert.False(t, fast.Slow())

	var slow SlowWatch
	assert.Zero(t, frames(&slow, 29, 100*time.Millisecond), "not before three seconds of frames")
	assert.Equal(t, 1, frames(&slow, 1, 100*time.Millisecond), "ten frames a second for three seconds")
	assert.True(t, slow.Slow())
	assert.Contains(t, slow.Notice(), "about 10 frames a second")
	assert.Contains(t, slow.Notice(), "reduced quality")
	assert.Zero(t, frames(&slow, 100, 100*time.Millisecond), "said once")

	var slower SlowWatch
	assert.Equal(t, 1, frames(&slower, 4, time.Second))
	assert.Contains(t, slower.Notice(), "under 2 frames a second")
}

// The threshold is SlowFPS, averaged over a window: 21 frames a second
// passes, 19 does not.
func TestTheSlowWatchThresholdIsTwentyFramesASecond(t *testing.T) {
	var ok, slow SlowWatch
	assert.Zero(t, frames(&ok, 21*9, time.Second/21))
	assert.Equal(t, 1, frames(&slow, 19*9, time.Second/19))
}

// Gaps longer than a second are stalls (a hidden tab), not a frame rate,
// and a window that speeds up is judged afresh.
func TestTheSlowWatchIgnoresStalls(t *testing.T) {
	var w SlowWatch
	assert.Zero(t, frames(&w, 10, 5*time.Second), "ten 5-second stalls")
	assert.Zero(t, frames(&w, 60*3, time.Second/60), "then 60 frames a second")
	assert.False(t, w.Slow())
}

// tickAt is one tick of a key's script: when, and whether it is down.
type tickAt struct {
	at   time.Duration
	down bool
}

// presses runs a Keys over the script for one key and returns the ticks
// (by index) in which it pressed.
func presses(script []tickAt, repeat bool) []int {
	var k Keys[string]
	start := newWall().t
	var out []int
	for i, s := range script {
		k.Update([]string{"z"}, func(string) bool { return s.down }, func(string) bool { return repeat }, start.Add(s.at))
		if k.Pressed("z") {
			out = append(out, i)
		}
	}
	return out
}

// A key seen down in one tick only (a tap shorter than a frame: GLFW
// keeps it down until the next poll) is one press.
func TestATapSeenInOneTickIsOnePress(t *testing.T) {
	ms := time.Millisecond
	assert.Equal(t, []int{1}, presses([]tickAt{{0, false}, {16 * ms, true}, {33 * ms, false}, {50 * ms, false}}, false))
	assert.Equal(t, []int{0}, presses([]tickAt{{0, true}, {400 * ms, false}}, true), "at the first tick, at a few frames a second")
}

// Two taps are two presses when a tick saw the key up between them.
func TestTwoTapsAreTwoPresses(t *testing.T) {
	ms := time.Millisecond
	assert.Equal(t, []int{0, 2}, presses([]tickAt{{0, true}, {16 * ms, false}, {33 * ms, true}, {50 * ms, false}}, false))
}

// A held key that repeats presses again after RepeatDelay, then every
// RepeatEvery, by the clock; one that does not repeat presses once.
func TestAHeldKeyRepeatsByTheClock(t *testing.T) {
	var script []tickAt
	for at := time.Duration(0); at <= 600*time.Millisecond; at += 10 * time.Millisecond {
		script = append(script, tickAt{at, true})
	}
	// 0 ms, 400 ms, 467 ms, 534 ms: at the ticks of 0, 400, 470, 540 ms.
	assert.Equal(t, []int{0, 40, 47, 54}, presses(script, true))
	assert.Equal(t, []int{0}, presses(script, false))
}

// At a few frames a second a held key repeats at most once a tick: a long
// tick is not made up for with a burst.
func TestASlowTickRepeatsOnce(t *testing.T) {
	script := []tickAt{{0, true}, {time.Second, true}, {2 * time.Second, true}, {2050 * time.Millisecond, true}, {2100 * time.Millisecond, true}}
	assert.Equal(t, []int{0, 1, 2, 4}, presses(script, true))
}
