package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The same 20 s pause on Redlock: a second client wins the lock while A
// is frozen, and every write carries token 0, so nothing is ever refused.
func TestRunPresetRedlockShowsTwoHoldersAndNoToken(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "--preset", "redlock", "--format", "summary")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "preset redlock: ")
	assert.Contains(t, out, `invariant "at most one believer per lock or shard": broke at t=67.438s (A and C both believed they held leader)`)
	assert.Contains(t, out, "rejected 0")
	out, errs, code = labctl(t, "", "run", "--preset", "redlock", "--fencing", "on", "--format", "summary")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "rejected 0", "the token check on: still nothing to refuse")
}
