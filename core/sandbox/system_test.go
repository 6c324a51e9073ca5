package sandbox

import (
	"leaselab/core"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The same world on another system keeps its processes, pauses and
// actions and drops only what belongs to etcd, so every lesson preset
// runs on ZooKeeper and Consul as it is.
func TestOnSystemKeepsTheScenario(t *testing.T) {
	for _, p := range Presets() {
		if p.Config.Shards > 0 {
			continue // shard leases are etcd's
		}
		for _, sys := range []core.System{core.SystemZooKeeper, core.SystemConsul} {
			c := p.Config.OnSystem(sys)
			assert.Equal(t, p.Config.Actions, c.Actions, p.Name)
			assert.Equal(t, p.Config.ProcNames(), c.ProcNames(), p.Name)
			errs := c.Validate()
			if sys == core.SystemConsul && p.Config.TTL < core.ConsulMinTTL {
				require.Len(t, errs, 1, "%s on %s", p.Name, sys)
				assert.Equal(t, FieldTTL, errs[0].Field, "Consul refuses the %s TTL of %s", p.Name, p.Config.TTL)
				continue
			}
			assert.Empty(t, errs, "%s on %s", p.Name, sys)
		}
	}
	c := Default().OnSystem(core.SystemConsul)
	assert.Equal(t, core.ConsulDefaultLockDelay, c.LockDelay, "api.Lock's default lock-delay")
	assert.Zero(t, c.OnSystem(core.SystemZooKeeper).LockDelay, "ZooKeeper has none")
	for _, sys := range []core.System{core.SystemKubernetes, core.SystemRedlock} {
		on := c.OnSystem(sys)
		assert.Zero(t, on.LockDelay, "%s has none", sys)
		assert.Empty(t, on.Validate(), "Consul's world runs on %s as it is", sys)
	}
}

func TestZooKeeperRefusesALockDelay(t *testing.T) {
	c := Default()
	c.System, c.LockDelay = core.SystemZooKeeper, 15*time.Second
	errs := c.Validate()
	require.Len(t, errs, 1)
	assert.Equal(t, FieldLockDelay, errs[0].Field)
	assert.Contains(t, errs[0].Msg, "ZooKeeper has no lock-delay")
}

// A renewal period on etcd is another client, and the run says so: an
// application's own KeepAliveOnce timer, not etcd's KeepAlive loop.
func TestAnEtcdRenewalPeriodIsSaidToBeTheApplicationsOwnTimer(t *testing.T) {
	p, err := FindPreset("etcd")
	require.NoError(t, err)
	assert.Empty(t, p.Config.Notes(), "the preset is etcd's own client")
	c := p.Config
	c.RenewEvery = 1667 * time.Millisecond
	require.Len(t, c.Notes(), 1)
	assert.Contains(t, c.Notes()[0], "KeepAliveOnce on its own timer, every 1.667 s from the grant, not etcd's KeepAlive loop")
}
