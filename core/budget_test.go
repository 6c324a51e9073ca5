package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A scenario whose parameters would fire millions of renewals is refused
// before it runs, with the numbers; it used to run out of memory
// (hands-on-lab at --ttl 1ms reached 3.1 GB by 120 s; issue 19, item 3).
func TestScenarioOverBudgetIsRefusedUpFront(t *testing.T) {
	for _, name := range []string{"hands-on-lab", "fenced-register", "scheduler", "shards", "herd"} {
		sc, err := FindScenario(name)
		require.NoError(t, err)
		_, err = sc.Run(Params{Seed: 1, TTL: time.Millisecond, Duration: 5 * time.Minute})
		assert.ErrorIs(t, err, ErrBudget, name)
		assert.ErrorContains(t, err, "the limit is 250000", name)
	}
}

// Every built-in scenario and preset, as shipped, fits the budget.
func TestBuiltInRunsFitTheBudget(t *testing.T) {
	for _, sc := range Scenarios() {
		s, _, err := sc.Build(Params{Seed: 1})
		require.NoError(t, err)
		assert.NoError(t, s.CheckBudget(sc.Duration), sc.Name)
	}
	for _, p := range Presets() {
		s, err := p.Config.Build()
		require.NoError(t, err)
		assert.NoError(t, s.CheckBudget(p.Config.Duration), p.Name)
	}
}

// A run the estimate lets through still cannot grow without end: the
// world stops itself at the trace budget, says where, and RunUntil returns.
func TestWorldStopsAtTheTraceBudget(t *testing.T) {
	old := traceBudget
	traceBudget = 2000
	t.Cleanup(func() { traceBudget = old })

	sc, err := FindScenario("hands-on-lab")
	require.NoError(t, err)
	r, err := sc.Run(Params{Seed: 1, TTL: 10 * time.Millisecond})
	require.NoError(t, err, "the estimate lets this one through")
	assert.Equal(t, 2000, r.Sim.Trace.Len())
	err = r.Sim.Exhausted()
	assert.ErrorIs(t, err, ErrBudget)
	assert.ErrorContains(t, err, "its trace reached 2000 events")
	assert.Less(t, r.Sim.Now(), r.End, "the clock stays where the run stopped")
	_, more := r.Sim.NextEventAt()
	assert.False(t, more)
	assert.False(t, r.Sim.Step())
}
