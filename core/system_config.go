package core

import (
	"fmt"
	"strings"
	"time"
)

// Title is the system's name as people write it.
func (s System) Title() string {
	switch s {
	case SystemEtcd:
		return "etcd"
	case SystemZooKeeper:
		return "ZooKeeper"
	case SystemConsul:
		return "Consul"
	case SystemKubernetes:
		return "Kubernetes"
	case SystemRedlock:
		return "Redlock"
	}
	return s.String()
}

// validateSystem lists what the chosen system refuses in a configuration
// (ttlOK: the TTL itself passed the shared checks).
func (c SandboxConfig) validateSystem(ttlOK bool) []FieldError {
	var errs []FieldError
	bad := func(field, format string, a ...any) {
		errs = append(errs, FieldError{Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	if err := (CoordinatorSpec{System: c.System, Members: c.Members}).validateMembers(); err != nil {
		bad(FieldMembers, "%s", strings.TrimPrefix(err.Error(), "world: "))
	}
	switch c.System {
	case SystemEtcd:
		return errs
	case SystemZooKeeper, SystemConsul, SystemKubernetes, SystemRedlock:
	default:
		bad(FieldSystem, "the %s system is not modelled (want %s)", c.System, strings.Join(SystemNames(), ", "))
		return errs
	}
	if c.Shards > 0 {
		bad(FieldShards, "shard leases are modelled on etcd only: use the etcd system, or 0 shards")
		return errs
	}
	if c.LockDelay > 0 && c.System != SystemConsul {
		bad(FieldLockDelay, "%s has no lock-delay (it is Consul's): the next in line may take the lock the moment it is free; switch it off", c.System.Title())
	}
	switch c.System {
	case SystemZooKeeper, SystemConsul:
		own := map[System]Recipe{SystemZooKeeper: RecipeZooKeeper, SystemConsul: RecipeHerd}[c.System]
		if c.Recipe != RecipeEtcd && c.Recipe != own {
			bad(FieldRecipe, "%s runs its own lock recipe (%s); the %s recipe belongs to etcd worlds", c.System.Title(), own, c.Recipe)
		}
		if c.System == SystemConsul {
			if err := CheckConsulTTL(c.TTL); err != nil {
				bad(FieldTTL, "%s", err.Error())
			}
		}
	case SystemKubernetes:
		// A renewal slower than the lease has its own message on the
		// renew field; the durations rule would only repeat it on the TTL.
		if ttlOK && c.RetryBase > 0 && c.RenewEvery < c.TTL {
			if err := CheckKubeDurations(c.TTL, c.renewDeadline(), max(c.RetryBase, c.RenewEvery)); err != nil {
				bad(FieldTTL, "%s", err.Error())
			}
		}
		if c.TTL%time.Second != 0 {
			bad(FieldTTL, "a Lease stores leaseDurationSeconds, whole seconds: %s would be cut to %s", c.TTL, c.TTL.Truncate(time.Second))
		}
	case SystemRedlock:
		if n := c.redisNodes(); n < 1 || n > MaxRedisNodes {
			bad(FieldSystem, "redlock needs 1 to %d independent Redis nodes, got %d", MaxRedisNodes, n)
		}
		if c.RenewEvery > 0 && ttlOK && c.RenewEvery >= c.TTL {
			bad(FieldRenew, "extending every %s lets a %s lock lapse first", Seconds(c.RenewEvery), Seconds(c.TTL))
		}
	}
	return errs
}

// Notes are what the chosen system will do differently from what the
// configuration asks: a ZooKeeper session timeout outside 4-40 s is
// clamped; a renewal interval is the client library's own.
func (c SandboxConfig) Notes() []string {
	var out []string
	switch c.System {
	case SystemEtcd:
		if c.RenewEvery > 0 {
			out = append(out, fmt.Sprintf("With a renewal period set, the client is an application calling KeepAliveOnce on its own timer, every %s from the grant, not etcd's KeepAlive loop (a keepalive at once, then one a third of the TTL after each answer): it learns a lease is gone only when its own deadline passes.", Seconds(c.RenewEvery)))
		}
	case SystemZooKeeper:
		granted, note := ZKSessionTimeout(c.TTL)
		if note != "" {
			out = append(out, note+".")
		}
		if c.RenewEvery > 0 {
			out = append(out, fmt.Sprintf("ZooKeeper's client pings every third of the session timeout (%s), not every %s.", Seconds((granted*2/3/2).Round(time.Millisecond)), Seconds(c.RenewEvery)))
		}
	case SystemConsul:
		if c.RenewEvery > 0 {
			out = append(out, fmt.Sprintf("Consul's api.Lock renews its session every TTL/2 (%s), not every %s.", Seconds(c.TTL/2), Seconds(c.RenewEvery)))
		}
	}
	return out
}

// OnSystem is the same world, scenario and actions on system s: what only
// etcd has is dropped (a first token, a recipe choice, a renewal
// period: the other systems number tokens and renew their own way), and
// Consul gets api.Lock's 15 s lock-delay where the world had none, as
// ZooKeeper, Kubernetes and Redlock lose any (they have none). A TTL the system refuses stays, for
// Validate to say so.
func (c SandboxConfig) OnSystem(s System) SandboxConfig {
	if s == c.System {
		return c
	}
	c.System = s
	if s == SystemEtcd {
		return c
	}
	c.FirstToken, c.Recipe, c.RenewEvery = 0, RecipeEtcd, 0
	switch s {
	case SystemConsul:
		if c.LockDelay == 0 {
			c.LockDelay = ConsulDefaultLockDelay
		}
	case SystemZooKeeper, SystemKubernetes, SystemRedlock:
		c.LockDelay = 0
	}
	if s == SystemRedlock {
		// Redlock's servers are independent Redis nodes, not members of
		// one coordinator: the same world on Redlock has none.
		c.Members = 0
	}
	return c
}

// systemPolicy is the lease policy of a ZooKeeper or Consul world, in the
// numbers the server and the client library really use: ZooKeeper's
// negotiated timeout and its pings every third of it; Consul's renewal
// every TTL/2 against the server's 2 x TTL.
func (c SandboxConfig) systemPolicy() LeasePolicy {
	p := LeasePolicy{TTL: c.TTL, RenewEvery: c.renew(), PauseBudget: c.Pauses.Budget()}
	switch c.System {
	case SystemZooKeeper:
		p.TTL, _ = ZKSessionTimeout(c.TTL)
		p.RenewEvery = (p.TTL * 2 / 3 / 2).Round(time.Millisecond)
	case SystemConsul:
		p.TTL, p.RenewEvery = ConsulTTLMultiplier*c.TTL, c.TTL/2
	}
	return p
}

// systemDefaults makes the coordinator and the contenders the system's.
func (c *ContentionConfig) systemDefaults(co *CoordinatorSpec) {
	switch c.System {
	case SystemZooKeeper:
		co.System, co.TokenSource = SystemZooKeeper, TokenRevision
		c.Recipe, c.TokenSource, c.RenewEvery = RecipeZooKeeper, TokenRevision, 0
	case SystemConsul:
		co.System, co.TokenSource = SystemConsul, TokenGeneration
		c.Recipe, c.TokenSource, c.RenewEvery = RecipeHerd, TokenGeneration, 0
	}
}
