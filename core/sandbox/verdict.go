package sandbox

import (
	"fmt"
	"leaselab/core"
	"time"
)

// PolicyVerdict is the lease-policy check of a sandbox world as the
// learner reads it: in its system's words (who ends a lease, who takes
// the lock), and with the longest pause the world's own scripted actions
// inflict counted as a pause, so a preset whose script freezes a leader
// for 20 s is never called safe "even after the worst pause".
func (c Config) PolicyVerdict() core.PolicyVerdict {
	p := c.Policy()
	longest, script := c.longestScriptedPause()
	counted := longest > p.PauseBudget
	if counted {
		p.PauseBudget = longest
	}
	v := p.Check()
	v.Explanation = v.Explain(c.System.Words())
	if counted {
		// Without the note first, then the rule alone.
		v.Shorter = append([]string{v.Explanation}, v.Shorter...)
		v.Explanation += fmt.Sprintf(" (the worst pause is the setup's own: %s frozen for %s at %s)",
			script.Proc, core.Seconds(script.For.D()), core.Seconds(script.At.D()))
	}
	return v
}

// longestScriptedPause is the longest pause among the world's scripted
// actions, and that action (zero without one).
func (c Config) longestScriptedPause() (time.Duration, core.Timed) {
	var best core.Timed
	for _, a := range c.Actions {
		if a.Do == core.VerbPause && a.For > best.For {
			best = a
		}
	}
	return best.For.D(), best
}

// Policy is the lease policy the configuration implies, in its system's
// numbers: its TTL, renewal interval and the worst pause of its
// distribution.
func (c Config) Policy() core.LeasePolicy { return c.Settings().Policy() }

// Notes are what the chosen system will do differently from what the
// configuration asks: a ZooKeeper session timeout outside 4-40 s is
// clamped; a renewal interval is the client library's own.
func (c Config) Notes() []string { return c.Settings().Notes() }

// OnSystem is the same world, scenario and actions on system s: what only
// etcd has is dropped (a first token, a recipe choice, a renewal period:
// the other systems number tokens and renew their own way), and Consul
// gets api.Lock's 15 s lock-delay where the world had none, as ZooKeeper,
// Kubernetes and Redlock lose any (they have none). A TTL the system
// refuses stays, for Validate to say so.
func (c Config) OnSystem(s core.System) Config {
	if s == c.System {
		return c
	}
	on := c.Settings().OnSystem(s)
	c.System, c.Members, c.Recipe, c.FirstToken = on.System, on.Members, on.Recipe, on.FirstToken
	c.RenewEvery, c.LockDelay = on.RenewEvery, on.LockDelay
	return c
}

// Settings are the settings of the configuration its system reads (see
// core.SystemSettings).
func (c Config) Settings() core.SystemSettings {
	return core.SystemSettings{
		System: c.System, Members: c.Members, Recipe: c.Recipe, FirstToken: c.FirstToken,
		TTL: c.TTL, RenewEvery: c.RenewEvery, RetryBase: c.RetryBase,
		RenewDeadline: c.RenewDeadline, RedisNodes: c.RedisNodes, LockDelay: c.LockDelay,
		Shards: c.Shards, PauseBudget: c.Pauses.Budget(),
	}
}
