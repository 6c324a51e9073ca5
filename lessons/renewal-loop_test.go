package lessons

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// The lesson's world as it opens: nobody pauses, yet renewals wait behind
// the 7 s units of work and the lock keeps changing hands.
func TestRenewalLoopFlapsWithNobodyPaused(t *testing.T) {
	w, err := renewalLoop.EvaluateWith(1, nil, nil)
	require.NoError(t, err)
	require.Empty(t, w.Sim.Trace.Filter(core.KindPause), "the world itself pauses nobody")
	assert.GreaterOrEqual(t, loopHolders(w), 2, "leadership flaps in the first minute")
	d := loopDelays(w)
	assert.Greater(t, d.Worst, 3*time.Second, "renewals waited seconds behind work")
	assert.Positive(t, d.Never, "some renewals never left before their lease ran out")
	ok, why := renewalLoop.KnobCheck(Knobs{"ttl": 6, "work": 7, "task": 0})
	assert.False(t, ok)
	assert.Contains(t, why, "up to 9 s without one, against a 6 s TTL")
}

// A TTL longer than the renewal period plus the unit of work stops the
// flapping but not the delay; only a renewal task of its own removes it.
func TestRenewalLoopTTLHidesTheDelayTheTaskRemovesIt(t *testing.T) {
	long, err := renewalLoop.EvaluateWith(1, Knobs{"ttl": 12}, nil)
	require.NoError(t, err)
	assert.True(t, renewalLoop.Goals[0].Met(long), "a 12 s TTL outlasts 2 s + 7 s")
	assert.False(t, renewalLoop.Goals[1].Met(long), "the renewals are still late")
	assert.Greater(t, loopDelays(long).Worst, 3*time.Second)

	own, err := renewalLoop.EvaluateWith(1, Knobs{"task": 1}, nil)
	require.NoError(t, err)
	d := loopDelays(own)
	assert.Zero(t, d.Worst, "a renewal on its own task leaves when it falls due")
	assert.Greater(t, d.Count, 20, "a minute of renewals every 2 s was measured")
	assert.Zero(t, loopHolders(own))
}

// What a goal shows beside it is read from the run: over a grid of knob
// values and play-head times, the delay it cites is the longest late_ms in
// the trace up to then, or the wait of a renewal still waiting if that is
// longer, and the hand-over count is the number of holder changes.
func TestRenewalLoopMeasuresAreTheTrace(t *testing.T) {
	for _, ttl := range []float64{3, 6, 9, 12} {
		for _, work := range []float64{1, 4.5, 7, 9} {
			for _, task := range []float64{0, 1} {
				k := Knobs{"ttl": ttl, "work": work, "task": task}
				w, err := renewalLoop.StartWith(1, k, nil)
				require.NoError(t, err, "%v", k)
				for _, at := range []time.Duration{5 * time.Second, 16 * time.Second, 23 * time.Second, loopMinute, 80 * time.Second} {
					w.Sim.RunUntil(at)
					var worst time.Duration
					never, changes := 0, -1
					for e := range w.Sim.Trace.All() {
						if e.At > loopMinute {
							break
						}
						switch {
						case e.Kind == core.KindRenewal:
							worst = max(worst, e.Late())
							if e.Result() == core.RenewalNever {
								never++
							}
						case (e.Kind == core.KindHolder || e.Kind == core.KindFree) && e.Lock() == loopLock:
							changes++
						}
					}
					if at <= loopMinute {
						for _, p := range w.Sim.Processes() {
							if wait, ok := p.RenewalWaiting(); ok {
								worst = max(worst, wait.Truncate(time.Millisecond))
							}
						}
					}
					delay := renewalLoop.Goals[1].Measure(w)
					want := "worst renewal delay " + durText(worst)
					if never > 0 {
						want += fmt.Sprintf("; %d never left", never)
					}
					assert.Equal(t, want, delay, "%v at %s", k, at)
					switch {
					case changes > 1:
						assert.Equal(t, fmt.Sprintf("the lock changed hands %d times so far", changes), renewalLoop.Goals[0].Measure(w), "%v at %s", k, at)
					case changes == 1:
						assert.Equal(t, "the lock changed hands once so far", renewalLoop.Goals[0].Measure(w), "%v at %s", k, at)
					default:
						assert.Empty(t, renewalLoop.Goals[0].Measure(w), "%v at %s", k, at)
					}
					if task >= 1 {
						assert.Zero(t, worst, "%v: a renewal task of its own is never late", k)
					}
				}
			}
		}
	}
}

// A TTL at or under the renewal period cannot hold a lease: refused with
// a reason, before any world is built.
func TestRenewalLoopRefusesATTLUnderThePeriod(t *testing.T) {
	_, err := renewalLoop.EvaluateWith(1, Knobs{"ttl": 2}, nil)
	assert.Error(t, err)
}
