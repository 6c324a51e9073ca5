package lab

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// The world view names the coordinator, its counter and the token in the
// terms of the system the sandbox runs on: a learner who picks Redlock is
// not shown an etcd coordinator with a revision and token 0.
func TestWorldViewSpeaksTheSystemsWords(t *testing.T) {
	for _, name := range []string{"etcd", "zookeeper", "consul", "kubernetes", "redlock"} {
		p, err := sandbox.FindPreset(name)
		require.NoError(t, err, name)
		lb, err := NewSandbox(name, p.Config)
		require.NoError(t, err, name)
		assert.Equal(t, p.Config.System.Words(), lb.World().Words, name)
	}
	p, err := sandbox.FindPreset("redlock")
	require.NoError(t, err)
	lb, err := NewSandbox("redlock", p.Config)
	require.NoError(t, err)
	w := lb.World().Words
	assert.Equal(t, "Redis servers (majority)", w.Server)
	assert.Empty(t, w.Token, "the view says the holder has no token")
}

// A leader's badge names its token in its system's words where there is
// room, the number alone where there is not, and says a Redlock holder has
// none; etcd's badge reads as it always has.
func TestLeaderBadgeSpeaksTheSystemsWords(t *testing.T) {
	roomy := func(string) bool { return true }
	tight := func(string) bool { return false }
	assert.Equal(t, "leader · token 8", LeaderBadge(core.SystemEtcd.Words(), 8, roomy))
	assert.Equal(t, "leader · token 8", LeaderBadge(core.SystemWords{}, 8, roomy), "a view without words is etcd's")
	assert.Equal(t, "leader 8", LeaderBadge(core.SystemEtcd.Words(), 8, tight))
	assert.Equal(t, "leader · czxid 7", LeaderBadge(core.SystemZooKeeper.Words(), 7, roomy))
	assert.Equal(t, "leader · leaseTransitions 0", LeaderBadge(core.SystemKubernetes.Words(), 0, roomy))
	assert.Equal(t, "leader 0", LeaderBadge(core.SystemKubernetes.Words(), 0, tight))
	assert.Equal(t, "leader · no token", LeaderBadge(core.SystemRedlock.Words(), 0, roomy))
	assert.Equal(t, "leader", LeaderBadge(core.SystemRedlock.Words(), 0, tight))
}
