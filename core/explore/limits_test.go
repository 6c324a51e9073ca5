package explore

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// Bounds a learner may type that once overflowed a count, wrapped a loop
// or asked for gigabytes up front are refused, each with its reason, before
// any search starts (issue 19, items 1, 2 and 7).
func TestBoundsThatCannotBeSearchedAreRefused(t *testing.T) {
	tg, err := FindTarget("fenced-writes")
	require.NoError(t, err)
	for _, c := range []struct{ bounds, why string }{
		// A step near the largest duration made the start count negative
		// (makeslice panic; IntN panic with --random).
		{"start=0s..1h/2562047h,horizon=1h", "longer than an hour"},
		{"start=1h..2h/1h,horizon=1h", "ends before"},
		// A repeated kind doubled a count past the largest int.
		{"kinds=pause+pause,len=1ns..2562047h/1ns", `"pause" is listed twice`},
		{"procs=A+A", `"A" is listed twice`},
		{"kinds=pause,len=1ns..2562047h/1ns", "may be longer than 1h0m0s"},
		{"len=1s..2s/2562047h", "may be longer than 1h0m0s"},
		// A billion starts were one 24 GB allocation.
		{"kinds=crash,start=0s..1s/1ns", "the start grid has 1000000000 points; the limit is 1048576"},
		{"faults=3,start=0s..30s/1ms,len=1ms..30s/1ms", "schedules; the limit is 1e+09"},
	} {
		b, err := ParseBounds(c.bounds, tg.Bounds)
		if !assert.ErrorIs(t, err, ErrBounds, c.bounds) {
			t.Logf("accepted %s: %.3g schedules", b, b.Count())
			continue
		}
		assert.ErrorContains(t, err, c.why, c.bounds)
	}
}

// A process that is not in the target's world would be faulted never;
// the search used to report "no violation" after testing nothing.
func TestExploreRefusesAnUnknownProcess(t *testing.T) {
	tg, err := FindTarget("fenced-writes")
	require.NoError(t, err)
	b, err := ParseBounds("procs=ZZ", tg.Bounds)
	require.NoError(t, err, "the name is checked against the world, not the grammar")
	p := tg.Problem(1, true, b)
	_, err = New(p, time.Now)
	assert.ErrorIs(t, err, ErrBounds)
	assert.ErrorContains(t, err, `no process "ZZ" in this world (it has A, B)`)
	_, err = NewRandom(p, 5, 1, time.Now)
	assert.ErrorIs(t, err, ErrBounds)
}

// Every bounds string either is refused or describes a search whose
// counts are positive and within the limits, and whose first random draw
// runs. The seeds are the overflow cases of issue 19.
func FuzzParseBounds(f *testing.F) {
	for _, s := range []string{
		"", "start=0s..1h/2562047h,horizon=1h", "kinds=pause+pause,len=1ns..2562047h/1ns",
		"kinds=crash,start=0s..1s/1ns", "procs=A+B,kinds=pause+crash+delay,faults=3",
		"start=0s..30s/100ms,len=100ms..30s/100ms,settle=10s", "horizon=1h,start=59m..1h/1ns",
	} {
		f.Add(s)
	}
	tg, err := FindTarget("fenced-writes")
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBounds(s, tg.Bounds)
		if err != nil {
			return
		}
		n := b.Count()
		require.Greater(t, n, 0.0, s)
		require.LessOrEqual(t, n, float64(MaxSchedules), s)
		require.LessOrEqual(t, b.starts(), MaxStarts, s)
		x, err := NewRandom(tg.Problem(1, true, b), 1, 1, time.Now)
		if err != nil {
			require.ErrorIs(t, err, ErrBounds, s)
			return
		}
		x.Step(1)
		require.NoError(t, x.Err())
	})
}

// A panic on a search worker reaches the caller of Run, where a front end
// can recover it, instead of ending the program from a goroutine nobody
// can guard.
func TestExploreWorkerPanicReachesTheCaller(t *testing.T) {
	p := problem(t, "fenced-writes", true, coarse("fenced-writes", 500*time.Millisecond))
	p.Invariant.Settled = nil
	var calls atomic.Int64 // the base world's checks run on the caller, the rest on workers
	p.Invariant.Match = func(e *core.Event) bool {
		if calls.Add(1) > 2000 {
			panic("invariant blew up")
		}
		return false
	}
	x, err := New(p, time.Now)
	require.NoError(t, err)
	x.workers = 2
	assert.PanicsWithValue(t, "invariant blew up", func() { _, _ = x.Run() })
}

func TestGridPointsNearTheLargestStep(t *testing.T) {
	assert.Equal(t, int64(300), gridPoints(0, 30*time.Second, 100*time.Millisecond))
	assert.Equal(t, int64(1), gridPoints(0, time.Hour, 2562047*time.Hour), "one start, not a negative count")
	assert.Equal(t, int64(4), gridPoints(0, 10, 3))
}
