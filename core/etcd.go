package core

import (
	"fmt"
	"time"
)

// etcd 3.7 is the default system: its server's rules are the coordinator's
// own code (coordinator.go, lease.go, lock.go, watch.go) and its client is
// the session client of etcd_client.go, etcd_keepalive.go and
// etcd_fix.go over process.go's shared steps. The other systems embed
// etcdServer and override the steps they do their own way (see
// system_rules.go).

type etcdSystem struct{ etcdServer }

func (etcdSystem) newClient() clientRules { return newEtcdClient() }

// etcdServer is etcd's server: leases expire a TTL after their last
// renewal, found by a sweep every SweepEvery; a new cluster leader
// gives every lease its whole TTL again plus one election timeout
// (lessor.Promote).
type etcdServer struct{}

func (etcdServer) configure(*Coordinator, CoordinatorSpec)                {}
func (etcdServer) receive(*Coordinator, string, Message) bool             { return false }
func (etcdServer) sessionWrites() bool                                    { return false }
func (etcdServer) ended(*Coordinator, *Lease, Kind)                       {}
func (etcdServer) pathConnection() bool                                   { return false }
func (etcdServer) expiry(c *Coordinator, ttl time.Duration) time.Duration { return c.sim.now + ttl }

func (etcdServer) promoted(c *Coordinator, l *Lease) time.Duration {
	return c.sim.now + ElectionTimeout + l.TTL
}

func (etcdServer) rearmWhy() string {
	return "a new leader gives every lease its whole TTL again, plus one election timeout"
}

// quorumless: a keepalive stream that needs a leader ends with "no
// leader"; the rest wait the request timeout and end with "request timed
// out" (cluster.go).
func (etcdServer) quorumless(m Message) string {
	if _, ok := m.(keepAliveReq); ok {
		return errNoLeader
	}
	return errRequestTimedOut
}

func (etcdServer) dropsClients() bool { return false }

// nextSweep: sweeps fall on multiples of SweepEvery, like a server-side
// ticker.
func (etcdServer) nextSweep(c *Coordinator) time.Duration {
	return (c.sim.now/c.SweepEvery + 1) * c.SweepEvery
}

// checkContention: etcd grants whole seconds to its own recipe.
func (etcdSystem) checkContention(c ContentionConfig) error {
	if c.Recipe == RecipeEtcd {
		return CheckEtcdTTL(c.TTL)
	}
	return nil
}

// contention: a first token is set on the coordinator's lock.
func (etcdSystem) contention(c *ContentionConfig, w *World) {
	if c.FirstToken > 0 {
		w.Coordinator.FirstTokens = []FirstToken{{Lock: c.Lock, Token: c.FirstToken}}
	}
}

func (etcdSystem) check(c SystemSettings, ttlOK bool) []SettingError {
	if ttlOK && c.Shards == 0 && c.Recipe == RecipeEtcd {
		if err := CheckEtcdTTL(c.TTL); err != nil {
			return []SettingError{{Setting: SettingTTL, Msg: err.Error()}}
		}
	}
	return nil
}

func (etcdSystem) contentionOf(SystemSettings, *ContentionConfig)     {}
func (etcdSystem) onSystem(*SystemSettings)                           {}
func (etcdSystem) firstToken() bool                                   { return true }
func (etcdSystem) clustered() bool                                    { return true }
func (etcdSystem) issuesTokens() bool                                 { return true }
func (etcdSystem) ownSetting(id SettingID) string                     { return onlyOneSystemHas(id) }
func (etcdSystem) leaderRenewal(SystemSettings) (time.Duration, bool) { return 0, false }
func (etcdSystem) budgetRenewal(time.Duration) (time.Duration, bool)  { return 0, false }

func (etcdSystem) notes(c SystemSettings) []string {
	if c.RenewEvery > 0 {
		return []string{fmt.Sprintf("With a renewal period set, the client is an application calling KeepAliveOnce on its own timer, every %s from the grant, not etcd's KeepAlive loop (a keepalive at once, then one a third of the TTL after each answer): it learns a lease is gone only when its own deadline passes.", Seconds(c.RenewEvery))}
	}
	return nil
}

// policy: a client renews at least every two thirds of its TTL, whatever
// the setting asks (Process caps its period there).
func (etcdSystem) policy(c SystemSettings) LeasePolicy {
	return LeasePolicy{TTL: c.TTL, RenewEvery: min(c.renew(), c.TTL/3*2), PauseBudget: c.PauseBudget}
}
