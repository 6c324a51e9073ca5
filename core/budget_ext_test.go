package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A scenario whose parameters would fire millions of renewals is refused
// before it runs, with the numbers; it used to run out of memory
// (hands-on-lab at --ttl 1ms reached 3.1 GB by 120 s; issue 19, item 3).
// A tiny TTL alone no longer does it: the coordinator grants at least 2 s
// (and etcd's recipe refuses a fraction of a second) and etcd's client
// renews a third of the granted TTL; a tiny renewal period, a long run or
// shard workers' own timers still would.
func TestScenarioOverBudgetIsRefusedUpFront(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    sandbox.Params
	}{
		{"hands-on-lab", sandbox.Params{TTL: 2 * time.Second, RenewEvery: time.Millisecond, Duration: 5 * time.Minute}},
		{"fenced-register", sandbox.Params{TTL: 2 * time.Second, RenewEvery: time.Millisecond, Duration: 5 * time.Minute}},
		{"herd", sandbox.Params{RenewEvery: time.Millisecond, Duration: 5 * time.Minute}},
		{"scheduler", sandbox.Params{TTL: 2 * time.Second, Duration: 24 * time.Hour}},
		{"shards", sandbox.Params{TTL: time.Millisecond, Duration: 5 * time.Minute}},
	} {
		sc, err := sandbox.FindScenario(tc.name)
		require.NoError(t, err)
		tc.p.Seed = 1
		_, err = sc.Run(tc.p)
		assert.ErrorIs(t, err, core.ErrBudget, tc.name)
		assert.ErrorContains(t, err, "the limit is 250000", tc.name)
	}
	// The estimate follows the model: a 1 ms TTL on the herd recipe is
	// granted 2 s and renewed about every 667 ms, a cheap run.
	sc, err := sandbox.FindScenario("herd")
	require.NoError(t, err)
	r, err := sc.Run(sandbox.Params{Seed: 1, TTL: time.Millisecond, Duration: 5 * time.Minute})
	require.NoError(t, err)
	assert.Less(t, r.Sim.Renewals(5*time.Minute), 10000.0)
}

// Every built-in scenario and preset, as shipped, fits the budget.
func TestBuiltInRunsFitTheBudget(t *testing.T) {
	for _, sc := range sandbox.Scenarios() {
		s, _, err := sc.Build(sandbox.Params{Seed: 1})
		require.NoError(t, err)
		assert.NoError(t, s.CheckBudget(sc.Duration), sc.Name)
	}
	for _, p := range sandbox.Presets() {
		s, err := p.Config.Build()
		require.NoError(t, err)
		assert.NoError(t, s.CheckBudget(p.Config.Duration), p.Name)
	}
}

// A run the estimate lets through still cannot grow without end: the
// world stops itself at the trace budget, says where, and RunUntil returns.
func TestWorldStopsAtTheTraceBudget(t *testing.T) {
	core.SetTraceBudget(t, 2000)

	sc, err := sandbox.FindScenario("hands-on-lab")
	require.NoError(t, err)
	r, err := sc.Run(sandbox.Params{Seed: 1, TTL: 2 * time.Second, RenewEvery: 10 * time.Millisecond})
	require.NoError(t, err, "the estimate lets this one through")
	assert.Equal(t, 2000, r.Sim.Trace.Len())
	err = r.Sim.Exhausted()
	assert.ErrorIs(t, err, core.ErrBudget)
	assert.ErrorContains(t, err, "its trace reached 2000 events")
	last := r.Sim.Trace.Last().At
	assert.Less(t, last, r.End, "nothing happened after the stop")
	assert.Contains(t, err.Error(), "stopped at "+core.FormatTime(last))
	assert.Equal(t, r.End, r.Sim.Now(), "the clock still reaches the end, so no caller waits for ever")
	_, more := r.Sim.NextEventAt()
	assert.False(t, more)
	assert.False(t, r.Sim.Step())
}

// Whatever configuration the sandbox's Validate accepts builds, and fits
// the shared budget: the sandbox and every other entry point agree.
func FuzzSandboxConfig(f *testing.F) {
	f.Add(int64(10*time.Second), int64(3*time.Second), int64(10*time.Minute), 3, 0, 0)
	f.Add(int64(time.Millisecond), int64(0), int64(time.Hour), 12, 0, 0)
	f.Add(int64(15*time.Second), int64(5*time.Second), int64(time.Hour), 0, 256, 12)
	f.Add(int64(1<<62), int64(1<<62), int64(1<<62), 1<<30, 1<<30, -1)
	f.Fuzz(func(t *testing.T, ttl, renew, dur int64, procs, shards, workers int) {
		c := sandbox.Default()
		c.TTL, c.RenewEvery, c.Duration = time.Duration(ttl), time.Duration(renew), time.Duration(dur)
		c.Procs, c.Names, c.Shards, c.Workers = procs, nil, shards, workers
		if len(c.Validate()) > 0 {
			return
		}
		s, err := c.Build()
		require.NoError(t, err)
		assert.NoError(t, s.CheckBudget(c.Duration))
	})
}

// Found by FuzzSandboxConfig: a 1 ms TTL with the default renewal (TTL/3)
// rounded the period to zero for the sandbox's renewal count, which then
// skipped the budget: twelve processes renewing every 333 µs for an hour
// (130 million renewals) passed validation. Now etcd's recipe refuses the
// fraction of a second; a recipe that takes it is granted 2 s and renews
// cheaply; and a 1 ms renewal period is over the budget, with the numbers.
func TestSandboxWithAOneMillisecondTTLIsOverBudget(t *testing.T) {
	c := sandbox.Default()
	c.TTL, c.RenewEvery, c.Duration, c.Procs, c.Names = time.Millisecond, 0, time.Hour, 12, nil
	errs := c.Validate()
	require.NotEmpty(t, errs)
	assert.Contains(t, errs[0].Error(), "etcd grants leases in whole seconds")

	c.Recipe = core.RecipeHerd
	assert.Empty(t, c.Validate(), "granted 2 s, renewed every 667 ms: cheap")

	c.TTL, c.RenewEvery = 2*time.Second, time.Millisecond
	errs = c.Validate()
	require.NotEmpty(t, errs)
	assert.Contains(t, errs[len(errs)-1].Error(), "this run would renew leases about")
}
