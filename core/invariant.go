package core

import (
	"fmt"
	"slices"
	"time"
)

// Violation is one broken invariant, located in the trace.
type Violation struct {
	Invariant string
	At        time.Duration
	Seq       int
	Detail    string
}

func (v Violation) String() string {
	return fmt.Sprintf("t=%s %s: %s", FormatTime(v.At), v.Invariant, v.Detail)
}

// Interval is a span during which several actors believed the same thing:
// two processes that both believed they led, or two workers that both
// believed they owned a shard.
type Interval struct {
	From, To time.Duration
	Who      []string
	What     string // "leader" or "shard N"
}

// Invariant names.
const (
	InvOneHolder     = "one holder per lock"
	InvTokenOrder    = "tokens strictly increase per lock"
	InvFencing       = "fenced store never accepts a lower token"
	InvStaleAccepted = "no stale write accepted"
	InvDuplicateJob  = "no duplicate job executed"
)

// Report is the result of checking a trace.
type Report struct {
	// Violations of the safety invariants of the coordinator and of fenced
	// resources. Must be empty for any run.
	Violations []Violation
	// Stale lists writes or commits accepted with a token below the
	// resource's highest: possible only with fencing off.
	Stale []Violation
	// Duplicates lists jobs executed twice (idempotency off).
	Duplicates []Violation
	// Overlaps are belief overlaps: allowed, but measured and drawn.
	Overlaps []Interval
	// OverlapTotal sums the overlap intervals.
	OverlapTotal time.Duration
}

// OK reports whether every safety invariant held.
func (r Report) OK() bool { return len(r.Violations) == 0 }

// Broken reports whether the run broke anything a protected resource
// promises or the coordinator guarantees: a safety violation, a stale
// write accepted or a job executed twice. Belief overlap is allowed and
// does not count.
func (r Report) Broken() bool {
	return len(r.Violations)+len(r.Stale)+len(r.Duplicates) > 0
}

// Check evaluates every invariant over the trace up to end (open belief
// intervals are closed there).
func Check(t *Trace, end time.Duration) Report {
	var r Report
	type lockTruth struct {
		key     string
		deleted bool
		token   int64
	}
	locks := map[string]*lockTruth{}
	holderOfKey := map[string]string{} // key -> lock it holds
	fencing := map[string]bool{}       // resource -> fencing on
	highest := map[string]int64{}      // resource -> highest accepted token
	believers := map[string]time.Duration{}
	var order []string // believers in the order they started believing
	shardOwners := map[int64]map[string]time.Duration{}
	open := map[string]*Interval{}

	closeOverlap := func(what string, at time.Duration) {
		if iv := open[what]; iv != nil {
			iv.To = at
			if iv.To > iv.From {
				r.Overlaps = append(r.Overlaps, *iv)
				r.OverlapTotal += iv.To - iv.From
			}
			delete(open, what)
		}
	}
	reopen := func(what string, at time.Duration, who []string) {
		closeOverlap(what, at)
		if len(who) >= 2 {
			open[what] = &Interval{From: at, Who: who, What: what}
		}
	}
	for i := range t.Events {
		e := &t.Events[i]
		if e.At > end {
			break
		}
		viol := func(inv, format string, a ...any) {
			r.Violations = append(r.Violations, Violation{Invariant: inv, At: e.At, Seq: e.Seq, Detail: fmt.Sprintf(format, a...)})
		}
		switch e.Kind {
		case KindHolder:
			name, key, tok := e.Lock(), e.Key(), e.Token()
			lt := locks[name]
			if lt == nil {
				lt = &lockTruth{}
				locks[name] = lt
			}
			if lt.key != "" && !lt.deleted {
				viol(InvOneHolder, "%s granted to %s (key %s) while %s still exists", name, e.Owner(), key, lt.key)
			}
			// A system that issues no token (Kubernetes' Lease, Redlock)
			// traces holders without one: there is no order to break.
			if e.Format(FToken) != "" && tok <= lt.token {
				viol(InvTokenOrder, "%s: token %d issued after token %d", name, tok, lt.token)
			}
			*lt = lockTruth{key: key, token: tok}
			holderOfKey[key] = name
		case KindFree:
			if lt := locks[e.Lock()]; lt != nil {
				lt.key = ""
			}
		case KindDelete:
			if name, ok := holderOfKey[e.Key()]; ok {
				if lt := locks[name]; lt != nil && lt.key == e.Key() {
					lt.deleted = true
				}
				delete(holderOfKey, e.Key())
			}
		case KindSetting:
			if e.Name() == "fencing" {
				on := e.Value() == "on"
				res := e.Resource()
				if res == "" {
					for k := range fencing {
						fencing[k] = on
					}
					fencing[""] = on
				} else {
					fencing[res] = on
				}
			}
		case KindWrite, KindOffset:
			res := e.Actor
			if e.Kind == KindOffset {
				if e.Format(FShard) == "" {
					continue // a summary line
				}
				res = e.Actor + "/" + e.Format(FShard)
			}
			if e.Result() != Accepted {
				continue
			}
			tok := e.Token()
			on, ok := fencing[e.Actor]
			if !ok {
				on = fencing[""]
			}
			if tok < highest[res] {
				if on {
					viol(InvFencing, "%s accepted token %d below its highest %d", res, tok, highest[res])
				}
			} else {
				highest[res] = tok
			}
		case KindStale:
			r.Stale = append(r.Stale, Violation{Invariant: InvStaleAccepted, At: e.At, Seq: e.Seq,
				Detail: fmt.Sprintf("%s accepted token %d from %s below its highest %d", e.Actor, e.Token(), e.From(), e.Highest())})
		case KindEnqueue:
			if e.Result() == JobDuplicateExecuted {
				r.Duplicates = append(r.Duplicates, Violation{Invariant: InvDuplicateJob, At: e.At, Seq: e.Seq,
					Detail: fmt.Sprintf("job %s ran again (sent by %s with token %d)", e.Idem(), e.From(), e.Token())})
			}
		case KindState:
			from, to := e.From(), e.To()
			if to == Leader.String() {
				believers[e.Actor] = e.At
				order = append(order, e.Actor)
			} else if from == Leader.String() {
				delete(believers, e.Actor)
				order = slices.DeleteFunc(order, func(s string) bool { return s == e.Actor })
			} else {
				continue
			}
			reopen("leader", e.At, slices.Clone(order))
		case KindShardOwn, KindShardDrop:
			sh := e.Shard()
			m := shardOwners[sh]
			if m == nil {
				m = map[string]time.Duration{}
				shardOwners[sh] = m
			}
			if e.Kind == KindShardOwn {
				m[e.Actor] = e.At
			} else {
				delete(m, e.Actor)
			}
			what := fmt.Sprintf("shard %d", sh)
			if len(m) >= 2 || open[what] != nil {
				who := make([]string, 0, len(m))
				for w := range m {
					who = append(who, w)
				}
				slices.Sort(who)
				reopen(what, e.At, who)
			}
		}
	}
	// Close in a fixed order so the report is deterministic.
	keys := make([]string, 0, len(open))
	for k := range open {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		closeOverlap(k, end)
	}
	return r
}
