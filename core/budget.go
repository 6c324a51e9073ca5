package core

import (
	"errors"
	"fmt"
	"time"
)

// A run's budget. A world's cost is mostly its lease renewals: each is a
// few events and trace lines, so a TTL of 1 ms over ten minutes is
// millions of them and gigabytes of trace. Every entry point that runs a world a learner configured (a scenario, a
// preset or the sandbox, a lesson, a link) asks CheckBudget first and
// refuses the run with its numbers; and whatever the estimate said, a Sim
// stops by itself once its trace holds MaxTraceEvents events (see
// Sim.Exhausted), so no run can take a browser tab's memory.
const (
	// MaxRenewals bounds the lease renewals of one run (see Renewals; the
	// sandbox's leases x run length / renewal interval is held to the
	// same number).
	MaxRenewals = 250000
	// MaxTraceEvents is the backstop, for a run the estimate let through
	// (a set-ttl action to 1 ms; a world whose renewals cost more events
	// than most): a trace event holds about 1 KB, so this is about 250 MB
	// of trace. The longest built-in run (the shards preset for an hour)
	// records about 93,000 events.
	MaxTraceEvents = 250_000
)

// traceBudget is MaxTraceEvents; tests lower it to reach the backstop
// cheaply.
var traceBudget = MaxTraceEvents

// ErrBudget wraps every refusal of a run that would exceed the budget.
var ErrBudget = errors.New("run budget")

// Renewals estimates how many lease renewals world s makes from time zero
// to end: every session lease (one per process or shard worker) and, in a
// fleet with a lease per shard, every shard's, each renewed once per
// period. It is the sandbox's measure (leases x run length / renewal
// interval), applied to any world. Renewals are most of a run's cost; the
// other periodic work (writes, scans, commits) has periods the learner
// cannot shrink below a second, and the trace budget bounds it anyway.
func (s *Sim) Renewals(end time.Duration) float64 {
	n := 0.0
	every := func(period time.Duration, count int) {
		if period > 0 {
			n += float64(count) * float64(end) / float64(period)
		}
	}
	for _, p := range s.procs {
		every(p.renewalPeriod(), 1)
	}
	for _, w := range s.workers {
		every(renewPeriod(w.cfg.TTL, w.cfg.RenewEvery), 1)
	}
	if len(s.workers) > 0 && s.workers[0].cfg.LeasePerShard {
		// A fleet shares one configuration; each shard's lease is
		// renewed by whoever owns it.
		w := s.workers[0].cfg
		every(renewPeriod(w.TTL, w.RenewEvery), w.Shards)
	}
	return n
}

// renewalPeriod is how often p will renew (see processRenewal).
func (p *Process) renewalPeriod() time.Duration {
	if d, ok := p.cfg.System.rules().budgetRenewal(p.cfg.RetryBase); ok {
		return d
	}
	return processRenewal(p.cfg.TTL, p.cfg.RenewEvery, p.cfg.Recipe, p.sim.Coord.MinTTL)
}

// processRenewal is how often a process with this TTL, renewal period and
// recipe renews: its own period, capped at two thirds of the TTL it will
// be granted; or, for etcd's KeepAlive client, a third of that TTL, sent
// on the next 500 ms tick. The granted TTL is at least the coordinator's
// minTTL (and whole seconds for the etcd recipe), so a tiny TTL alone
// cannot make a run expensive; a tiny renewal period can.
func processRenewal(ttl, renewEvery time.Duration, r Recipe, minTTL time.Duration) time.Duration {
	granted := max(ttl, minTTL)
	if r == RecipeEtcd {
		granted = WholeSeconds(granted)
	}
	if renewEvery > 0 {
		return min(renewEvery, granted/3*2)
	}
	return max(granted/3, etcdSendLoop)
}

// renewPeriod is a shard worker's keepalive period: RenewEvery, or TTL/3.
func renewPeriod(ttl, renewEvery time.Duration) time.Duration {
	if renewEvery > 0 {
		return renewEvery
	}
	return ttl / 3
}

// CheckBudget refuses a run of s until end that would exceed MaxRenewals,
// saying how many steps it would take and what to change.
func (s *Sim) CheckBudget(end time.Duration) error {
	if n := s.Renewals(end); n > MaxRenewals {
		return fmt.Errorf("%w: this run would renew leases about %.3g times (%d processes, %d shard workers for %s); the limit is %d: renew less often, run shorter or use fewer processes",
			ErrBudget, n, len(s.procs), len(s.workers), FormatTime(end), MaxRenewals)
	}
	return nil
}

// Exhausted reports that the world stopped itself because its trace
// reached MaxTraceEvents, and when: it fires no more events (its clock
// still moves; see RunUntil).
func (s *Sim) Exhausted() error {
	n := s.Trace.Len()
	if n < traceBudget || n == 0 {
		return nil
	}
	return fmt.Errorf("%w: the run stopped at %s of virtual time: its trace reached %d events, the most a run may record",
		ErrBudget, FormatTime(s.Trace.At(n-1).At), traceBudget)
}
