package lab

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// The play head now moves by the real length of each frame, which no two
// machines share. The trace must not notice: an action is stamped at the
// play head's simulated time, so the same actions at the same simulated
// times give the same trace however the time between them was cut up.
func TestTheTraceDoesNotDependOnHowTimeIsCutIntoTicks(t *testing.T) {
	ms := time.Millisecond
	cuts := map[string][]time.Duration{
		"60 frames a second":        {time.Second / 60},
		"10 frames a second":        {100 * ms},
		"uneven software frames":    {230 * ms, 17 * ms, 250 * ms, 3 * ms, 141 * ms},
		"one big step between acts": {time.Hour},
	}
	acts := []struct {
		at time.Duration
		a  core.Action
	}{
		{2 * time.Second, core.Pause("A", 20*time.Second)},
		{30 * time.Second, core.Crash("B")},
	}
	end := 45 * time.Second
	hashes := map[string]string{}
	for name, steps := range cuts {
		lb := fenced(t)
		i := 0
		advanceTo := func(target time.Duration) {
			for lb.Now() < target {
				lb.Advance(min(steps[i%len(steps)], target-lb.Now()))
				i++
			}
		}
		for _, act := range acts {
			advanceTo(act.at)
			require.NoError(t, lb.Do(act.a), name)
		}
		advanceTo(end)
		require.Equal(t, end, lb.Now(), name)
		for j, entry := range lb.Log() {
			assert.Equal(t, acts[j].at, time.Duration(entry.At), "%s: action %d stamped at the play head's time", name, j)
		}
		hashes[name] = lb.Sim().Trace.Hash()
	}
	for name, h := range hashes {
		assert.Equal(t, hashes["60 frames a second"], h, name)
	}
	// And a run rebuilt from the log alone is the same run.
	lb := fenced(t)
	var log core.ActionLog
	for _, act := range acts {
		log = append(log, core.At(act.at, act.a))
	}
	require.NoError(t, lb.reset(log, end))
	assert.Equal(t, hashes["60 frames a second"], lb.Sim().Trace.Hash(), "the log alone")
}
