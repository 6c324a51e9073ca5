package explore

import (
	"fmt"
	"time"

	"leaselab/core"
	"leaselab/core/permalink"
)

// Target is a named search problem: a world with no fault of its own, the
// invariant it should keep, and default bounds. The lessons declare the
// named ones (lessons.Targets), most on their own worlds, so a
// counterexample's log replays in the lesson player too.
type Target struct {
	Name, Title string
	// Lesson is the id of the lesson whose world World makes ("" if none).
	Lesson    string
	Invariant Invariant
	Bounds    Bounds
	// World writes the target's world at time zero, without any action.
	World func(seed uint64) (core.World, error)
	// Protects is the switch the invariant depends on: VerbFencing or
	// VerbIdempotency.
	Protects core.Verb
	// AboutBelief marks an invariant about what processes believe: the
	// switch cannot keep it, only refuse what a stale believer sends.
	AboutBelief bool
}

// Belief reports an invariant about belief, which the target's protection
// defuses but cannot keep.
func (t *Target) Belief() bool { return t.AboutBelief }

// Build returns the target's world at time zero, without any action.
func (t *Target) Build(seed uint64) (*core.Sim, error) { return core.BuildWorld(t.World(seed)) }

// Link is the permalink that replays log (a counterexample's) in this
// target's world, observed until horizon (0: the target's own, which the
// link then leaves out).
func (t *Target) Link(seed uint64, log core.ActionLog, horizon time.Duration) permalink.RunLink {
	l := permalink.RunLink{Kind: permalink.LinkTarget, Name: t.Name, Seed: seed, Log: log}
	if horizon > 0 && horizon != t.Bounds.Horizon {
		l.Params = []permalink.Param{{Key: "horizon", Value: horizon.String()}}
	}
	return l
}

// LinkHorizon returns how long the run of a target link (see Link) is
// observed.
func (t *Target) LinkHorizon(l permalink.RunLink) (time.Duration, error) {
	h := t.Bounds.Horizon
	for _, p := range l.Params {
		if p.Key != "horizon" {
			return 0, fmt.Errorf("%w: a target link has no parameter %q", permalink.ErrPermalink, p.Key)
		}
		d, err := time.ParseDuration(p.Value)
		if err != nil || d <= 0 || d > time.Hour {
			return 0, fmt.Errorf("%w: horizon %q is not a duration from 1ns to 1h", permalink.ErrPermalink, p.Value)
		}
		h = d
	}
	return h, nil
}

// Protection returns the switch the target's invariant depends on.
func (t *Target) Protection() string { return string(t.Protects) }

// Problem returns the search problem with the given seed; the target's
// protection (fencing, idempotency) is switched on, or off if protectionOff,
// at time zero.
func (t *Target) Problem(seed uint64, protectionOff bool, b Bounds) Problem {
	// The switch is always in the log, so the log replays in the lesson
	// whatever the lesson's own default (the scheduler lesson starts with
	// idempotency off).
	base := core.ActionLog{core.At(0, core.Action{Do: t.Protects, On: !protectionOff})}
	return Problem{
		Build: func() (*core.Sim, error) {
			s, err := t.Build(seed)
			if err != nil {
				return nil, err
			}
			s.Schedule(base)
			return s, nil
		},
		Base:      base,
		Invariant: t.Invariant,
		Bounds:    b,
	}
}
