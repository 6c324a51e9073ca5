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

// TakesFirstToken reports whether a world on the system may set a lock's
// first token (etcd's generation counter); the others number their own.
func (s System) TakesFirstToken() bool { return s.rules().firstToken() }

// IssuesTokens reports whether the system's holders get a fencing token a
// resource can check (Redlock's do not: every write carries 0).
func (s System) IssuesTokens() bool { return s.known() && s.rules().issuesTokens() }

// OwnSetting says in one line why setting id means nothing on the system:
// the system brings its own (its recipe, its token, its renewal), or has
// no such thing ("" when a world's value is used).
func (s System) OwnSetting(id SettingID) string {
	if !s.known() {
		return ""
	}
	return s.rules().ownSetting(id)
}

// SystemSettings are the settings of a free-play world its coordination
// system reads: what the system refuses in them (Check), does otherwise
// than asked (Notes), drops when the world moves to it (OnSystem), and
// the lease policy they imply (Policy). core/sandbox writes them from its
// configuration and maps each SettingError back to a field of its own.
type SystemSettings struct {
	System  System
	Members int
	// Recipe and FirstToken of the lock (etcd's; the others bring
	// their own).
	Recipe     Recipe
	FirstToken int64
	// TTL of a session; RenewEvery its renewal period (zero: the
	// client's own); RetryBase the wait before a new campaign.
	TTL        time.Duration
	RenewEvery time.Duration
	RetryBase  time.Duration
	// RenewDeadline (Kubernetes; zero: two thirds of the TTL) and
	// RedisNodes (Redlock; zero: 3).
	RenewDeadline time.Duration
	RedisNodes    int
	LockDelay     time.Duration
	// Shards > 0 asks for shard leases (etcd's only).
	Shards int
	// PauseBudget is the longest pause the world's processes suffer.
	PauseBudget time.Duration
}

// SettingID names one of SystemSettings' settings, as a SettingError
// reports it.
type SettingID uint8

// The settings a system may refuse.
const (
	SettingSystem SettingID = iota
	SettingMembers
	SettingRecipe
	SettingTTL
	SettingRenew
	SettingLockDelay
	SettingShards
	// Settings a system never refuses but may bring its own of
	// (System.OwnSetting).
	SettingFirstToken
	SettingRedisNodes
	SettingRenewDeadline
)

// SettingError is one setting the system refuses, with a message for the
// learner.
type SettingError struct {
	Setting SettingID
	Msg     string
}

func (e SettingError) Error() string { return e.Msg }

// Check lists what the chosen system refuses in the settings (ttlOK: the
// TTL itself passed the caller's shared checks): a cluster it does not
// model, a system not modelled at all, then the system's own rules.
func (c SystemSettings) Check(ttlOK bool) []SettingError {
	var errs []SettingError
	if err := (CoordinatorSpec{System: c.System, Members: c.Members}).validateMembers(); err != nil {
		errs = append(errs, SettingError{Setting: SettingMembers, Msg: strings.TrimPrefix(err.Error(), "world: ")})
	}
	if !c.System.known() {
		return append(errs, SettingError{Setting: SettingSystem, Msg: fmt.Sprintf("the %s system is not modelled (want %s)", c.System, strings.Join(SystemNames(), ", "))})
	}
	return append(errs, c.System.rules().check(c, ttlOK)...)
}

// Notes are what the chosen system will do differently from what the
// settings ask: a ZooKeeper session timeout outside 4-40 s is clamped; a
// renewal interval is the client library's own.
func (c SystemSettings) Notes() []string { return c.System.rules().notes(c) }

// OnSystem is the same settings on system s: what only etcd has is
// dropped (a first token, a recipe choice, a renewal period: the other
// systems number tokens and renew their own way), and Consul gets
// api.Lock's 15 s lock-delay where the world had none, as ZooKeeper,
// Kubernetes and Redlock lose any (they have none). A TTL the system
// refuses stays, for Check to say so.
func (c SystemSettings) OnSystem(s System) SystemSettings {
	if s == c.System {
		return c
	}
	c.System = s
	s.rules().onSystem(&c)
	if !s.rules().clustered() {
		// Redlock's servers are independent Redis nodes, not members of
		// one coordinator: the same world there has none.
		c.Members = 0
	}
	return c
}

// OnSystem is the same contention world on system s, moved as
// SystemSettings.OnSystem moves a free-play world: what only etcd has is
// dropped and the system's own defaults are set (Consul's lock-delay).
func (c ContentionConfig) OnSystem(s System) ContentionConfig {
	on := SystemSettings{System: c.System, Recipe: c.Recipe, FirstToken: c.FirstToken,
		RenewEvery: c.RenewEvery, LockDelay: c.LockDelay}.OnSystem(s)
	c.System, c.Recipe, c.FirstToken = on.System, on.Recipe, on.FirstToken
	c.RenewEvery, c.LockDelay = on.RenewEvery, on.LockDelay
	return c
}

// Policy is the lease policy the settings imply, in the system's numbers:
// its TTL, renewal interval and the pause budget.
func (c SystemSettings) Policy() LeasePolicy { return c.System.rules().policy(c) }

// Contention passes the system's own settings (a renew deadline, Redis
// nodes) on to a contention world on it.
func (c SystemSettings) Contention(cc *ContentionConfig) { c.System.rules().contentionOf(c, cc) }

// BudgetRenewal is how often the world's leases renew, as the run budget
// counts them: a shard worker's keepalive period (Shards set), else a
// process's (see processRenewal) or what the system charges instead;
// zero when the settings renew at no period.
func (c SystemSettings) BudgetRenewal() time.Duration {
	renew := renewPeriod(c.TTL, c.RenewEvery)
	if renew <= 0 || c.Shards != 0 {
		return renew
	}
	if d, ok := c.System.rules().budgetRenewal(c.RetryBase); ok {
		return d
	}
	return processRenewal(c.TTL, c.RenewEvery, c.Recipe, DefaultMinTTL)
}

// renew is the effective keepalive period (zero: TTL/3, etcd's client),
// to the millisecond for people (rounding a third up only asks more of
// the policy).
func (c SystemSettings) renew() time.Duration {
	if d, ok := c.System.rules().leaderRenewal(c); ok {
		return d // client-go's leader renews every RetryPeriod
	}
	if c.RenewEvery == 0 {
		return (c.TTL / 3).Round(time.Millisecond)
	}
	return c.RenewEvery
}

// renewDeadline is the Kubernetes RenewDeadline the world runs with.
func (c SystemSettings) renewDeadline() time.Duration {
	if c.RenewDeadline == 0 {
		return c.TTL * 2 / 3
	}
	return c.RenewDeadline
}

// redisNodes is the number of Redis nodes a Redlock world runs.
func (c SystemSettings) redisNodes() int {
	if c.RedisNodes == 0 {
		return 3
	}
	return c.RedisNodes
}
