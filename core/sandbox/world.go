package sandbox

import (
	"errors"
	"strings"
	"time"

	"leaselab/core"
)

// ErrInvalid is what World and Build refuse an invalid configuration
// with (errors.Is); the error is an *InvalidError, which lists the
// field errors (errors.As).
var ErrInvalid = errors.New("sandbox: invalid configuration")

// InvalidError is an invalid configuration's every field error.
type InvalidError struct{ Fields []FieldError }

func (e *InvalidError) Error() string {
	msgs := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		msgs[i] = f.Error()
	}
	return ErrInvalid.Error() + ": " + strings.Join(msgs, "; ")
}

func (e *InvalidError) Unwrap() error { return ErrInvalid }

// World writes the sandbox's world: the coordinator, the resource, the
// contenders (or shard workers), the network, and its pauses and scripted
// actions. An invalid configuration is refused with every field error.
func (c Config) World() (core.World, error) {
	if errs := c.Validate(); len(errs) > 0 {
		return core.World{}, &InvalidError{Fields: errs}
	}
	var w core.World
	var err error
	if c.Shards > 0 {
		w, err = core.ShardsConfig{
			Shards: c.Shards, Workers: c.Workers, TTL: c.TTL, RenewEvery: c.RenewEvery, LeasePerShard: true,
			ScanEvery: c.RetryBase, ScanJitter: c.RetryJitter, CommitEvery: c.WorkEvery,
			Fencing: c.Fencing, Stagger: 200 * time.Millisecond,
		}.World(c.Seed)
	} else {
		cc := core.ContentionConfig{
			System: c.System, Names: c.ProcNames(), Recipe: c.Recipe, TokenSource: c.TokenSource, FirstToken: c.FirstToken,
			TTL: c.TTL, RenewEvery: c.RenewEvery, RetryBase: c.RetryBase, RetryJitter: c.RetryJitter,
			Stagger: 500 * time.Millisecond, Fencing: c.Fencing, WorkEvery: c.WorkEvery, LockDelay: c.LockDelay,
			WriteLatency: c.WriteLatency,
		}
		c.Settings().Contention(&cc)
		if c.Workload == WorkloadJobs {
			cc.Jobs = core.InvoiceKeys(8, "2026-11-29")
			cc.Idempotency = c.Idempotency
		}
		w, err = cc.World(c.Seed)
	}
	if err != nil {
		return core.World{}, err
	}
	w.Coordinator.Members = c.Members
	w.Net = &core.Link{Delay: c.Delay, Jitter: c.Jitter}
	for _, l := range c.Links {
		w.Links = append(w.Links, core.BothWays(l.A, l.B, core.Link{Delay: l.Delay, Jitter: l.Jitter})...)
	}
	w.Script = append(c.Pauses.Schedule(c.Seed, c.ProcNames(), c.Duration), c.Actions...)
	return w, nil
}

// Build makes the sandbox's world (see World), refusing a run past the
// renewal budget.
func (c Config) Build() (*core.Sim, error) {
	w, err := c.World()
	if err != nil {
		return nil, err
	}
	s, err := w.Build()
	if err != nil {
		return nil, err
	}
	// Validate already applied the same budget to the configuration;
	// this is the one check every entry point shares.
	if err := s.CheckBudget(c.Duration); err != nil {
		return nil, err
	}
	return s, nil
}

// Run builds the world and runs it for its duration, checking every
// invariant at the end.
func (c Config) Run() (*core.Sim, core.Report, error) {
	s, err := c.Build()
	if err != nil {
		return nil, core.Report{}, err
	}
	s.RunUntil(c.Duration)
	return s, core.Check(s.Trace, c.Duration), nil
}
