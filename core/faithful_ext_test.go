package core_test

import (
	"fmt"
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"
)

// Idempotency keys: with them, a new leader redoing the batch enqueues
// nothing twice; without them, duplicates run.
func TestJobQueueIdempotency(t *testing.T) {
	sc, err := sandbox.FindScenario("scheduler")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		idem              string
		executed, ignored bool
	}{
		{"on", false, true},
		{"off", true, false},
	} {
		t.Run(tc.idem, func(t *testing.T) {
			r, err := sc.Run(sandbox.Params{Seed: 1, Idempotency: tc.idem})
			if err != nil {
				t.Fatal(err)
			}
			q := r.Sim.Queue
			if (q.DuplicatesExecuted > 0) != tc.executed || (len(r.Report.Duplicates) > 0) != tc.executed {
				t.Errorf("duplicates executed %d (report %d), want >0: %t", q.DuplicatesExecuted, len(r.Report.Duplicates), tc.executed)
			}
			if (q.DuplicatesIgnored > 0) != tc.ignored {
				t.Errorf("duplicates ignored %d, want >0: %t", q.DuplicatesIgnored, tc.ignored)
			}
			if got := len(q.Jobs) - q.DuplicatesExecuted; got != 8 {
				t.Errorf("%d distinct invoices, want 8", got)
			}
		})
	}
	q := core.NewSim(1).AddJobQueue("q", true)
	for i, want := range []string{core.JobAccepted, core.JobDuplicateIgnored, core.JobAccepted} {
		if got := q.Enqueue([]string{"k1", "k1", "k2"}[i]); got != want {
			t.Errorf("Enqueue %d = %q, want %q", i, got, want)
		}
	}
}

// Seed Example 2: when one worker stops renewing, only its shards move,
// and its late offset commits are refused by the token check.
func TestShardFailoverMovesOnlyThePausedWorkersShards(t *testing.T) {
	sc, err := sandbox.FindScenario("shards")
	if err != nil {
		t.Fatal(err)
	}
	for _, fencing := range []string{"on", "off"} {
		t.Run("fencing="+fencing, func(t *testing.T) {
			s, _, err := sc.Build(sandbox.Params{Seed: 1, Fencing: fencing})
			if err != nil {
				t.Fatal(err)
			}
			s.RunUntil(59 * time.Second)
			before := shardOwners(s, 128)
			if len(before) != 128 {
				t.Fatalf("%d shards owned before the pause, want 128", len(before))
			}
			s.RunUntil(99 * time.Second) // worker-00 pauses 60s-100s
			after := shardOwners(s, 128)
			moved := 0
			for sh, was := range before {
				now := after[sh]
				switch {
				case was == "worker-00" && (now == "" || now == "worker-00"):
					t.Errorf("shard %d still with %q after worker-00's leases expired", sh, now)
				case was == "worker-00":
					moved++
				case now != was:
					t.Errorf("shard %d moved from %s to %q; only worker-00's shards should move", sh, was, now)
				}
			}
			if moved < 10 {
				t.Errorf("%d shards moved, want all of worker-00's (about 10)", moved)
			}
			s.RunUntil(sc.Duration)
			o := s.Offsets
			var stale int
			for _, e := range core.EventsBy(s.Trace, core.KindOffset, "offsets") {
				if e.From() == "worker-00" && e.Result() == core.RejectedStale {
					stale++
				}
			}
			rep := core.Check(s.Trace, s.Now())
			if !rep.OK() {
				t.Errorf("violations: %v", rep.Violations)
			}
			if fencing == "on" {
				if stale == 0 || o.StaleAccepted != 0 || len(rep.Stale) != 0 {
					t.Errorf("fencing on: %d stale commits of worker-00 rejected, %d accepted; want >0 and 0", stale, o.StaleAccepted)
				}
			} else if o.StaleAccepted+o.Regressions == 0 || len(rep.Stale) == 0 || o.Rejected != 0 {
				t.Errorf("fencing off: stale accepted %d, regressions %d, rejected %d; want stale commits accepted", o.StaleAccepted, o.Regressions, o.Rejected)
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
