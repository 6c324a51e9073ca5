package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every system the engine names has an implementation of the seam, and
// each process gets a client of its own: two processes never share one.
func TestEverySystemHasItsRulesAndEachProcessItsOwnClient(t *testing.T) {
	require.Len(t, systems, len(SystemNames()), "one implementation per system")
	for _, name := range SystemNames() {
		s, err := ParseSystem(name)
		require.NoError(t, err)
		rules := s.rules()
		require.NotNil(t, rules, name)
		a, b := rules.newClient(), rules.newClient()
		assert.NotSame(t, a, b, "%s: each process has its own client state", name)
		assert.NotSame(t, a, a.clone(), "%s: a clone has its own client state", name)
	}
}

// On every system, a clone taken mid-run and disturbed (its processes
// paused, crashed, cut off) leaves the original's run as it would have
// been: the clients' own state (ZooKeeper's connection, Consul's
// api.Lock, Kubernetes's LeaderElector, redsync's Mutex) is copied, not
// shared.
func TestCloneOfEverySystemKeepsItsClientsOwnState(t *testing.T) {
	for _, name := range []string{"etcd", "zookeeper", "consul", "kubernetes", "redlock"} {
		t.Run(name, func(t *testing.T) {
			p, err := FindPreset(name)
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
				for _, a := range []Action{
					{Do: "partition", Proc: proc.Name(), Peer: CoordinatorName},
					{Do: "crash", Proc: proc.Name()},
					{Do: "restart", Proc: proc.Name()},
					{Do: "pause", Proc: proc.Name(), For: Duration(9 * time.Second)},
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
	p, err := FindPreset("etcd")
	require.NoError(t, err)
	s, err := p.Config.Build()
	require.NoError(t, err)
	s.RunUntil(10 * time.Second)
	orig := s.Processes()[0]
	require.NotNil(t, orig.etcd(), "an etcd process has an etcd client")

	cl := s.Clone()
	require.NoError(t, cl.Apply(Fix(orig.Name(), FixNewSession)))
	assert.True(t, cl.Processes()[0].Deployed(FixNewSession), "the clone's process has the fix")
	assert.False(t, orig.Deployed(FixNewSession), "the original's client is its own")

	z, err := FindPreset("zookeeper")
	require.NoError(t, err)
	zs, err := z.Config.Build()
	require.NoError(t, err)
	assert.Nil(t, zs.Processes()[0].etcd(), "another system's process has no etcd client")
	assert.False(t, zs.Processes()[0].Deployed(FixNewSession))
}
