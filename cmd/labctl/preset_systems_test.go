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

// Durations client-go refuses are refused here too, with its words, and
// exit 2.
func TestRunPresetKubernetesRefusesClientGosBadDurations(t *testing.T) {
	for args, want := range map[[2]string]string{
		{"--ttl", "10s"}:     "leaseDuration must be greater than renewDeadline (lease 10s, renew deadline 10s)",
		{"--ttl", "15500ms"}: "a Lease stores leaseDurationSeconds, whole seconds: 15.5s would be cut to 15s",
	} {
		_, errs, code := labctl(t, "", "run", "--preset", "kubernetes", args[0], args[1], "--format", "summary")
		assert.Equal(t, 2, code, args)
		assert.Contains(t, errs, want)
	}
}
