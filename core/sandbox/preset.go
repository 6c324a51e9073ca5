package sandbox

import (
	"errors"
	"fmt"
	"leaselab/core"
	"strings"
	"time"
)

// Preset is a named sandbox configuration: a lesson scenario, or a real
// system's defaults. Source says where its numbers come from.
type Preset struct {
	Name   string
	Title  string
	Source string
	Config Config
	// Story is how long the preset's story takes, with room to watch
	// its end: the sandbox opens the preset with this length, so a 90 s
	// story fills the timeline instead of its first 15 %. Config keeps
	// Default's length, which labctl runs (its output and trace
	// hashes stay as they were).
	Story time.Duration
}

// Open is the preset as the sandbox opens it: Config with the length of
// its story.
func (p Preset) Open() Config {
	c := p.Config
	if p.Story > 0 {
		c.Duration = p.Story
	}
	return c
}

// Presets lists the sandbox presets: the lesson scenarios first, then the
// real systems, in a stable order.
func Presets() []Preset { return presets }

// FindPreset returns the named preset or an error listing the names.
func FindPreset(name string) (Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	return Preset{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownPreset, name, strings.Join(PresetNames(), ", "))
}

// ErrUnknownPreset is what FindPreset refuses a name no preset has with.
var ErrUnknownPreset = errors.New("unknown preset")

// PresetNames lists the presets' names in order.
func PresetNames() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.Name
	}
	return out
}

// SystemPause is the pause every real-system preset suffers: A, the first
// leader, freezes for 20 s at t = 60 s. The same pause against each
// system's defaults shows which of them depose a live leader.
var SystemPause = core.At(60*time.Second, core.Pause("A", 20*time.Second))

// preset returns Default changed by f.
func preset(f func(c *Config)) Config {
	c := Default()
	f(&c)
	return c
}

// twoProcs is the seed's two-process world with the given first token.
func twoProcs(first int64, script core.ActionLog) Config {
	return preset(func(c *Config) {
		c.Procs, c.Names, c.FirstToken, c.RenewEvery, c.RetryJitter = 2, []string{"A", "B"}, first, 0, 0
		c.WorkEvery, c.Actions = 0, script
	})
}

var presets = []Preset{
	{
		Name: "leases", Story: 3 * time.Minute, Title: "Two processes, TTL 15 s, renew every 5 s, 12 s pauses about every 45 s",
		Source: "lesson Leases' TTL 15 s and renewal every 5 s, with pauses beyond its budget: 2 x 5 s + 12 s = 22 s > TTL 15 s, so some pauses cost the holder its lease",
		Config: preset(func(c *Config) {
			*c = twoProcs(1, nil)
			c.TTL, c.RenewEvery, c.WorkEvery = 15*time.Second, 5*time.Second, 2*time.Second
			c.Pauses = PauseDist{Kind: PauseFixed, Every: 45 * time.Second, Length: 12 * time.Second}
		}),
	},
	{
		Name: "hands-on-lab", Story: 90 * time.Second, Title: "The hands-on lab: A writes, freezes 30 s, writes late",
		Source: "lesson Hands-on lab and labctl run hands-on-lab (tokens 1 and 2 from a generation counter)",
		Config: twoProcs(1, handsOnScript(0)),
	},
	{
		Name: "fenced-register", Story: 90 * time.Second, Title: "Example 3: the paused leader (tokens 7 and 8)",
		Source: "lesson Fenced writes and labctl run fenced-register",
		Config: preset(func(c *Config) {
			*c = twoProcs(7, fencedScript())
			c.WriteLatency = 500 * time.Millisecond
		}),
	},
	{
		Name: "scheduler", Story: 90 * time.Second, Title: "Example 1: five API instances and an invoice batch",
		Source: "lesson Scheduler and labctl run scheduler (tokens 41, 42; api-1 crashes at 4.5 s)",
		Config: preset(func(c *Config) {
			c.Procs, c.Names, c.FirstToken, c.RenewEvery = 5, []string{"api-1", "api-2", "api-3", "api-4", "api-5"}, 41, 0
			c.Workload, c.WorkEvery, c.Idempotency, c.Actions = WorkloadJobs, time.Second, true, schedulerScript()
		}),
	},
	{
		Name: "shards", Story: 2 * time.Minute, Title: "Example 2: 128 shards over 12 workers; worker-00 freezes 40 s",
		Source: "lesson Shards and labctl run shards (TTL 15 s, scans every 3 s with 50 % jitter, commits every 2 s)",
		Config: preset(func(c *Config) {
			c.Shards, c.Workers, c.TTL, c.RenewEvery = 128, 12, 15*time.Second, 0
			c.RetryBase, c.RetryJitter, c.WorkEvery, c.Actions = 3*time.Second, 0.5, 2*time.Second, shardsScript()
		}),
	},
	{
		Name: "election", Story: 90 * time.Second, Title: "Five contenders in etcd's fair queue; the leader crashes twice",
		Source: "lesson Election order and labctl run election (create revisions as tokens)",
		Config: preset(func(c *Config) {
			c.Procs, c.TokenSource, c.RenewEvery, c.RetryJitter, c.Actions = 5, core.TokenRevision, 0, 0, twoCrashesScript()
		}),
	},
	{
		Name: "herd", Story: 90 * time.Second, Title: "Ten contenders all watching the lock key",
		Source: "lesson Election order (left lane) and labctl run herd",
		Config: preset(func(c *Config) {
			c.Procs, c.Recipe, c.RenewEvery, c.RetryJitter, c.WorkEvery, c.Actions = 10, core.RecipeHerd, 0, 0, 0, twoCrashesScript()
		}),
	},
	{
		Name: "pause-storm", Story: 5 * time.Minute, Title: "Three contenders, TTL 5 s, heavy-tailed pauses up to 9 s",
		Source: "lesson TTL trade-off: pauses about every 12 s, up to the worst 9 s garbage-collection pause of the first assessment",
		Config: preset(func(c *Config) {
			c.TTL, c.RenewEvery = 5*time.Second, 0
			c.Pauses = PauseDist{Kind: PauseHeavyTail, Every: 12 * time.Second, Scale: time.Second, Alpha: 1.2, Max: 9 * time.Second}
		}),
	},
	{
		Name: "etcd", Story: 2 * time.Minute, Title: "etcd defaults: 60 s session, keepalive TTL/3 after each answer, fair queue",
		Source: "etcd 3.7.3, checked against a real etcd by the conformance suite: concurrency.Session default TTL 60 s; the client sends its first keepalive at once, then one TTL/3 after each answer, and looks at its own deadline once a second; Mutex = fair queue on create revision, the usable token (a fresh store is at revision 1)",
		Config: preset(func(c *Config) {
			c.TTL, c.RenewEvery, c.Recipe, c.TokenSource = 60*time.Second, 0, core.RecipeEtcd, core.TokenRevision
			c.Actions = core.ActionLog{SystemPause}
		}),
	},
	{
		Name: "zookeeper", Story: 2 * time.Minute, Title: "ZooKeeper: 20 s session (4-40 s allowed), Disconnected before Expired",
		Source: "ZooKeeper 3.8 with go-zookeeper's lock, checked against a real server by the conformance suite: the session timeout is negotiated into 2 to 20 ticks of 2 s (4-40 s); sessions expire on tick boundaries; the client pings every third of the timeout, is Disconnected (SUSPENDED) after two thirds without an answer and learns Expired only when it reconnects (Curator reports LOST on its own a session timeout after SUSPENDED); the lock is an ephemeral sequential node named from the parent's child counter, the token its czxid",
		Config: preset(func(c *Config) {
			c.System, c.TTL, c.RenewEvery = core.SystemZooKeeper, 20*time.Second, 0
			c.Actions = core.ActionLog{SystemPause}
		}),
	},
	{
		Name: "consul", Story: 2 * time.Minute, Title: "Consul: 15 s session TTL (invalidated at 2 x TTL), 15 s lock-delay, no queue",
		Source: "read from Consul's source (no Consul server runs in the lab's tests): api.Lock's session TTL 15 s, renewed every TTL/2; the server invalidates a session 2 x TTL = 30 s after its last renewal; a lock-delay of 15 s follows an invalidated holder and api.Lock retries every 5 s; every waiter blocks on the one lock key, so each change wakes them all; the token is the key's LockIndex",
		Config: preset(func(c *Config) {
			c.System, c.TTL, c.RenewEvery, c.LockDelay = core.SystemConsul, 15*time.Second, 0, core.ConsulDefaultLockDelay
			c.Actions = core.ActionLog{SystemPause}
		}),
	},
	{
		Name: "kubernetes", Story: 2 * time.Minute, Title: "Kubernetes leader election: Lease 15 s, renew deadline 10 s, retry 2 s",
		Source: "client-go's leader election, checked against the real LeaderElector by the conformance suite: LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s; candidates poll every 2-4.4 s and take over when their own observation of the last renewal is 15 s old; the leader stops leading when a renewal has not succeeded within the renew deadline; no server-side expiry; leaseTransitions is a number nothing checks, so fencing is off",
		Config: preset(func(c *Config) {
			c.System, c.TTL, c.RenewDeadline, c.RetryBase, c.RetryJitter = core.SystemKubernetes, core.KubeLeaseDuration, core.KubeRenewDeadline, core.KubeRetryPeriod, core.KubeJitterFactor
			c.RenewEvery, c.Recipe, c.TokenSource, c.Fencing = core.KubeRetryPeriod, core.RecipeHerd, core.TokenGeneration, false
			c.Actions = core.ActionLog{SystemPause}
		}),
	},
	{
		Name: "redlock", Story: 2 * time.Minute, Title: "Redlock on three Redis nodes: 8 s expiry, extended every 3 s by the application, no token",
		Source: "redsync's Redlock, checked against three real Redis servers by the conformance suite: SET NX PX 8 s on each node, won with 2 of 3 within the validity (8 s minus the time the round took minus 1 % drift); value-checked extend and unlock (redsync has no renewal loop: the lab's application calls Extend every 3 s); retries 50-250 ms apart; no fencing token at all, so nothing can stop a holder whose validity ran out while it was paused",
		Config: preset(func(c *Config) {
			c.System, c.RedisNodes, c.TTL, c.RenewEvery, c.RetryBase = core.SystemRedlock, 3, core.RedlockExpiry, 3*time.Second, 5*time.Second
			c.Fencing = false
			c.Actions = core.ActionLog{SystemPause}
		}),
	},
}
