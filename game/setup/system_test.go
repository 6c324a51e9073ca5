package setup

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// choose steps the system field to sys, as repeated clicks would.
func choose(t *testing.T, s *Setup, sys core.System) {
	t.Helper()
	f := field(t, s, "system")
	for range core.SystemNames() {
		if s.Config.System == sys {
			break
		}
		s.Next(f)
	}
	s.Check()
	require.Equal(t, sys, s.Config.System)
}

// The system switch keeps the scenario: the same processes, pauses and
// scripted actions run on the chosen system, and the field names it.
func TestTheSystemSwitchKeepsTheScenario(t *testing.T) {
	s := New()
	require.NoError(t, s.UsePreset("hands-on-lab"))
	before := s.Config
	require.NotEmpty(t, before.Actions, "the preset scripts a story")
	sys := field(t, s, "system")
	assert.Equal(t, "etcd", sys.Value(&s.Config))

	choose(t, s, core.SystemZooKeeper)
	assert.Equal(t, "ZooKeeper", sys.Value(&s.Config))
	assert.True(t, s.Changed)
	assert.Equal(t, before.Actions, s.Config.Actions, "the scripted actions stay")
	assert.Equal(t, before.ProcNames(), s.Config.ProcNames())
	assert.Equal(t, before.Pauses, s.Config.Pauses)
	assert.Equal(t, before.OnSystem(core.SystemZooKeeper), s.Config, "exactly what OnSystem makes of it")
	assert.Empty(t, s.Errs)

	for _, to := range []core.System{core.SystemKubernetes, core.SystemRedlock, core.SystemEtcd} {
		choose(t, s, to)
		assert.Equal(t, before.Actions, s.Config.Actions, "on %s", to)
		assert.Zero(t, s.Config.LockDelay, "%s was given no lock-delay it lacks", to)
	}
}

// A field that means nothing on the chosen system is disabled and says
// why in one line; on etcd it is live again.
func TestFieldsASystemDoesNotUseSayWhy(t *testing.T) {
	s := New()
	recipe, tokens, nodes := field(t, s, "recipe"), field(t, s, "token_source"), field(t, s, "redis_nodes")
	assert.True(t, recipe.Applies(&s.Config))
	assert.Empty(t, s.NotUsed(recipe))
	assert.False(t, nodes.Applies(&s.Config), "etcd has no Redis nodes")
	assert.Contains(t, s.NotUsed(nodes), "Only Redlock")

	choose(t, s, core.SystemRedlock)
	assert.True(t, recipe.Button.Disabled)
	assert.Contains(t, s.NotUsed(tokens), "no fencing token")
	assert.Contains(t, s.NotUsed(field(t, s, "lock_delay")), "Redlock has no lock-delay")
	assert.True(t, nodes.Applies(&s.Config))
	assert.Equal(t, "3", nodes.Value(&s.Config), "three nodes unless told")
	assert.True(t, field(t, s, "renew").Applies(&s.Config), "Redlock extends on the renewal period")

	choose(t, s, core.SystemConsul)
	assert.Contains(t, s.NotUsed(tokens), "LockIndex")
	assert.Contains(t, s.NotUsed(field(t, s, "renew")), "TTL/2")
	assert.True(t, field(t, s, "lock_delay").Applies(&s.Config), "lock-delay is Consul's own")

	for _, f := range s.Fields {
		assert.NotContains(t, s.NotUsed(f), "\n", "%s: one line", f.Name)
	}
	choose(t, s, core.SystemEtcd)
	assert.False(t, recipe.Button.Disabled)
	assert.Empty(t, s.NotUsed(recipe))
}

// What a system refuses shows beside the field it is about, and Start
// stays refused until it is fixed.
func TestASystemsRefusalShowsBesideItsField(t *testing.T) {
	s := New()
	ttl := field(t, s, "ttl")
	s.Set(ttl, 5)
	s.Check()
	require.Empty(t, s.Errs, "etcd takes a 5 s TTL")

	choose(t, s, core.SystemConsul)
	require.NotEmpty(t, s.Errs)
	assert.Equal(t, sandbox.FieldTTL, s.Errs[0].Field)
	assert.Contains(t, ttl.Err, "10 s", "Consul's minimum session TTL is named: %s", ttl.Err)

	s.Set(ttl, (core.ConsulMinTTL).Seconds())
	s.Check()
	assert.Empty(t, s.Errs)
	assert.Empty(t, ttl.Err)

	choose(t, s, core.SystemRedlock)
	s.Set(field(t, s, "redis_nodes"), float64(core.MaxRedisNodes))
	s.Check()
	assert.Empty(t, s.Errs, "up to %d nodes", core.MaxRedisNodes)
	s.Config.RedisNodes = core.MaxRedisNodes + 1
	s.Check()
	assert.Contains(t, field(t, s, "system").Err, "Redis nodes")
}

// A shard world runs on etcd only: the switch is disabled and says so.
func TestAShardWorldKeepsToEtcd(t *testing.T) {
	s := New()
	require.NoError(t, s.UsePreset("shards"))
	sys := field(t, s, "system")
	assert.True(t, sys.Button.Disabled)
	assert.Contains(t, s.NotUsed(sys), "Shards to 0")
	s.Set(field(t, s, "shards"), 0)
	s.Check()
	assert.False(t, sys.Button.Disabled)
}

// Back from a run, the learner's actions are replayed on whatever system
// is chosen next; a new preset drops them; actions the new world cannot
// take (past the run's end) are dropped with the reason rather than refusing the run.
func TestTheLearnersActionsReplayOnTheNextSystem(t *testing.T) {
	s := New()
	require.NoError(t, s.UsePreset("leases"))
	first, dropped, err := s.Run()
	require.NoError(t, err)
	require.NoError(t, dropped)
	first.Advance(4 * time.Second)
	require.NoError(t, first.Do(core.Pause("A", 20*time.Second)))
	s.Played = first.Log()
	require.Len(t, s.Played, 1)

	choose(t, s, core.SystemZooKeeper)
	assert.Contains(t, s.Intro(), "The action you took in the last run is replayed on ZooKeeper.")
	again, dropped, err := s.Run()
	require.NoError(t, err)
	require.NoError(t, dropped)
	assert.Equal(t, s.Played, again.Log())
	assert.Zero(t, again.Now(), "the replay starts from the beginning")
	again.Advance(30 * time.Second)
	paused := again.Sim().Trace.Filter(core.KindPause)
	require.NotEmpty(t, paused, "A's pause happens on ZooKeeper too")
	assert.Equal(t, "A", paused[0].Actor)
	assert.Equal(t, 4*time.Second, paused[0].At)

	s.Played = core.ActionLog{core.At(2*time.Hour, core.Pause("A", time.Second))}
	lb, dropped, err := s.Run()
	require.NoError(t, err)
	require.Error(t, dropped, "the run is shorter than two hours")
	assert.Empty(t, lb.Log())
	assert.Nil(t, s.Played)

	s.Played = first.Log()
	require.NoError(t, s.UsePreset("leases"))
	assert.Nil(t, s.Played, "another preset starts clean")
}

// index is field name's place in the panel.
func index(t *testing.T, s *Setup, name string) int {
	t.Helper()
	for i, f := range s.Fields {
		if f.Name == name {
			return i
		}
	}
	require.Failf(t, "no field", "%s", name)
	return -1
}

// client-go's RenewDeadline has a field of its own on Kubernetes, in the
// cell Redlock's node count uses elsewhere: each system shows the one it
// reads, and the deadline is checked with client-go's rule and runs.
func TestTheRenewDeadlineIsSetOnKubernetesInTheRedisNodesCell(t *testing.T) {
	s := New()
	nodes, deadline := index(t, s, "redis_nodes"), index(t, s, "renew_deadline")
	require.Equal(t, nodes+1, deadline, "the two share a cell")
	assert.False(t, s.Hidden(nodes), "etcd: the cell shows Redis nodes, not used")
	assert.True(t, s.Hidden(deadline))
	assert.Equal(t, "Only client-go's leader election has a renew deadline.", s.NotUsed(s.Fields[deadline]))

	choose(t, s, core.SystemKubernetes)
	assert.True(t, s.Hidden(nodes), "Kubernetes: the cell shows the renew deadline")
	assert.False(t, s.Hidden(deadline))
	f := s.Fields[deadline]
	assert.Equal(t, "2/3 of TTL", f.Value(&s.Config), "zero means client-go's two thirds")
	s.Set(f, 6)
	s.Check()
	require.Empty(t, s.Errs)
	assert.Equal(t, 6*time.Second, s.Config.RenewDeadline)
	lb, _, err := s.Run()
	require.NoError(t, err)
	for _, p := range lb.Sim().Processes() {
		assert.Equal(t, 6*time.Second, p.Config().RenewDeadline, "the run uses it")
	}
	s.Set(f, s.Config.TTL.Seconds()+1)
	s.Check()
	require.NotEmpty(t, s.Errs, "a renew deadline past the lease is refused")
	assert.Contains(t, s.Errs[0].Msg, "leaseDuration must be greater than renewDeadline")

	choose(t, s, core.SystemRedlock)
	assert.False(t, s.Hidden(nodes), "Redlock: the cell shows Redis nodes")
	assert.True(t, s.Hidden(deadline))
}

// The Members field makes the coordinator a cluster of 3 or 5 (one server
// is the world as before); Redlock has none and says so; the run built
// from the setup has the members.
func TestTheMembersFieldMakesTheCoordinatorACluster(t *testing.T) {
	s := New()
	m := field(t, s, "members")
	assert.Equal(t, "1 (one server)", m.Value(&s.Config))
	s.Set(m, 1)
	assert.Equal(t, 3, s.Config.Members)
	assert.Equal(t, "3 (a cluster)", m.Value(&s.Config))
	assert.Empty(t, s.Errs)
	sim, err := s.Config.Build()
	require.NoError(t, err)
	assert.Equal(t, []string{"member-1", "member-2", "member-3"}, sim.Coord.Members())
	s.Set(m, 2)
	assert.Equal(t, 5, s.Config.Members)
	s.Set(m, 0)
	assert.Zero(t, s.Config.Members, "one server: the world as before")

	s.Set(m, 1)
	choose(t, s, core.SystemZooKeeper)
	assert.Equal(t, 3, s.Config.Members, "a ZooKeeper ensemble keeps its members")
	choose(t, s, core.SystemRedlock)
	assert.Zero(t, s.Config.Members, "Redlock's Redis nodes are no cluster")
	assert.False(t, m.Applies(&s.Config))
	assert.Contains(t, s.NotUsed(m), "independent Redis nodes")
}

// The setup's summary on Consul says the TTL set and the 2 x TTL its
// server lets a session live, not the 30 s alone beside a 15 s slider
// (issue 29).
func TestTheSummaryOnConsulSaysTheTTLSetAndWhenASessionExpires(t *testing.T) {
	p, err := sandbox.FindPreset("consul")
	require.NoError(t, err)
	require.Equal(t, 15*time.Second, p.Config.TTL)
	assert.Contains(t, Summary(p.Config), "TTL 15s (a session expires after 30s), renew every 7.5s")
	c := p.Config
	c.System = core.SystemEtcd
	assert.Contains(t, Summary(c), "TTL 15s, renew every")
}
