package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// Validate lists every field that makes the configuration impossible to
// run, each with a message for the learner. An unsafe policy is not an
// error (the sandbox exists to break things); PolicyVerdict judges it.
// The checks go by concept, in the order the learner reads the panel:
// the contenders (or the shards), the lease and its system, pauses, the
// network, the run's length and the scripted actions.
func (c Config) Validate() []FieldError {
	v := &validation{}
	if c.Shards == 0 {
		c.checkContenders(v)
		c.checkLock(v)
		c.checkWorkload(v)
	} else {
		c.checkShards(v)
	}
	ttlOK := c.checkLease(v)
	c.Pauses.check(v)
	c.checkNetwork(v)
	c.checkDuration(v, ttlOK)
	c.checkActions(v)
	return v.errs
}

// validation collects a configuration's field errors.
type validation struct{ errs []FieldError }

func (v *validation) bad(field, format string, a ...any) {
	v.errs = append(v.errs, FieldError{Field: field, Msg: fmt.Sprintf(format, a...)})
}

// period checks a duration field and reports whether it is usable.
func (v *validation) period(field, what string, d time.Duration, zeroOK bool) bool {
	switch {
	case d == 0 && zeroOK:
	case d < core.MinPeriod:
		v.bad(field, "%s must be at least %s, got %s", what, core.Span(core.MinPeriod), core.Span(d))
	case d > maxPeriod:
		v.bad(field, "%s must be at most %s, got %s", what, core.Span(maxPeriod), core.Span(d))
	default:
		return true
	}
	return d == 0 && zeroOK
}

// checkContenders: how many processes, and their names.
func (c Config) checkContenders(v *validation) {
	if c.Procs < 1 || c.Procs > MaxProcs {
		v.bad(FieldProcs, "want 1 to %d processes, got %d", MaxProcs, c.Procs)
	} else if len(c.Names) > 0 && len(c.Names) != c.Procs {
		v.bad(FieldNames, "%d names for %d processes", len(c.Names), c.Procs)
	}
	seen := map[string]bool{}
	for _, n := range c.Names {
		switch {
		case n == "" || len(n) > 16 || strings.ContainsAny(n, " \t\n/="):
			v.bad(FieldNames, "name %q: want 1 to 16 characters without spaces, '/' or '='", n)
		case slices.Contains(reservedNames, n):
			v.bad(FieldNames, "name %q is taken by a built-in actor", n)
		case seen[n]:
			v.bad(FieldNames, "name %q is used twice", n)
		}
		seen[n] = true
	}
}

// checkLock: the single lock's recipe and tokens.
func (c Config) checkLock(v *validation) {
	if c.Recipe < core.RecipeEtcd || c.Recipe > core.RecipeHerd {
		v.bad(FieldRecipe, "want etcd, zookeeper or herd")
	}
	if c.TokenSource != core.TokenGeneration && c.TokenSource != core.TokenRevision {
		v.bad(FieldTokenSource, "want generation or revision")
	}
	if c.FirstToken < 0 || c.FirstToken > core.MaxFirstToken {
		v.bad(FieldFirstToken, "the first token must be 0 to %d, got %d", core.MaxFirstToken, c.FirstToken)
	} else if c.FirstToken > 0 && !c.System.TakesFirstToken() {
		v.bad(FieldFirstToken, "%s numbers its own tokens: a first token applies to etcd worlds", c.System.Title())
	} else if c.FirstToken > 0 && c.TokenSource == core.TokenRevision {
		v.bad(FieldFirstToken, "a first token applies to generation tokens; revision tokens come from the coordinator")
	}
}

// checkWorkload: what the leader does, and how often.
func (c Config) checkWorkload(v *validation) {
	switch c.Workload {
	case WorkloadWrites:
		if c.Idempotency {
			v.bad(FieldIdempotency, "idempotency keys belong to the job queue: choose the jobs workload, or switch it off")
		}
	case WorkloadJobs:
	default:
		v.bad(FieldWorkload, "want writes or jobs, got %q", c.Workload)
	}
	v.period(FieldWorkload, "the write latency", c.WriteLatency, true)
	if v.period(FieldWorkload, "the work interval", c.WorkEvery, true) && c.WorkEvery == 0 && c.Workload == WorkloadJobs {
		v.bad(FieldWorkload, "the jobs workload needs a work interval (one job per interval)")
	}
}

// checkShards: the fleet of shard workers in place of a single lock.
func (c Config) checkShards(v *validation) {
	switch {
	case c.Shards < 0 || c.Shards > MaxShards:
		v.bad(FieldShards, "want 0 (a single lock) to %d shards, got %d", MaxShards, c.Shards)
	case c.Workers < 1 || c.Workers > MaxProcs:
		v.bad(FieldWorkers, "%d shards need 1 to %d workers, got %d", c.Shards, MaxProcs, c.Workers)
	}
	if c.Idempotency {
		v.bad(FieldIdempotency, "shard workers commit offsets, not jobs: switch idempotency off")
	}
	if c.LockDelay > 0 {
		v.bad(FieldLockDelay, "lock-delay guards a single lock; shard leases are claimed directly: switch it off")
	}
}

// checkLease: the TTL, what the system refuses, the renewal and the
// retry; it reports whether the TTL is usable.
func (c Config) checkLease(v *validation) (ttlOK bool) {
	ttlOK = v.period(FieldTTL, "the TTL", c.TTL, false)
	for _, e := range c.Settings().Check(ttlOK) {
		v.bad(settingFields[e.Setting], "%s", e.Msg)
		ttlOK = ttlOK && e.Setting != core.SettingTTL
	}
	if v.period(FieldRenew, "the renew interval", c.RenewEvery, true) && ttlOK && c.RenewEvery >= c.TTL {
		v.bad(FieldRenew, "renewing every %s with a TTL of %s lets the lease lapse between renewals: renew more often than the TTL", core.Seconds(c.RenewEvery), core.Seconds(c.TTL))
	}
	v.period(FieldRetry, "the retry wait", c.RetryBase, true)
	if c.RetryJitter < 0 || c.RetryJitter > 2 || c.RetryJitter != c.RetryJitter {
		v.bad(FieldJitter, "retry jitter is a fraction from 0 to 2, got %g", c.RetryJitter)
	}
	return ttlOK
}

// settingFields is the sandbox field of each setting a system may refuse.
var settingFields = [...]string{
	core.SettingSystem:    FieldSystem,
	core.SettingMembers:   FieldMembers,
	core.SettingRecipe:    FieldRecipe,
	core.SettingTTL:       FieldTTL,
	core.SettingRenew:     FieldRenew,
	core.SettingLockDelay: FieldLockDelay,
	core.SettingShards:    FieldShards,
}

// check: the distribution's kind and its numbers.
func (p PauseDist) check(v *validation) {
	switch p.Kind {
	case PauseNone, "":
	case PauseFixed, PauseHeavyTail:
		if p.Every < time.Second || p.Every > time.Hour {
			v.bad(FieldPause, "pauses must come 1 s to 1 h apart, got %s", core.Span(p.Every))
		}
		if p.Kind == PauseFixed && (p.Length < 10*time.Millisecond || p.Length > maxPeriod) {
			v.bad(FieldPause, "a fixed pause lasts 10 ms to %s, got %s", core.Span(maxPeriod), core.Span(p.Length))
		}
		if p.Kind == PauseHeavyTail {
			p.checkTail(v)
		}
	default:
		v.bad(FieldPause, "unknown pause distribution %q (want none, fixed or heavy-tail)", p.Kind)
	}
}

// checkTail: a heavy tail's scale, longest pause and index.
func (p PauseDist) checkTail(v *validation) {
	switch {
	case p.Scale < 10*time.Millisecond:
		v.bad(FieldPause, "the tail's scale (its shortest pause) must be at least 10 ms, got %s", core.Span(p.Scale))
	case p.Max < p.Scale || p.Max > maxPeriod:
		v.bad(FieldPause, "the longest pause must lie between the scale %s and %s, got %s", core.Span(p.Scale), core.Span(maxPeriod), core.Span(p.Max))
	}
	if !(p.Alpha >= 0.5 && p.Alpha <= 10) {
		v.bad(FieldPause, "the tail index alpha must be 0.5 to 10 (smaller: heavier tail), got %g", p.Alpha)
	}
}

// checkNetwork: the links' delays and jitters, each link's ends, and
// the lock-delay.
func (c Config) checkNetwork(v *validation) {
	if m := checkLink(c.Delay, c.Jitter); m != "" {
		v.bad(FieldDelay, "%s", m)
	}
	actors := append(slices.Clone(reservedNames), c.ProcNames()...)
	for _, l := range c.Links {
		if m := checkLink(l.Delay, l.Jitter); m != "" {
			v.bad(FieldLinks, "%s - %s: %s", l.A, l.B, m)
		} else if !slices.Contains(actors, l.A) || !slices.Contains(actors, l.B) || l.A == l.B {
			v.bad(FieldLinks, "link %s - %s: both ends must be actors of this world (%s)", l.A, l.B, strings.Join(c.ProcNames(), ", ")+", "+core.CoordinatorName)
		}
	}
	if c.LockDelay < 0 || c.LockDelay > time.Minute {
		v.bad(FieldLockDelay, "lock-delay must be 0 (off) to 60 s, got %s", core.Span(c.LockDelay))
	}
}

// checkLink says what is wrong with a link's delay and jitter ("": nothing).
func checkLink(d time.Duration, j float64) string {
	switch {
	case d < 0 || d > maxLinkDelay:
		return fmt.Sprintf("delay must be 0 to %s, got %s", core.Span(maxLinkDelay), core.Span(d))
	case j < 0 || j > 2 || j != j:
		return fmt.Sprintf("jitter is a fraction of the delay from 0 to 2, got %g", j)
	}
	return ""
}

// checkDuration: the run's length, and the renewals it would take.
func (c Config) checkDuration(v *validation, ttlOK bool) {
	if c.Duration < MinDuration || c.Duration > MaxDuration {
		v.bad(FieldDuration, "a run lasts %s to %s, got %s", core.Span(MinDuration), core.Span(MaxDuration), core.Span(c.Duration))
	} else if renew := c.Settings().BudgetRenewal(); ttlOK && renew > 0 {
		// Every renewal is a few trace events; past this a run would
		// not fit in a browser tab's memory. The period is the one the
		// processes use (the policy's rounds TTL/3 to whole milliseconds
		// for display, which made a 1 ms TTL look like no renewal at all).
		// Counts out of range are refused above; clamped here, so that
		// a count of billions cannot overflow the product below into a
		// second, nonsensical complaint.
		leases := min(max(c.Procs, 1), MaxProcs)
		if c.Shards != 0 {
			leases = min(max(c.Shards, 0), MaxShards) + min(max(c.Workers, 0), MaxProcs)
		}
		if n := int64(leases) * int64(c.Duration/renew); n > core.MaxRenewals {
			v.bad(FieldDuration, "this run would renew leases about %d times (%d leases for %s, every %s); keep it under %d: renew less often, run shorter or use fewer shards", n, leases, core.Span(c.Duration), core.Span(renew), core.MaxRenewals)
		}
	}
}

// checkActions: every scripted action is one the world can run.
func (c Config) checkActions(v *validation) {
	for i, a := range c.Actions {
		if err := a.Validate(); err != nil {
			v.bad(FieldActions, "action %d: %v", i+1, err)
		} else if a.At < 0 {
			v.bad(FieldActions, "action %d: negative time %s", i+1, core.Span(a.At.D()))
		}
	}
}
