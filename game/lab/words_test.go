package lab

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// The world view names the coordinator, its counter and the token in the
// terms of the system the sandbox runs on: a learner who picks Redlock is
// not shown an etcd coordinator with a revision and token 0.
func TestWorldViewSpeaksTheSystemsWords(t *testing.T) {
	for _, name := range []string{"etcd", "zookeeper", "consul", "kubernetes", "redlock"} {
		p, err := core.FindPreset(name)
		require.NoError(t, err, name)
		lb, err := NewSandbox(name, p.Config)
		require.NoError(t, err, name)
		assert.Equal(t, p.Config.System.Words(), lb.World().Words, name)
	}
	p, err := core.FindPreset("redlock")
	require.NoError(t, err)
	lb, err := NewSandbox("redlock", p.Config)
	require.NoError(t, err)
	w := lb.World().Words
	assert.Equal(t, "Redis servers (majority)", w.Server)
	assert.Empty(t, w.Token, "the view says the holder has no token")
}
