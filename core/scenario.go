package core

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// MaxContenders is the most processes a contention world may have.
const MaxContenders = 64

// ContentionConfig builds N processes contending for one lock whose leader
// writes to a fenced register.
type ContentionConfig struct {
	Names       []string // process names; default A, B, C...
	Procs       int      // used when Names is empty
	Lock        string   // default "locks/leader"
	Recipe      Recipe
	TokenSource TokenSource
	// FirstToken is the token the first holder gets with the generation
	// source (the seed's examples start at 1, 7 and 41).
	FirstToken   int64
	TTL          time.Duration
	RenewEvery   time.Duration
	RetryBase    time.Duration
	RetryJitter  float64
	Stagger      time.Duration // process i starts at i*Stagger
	Fencing      bool
	WorkEvery    time.Duration
	WriteLatency time.Duration
	LockDelay    time.Duration
	// IgnoreLeaseLoss gives every process the is_leader-boolean bug.
	IgnoreLeaseLoss bool
	Register        string // register actor name, default "storage"
	// Jobs, when set, replaces the register with a job queue named
	// "queue" (Idempotency switches its key check): each new leader
	// enqueues these keys, one per WorkEvery, as the scheduler does.
	Jobs        []string
	Idempotency bool
	// System the contenders run on (zero: etcd); RenewDeadline and
	// RedisNodes belong to Kubernetes and Redlock (see ProcessConfig).
	System        System
	RenewDeadline time.Duration
	RedisNodes    int
}

// Validate rejects impossible parameters with a message naming the field.
func (c ContentionConfig) Validate() error {
	if c.Procs < 0 || len(c.Names) > MaxContenders || c.Procs > MaxContenders {
		return fmt.Errorf("processes: want 1 to %d, got %d", MaxContenders, max(c.Procs, len(c.Names)))
	}
	if c.FirstToken > MaxFirstToken {
		return fmt.Errorf("first token: want 0 to %d, got %d", MaxFirstToken, c.FirstToken)
	}
	if err := checkPeriods(c.TTL, max(c.RenewEvery, 0)); err != nil {
		return err
	}
	if err := c.checkSystem(); err != nil {
		return err
	}
	if c.RenewEvery < 0 || (c.RenewEvery > 0 && c.RenewEvery >= c.TTL) {
		return fmt.Errorf("renew interval %s must be positive and shorter than the ttl %s", c.RenewEvery, c.TTL)
	}
	if c.RetryJitter < 0 || c.FirstToken < 0 || c.LockDelay < 0 || c.WorkEvery < 0 {
		return fmt.Errorf("jitter, first token, lock-delay and work interval must not be negative")
	}
	return nil
}

// ProcessNames returns A, B, C, ... for n processes.
func ProcessNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		if i < 26 {
			out[i] = string(rune('A' + i))
		} else {
			out[i] = fmt.Sprintf("P%d", i)
		}
	}
	return out
}

// World writes the contention world: a coordinator, a fenced register (or
// the job queue) and the contenders, which start campaigning Stagger
// apart.
func (c ContentionConfig) World(seed uint64) (World, error) {
	if err := c.Validate(); err != nil {
		return World{}, err
	}
	names := c.Names
	if len(names) == 0 {
		n := c.Procs
		if n == 0 {
			n = 2
		}
		names = ProcessNames(n)
	}
	if c.Lock == "" {
		c.Lock = "locks/leader"
	}
	if c.Register == "" {
		c.Register = "storage"
	}
	w := World{Seed: seed, Coordinator: CoordinatorSpec{TokenSource: c.TokenSource, LockDelay: c.LockDelay}}
	c.System.rules().contention(&c, &w) // the coordinator, contenders and nodes the system's
	target := c.Register
	if len(c.Jobs) > 0 {
		target = "queue"
		w.Resources = []Resource{QueueResource(target, c.Idempotency)}
	} else {
		w.Resources = []Resource{RegisterResource(c.Register, c.Fencing)}
	}
	for i, n := range names {
		w.Processes = append(w.Processes, ProcessConfig{
			Name: n, Lock: c.Lock, Recipe: c.Recipe, TTL: c.TTL, RenewEvery: c.RenewEvery,
			RetryBase: c.RetryBase, RetryJitter: c.RetryJitter, StartAt: time.Duration(i) * c.Stagger,
			WorkEvery: c.WorkEvery, WriteLatency: c.WriteLatency, Target: target,
			IgnoreLeaseLoss: c.IgnoreLeaseLoss, Batch: c.Jobs,
			System: c.System, RenewDeadline: c.RenewDeadline, RedisNodes: c.RedisNodes,
		})
	}
	return w, nil
}

// InvoiceKeys returns the idempotency keys of seed Example 1's batch,
// invoice:customer-NN:date, for customers 1 to n.
func InvoiceKeys(n int, date string) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("invoice:customer-%02d:%s", i+1, date)
	}
	return keys
}

// APINames returns api-1, api-2, ... for n scheduler instances.
func APINames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("api-%d", i+1)
	}
	return out
}

// SchedulerLock is the lock seed Example 1's instances elect a scheduler
// with.
const SchedulerLock = "locks/invoice-scheduler"

// SchedulerContention is seed Example 1: n API instances (api-1...) elect one
// invoice scheduler (first token 41) on a lease of ttl, and the leader
// enqueues the nightly batch of eight invoice jobs, one a second, into a
// queue that checks idempotency keys if idempotency.
func SchedulerContention(n int, ttl time.Duration, idempotency bool) ContentionConfig {
	return ContentionConfig{
		Names: APINames(n), Lock: SchedulerLock, FirstToken: 41, TTL: ttl, RetryJitter: 0.5,
		Stagger: 100 * time.Millisecond, WorkEvery: time.Second,
		Jobs: InvoiceKeys(8, "2026-11-29"), Idempotency: idempotency,
	}
}

// MaxShardWorkers is the most workers a shard world may have.
const MaxShardWorkers = 1000

// ShardsConfig builds seed Example 2: S shards over W workers, each shard a
// lease-protected key, offsets committed with the shard token.
type ShardsConfig struct {
	Shards, Workers int
	TTL, RenewEvery time.Duration
	LeasePerShard   bool
	Assign          AssignRule
	ScanEvery       time.Duration
	ScanJitter      float64
	CommitEvery     time.Duration
	Fencing         bool
	Stagger         time.Duration
}

// Validate rejects impossible shard layouts.
func (c ShardsConfig) Validate() error {
	switch {
	case c.Shards < 1 || c.Shards > 100000:
		return fmt.Errorf("shards: want 1 to 100000, got %d", c.Shards)
	case c.Workers < 1 || c.Workers > MaxShardWorkers:
		return fmt.Errorf("workers: want 1 to %d, got %d", MaxShardWorkers, c.Workers)
	}
	if err := checkPeriods(c.TTL, max(c.RenewEvery, 0)); err != nil {
		return err
	}
	if c.RenewEvery < 0 || c.RenewEvery >= c.TTL {
		return fmt.Errorf("renew interval %s must be shorter than the ttl %s", c.RenewEvery, c.TTL)
	}
	return nil
}

// WorkerNames returns worker-00, worker-01, ...
func WorkerNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("worker-%02d", i)
	}
	return out
}

// World writes the shard world: the offset store and the workers, which
// start Stagger apart.
func (c ShardsConfig) World(seed uint64) (World, error) {
	if err := c.Validate(); err != nil {
		return World{}, err
	}
	w := World{Seed: seed, Resources: []Resource{OffsetsResource("offsets", c.Shards, c.Fencing)}}
	for i, n := range WorkerNames(c.Workers) {
		w.Workers = append(w.Workers, ShardConfig{
			Name: n, Shards: c.Shards, TTL: c.TTL, RenewEvery: c.RenewEvery, LeasePerShard: c.LeasePerShard,
			Assign: c.Assign, Index: i, Of: c.Workers,
			ScanEvery: c.ScanEvery, ScanJitter: c.ScanJitter, CommitEvery: c.CommitEvery,
			StartAt: time.Duration(i) * c.Stagger,
		})
	}
	return w, nil
}

// ShardStats summarises ownership now.
type ShardStats struct {
	Owned      int // shards some live worker believes it owns
	Min, Max   int // per live worker
	LiveWorker int
}

// ShardStats computes ownership balance over live workers.
func (s *Sim) ShardStats() ShardStats {
	st := ShardStats{Min: -1}
	for _, w := range s.workers {
		if w.crashed {
			continue
		}
		n := len(w.own)
		st.LiveWorker++
		st.Owned += n
		if st.Min < 0 || n < st.Min {
			st.Min = n
		}
		st.Max = max(st.Max, n)
	}
	st.Min = max(st.Min, 0)
	return st
}

// Writes returns the register's decisions in order, as "who token result".
func Writes(t *Trace) []Event { return t.Filter(KindWrite) }

// Holders returns the coordinator's holder changes for every lock.
func Holders(t *Trace) []Event { return t.Filter(KindHolder) }

// Describe lists a world's actors, one per line, for the CLI.
func (s *Sim) Describe() string {
	var b strings.Builder
	names := make([]string, 0, len(s.actors))
	for n := range s.actors {
		names = append(names, n)
	}
	slices.Sort(names)
	fmt.Fprintf(&b, "actors: %s\n", strings.Join(names, ", "))
	return b.String()
}
