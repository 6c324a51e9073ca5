package sandbox

import (
	"leaselab/core"
	"math"
	"math/rand/v2"
	"time"
)

// Pause distributions.
const (
	PauseNone      = "none"       // no pauses but the learner's
	PauseFixed     = "fixed"      // every pause lasts Length
	PauseHeavyTail = "heavy-tail" // Pareto lengths: most short, a few very long
)

// PauseDist is a seeded distribution of stop-the-world pauses that every
// process (or worker) of a sandbox suffers. Pauses arrive about Every
// apart per process (a gap uniform in [Every/2, 3*Every/2], counted from
// the end of the previous pause). A fixed pause lasts Length; a heavy-tail
// pause lasts Scale/U^(1/Alpha) for U uniform in (0, 1], capped at Max: a
// Pareto tail, the shape garbage-collection and scheduling stalls have
// (most are near Scale, a few reach Max).
type PauseDist struct {
	Kind   string
	Every  time.Duration
	Length time.Duration
	Scale  time.Duration
	Alpha  float64
	Max    time.Duration
}

// Budget is the longest pause the distribution can produce: the pause
// budget of the lease-policy rule.
func (d PauseDist) Budget() time.Duration {
	switch d.Kind {
	case PauseFixed:
		return d.Length
	case PauseHeavyTail:
		return d.Max
	}
	return 0
}

// Schedule draws the pauses of each named process up to until. The draws
// come from their own source, seeded from seed alone, so changing a TTL
// or a recipe leaves the pauses where they were.
func (d PauseDist) Schedule(seed uint64, names []string, until time.Duration) core.ActionLog {
	if d.Kind != PauseFixed && d.Kind != PauseHeavyTail {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x73616e64626f78))
	var log core.ActionLog
	for _, n := range names {
		t := time.Duration(0)
		for {
			t += d.Every/2 + time.Duration(rng.Int64N(int64(d.Every)+1))
			if t >= until {
				break
			}
			length := d.Length
			if d.Kind == PauseHeavyTail {
				u := 1 - rng.Float64() // (0, 1]
				length = min(time.Duration(float64(d.Scale)*math.Pow(u, -1/d.Alpha)), d.Max)
			}
			length = max(length.Round(10*time.Millisecond), 10*time.Millisecond)
			log = append(log, core.At(t, core.Pause(n, length)))
			t += length
		}
	}
	return log.Sorted()
}
