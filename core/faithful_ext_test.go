package core_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// Idempotency keys: with them, a new leader redoing the batch enqueues
// nothing twice; without them, duplicates run.
func TestJobQueueIdempotency(t *testing.T) {
	sc, err := sandbox.FindScenario("scheduler")
	require.NoError(t, err)
	for _, tc := range []struct {
		idem              string
		executed, ignored bool
	}{
		{"on", false, true},
		{"off", true, false},
	} {
		t.Run(tc.idem, func(t *testing.T) {
			r, err := sc.Run(sandbox.Params{Seed: 1, Idempotency: tc.idem})
			require.NoError(t, err)
			q := r.Sim.Queue
			assert.Equal(t, tc.executed, q.DuplicatesExecuted > 0, "duplicates executed %d", q.DuplicatesExecuted)
			assert.Equal(t, tc.executed, len(r.Report.Duplicates) > 0, "duplicates in the report %d", len(r.Report.Duplicates))
			assert.Equal(t, tc.ignored, q.DuplicatesIgnored > 0, "duplicates ignored %d", q.DuplicatesIgnored)
			assert.Equal(t, 8, len(q.Jobs)-q.DuplicatesExecuted, "distinct invoices")
		})
	}
	q := core.NewSim(1).AddJobQueue("q", true)
	for i, want := range []string{core.JobAccepted, core.JobDuplicateIgnored, core.JobAccepted} {
		assert.Equal(t, want, q.Enqueue([]string{"k1", "k1", "k2"}[i]), "Enqueue %d", i)
	}
}

// Seed Example 2: when one worker stops renewing, only its shards move,
// and its late offset commits are refused by the token check.
func TestShardFailoverMovesOnlyThePausedWorkersShards(t *testing.T) {
	sc, err := sandbox.FindScenario("shards")
	require.NoError(t, err)
	for _, fencing := range []string{"on", "off"} {
		t.Run("fencing="+fencing, func(t *testing.T) {
			s, _, err := sc.Build(sandbox.Params{Seed: 1, Fencing: fencing})
			require.NoError(t, err)
			s.RunUntil(59 * time.Second)
			before := shardOwners(s, 128)
			require.Len(t, before, 128, "shards owned before the pause")
			s.RunUntil(99 * time.Second) // worker-00 pauses 60s-100s
			after := shardOwners(s, 128)
			moved := 0
			for sh, was := range before {
				now := after[sh]
				switch {
				case was == "worker-00" && (now == "" || now == "worker-00"):
					assert.Failf(t, "a shard stayed", "shard %d still with %q after worker-00's leases expired", sh, now)
				case was == "worker-00":
					moved++
				case now != was:
					assert.Failf(t, "a shard moved", "shard %d moved from %s to %q; only worker-00's shards should move", sh, was, now)
				}
			}
			assert.GreaterOrEqual(t, moved, 10, "shards moved: all of worker-00's (about 10)")
			s.RunUntil(sc.Duration)
			o := s.Offsets
			var stale int
			for _, e := range core.EventsBy(s.Trace, core.KindOffset, "offsets") {
				if e.From() == "worker-00" && e.Result() == core.RejectedStale {
					stale++
				}
			}
			rep := core.Check(s.Trace, s.Now())
			assert.True(t, rep.OK(), "violations: %v", rep.Violations)
			if fencing == "on" {
				assert.Positive(t, stale, "fencing on: worker-00's stale commits rejected")
				assert.Zero(t, o.StaleAccepted, "fencing on: stale commits accepted")
				assert.Empty(t, rep.Stale, "fencing on: stale writes in the report")
			} else {
				assert.Positive(t, o.StaleAccepted+o.Regressions, "fencing off: stale commits accepted or offsets regressed")
				assert.NotEmpty(t, rep.Stale, "fencing off: stale writes in the report")
				assert.Zero(t, o.Rejected, "fencing off: commits rejected")
			}
		})
	}
}

// shardOwners reads the coordinator's truth: shard index -> owner.
func shardOwners(s *core.Sim, n int) map[int]string {
	out := map[int]string{}
	for i := 0; i < n; i++ {
		if kv := s.Coord.Get(fmt.Sprintf("stream/shard-%03d", i)); kv != nil {
			out[i] = kv.Value
		}
	}
	return out
}
