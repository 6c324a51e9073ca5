package setup

import (
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// systemField chooses the coordination system. Switching keeps the
// world, its pauses and its scripted actions and re-targets the rest
// (sandbox.Config.OnSystem): what only etcd has is dropped, and what
// the new system refuses stays, for Check to show beside its field.
func systemField() *Field {
	titles := make([]string, len(core.SystemNames()))
	for i := range titles {
		titles[i] = core.System(i).Title()
	}
	return &Field{ID: sandbox.FieldSystem, Name: "system", Label: "System", Applies: singleLock,
		Choices: func(*sandbox.Config) []string { return titles },
		Get:     func(c *sandbox.Config) float64 { return float64(c.System) },
		Set:     func(c *sandbox.Config, v float64) { *c = c.OnSystem(core.System(v)) }}
}

// redisNodesField is how many independent Redis nodes a Redlock world
// has (zero in the configuration means three).
func redisNodesField() *Field {
	return &Field{ID: sandbox.FieldSystem, Name: "redis_nodes", Label: "Redis nodes", Min: 1, Max: core.MaxRedisNodes, Step: 1,
		Applies: func(c *sandbox.Config) bool { return c.System == core.SystemRedlock },
		Get: func(c *sandbox.Config) float64 {
			if c.RedisNodes == 0 {
				return 3
			}
			return float64(c.RedisNodes)
		},
		Set: func(c *sandbox.Config, v float64) { c.RedisNodes = int(v) }}
}

// memberCounts are the coordinator sizes the Members field offers: one
// server, or a cluster of three or five (core/cluster.go).
var memberCounts = []int{1, 3, 5}

// membersField makes the coordinator a cluster of members. Redlock has
// none (its Redis nodes are independent), so the field does not apply there.
func membersField() *Field {
	return &Field{ID: sandbox.FieldMembers, Name: "members", Label: "Members",
		Applies: func(c *sandbox.Config) bool { return c.System != core.SystemRedlock },
		Choices: func(*sandbox.Config) []string {
			return []string{"1 (one server)", "3 (a cluster)", "5 (a cluster)"}
		},
		Get: func(c *sandbox.Config) float64 {
			for i, n := range memberCounts {
				if c.Members == n {
					return float64(i)
				}
			}
			return 0
		},
		Set: func(c *sandbox.Config, v float64) {
			c.Members = memberCounts[min(max(int(v), 0), len(memberCounts)-1)]
			if c.Members == 1 {
				c.Members = 0 // one server: the world as before
			}
		}}
}

// renewDeadlineField is client-go's RenewDeadline in a Kubernetes world
// (zero in the configuration means two thirds of the LeaseDuration). It
// shares the Redis nodes' cell: no system reads both.
func renewDeadlineField() *Field {
	f := withZero("2/3 of TTL", durField(sandbox.FieldSystem, "renew_deadline", "Renew deadline", 0, 120, 1,
		func(c *sandbox.Config) *time.Duration { return &c.RenewDeadline }))
	f.Applies = func(c *sandbox.Config) bool { return c.System == core.SystemKubernetes }
	f.SharesCell = true
	return f
}

// notOnSystem says, in one line, why a field means nothing on the chosen
// system ("" when it does, or when the reason is not the system).
func notOnSystem(name string, s core.System) string {
	switch name {
	case "recipe":
		switch s {
		case core.SystemZooKeeper:
			return "ZooKeeper's own recipe: sequential nodes, each watching the one before."
		case core.SystemConsul:
			return "One key per lock: each change wakes every waiter, and they race."
		case core.SystemKubernetes:
			return "No queue: candidates poll the Lease object every retry period."
		case core.SystemRedlock:
			return "No queue: each client tries SET NX on every Redis node."
		}
	case "token_source":
		switch s {
		case core.SystemZooKeeper:
			return "The token is the lock node's creation zxid (czxid)."
		case core.SystemConsul:
			return "The token is the lock key's LockIndex."
		case core.SystemKubernetes:
			return "The Lease counts leaseTransitions, but nothing checks it."
		case core.SystemRedlock:
			return "Redlock issues no fencing token at all: every write carries 0."
		}
	case "renew":
		switch s {
		case core.SystemZooKeeper:
			return "The client pings every third of the session timeout on its own."
		case core.SystemConsul:
			return "api.Lock renews its session every TTL/2 on its own."
		}
	case "lock_delay":
		if s == core.SystemZooKeeper || s == core.SystemKubernetes || s == core.SystemRedlock {
			return s.Title() + " has no lock-delay: the next may take the lock at once."
		}
	case "shards", "workers":
		if s != core.SystemEtcd {
			return "Shard leases are modelled on etcd only."
		}
	case "redis_nodes":
		if s != core.SystemRedlock {
			return "Only Redlock has independent Redis nodes."
		}
	case "members":
		if s == core.SystemRedlock {
			return "Redlock has independent Redis nodes, not members."
		}
	case "renew_deadline":
		if s != core.SystemKubernetes {
			return "Only client-go's leader election has a renew deadline."
		}
	}
	return ""
}

// NotUsedShort is NotUsed in a few words, for a narrow cell: "Not used
// on Redlock." ("" when the field applies).
func (s *Setup) NotUsedShort(f *Field) string {
	if s.NotUsed(f) == "" {
		return ""
	}
	if f.Name == "system" {
		return "Shards need etcd."
	}
	return "Not used on " + s.Config.System.Title() + "."
}

// onSystem narrows a field's Applies to the systems it means something on.
func onSystem(f *Field) {
	applies := f.Applies
	f.Applies = func(c *sandbox.Config) bool {
		return applies(c) && notOnSystem(f.Name, c.System) == ""
	}
}

// NotUsed is the one-line reason field f does not apply to the
// configuration because of its system ("" if it applies, or does not for
// another reason).
func (s *Setup) NotUsed(f *Field) string {
	if f.Applies(&s.Config) {
		return ""
	}
	if f.Name == "system" && s.Config.Shards > 0 {
		return "Shard leases are modelled on etcd only: set Shards to 0 to choose another system."
	}
	return notOnSystem(f.Name, s.Config.System)
}
