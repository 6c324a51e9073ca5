package sandbox

import (
	"leaselab/core"
	"time"
)

// Workloads a sandbox leader runs.
const (
	WorkloadWrites = "writes" // a fenced register, written every WorkEvery
	WorkloadJobs   = "jobs"   // a job queue, fed a batch of invoice jobs
)

// LinkConfig overrides the network between two actors (both directions).
type LinkConfig struct {
	A, B   string
	Delay  time.Duration
	Jitter float64
}

// Config is a free-play world: every parameter the sandbox's setup
// panel offers. The zero value is not valid; start from a preset or from
// Default.
type Config struct {
	// Procs contenders (1 to 12), named Names (or A, B, C...).
	Procs int
	Names []string
	// Recipe and TokenSource of the lock; FirstToken is the first
	// generation token (seed examples start at 1, 7 and 41; 0 means 1).
	Recipe      core.Recipe
	TokenSource core.TokenSource
	FirstToken  int64
	// TTL of each session lease; RenewEvery its keepalive period;
	// RetryBase and RetryJitter how a process that lost its session waits
	// before campaigning again.
	TTL         time.Duration
	RenewEvery  time.Duration
	RetryBase   time.Duration
	RetryJitter float64
	Pauses      PauseDist
	// Delay and Jitter apply to every link; Links override single links.
	Delay  time.Duration
	Jitter float64
	Links  []LinkConfig
	// LockDelay blocks re-acquisition after an invalidated holder
	// (Consul's lock-delay); zero switches it off.
	LockDelay   time.Duration
	Fencing     bool
	Idempotency bool
	// Workload is WorkloadWrites or WorkloadJobs (the idempotency switch
	// only matters for jobs); WorkEvery paces the leader's work and
	// WriteLatency is the gap between deciding a write and sending it (a
	// pause can fall into it).
	Workload     string
	WorkEvery    time.Duration
	WriteLatency time.Duration
	// Shards > 0 replaces the single lock with that many shard leases
	// over Workers workers (recipe, token source and workload then do not
	// apply: shards are claimed one key each, fenced by offset commits).
	Shards  int
	Workers int
	Seed    uint64
	// Duration of the run (10 s to 1 h).
	Duration time.Duration
	// Actions are scripted on top of the pauses (a preset's story).
	Actions core.ActionLog
	// System is the coordination system the world runs on (zero: etcd).
	// ZooKeeper and Consul bring their own recipe, token and client
	// (Recipe, TokenSource, FirstToken and RenewEvery then do not apply).
	// Kubernetes reads TTL as LeaseDuration, RetryBase as the RetryPeriod
	// candidates poll on, RenewEvery (zero: RetryBase) as the one the
	// leader renews on, and RenewDeadline (zero: two thirds of the lease,
	// client-go's 10 s of 15 s); Redlock reads TTL as the lock's expiry, RenewEvery as the
	// holder's Extend period (zero: never) and RedisNodes (zero: 3).
	System        core.System
	RenewDeadline time.Duration
	RedisNodes    int
	// Members makes the coordinator a cluster (cluster.go): 0 or 1 is
	// one server; 3 or 5 members on etcd, ZooKeeper, Consul, and
	// Kubernetes (whose API server keeps its Leases in etcd); Redlock has
	// independent Redis nodes instead.
	Members int
}

// FieldError is one invalid field of a Config, with a message the
// setup panel shows beside it.
type FieldError struct {
	Field string
	Msg   string
}

func (e FieldError) Error() string { return e.Field + ": " + e.Msg }

// Sandbox field names, as FieldError.Field reports them.
const (
	FieldSystem      = "system"
	FieldProcs       = "procs"
	FieldNames       = "names"
	FieldRecipe      = "recipe"
	FieldTokenSource = "token_source"
	FieldFirstToken  = "first_token"
	FieldTTL         = "ttl"
	FieldRenew       = "renew"
	FieldRetry       = "retry"
	FieldJitter      = "retry_jitter"
	FieldPause       = "pause"
	FieldDelay       = "delay"
	FieldLinks       = "links"
	FieldLockDelay   = "lock_delay"
	FieldIdempotency = "idempotency"
	FieldWorkload    = "workload"
	FieldShards      = "shards"
	FieldWorkers     = "workers"
	FieldDuration    = "duration"
	FieldActions     = "actions"
	FieldMembers     = "members"
)

// Sandbox limits.
const (
	MaxProcs     = 12
	MaxShards    = 256
	MinDuration  = 10 * time.Second
	MaxDuration  = time.Hour
	maxPeriod    = 10 * time.Minute
	maxLinkDelay = 10 * time.Second
)

// reservedNames are actors every world has; a process may not take them.
var reservedNames = []string{core.CoordinatorName, "storage", "queue", "offsets", "net", "learner"}

// Default is the setup panel's starting point: three contenders in
// etcd's fair queue with a 10 s TTL, fencing on, writing every 2 s.
func Default() Config {
	return Config{
		Procs: 3, TTL: 10 * time.Second, RetryBase: time.Second, RetryJitter: 0.5,
		Pauses: PauseDist{Kind: PauseNone}, Delay: core.DefaultLink.Delay, Jitter: core.DefaultLink.Jitter,
		Fencing: true, Workload: WorkloadWrites, WorkEvery: 2 * time.Second, Workers: 4, Seed: 1,
		Duration: 10 * time.Minute,
	}
}

// ProcNames returns the names of the world's contenders (or workers).
func (c Config) ProcNames() []string {
	if c.Shards > 0 {
		return core.WorkerNames(min(max(c.Workers, 0), MaxProcs))
	}
	if len(c.Names) > 0 {
		return c.Names
	}
	return core.ProcessNames(min(max(c.Procs, 0), MaxProcs))
}
