package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Find a break works on ZooKeeper and Consul worlds (their clients and
// servers clone like etcd's): with fencing off it finds the shortest
// pause that lets A's late write land after B's; with fencing on no
// schedule in the bounds does.
func TestFindABreakOnZooKeeperAndConsul(t *testing.T) {
	for _, c := range []struct {
		target string
		// shortest is a bound on the shortest breaking pause the system
		// allows: ZooKeeper's 10 s session; Consul's 2 x 10 s TTL plus
		// its 15 s lock-delay.
		shortest time.Duration
	}{
		{"zookeeper-pause", 10 * time.Second},
		{"consul-pause", 20*time.Second + ConsulDefaultLockDelay},
	} {
		t.Run(c.target, func(t *testing.T) {
			off := problem(t, c.target, true, nil)
			r := explore(t, off)
			require.True(t, r.Found, r.Summary())
			require.Len(t, r.Faults, 1)
			t.Log(r.Summary())
			assert.GreaterOrEqual(t, r.Faults[0].For, c.shortest, "no shorter pause can break %s", c.target)
			_, bad, err := off.Replay(r.Faults)
			require.NoError(t, err)
			require.NotNil(t, bad)
			assert.Equal(t, KindStale, bad.Kind)

			on := explore(t, problem(t, c.target, false, nil))
			assert.False(t, on.Found, "fencing on: %s", on.Summary())
			assert.True(t, on.Complete)
		})
	}
}

// A world on either system cloned mid-run goes on exactly as the
// original: the explorer relies on it.
func TestZooKeeperAndConsulWorldsCloneExactly(t *testing.T) {
	for _, name := range []string{"zookeeper", "consul"} {
		p, err := FindPreset(name)
		require.NoError(t, err)
		c := p.Config
		c.Duration = 3 * time.Minute
		c.Actions = append(c.Actions, At(100*time.Second, Partition("B", CoordinatorName)), At(130*time.Second, Heal("B", CoordinatorName)))
		a, err := c.Build()
		require.NoError(t, err)
		a.RunUntil(70 * time.Second)
		b := a.Clone()
		a.RunUntil(c.Duration)
		b.RunUntil(c.Duration)
		assert.Equal(t, a.Trace.Hash(), b.Trace.Hash(), name)
	}
}
