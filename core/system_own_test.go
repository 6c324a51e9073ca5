package core_test

import (
	"leaselab/core"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Each system says itself which of a free-play world's settings it brings
// its own of, so a front end asks the system and names none: etcd takes
// every setting but the two only another system has; every other system
// has its own recipe and token; ZooKeeper and Consul renew their own way;
// only Consul has a lock-delay; only etcd's shard leases are modelled.
func TestEachSystemSaysWhichSettingsAreItsOwn(t *testing.T) {
	used := func(s core.System, ids ...core.SettingID) {
		t.Helper()
		for _, id := range ids {
			assert.Empty(t, s.OwnSetting(id), "%s uses setting %d", s.Title(), id)
		}
	}
	own := func(s core.System, id core.SettingID, words string) {
		t.Helper()
		assert.Contains(t, s.OwnSetting(id), words, "%s brings its own setting %d", s.Title(), id)
	}
	used(core.SystemEtcd, core.SettingRecipe, core.SettingFirstToken, core.SettingRenew, core.SettingLockDelay, core.SettingShards, core.SettingMembers)
	own(core.SystemEtcd, core.SettingRedisNodes, "Only Redlock")
	own(core.SystemEtcd, core.SettingRenewDeadline, "client-go")

	own(core.SystemZooKeeper, core.SettingRecipe, "sequential nodes")
	own(core.SystemZooKeeper, core.SettingFirstToken, "czxid")
	own(core.SystemZooKeeper, core.SettingRenew, "pings")
	own(core.SystemZooKeeper, core.SettingLockDelay, "ZooKeeper has no lock-delay")
	used(core.SystemZooKeeper, core.SettingMembers)

	own(core.SystemConsul, core.SettingFirstToken, "LockIndex")
	own(core.SystemConsul, core.SettingRenew, "TTL/2")
	used(core.SystemConsul, core.SettingLockDelay, core.SettingMembers)

	own(core.SystemKubernetes, core.SettingRecipe, "Lease object")
	used(core.SystemKubernetes, core.SettingRenewDeadline, core.SettingRenew)
	own(core.SystemKubernetes, core.SettingRedisNodes, "Only Redlock")

	own(core.SystemRedlock, core.SettingFirstToken, "no fencing token")
	own(core.SystemRedlock, core.SettingMembers, "not members")
	used(core.SystemRedlock, core.SettingRedisNodes, core.SettingRenew)

	for _, s := range []core.System{core.SystemZooKeeper, core.SystemConsul, core.SystemKubernetes, core.SystemRedlock} {
		own(s, core.SettingShards, "etcd only")
	}
	assert.Empty(t, core.System(99).OwnSetting(core.SettingRecipe), "a system not modelled says nothing (Validate refuses it)")
}

// Only Redlock's holders get no token a fenced resource can check.
func TestOnlyRedlockIssuesNoFencingToken(t *testing.T) {
	for _, s := range []core.System{core.SystemEtcd, core.SystemZooKeeper, core.SystemConsul, core.SystemKubernetes} {
		assert.True(t, s.IssuesTokens(), s.Title())
	}
	assert.False(t, core.SystemRedlock.IssuesTokens())
	assert.False(t, core.System(99).IssuesTokens())
}

// A contention world moved to another system drops etcd's first token and
// takes the system's own lock-delay, as a free-play world does.
func TestAContentionWorldMovesToASystemAsAFreePlayWorldDoes(t *testing.T) {
	c := core.ContentionConfig{Names: []string{"A", "B"}, FirstToken: 7, TTL: 10 * time.Second}
	assert.Equal(t, c, c.OnSystem(core.SystemEtcd), "the same system: unchanged")

	consul := c.OnSystem(core.SystemConsul)
	assert.Equal(t, core.SystemConsul, consul.System)
	assert.Zero(t, consul.FirstToken)
	assert.Equal(t, core.ConsulDefaultLockDelay, consul.LockDelay)

	zk := c.OnSystem(core.SystemZooKeeper)
	assert.Zero(t, zk.FirstToken)
	assert.Zero(t, zk.LockDelay)
	assert.Equal(t, c.TTL, zk.TTL)
}
