package core

import (
	"fmt"
	"time"
)

// PolicyVerdict is the lease-policy check of a sandbox world as the
// learner reads it: in its system's words (who ends a lease, who takes
// the lock), and with the longest pause the world's own scripted actions
// inflict counted as a pause, so a preset whose script freezes a leader
// for 20 s is never called safe "even after the worst pause".
func (c SandboxConfig) PolicyVerdict() PolicyVerdict {
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
			script.Proc, Seconds(script.For.D()), Seconds(script.At.D()))
	}
	return v
}

// longestScriptedPause is the longest pause among the world's scripted
// actions, and that action (zero without one).
func (c SandboxConfig) longestScriptedPause() (time.Duration, Timed) {
	var best Timed
	for _, a := range c.Actions {
		if a.Do == VerbPause && a.For > best.For {
			best = a
		}
	}
	return best.For.D(), best
}

// renew is the effective keepalive period (zero: TTL/3, etcd's client),
// to the millisecond for people (rounding a third up only asks more of
// the policy).
func (c SandboxConfig) renew() time.Duration {
	if d, ok := c.System.rules().leaderRenewal(c); ok {
		return d // client-go's leader renews every RetryPeriod
	}
	if c.RenewEvery == 0 {
		return (c.TTL / 3).Round(time.Millisecond)
	}
	return c.RenewEvery
}

// Policy is the lease policy the configuration implies: its TTL, renewal
// interval and the worst pause of its distribution.
func (c SandboxConfig) Policy() LeasePolicy {
	return c.System.rules().policy(c)
}
