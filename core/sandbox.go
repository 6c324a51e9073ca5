package core

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Workloads a sandbox leader runs.
const (
	WorkloadWrites = "writes" // a fenced register, written every WorkEvery
	WorkloadJobs   = "jobs"   // a job queue, fed a batch of invoice jobs
)

// Pause distributions.
const (
	PauseNone      = "none"       // no pauses but the learner's
	PauseFixed     = "fixed"      // every pause lasts Length
	PauseHeavyTail = "heavy-tail" // Pareto lengths: most short, a few very long
)

// PauseDist is a seeded distribution of stop-the-world pauses that every
// process (or worker) of a sandbox suffers. Pauses arrive about Every
// apart per process (a gap uniform in [Every/2, 3*Every/2], counted from
// the end of the previous pause). A fixed pause lasts Length; a heavy-tail
// pause lasts Scale/U^(1/Alpha) for U uniform in (0, 1], capped at Max: a
// Pareto tail, the shape garbage-collection and scheduling stalls have
// (most are near Scale, a few reach Max).
type PauseDist struct {
	Kind   string
	Every  time.Duration
	Length time.Duration
	Scale  time.Duration
	Alpha  float64
	Max    time.Duration
}

// Budget is the longest pause the distribution can produce: the pause
// budget of the lease-policy rule.
func (d PauseDist) Budget() time.Duration {
	switch d.Kind {
	case PauseFixed:
		return d.Length
	case PauseHeavyTail:
		return d.Max
	}
	return 0
}

// Schedule draws the pauses of each named process up to until. The draws
// come from their own source, seeded from seed alone, so changing a TTL
// or a recipe leaves the pauses where they were.
func (d PauseDist) Schedule(seed uint64, names []string, until time.Duration) ActionLog {
	if d.Kind != PauseFixed && d.Kind != PauseHeavyTail {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x73616e64626f78))
	var log ActionLog
	for _, n := range names {
		t := time.Duration(0)
		for {
			t += d.Every/2 + time.Duration(rng.Int64N(int64(d.Every)+1))
			if t >= until {
				break
			}
			length := d.Length
			if d.Kind == PauseHeavyTail {
				u := 1 - rng.Float64() // (0, 1]
				length = min(time.Duration(float64(d.Scale)*math.Pow(u, -1/d.Alpha)), d.Max)
			}
			length = max(length.Round(10*time.Millisecond), 10*time.Millisecond)
			log = append(log, At(t, Pause(n, length)))
			t += length
		}
	}
	return log.Sorted()
}

// LinkConfig overrides the network between two actors (both directions).
type LinkConfig struct {
	A, B   string
	Delay  time.Duration
	Jitter float64
}

// SandboxConfig is a free-play world: every parameter the sandbox's setup
// panel offers. The zero value is not valid; start from a preset or from
// DefaultSandbox.
type SandboxConfig struct {
	// Procs contenders (1 to 12), named Names (or A, B, C...).
	Procs int
	Names []string
	// Recipe and TokenSource of the lock; FirstToken is the first
	// generation token (seed examples start at 1, 7 and 41; 0 means 1).
	Recipe      Recipe
	TokenSource TokenSource
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
	Actions ActionLog
	// System is the coordination system the world runs on (zero: etcd).
	// ZooKeeper and Consul bring their own recipe, token and client
	// (Recipe, TokenSource, FirstToken and RenewEvery then do not apply).
	// Kubernetes reads TTL as LeaseDuration, RetryBase as the RetryPeriod
	// candidates poll on, RenewEvery (zero: RetryBase) as the one the
	// leader renews on, and RenewDeadline (zero: two thirds of the lease,
	// client-go's 10 s of 15 s); Redlock reads TTL as the lock's expiry, RenewEvery as the
	// holder's Extend period (zero: never) and RedisNodes (zero: 3).
	System        System
	RenewDeadline time.Duration
	RedisNodes    int
	// Members makes the coordinator a cluster (cluster.go): 0 or 1 is
	// one server; 3 or 5 members on etcd, ZooKeeper, Consul, and
	// Kubernetes (whose API server keeps its Leases in etcd); Redlock has
	// independent Redis nodes instead.
	Members int
}

// FieldError is one invalid field of a SandboxConfig, with a message the
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
	MaxSandboxProcs    = 12
	MaxSandboxShards   = 256
	MinSandboxDuration = 10 * time.Second
	MaxSandboxDuration = time.Hour
	maxSandboxPeriod   = 10 * time.Minute
	// MaxSandboxRenewals bounds leases x run length / renewal interval.
	MaxSandboxRenewals = 250000
	maxLinkDelay       = 10 * time.Second
)

// reservedNames are actors every world has; a process may not take them.
var reservedNames = []string{CoordinatorName, "storage", "queue", "offsets", "net", "learner"}

// DefaultSandbox is the setup panel's starting point: three contenders in
// etcd's fair queue with a 10 s TTL, fencing on, writing every 2 s.
func DefaultSandbox() SandboxConfig {
	return SandboxConfig{
		Procs: 3, TTL: 10 * time.Second, RetryBase: time.Second, RetryJitter: 0.5,
		Pauses: PauseDist{Kind: PauseNone}, Delay: DefaultLink.Delay, Jitter: DefaultLink.Jitter,
		Fencing: true, Workload: WorkloadWrites, WorkEvery: 2 * time.Second, Workers: 4, Seed: 1,
		Duration: 10 * time.Minute,
	}
}

// ProcNames returns the names of the world's contenders (or workers).
func (c SandboxConfig) ProcNames() []string {
	if c.Shards > 0 {
		return WorkerNames(min(max(c.Workers, 0), MaxSandboxProcs))
	}
	if len(c.Names) > 0 {
		return c.Names
	}
	return ProcessNames(min(max(c.Procs, 0), MaxSandboxProcs))
}

// Validate lists every field that makes the configuration impossible to
// run, each with a message for the learner. An unsafe policy is not an
// error (the sandbox exists to break things); PolicyVerdict judges it.
func (c SandboxConfig) Validate() []FieldError {
	var errs []FieldError
	bad := func(field, format string, a ...any) {
		errs = append(errs, FieldError{Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	// period checks a duration field and reports whether it is usable.
	period := func(field, what string, d time.Duration, zeroOK bool) bool {
		switch {
		case d == 0 && zeroOK:
		case d < minPeriod:
			bad(field, "%s must be at least %s, got %s", what, Span(minPeriod), Span(d))
		case d > maxSandboxPeriod:
			bad(field, "%s must be at most %s, got %s", what, Span(maxSandboxPeriod), Span(d))
		default:
			return true
		}
		return d == 0 && zeroOK
	}

	single := c.Shards == 0
	if single {
		if c.Procs < 1 || c.Procs > MaxSandboxProcs {
			bad(FieldProcs, "want 1 to %d processes, got %d", MaxSandboxProcs, c.Procs)
		} else if len(c.Names) > 0 && len(c.Names) != c.Procs {
			bad(FieldNames, "%d names for %d processes", len(c.Names), c.Procs)
		}
		seen := map[string]bool{}
		for _, n := range c.Names {
			switch {
			case n == "" || len(n) > 16 || strings.ContainsAny(n, " \t\n/="):
				bad(FieldNames, "name %q: want 1 to 16 characters without spaces, '/' or '='", n)
			case slices.Contains(reservedNames, n):
				bad(FieldNames, "name %q is taken by a built-in actor", n)
			case seen[n]:
				bad(FieldNames, "name %q is used twice", n)
			}
			seen[n] = true
		}
		if c.Recipe < RecipeEtcd || c.Recipe > RecipeHerd {
			bad(FieldRecipe, "want etcd, zookeeper or herd")
		}
		if c.TokenSource != TokenGeneration && c.TokenSource != TokenRevision {
			bad(FieldTokenSource, "want generation or revision")
		}
		if c.FirstToken < 0 || c.FirstToken > MaxFirstToken {
			bad(FieldFirstToken, "the first token must be 0 to %d, got %d", MaxFirstToken, c.FirstToken)
		} else if c.FirstToken > 0 && !c.System.rules().firstToken() {
			bad(FieldFirstToken, "%s numbers its own tokens: a first token applies to etcd worlds", c.System.Title())
		} else if c.FirstToken > 0 && c.TokenSource == TokenRevision {
			bad(FieldFirstToken, "a first token applies to generation tokens; revision tokens come from the coordinator")
		}
		switch c.Workload {
		case WorkloadWrites:
			if c.Idempotency {
				bad(FieldIdempotency, "idempotency keys belong to the job queue: choose the jobs workload, or switch it off")
			}
		case WorkloadJobs:
		default:
			bad(FieldWorkload, "want writes or jobs, got %q", c.Workload)
		}
		period(FieldWorkload, "the write latency", c.WriteLatency, true)
		if period(FieldWorkload, "the work interval", c.WorkEvery, true) && c.WorkEvery == 0 && c.Workload == WorkloadJobs {
			bad(FieldWorkload, "the jobs workload needs a work interval (one job per interval)")
		}
	} else {
		switch {
		case c.Shards < 0 || c.Shards > MaxSandboxShards:
			bad(FieldShards, "want 0 (a single lock) to %d shards, got %d", MaxSandboxShards, c.Shards)
		case c.Workers < 1 || c.Workers > MaxSandboxProcs:
			bad(FieldWorkers, "%d shards need 1 to %d workers, got %d", c.Shards, MaxSandboxProcs, c.Workers)
		}
		if c.Idempotency {
			bad(FieldIdempotency, "shard workers commit offsets, not jobs: switch idempotency off")
		}
		if c.LockDelay > 0 {
			bad(FieldLockDelay, "lock-delay guards a single lock; shard leases are claimed directly: switch it off")
		}
	}

	ttlOK := period(FieldTTL, "the TTL", c.TTL, false)
	for _, e := range c.validateSystem(ttlOK) {
		bad(e.Field, "%s", e.Msg)
		ttlOK = ttlOK && e.Field != FieldTTL
	}
	if period(FieldRenew, "the renew interval", c.RenewEvery, true) && ttlOK && c.RenewEvery >= c.TTL {
		bad(FieldRenew, "renewing every %s with a TTL of %s lets the lease lapse between renewals: renew more often than the TTL", Seconds(c.RenewEvery), Seconds(c.TTL))
	}
	period(FieldRetry, "the retry wait", c.RetryBase, true)
	if c.RetryJitter < 0 || c.RetryJitter > 2 || c.RetryJitter != c.RetryJitter {
		bad(FieldJitter, "retry jitter is a fraction from 0 to 2, got %g", c.RetryJitter)
	}

	switch p := c.Pauses; p.Kind {
	case PauseNone, "":
	case PauseFixed, PauseHeavyTail:
		if p.Every < time.Second || p.Every > time.Hour {
			bad(FieldPause, "pauses must come 1 s to 1 h apart, got %s", Span(p.Every))
		}
		if p.Kind == PauseFixed && (p.Length < 10*time.Millisecond || p.Length > maxSandboxPeriod) {
			bad(FieldPause, "a fixed pause lasts 10 ms to %s, got %s", Span(maxSandboxPeriod), Span(p.Length))
		}
		if p.Kind == PauseHeavyTail {
			switch {
			case p.Scale < 10*time.Millisecond:
				bad(FieldPause, "the tail's scale (its shortest pause) must be at least 10 ms, got %s", Span(p.Scale))
			case p.Max < p.Scale || p.Max > maxSandboxPeriod:
				bad(FieldPause, "the longest pause must lie between the scale %s and %s, got %s", Span(p.Scale), Span(maxSandboxPeriod), Span(p.Max))
			}
			if !(p.Alpha >= 0.5 && p.Alpha <= 10) {
				bad(FieldPause, "the tail index alpha must be 0.5 to 10 (smaller: heavier tail), got %g", p.Alpha)
			}
		}
	default:
		bad(FieldPause, "unknown pause distribution %q (want none, fixed or heavy-tail)", p.Kind)
	}

	checkLink := func(d time.Duration, j float64) string {
		switch {
		case d < 0 || d > maxLinkDelay:
			return fmt.Sprintf("delay must be 0 to %s, got %s", Span(maxLinkDelay), Span(d))
		case j < 0 || j > 2 || j != j:
			return fmt.Sprintf("jitter is a fraction of the delay from 0 to 2, got %g", j)
		}
		return ""
	}
	if m := checkLink(c.Delay, c.Jitter); m != "" {
		bad(FieldDelay, "%s", m)
	}
	actors := append(slices.Clone(reservedNames), c.ProcNames()...)
	for _, l := range c.Links {
		if m := checkLink(l.Delay, l.Jitter); m != "" {
			bad(FieldLinks, "%s - %s: %s", l.A, l.B, m)
		} else if !slices.Contains(actors, l.A) || !slices.Contains(actors, l.B) || l.A == l.B {
			bad(FieldLinks, "link %s - %s: both ends must be actors of this world (%s)", l.A, l.B, strings.Join(c.ProcNames(), ", ")+", "+CoordinatorName)
		}
	}
	if c.LockDelay < 0 || c.LockDelay > time.Minute {
		bad(FieldLockDelay, "lock-delay must be 0 (off) to 60 s, got %s", Span(c.LockDelay))
	}
	if c.Duration < MinSandboxDuration || c.Duration > MaxSandboxDuration {
		bad(FieldDuration, "a run lasts %s to %s, got %s", Span(MinSandboxDuration), Span(MaxSandboxDuration), Span(c.Duration))
	} else if renew := renewPeriod(c.TTL, c.RenewEvery); ttlOK && renew > 0 {
		// Every renewal is a few trace events; past this a run would
		// not fit in a browser tab's memory. The period is the one the
		// processes use (c.renew() rounds TTL/3 to whole milliseconds
		// for display, which made a 1 ms TTL look like no renewal at all).
		// Counts out of range are refused above; clamped here, so that
		// a count of billions cannot overflow the product below into a
		// second, nonsensical complaint.
		leases := min(max(c.Procs, 1), MaxSandboxProcs)
		if single {
			renew = processRenewal(c.TTL, c.RenewEvery, c.Recipe, DefaultMinTTL)
			if d, ok := c.System.rules().budgetRenewal(c.RetryBase); ok {
				renew = d
			}
		} else {
			leases = min(max(c.Shards, 0), MaxSandboxShards) + min(max(c.Workers, 0), MaxSandboxProcs)
		}
		if n := int64(leases) * int64(c.Duration/renew); n > MaxSandboxRenewals {
			bad(FieldDuration, "this run would renew leases about %d times (%d leases for %s, every %s); keep it under %d: renew less often, run shorter or use fewer shards", n, leases, Span(c.Duration), Span(renew), MaxSandboxRenewals)
		}
	}
	for i, a := range c.Actions {
		if err := a.Validate(); err != nil {
			bad(FieldActions, "action %d: %v", i+1, err)
		} else if a.At < 0 {
			bad(FieldActions, "action %d: negative time %s", i+1, Span(a.At.D()))
		}
	}
	return errs
}

// ErrInvalidSandbox wraps the field errors World and Build report.
var ErrInvalidSandbox = errors.New("sandbox: invalid configuration")

// World writes the sandbox's world: the coordinator, the resource, the
// contenders (or shard workers), the network, and its pauses and scripted
// actions. An invalid configuration is refused with every field error.
func (c SandboxConfig) World() (World, error) {
	if errs := c.Validate(); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return World{}, fmt.Errorf("%w: %s", ErrInvalidSandbox, strings.Join(msgs, "; "))
	}
	var w World
	var err error
	if c.Shards > 0 {
		w, err = ShardsConfig{
			Shards: c.Shards, Workers: c.Workers, TTL: c.TTL, RenewEvery: c.RenewEvery, LeasePerShard: true,
			ScanEvery: c.RetryBase, ScanJitter: c.RetryJitter, CommitEvery: c.WorkEvery,
			Fencing: c.Fencing, Stagger: 200 * time.Millisecond,
		}.World(c.Seed)
	} else {
		cc := ContentionConfig{
			System: c.System, Names: c.ProcNames(), Recipe: c.Recipe, TokenSource: c.TokenSource, FirstToken: c.FirstToken,
			TTL: c.TTL, RenewEvery: c.RenewEvery, RetryBase: c.RetryBase, RetryJitter: c.RetryJitter,
			Stagger: 500 * time.Millisecond, Fencing: c.Fencing, WorkEvery: c.WorkEvery, LockDelay: c.LockDelay,
			WriteLatency: c.WriteLatency,
		}
		c.System.rules().sandboxContention(c, &cc)
		if c.Workload == WorkloadJobs {
			cc.Jobs = InvoiceKeys(8, "2026-11-29")
			cc.Idempotency = c.Idempotency
		}
		w, err = cc.World(c.Seed)
	}
	if err != nil {
		return World{}, err
	}
	w.Coordinator.Members = c.Members
	w.Net = &Link{Delay: c.Delay, Jitter: c.Jitter}
	for _, l := range c.Links {
		w.Links = append(w.Links, BothWays(l.A, l.B, Link{Delay: l.Delay, Jitter: l.Jitter})...)
	}
	w.Script = append(c.Pauses.Schedule(c.Seed, c.ProcNames(), c.Duration), c.Actions...)
	return w, nil
}

// Build makes the sandbox's world (see World), refusing a run past the
// renewal budget.
func (c SandboxConfig) Build() (*Sim, error) {
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

// RunSandbox builds the world and runs it for its duration, checking
// every invariant at the end.
func RunSandbox(c SandboxConfig) (*Sim, Report, error) {
	s, err := c.Build()
	if err != nil {
		return nil, Report{}, err
	}
	s.RunUntil(c.Duration)
	return s, Check(s.Trace, c.Duration), nil
}
