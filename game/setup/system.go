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
		Applies: func(c *sandbox.Config) bool { return c.System.OwnSetting(core.SettingRedisNodes) == "" },
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
		Applies: func(c *sandbox.Config) bool { return c.System.OwnSetting(core.SettingMembers) == "" },
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
	f.Applies = func(c *sandbox.Config) bool { return c.System.OwnSetting(core.SettingRenewDeadline) == "" }
	f.SharesCell = true
	return f
}

// fieldSettings is the system setting each field sets, where a system may
// bring its own.
var fieldSettings = map[string]core.SettingID{
	"recipe": core.SettingRecipe, "token_source": core.SettingFirstToken,
	"renew": core.SettingRenew, "lock_delay": core.SettingLockDelay,
	"shards": core.SettingShards, "workers": core.SettingShards,
	"redis_nodes": core.SettingRedisNodes, "members": core.SettingMembers,
	"renew_deadline": core.SettingRenewDeadline,
}

// notOnSystem says, in one line, why a field means nothing on the chosen
// system, in the system's own words (core's System.OwnSetting): "" when
// it does, or when the reason is not the system.
func notOnSystem(name string, s core.System) string {
	id, ok := fieldSettings[name]
	if !ok {
		return ""
	}
	return s.OwnSetting(id)
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
