package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On every system, a clone taken mid-run and disturbed (its processes
// paused, crashed, cut off) leaves the original's run as it would have
// been: the clients' own state (ZooKeeper's connection, Consul's
// api.Lock, Kubernetes's LeaderElector, redsync's Mutex) is copied, not
// shared.
func TestCloneOfEverySystemKeepsItsClientsOwnState(t *testing.T) {
	for _, name := range []string{"etcd", "zookeeper", "consul", "kubernetes", "redlock"} {
		t.Run(name, func(t *testing.T) {
			p, err := sandbox.FindPreset(name)
			require.NoError(t, err)
			c := p.Config
			c.Duration = 90 * time.Second
			fresh, err := c.Build()
			require.NoError(t, err)
			fresh.RunUntil(c.Duration)
			want := fresh.Trace.Hash()

			s, err := c.Build()
			require.NoError(t, err)
			s.RunUntil(25 * time.Second)
			cl := s.Clone()
			for _, proc := range cl.Processes() {
				for _, a := range []core.Action{
					{Do: "partition", Proc: proc.Name(), Peer: core.CoordinatorName},
					{Do: "crash", Proc: proc.Name()},
					{Do: "restart", Proc: proc.Name()},
					{Do: "pause", Proc: proc.Name(), For: core.Duration(9 * time.Second)},
				} {
					_ = cl.Apply(a) // some do not apply on every system: the disturbance is the point
				}
			}
			cl.RunUntil(c.Duration)
			s.RunUntil(c.Duration)
			assert.Equal(t, want, s.Trace.Hash(), "the original runs on as a fresh run does")
			assert.NotEqual(t, want, cl.Trace.Hash(), "the clone was disturbed")
		})
	}
}

// etcd's client keeps its own state (its renewal loop, the bugs it
// reproduces, the fixes deployed to it) in a client value of its own, as
// every other system does, so a clone copies it: a fix deployed to a
// clone's process is not deployed to the original's.
func TestEtcdClientStateIsItsOwnAndACloneCopiesIt(t *testing.T) {
	p, err := sandbox.FindPreset("etcd")
	require.NoError(t, err)
	s, err := p.Config.Build()
	require.NoError(t, err)
	s.RunUntil(10 * time.Second)
	orig := s.Processes()[0]
	require.NotNil(t, core.EtcdClientOf(orig), "an etcd process has an etcd client")

	cl := s.Clone()
	require.NoError(t, cl.Apply(core.Fix(orig.Name(), core.FixNewSession)))
	assert.True(t, cl.Processes()[0].Deployed(core.FixNewSession), "the clone's process has the fix")
	assert.False(t, orig.Deployed(core.FixNewSession), "the original's client is its own")

	z, err := sandbox.FindPreset("zookeeper")
	require.NoError(t, err)
	zs, err := z.Config.Build()
	require.NoError(t, err)
	assert.Nil(t, core.EtcdClientOf(zs.Processes()[0]), "another system's process has no etcd client")
	assert.False(t, zs.Processes()[0].Deployed(core.FixNewSession))
}
