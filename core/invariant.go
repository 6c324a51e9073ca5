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
	c := checker{
		locks: map[string]*lockTruth{}, holderOfKey: map[string]string{}, fencing: map[string]bool{},
		highest: map[string]int64{}, shardOwners: map[int64]map[string]time.Duration{}, open: map[string]*Interval{},
	}
	for e := range t.All() {
		if e.At > end {
			break
		}
		c.event(e)
	}
	// Close in a fixed order so the report is deterministic.
	keys := make([]string, 0, len(c.open))
	for k := range c.open {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		c.closeOverlap(k, end)
	}
	return c.r
}

// lockTruth is what the coordinator's trace says of one lock so far.
type lockTruth struct {
	key     string
	deleted bool
	token   int64
}

// checker is Check's state while it reads the trace in order.
type checker struct {
	r           Report
	locks       map[string]*lockTruth
	holderOfKey map[string]string // key -> lock it holds
	fencing     map[string]bool   // resource -> fencing on
	highest     map[string]int64  // resource -> highest accepted token
	order       []string          // believers in the order they started believing
	shardOwners map[int64]map[string]time.Duration
	open        map[string]*Interval
}

func (c *checker) closeOverlap(what string, at time.Duration) {
	if iv := c.open[what]; iv != nil {
		iv.To = at
		if iv.To > iv.From {
			c.r.Overlaps = append(c.r.Overlaps, *iv)
			c.r.OverlapTotal += iv.To - iv.From
		}
		delete(c.open, what)
	}
}

func (c *checker) reopen(what string, at time.Duration, who []string) {
	c.closeOverlap(what, at)
	if len(who) >= 2 {
		c.open[what] = &Interval{From: at, Who: who, What: what}
	}
}

func (c *checker) viol(e *Event, inv, format string, a ...any) {
	c.r.Violations = append(c.r.Violations, Violation{Invariant: inv, At: e.At, Seq: e.Seq, Detail: fmt.Sprintf(format, a...)})
}

// event reads one event of the trace.
func (c *checker) event(e *Event) {
	switch e.Kind {
	case KindHolder:
		c.holder(e)
	case KindFree:
		if lt := c.locks[e.Lock()]; lt != nil {
			lt.key = ""
		}
	case KindDelete:
		if name, ok := c.holderOfKey[e.Key()]; ok {
			if lt := c.locks[name]; lt != nil && lt.key == e.Key() {
				lt.deleted = true
			}
			delete(c.holderOfKey, e.Key())
		}
	case KindSetting:
		if e.Name() == "fencing" {
			on := e.Value() == "on"
			if res := e.Resource(); res == "" {
				for k := range c.fencing {
					c.fencing[k] = on
				}
				c.fencing[""] = on
			} else {
				c.fencing[res] = on
			}
		}
	case KindWrite, KindOffset:
		c.write(e)
	case KindStale:
		c.r.Stale = append(c.r.Stale, Violation{Invariant: InvStaleAccepted, At: e.At, Seq: e.Seq,
			Detail: fmt.Sprintf("%s accepted token %d from %s below its highest %d", e.Actor, e.Token(), e.From(), e.Highest())})
	case KindEnqueue:
		if e.Result() == JobDuplicateExecuted {
			c.r.Duplicates = append(c.r.Duplicates, Violation{Invariant: InvDuplicateJob, At: e.At, Seq: e.Seq,
				Detail: fmt.Sprintf("job %s ran again (sent by %s with token %d)", e.Idem(), e.From(), e.Token())})
		}
	case KindState:
		c.state(e)
	case KindShardOwn, KindShardDrop:
		c.shard(e)
	}
}

// holder checks a lock's new holder: no other key of the lock still
// exists, and its token is above the last one.
func (c *checker) holder(e *Event) {
	name, key, tok := e.Lock(), e.Key(), e.Token()
	lt := c.locks[name]
	if lt == nil {
		lt = &lockTruth{}
		c.locks[name] = lt
	}
	if lt.key != "" && !lt.deleted {
		c.viol(e, InvOneHolder, "%s granted to %s (key %s) while %s still exists", name, e.Owner(), key, lt.key)
	}
	// A system that issues no token (Kubernetes' Lease, Redlock) traces
	// holders without one: there is no order to break.
	if e.Format(FToken) != "" && tok <= lt.token {
		c.viol(e, InvTokenOrder, "%s: token %d issued after token %d", name, tok, lt.token)
	}
	*lt = lockTruth{key: key, token: tok}
	c.holderOfKey[key] = name
}

// write checks an accepted write or commit against the resource's
// highest token, when its fencing is on.
func (c *checker) write(e *Event) {
	res := e.Actor
	if e.Kind == KindOffset {
		if e.Format(FShard) == "" {
			return // a summary line
		}
		res = e.Actor + "/" + e.Format(FShard)
	}
	if e.Result() != Accepted {
		return
	}
	tok := e.Token()
	on, ok := c.fencing[e.Actor]
	if !ok {
		on = c.fencing[""]
	}
	if tok < c.highest[res] {
		if on {
			c.viol(e, InvFencing, "%s accepted token %d below its highest %d", res, tok, c.highest[res])
		}
	} else {
		c.highest[res] = tok
	}
}

// state follows who believes it leads.
func (c *checker) state(e *Event) {
	from, to := e.From(), e.To()
	if to == Leader.String() {
		c.order = append(c.order, e.Actor)
	} else if from == Leader.String() {
		c.order = slices.DeleteFunc(c.order, func(s string) bool { return s == e.Actor })
	} else {
		return
	}
	c.reopen("leader", e.At, slices.Clone(c.order))
}

// shard follows who believes it owns each shard.
func (c *checker) shard(e *Event) {
	sh := e.Shard()
	m := c.shardOwners[sh]
	if m == nil {
		m = map[string]time.Duration{}
		c.shardOwners[sh] = m
	}
	if e.Kind == KindShardOwn {
		m[e.Actor] = e.At
	} else {
		delete(m, e.Actor)
	}
	what := fmt.Sprintf("shard %d", sh)
	if len(m) >= 2 || c.open[what] != nil {
		who := make([]string, 0, len(m))
		for w := range m {
			who = append(who, w)
		}
		slices.Sort(who)
		c.reopen(what, e.At, who)
	}
}
