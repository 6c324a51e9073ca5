package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// TestCoordinatorCostsMeasuresTheLoad: the renewal load read from the
// trace is the leases over the renewal interval, and one lease per worker
// cuts it by the shards each worker owns.
func TestCoordinatorCostsMeasuresTheLoad(t *testing.T) {
	for _, c := range []struct {
		k        Knobs
		min, max float64
	}{
		{Knobs{"ttl": 30, "renew": 1, "per-shard": 1}, 130, 145}, // 140 leases a second
		{Knobs{"ttl": 9, "renew": 3, "per-shard": 0}, 3, 5},      // 12 sessions every 3 s
	} {
		w, err := coordinatorCosts.EvaluateWith(1, c.k, nil)
		require.NoError(t, err)
		l := renewalLoad(w)
		assert.GreaterOrEqual(t, l, c.min, "%v", c.k)
		assert.LessOrEqual(t, l, c.max, "%v", c.k)
	}
}

// TestCoordinatorCostsGoalsCanFail: a long TTL fails the failover goal
// and per-shard leases renewed every second fail the load goal.
func TestCoordinatorCostsGoalsCanFail(t *testing.T) {
	w, err := coordinatorCosts.EvaluateWith(1, Knobs{"ttl": 30, "renew": 10, "per-shard": 0}, coordinatorCosts.Solution)
	require.NoError(t, err)
	assert.True(t, coordinatorCosts.Goals[0].Met(w), "12 sessions every 10 s is light")
	assert.False(t, coordinatorCosts.Goals[1].Met(w), "a 30 s TTL cannot fail over in 15 s")
	w, err = coordinatorCosts.EvaluateWith(1, Knobs{"ttl": 9, "renew": 3, "per-shard": 1}, nil)
	require.NoError(t, err)
	assert.False(t, coordinatorCosts.Goals[0].Met(w), "140 leases every 3 s is over 20 a second")
	_, err = coordinatorCosts.EvaluateWith(1, Knobs{"ttl": 5, "renew": 6, "per-shard": 1}, nil)
	assert.Error(t, err, "renewing after the TTL is refused")
}

// The lesson's wrong runs, for TestWrongLogsMissAGoal.
func init() {
	wrong["coordinator-costs"] = append(wrong["coordinator-costs"], []struct {
		name  string
		knobs Knobs
		log   core.ActionLog
		miss  string
	}{
		{"per-shard leases renewed every second", Knobs{"ttl": 9, "renew": 1, "per-shard": 1}, coordinatorCosts.Solution, "light"},
		{"light but slow: a 30 s TTL", Knobs{"ttl": 30, "renew": 10, "per-shard": 0}, coordinatorCosts.Solution, "fast"},
		{"no crash at all", Knobs{"ttl": 9, "renew": 3, "per-shard": 0}, nil, "fast"},
	}...)
}
