package core

import (
	"errors"
	"math"
	"time"
)

// ErrOverflow is returned by the checked duration arithmetic below when a
// result would not fit a time.Duration (about 292 years). Every sum or
// product of durations a learner typed goes through these, so an absurd
// input is refused instead of wrapping round to a negative number that
// then looks safe (2 x 1500000h + 1s "fits" a 2562047h TTL once it wraps).
var ErrOverflow = errors.New("duration overflows: longer than 292 years")

// AddDurations returns the sum of ds, or ErrOverflow.
func AddDurations(ds ...time.Duration) (time.Duration, error) {
	var sum time.Duration
	for _, d := range ds {
		if d > 0 && sum > math.MaxInt64-d || d < 0 && sum < math.MinInt64-d {
			return 0, ErrOverflow
		}
		sum += d
	}
	return sum, nil
}

// MulDuration returns d x n, or ErrOverflow.
func MulDuration(d time.Duration, n int64) (time.Duration, error) {
	if d == 0 || n == 0 {
		return 0, nil
	}
	p := d * time.Duration(n)
	if p/time.Duration(n) != d || (n == -1 && d == math.MinInt64) {
		return 0, ErrOverflow
	}
	return p, nil
}
