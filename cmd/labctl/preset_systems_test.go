package main

import (
	"strings"
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
		{"--ttl", "10s"}:     "leaseDuration must be greater than renewDeadline (lease 10 s, renew deadline 10 s)",
		{"--ttl", "15500ms"}: "a Lease stores leaseDurationSeconds, whole seconds: 15.5s would be cut to 15s",
	} {
		_, errs, code := labctl(t, "", "run", "--preset", "kubernetes", args[0], args[1], "--format", "summary")
		assert.Equal(t, 2, code, args)
		assert.Contains(t, errs, want)
	}
}

// client-go's RenewDeadline and Redlock's node count are settable from the
// terminal, on the systems that read them, and checked as the sandbox
// checks them: a shorter RenewDeadline makes the frozen leader give up
// sooner; one at or over the LeaseDuration is refused with client-go's
// words; either flag on another system is refused with the reason.
func TestRunPresetTakesTheSystemsOwnSettings(t *testing.T) {
	def, errs, code := labctl(t, "", "run", "--preset", "kubernetes", "--format", "summary")
	require.Equal(t, 1, code, "the woken leader's write is accepted: %s", errs)
	short, errs, code := labctl(t, "", "run", "--preset", "kubernetes", "--renew-deadline", "5s", "--format", "summary")
	require.Contains(t, []int{0, 1}, code, errs)
	assert.NotEqual(t, def, short, "the renew deadline changes the run")

	_, errs, code = labctl(t, "", "run", "--preset", "kubernetes", "--renew-deadline", "16s")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "leaseDuration must be greater than renewDeadline (lease 15 s, renew deadline 16 s)")
	_, errs, code = labctl(t, "", "run", "--preset", "etcd", "--renew-deadline", "8s")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "applies to a world on kubernetes, not on etcd")
	_, errs, code = labctl(t, "", "run", "hands-on-lab", "--redis-nodes", "5")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--redis-nodes applies to presets")

	five, errs, code := labctl(t, "", "run", "--preset", "redlock", "--redis-nodes", "5", "--format", "summary")
	require.Equal(t, 0, code, errs)
	three, _, _ := labctl(t, "", "run", "--preset", "redlock", "--format", "summary")
	assert.NotEqual(t, three, five, "five nodes are another world")
	_, errs, code = labctl(t, "", "run", "--preset", "redlock", "--redis-nodes", "99")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "Redis nodes")
}

// --members makes the preset's coordinator a cluster: the summary says
// what its members did, and an action on a member is one of the run's.
func TestRunPresetOnAClusterOfMembers(t *testing.T) {
	acts := `[{"at":"2s","do":"crash","proc":"A"},{"at":"3s","do":"crash","proc":"member-1"}]`
	out, errs, code := labctl(t, acts, "run", "--preset", "etcd", "--members", "3", "--actions", "-", "--duration", "90s", "--format", "summary")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "coordinator: 3 members; leader at the end member-")
	assert.Contains(t, out, "leader elections 1; leases re-armed by a new leader")
	one, errs, code := labctl(t, "", "run", "--preset", "etcd", "--format", "summary")
	require.Equal(t, 0, code, errs)
	assert.NotContains(t, one, "coordinator:", "one server: nothing to say of members")

	for args, want := range map[string]string{
		"--members 9":                  "a coordinator of 1 to 7 members, got 9",
		"--members 0":                  "--members must be at least 1",
		"--members 3 --system redlock": "Redlock has no coordinator cluster",
	} {
		_, errs, code := labctl(t, "", append([]string{"run", "--preset", "etcd"}, strings.Fields(args)...)...)
		assert.Equal(t, 2, code, args)
		assert.Contains(t, errs, want, args)
	}
	_, errs, code = labctl(t, "", "run", "hands-on-lab", "--members", "3")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--members applies to presets")
}
