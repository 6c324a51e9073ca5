package explore

import (
	"fmt"
	"slices"

	"leaselab/core"
)

// Invariant is a property every run must keep: at most Allow trace events
// may match. Matching looks at one event at a time, so a run is checked as
// it goes and stops at the first violation.
type Invariant struct {
	Name string
	// Match picks the events that count against the invariant.
	Match func(e *core.Event) bool
	// Allow is how many matching events a run may contain (0: none).
	Allow int
	// Kinds, if set, lists every event kind Match can accept: search
	// worlds then record no other event, which saves most of their work.
	Kinds []core.Kind
	// Settled, if set, reports that world s can no longer produce an
	// event Match accepts, whatever pauses and crashes it meets later. It
	// must be certain: a search counts every schedule from such a world
	// as keeping the invariant without running it.
	Settled func(s *core.Sim) bool
	// MatchIn and Scan replace Match for an invariant about a history
	// (who believes what) rather than single events. A search checks
	// with MatchIn, which may read world s right after e happened; Scan
	// finds the events that count in a whole trace (a replay's).
	MatchIn func(s *core.Sim, e *core.Event) bool
	Scan    func(t *core.Trace) []int
}

// Matches returns the indexes of t's events that count against inv, in
// order.
func (inv *Invariant) Matches(t *core.Trace) []int {
	if inv.Scan != nil {
		return inv.Scan(t)
	}
	var out []int
	for e := range t.All() {
		if inv.Match(e) {
			out = append(out, e.Seq)
		}
	}
	return out
}

// First returns the event of t that breaks inv (the one past Allow), or
// nil.
func (inv *Invariant) First(t *core.Trace) *core.Event {
	if m := inv.Matches(t); len(m) > inv.Allow {
		return t.At(m[inv.Allow])
	}
	return nil
}

// matchIn is the search's check of e in world s.
func (inv *Invariant) matchIn(s *core.Sim, e *core.Event) bool {
	if inv.MatchIn != nil {
		return inv.MatchIn(s, e)
	}
	return inv.Match(e)
}

// NoStaleWrite: no fenced register accepts a write whose token is below
// the highest it has accepted.
var NoStaleWrite = Invariant{Name: "no stale write accepted", Kinds: []core.Kind{core.KindStale}, Match: func(e *core.Event) bool {
	return e.Kind == core.KindStale && e.Format(core.FShard) == ""
}}

// FencedForGood reports that the world's register rejects stale writes
// and will go on doing so: fencing is on and no queued action can switch
// it (faults cannot), so it never accepts a stale write again. It is
// NoStaleWrite's Settled in the explore targets (a frame-sliced search
// that should last long enough to watch leaves it unset).
func FencedForGood(s *core.Sim) bool {
	if s.Register == nil {
		return true
	}
	return s.Register.Fencing && !s.ActionQueued("fencing")
}

// IdempotentForGood: the job queue ignores duplicates and no queued
// action can switch that off, so no duplicate is executed again (a
// Settled for AtMostDuplicateJobs).
func IdempotentForGood(s *core.Sim) bool {
	return s.Queue == nil || s.Queue.Idempotency && !s.ActionQueued("idempotency")
}

// NoStaleOffset: no offset store accepts a commit from a stale shard owner
// (a lower token, or an offset moving backwards).
var NoStaleOffset = Invariant{Name: "no stale offset commit", Kinds: []core.Kind{core.KindStale}, Match: func(e *core.Event) bool {
	return e.Kind == core.KindStale && e.Format(core.FShard) != ""
}}

// OneOwnerPerShard: no worker takes a shard while another still believes
// it owns it. This one is about belief, which no coordinator can enforce:
// a worker frozen past its lease wakes up still believing, so fencing does
// not keep this invariant; it keeps the overlap harmless (NoStaleOffset).
var OneOwnerPerShard = Invariant{
	Name:  "no two workers believe they own one shard",
	Kinds: []core.Kind{core.KindShardOwn},
	MatchIn: func(s *core.Sim, e *core.Event) bool {
		if e.Kind != core.KindShardOwn {
			return false
		}
		sh := int(e.Shard())
		for _, w := range s.Workers() {
			if w.Name() != e.Actor && w.Owns(sh) {
				return true
			}
		}
		return false
	},
	Scan: func(t *core.Trace) []int {
		var out []int
		owners := map[int64][]string{}
		for e := range t.All() {
			if e.Kind != core.KindShardOwn && e.Kind != core.KindShardDrop {
				continue
			}
			sh := e.Shard()
			cur := owners[sh]
			if e.Kind == core.KindShardDrop {
				owners[sh] = slices.DeleteFunc(cur, func(w string) bool { return w == e.Actor })
				continue
			}
			if slices.ContainsFunc(cur, func(w string) bool { return w != e.Actor }) {
				out = append(out, e.Seq)
			}
			if !slices.Contains(cur, e.Actor) {
				owners[sh] = append(cur, e.Actor)
			}
		}
		return out
	},
}

// AtMostDuplicateJobs allows n jobs executed twice.
func AtMostDuplicateJobs(n int) Invariant {
	return Invariant{Name: fmt.Sprintf("at most %d duplicate jobs executed", n), Allow: n, Kinds: []core.Kind{core.KindEnqueue}, Match: func(e *core.Event) bool {
		return e.Kind == core.KindEnqueue && e.Result() == core.JobDuplicateExecuted
	}}
}
