package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/explore"
	"leaselab/core/sandbox"
)

// Find a break in the sandbox on the Redlock preset looks for two
// holders at once (a stale write cannot be seen there: every token is
// 0), finds the pause that makes them, and loads it as the run.
func TestFindABreakOnTheRedlockPreset(t *testing.T) {
	p, err := sandbox.FindPreset("redlock")
	require.NoError(t, err)
	spec, why := SandboxSearch(p.Config)
	require.Empty(t, why)
	assert.Equal(t, explore.OneBelieverPerLock.Name, spec.Invariant.Name)
	etcd, _ := SandboxSearch(p.Config.OnSystem(core.SystemEtcd))
	assert.Equal(t, explore.NoStaleWrite.Name, etcd.Invariant.Name, "systems with tokens keep the stale-write check")

	lb, err := NewSandbox("redlock", p.Config)
	require.NoError(t, err)
	f := NewFinder(lb, spec)
	f.Start()
	var said []string
	for i := 0; i < 10000 && f.Searching(); i++ {
		said = append(said, f.Slice(50*time.Millisecond)...)
	}
	if c, ok := f.TakeFound(); ok {
		assert.Empty(t, lb.Apply(c), "the found run loads")
	}
	require.False(t, f.Searching(), "the search ends")
	text := strings.Join(said, " ")
	require.True(t, strings.HasPrefix(f.Status, "Break: pause A"), "%s / %s", f.Status, text)
	assert.NotEmpty(t, lb.Log(), "the break is loaded as the run")
}
