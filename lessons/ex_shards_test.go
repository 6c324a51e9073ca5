package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shardAnswer is the model answer with other numbers.
func shardAnswer(ttl, renew float64) Answer {
	a := exShards.Reference.Clone()
	a.Numbers = map[string]float64{"ttl": ttl, "renew": renew}
	return a
}

// TestShardFailoverIsTheWorstCrashPhase: failover is judged at the worst of
// several crash moments, so 30 s / 10 s and 29 s / 9.5 s, both able to
// leave shards idle for over 30 s, both fail (defect 2: one crash at one
// moment passed the first and failed the second).
func TestShardFailoverIsTheWorstCrashPhase(t *testing.T) {
	for _, c := range [][2]float64{{30, 10}, {29, 9.5}} {
		r, err := exShards.Check(shardAnswer(c[0], c[1]))
		require.NoError(t, err)
		f := part(r, "Failover")
		assert.False(t, f.OK, "%v: %s", c, f.Why)
		assert.Contains(t, f.Why, "Shorten the TTL")
	}
}

// TestShardLoadNamesWhatIsRenewed: renewing every 2 s is over the 500
// bound because each worker's session lease is renewed too (1,040 leases);
// the feedback says so instead of leaving 520/s unexplained (defect 2), and
// 2.5 s is within the bound.
func TestShardLoadNamesWhatIsRenewed(t *testing.T) {
	r, err := exShards.Check(shardAnswer(9, 2))
	require.NoError(t, err)
	f := part(r, "Coordinator load")
	assert.False(t, f.OK, f.Why)
	assert.Contains(t, f.Why, "sessions")
	assert.Contains(t, f.Why, "1040 leases")
	r, err = exShards.Check(shardAnswer(9, 2.5))
	require.NoError(t, err)
	assert.True(t, part(r, "Coordinator load").OK, part(r, "Coordinator load").Why)
}

// TestShardShortTTLCostsFalseFailovers: a 2 s TTL loses a live worker's
// shards to an ordinary 2 s pause (defect 2: with no pauses it looked free).
func TestShardShortTTLCostsFalseFailovers(t *testing.T) {
	r, err := exShards.Check(shardAnswer(2, 0.5))
	require.NoError(t, err)
	assert.False(t, part(r, "False failovers").OK, part(r, "False failovers").Why)
	r, err = exShards.Check(exShards.Reference)
	require.NoError(t, err)
	assert.True(t, part(r, "False failovers").OK)
}

// TestShardUnansweredIsNotRun: an empty or partial answer is not simulated
// with unstated defaults, earns no ✓ for a run, and has the same parts as a
// full answer (defects 2 and 9).
func TestShardUnansweredIsNotRun(t *testing.T) {
	full, err := exShards.Check(exShards.Reference)
	require.NoError(t, err)
	partial := exShards.Reference.Clone()
	delete(partial.Choices, "assignment")
	for _, a := range []Answer{{}, partial, {Numbers: map[string]float64{"ttl": 15}}} {
		r, err := exShards.Check(a)
		require.NoError(t, err)
		assert.Len(t, r.Parts, len(full.Parts), "the part count never changes")
		for _, name := range shardRunParts {
			assert.False(t, part(r, name).OK, "%s marked right for an incomplete design", name)
		}
		assert.Contains(t, part(r, "Design").Why, "Not answered")
	}
}

// TestShardNoEmptyTick: a fault that hit a worker owning nothing tested
// nothing, so it earns no ✓ (defect 2: "new owners 0 s after the crash" ✓
// when greedy claiming had left the crashed worker idle).
func TestShardNoEmptyTick(t *testing.T) {
	a := exShards.Reference.Clone()
	a.Choices["assignment"] = []string{"greedy"}
	r, err := exShards.Check(a)
	require.NoError(t, err)
	for _, name := range []string{"Failover", "False failovers", "Stale owner"} {
		f := part(r, name)
		assert.False(t, f.OK, "%s: %s", name, f.Why)
		assert.Contains(t, f.Why, "owned no shard", name)
	}
}

// TestShardOneLeasePerWorkerIsValid: the brief allows one lease per worker
// with its shard keys attached; the model answer names that alternative.
func TestShardOneLeasePerWorkerIsValid(t *testing.T) {
	a := exShards.Reference.Clone()
	a.Choices["granularity"] = []string{"per-worker"}
	r, err := exShards.Check(a)
	require.NoError(t, err)
	assert.True(t, r.Pass, r.Text())
	worked := ""
	for _, p := range exShards.Worked {
		worked += p
	}
	assert.Contains(t, worked, "One lease per worker")
}
