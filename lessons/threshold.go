package lessons

import (
	"sync"
	"time"

	"leaselab/core"
)

// Thresholds of exercise 1's policy, found by search on the simulator,
// not by a formula: which pause does the policy survive, and which TTL or
// renewal interval would make 9 s pauses safe? Each is the edge between
// runs in which the leader keeps its lease through every pause of that
// length, whatever moment of the renewal cycle it begins at, and runs in
// which some moment loses it (leaderPauseBreak: the lock changes hands
// while the frozen leader still believes it leads). Bisection finds the
// edge; the worst moment is found by trying every phase of the renewal
// cycle on a fine grid.

// thresholdTol is how close to the simulator's threshold a learner's
// number must be; the feedback states it.
const thresholdTol = 500 * time.Millisecond

// phaseStep is the grid of pause starts tried across the renewal cycle;
// bisectStep is how finely the bisection closes in on an edge.
const (
	phaseStep  = 50 * time.Millisecond
	bisectStep = 20 * time.Millisecond
)

// renewalPolicy is exercise 1's world with another TTL or renewal
// interval: the exercise's own settings otherwise.
type renewalPolicy struct{ ttl, renew time.Duration }

func (p renewalPolicy) lesson() *Lesson {
	return &Lesson{
		ID: "renew-ttl-pause-search",
		World: func(seed uint64, _ Knobs) (core.World, error) {
			return core.ContentionConfig{
				Names: []string{"A", "B"}, FirstToken: 1, TTL: p.ttl, RenewEvery: p.renew,
				Stagger: 500 * time.Millisecond, WorkEvery: time.Second,
			}.World(seed)
		},
		Duration: exRenewal.Lab.Duration,
	}
}

// breaks runs a pause of A of length pause beginning at start, and reports
// whether it cost A the lease while A still believed it led.
// A policy the simulator cannot run (a TTL it cannot grant) is an error.
func (p renewalPolicy) breaks(start, pause time.Duration) (bool, error) {
	l := p.lesson()
	w, err := l.StartWith(1, nil, core.ActionLog{core.At(start, core.Pause("A", pause))})
	if err != nil {
		return false, err
	}
	w.Sim.RunUntil(min(l.Duration, start+pause+p.ttl+2*time.Second))
	_, _, broke := leaderPauseBreak(w, pause)
	return broke, nil
}

// worstStartErr is the first pause start, across two renewal cycles on
// the phase grid, at which a pause of length pause breaks the lease, and
// whether any does.
func (p renewalPolicy) worstStartErr(pause time.Duration) (time.Duration, bool, error) {
	for s := time.Second; s < time.Second+2*p.renew; s += phaseStep {
		broke, err := p.breaks(s, pause)
		if err != nil || broke {
			return s, broke, err
		}
	}
	return 0, false, nil
}

// survives reports whether every pause of length pause, at every phase,
// leaves A its lease (a policy the simulator cannot run does not).
func (p renewalPolicy) survives(pause time.Duration) bool {
	_, broke, err := p.worstStartErr(pause)
	return err == nil && !broke
}

// bisect finds the edge of ok on [lo, hi], where ok(lo) != ok(hi), to
// within bisectStep: it returns the last value on lo's side.
func bisect(lo, hi time.Duration, ok func(time.Duration) bool) time.Duration {
	want := ok(lo)
	for hi-lo > bisectStep {
		mid := (lo + hi) / 2
		if ok(mid) == want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// renewalThresholds are exercise 1's thresholds as the simulator measures
// them: the longest pause the exercise's policy survives, the smallest TTL
// with which 9 s pauses are safe (renewing every 5 s; etcd grants whole
// seconds, so it is a whole number), and the longest renewal interval with
// which they are (TTL 12 s). Each is searched once, on first use: they
// depend on nothing the learner gives.
var renewalThresholds = [...]*threshold{
	{id: "pause-max", search: func() time.Duration {
		return bisect(100*time.Millisecond, exRenewTTL+exRenewEvery, renewalPolicy{ttl: exRenewTTL, renew: exRenewEvery}.survives)
	}},
	{id: "ttl-safe", search: func() time.Duration {
		// Whole seconds: the smallest TTL at which every phase survives.
		lo, hi := int(exRenewPause/time.Second), int(3*exRenewTTL/time.Second)
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if (renewalPolicy{ttl: time.Duration(mid) * time.Second, renew: exRenewEvery}).survives(exRenewPause) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return time.Duration(hi) * time.Second
	}},
	{id: "renew-safe", search: func() time.Duration {
		return bisect(100*time.Millisecond, exRenewTTL, func(r time.Duration) bool {
			return renewalPolicy{ttl: exRenewTTL, renew: r}.survives(exRenewPause)
		})
	}},
}

// threshold is one searched threshold, measured once.
type threshold struct {
	id     string
	search func() time.Duration
	once   sync.Once
	v      time.Duration
}

// value measures the threshold, the first time only.
func (t *threshold) value() time.Duration {
	t.once.Do(func() { t.v = t.search() })
	return t.v
}

// thresholdOf is the threshold of number field id.
func thresholdOf(id string) *threshold {
	for _, t := range renewalThresholds {
		if t.id == id {
			return t
		}
	}
	return nil
}
