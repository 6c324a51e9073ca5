package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"
)

// cloneCases are worlds with pauses, crashes, partitions, lock-delay and
// paused processes holding queued work at the moment of the clone.
func cloneCases() []struct {
	name  string
	p     sandbox.Params
	at    []time.Duration
	extra core.ActionLog
} {
	return []struct {
		name  string
		p     sandbox.Params
		at    []time.Duration
		extra core.ActionLog
	}{
		{name: "hands-on-lab", at: []time.Duration{0, 2500 * time.Millisecond, 12 * time.Second, 33 * time.Second}},
		{name: "fenced-register", p: sandbox.Params{Fencing: "off"}, at: []time.Duration{2200 * time.Millisecond, 20 * time.Second}},
		{name: "scheduler", p: sandbox.Params{Idempotency: "off"}, at: []time.Duration{4500 * time.Millisecond, 30 * time.Second}},
		{name: "shards", p: sandbox.Params{Duration: 90 * time.Second}, at: []time.Duration{61 * time.Second, 80 * time.Second}},
		{name: "election", at: []time.Duration{5 * time.Second, 14 * time.Second}, extra: core.ActionLog{
			core.At(8*time.Second, core.Partition("C", core.CoordinatorName)),
			core.At(9*time.Second, core.Pause("D", 12*time.Second)),
			core.At(20*time.Second, core.Heal("C", core.CoordinatorName)),
			core.At(26*time.Second, core.Restart("A")),
		}},
		{name: "herd", at: []time.Duration{6 * time.Second, 26 * time.Second}},
	}
}

func fullRunHash(t *testing.T, sc *sandbox.Scenario, p sandbox.Params, end time.Duration) string {
	t.Helper()
	s, _, err := sc.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(end)
	return s.Trace.Hash()
}

// A clone taken at any time and run on gives the trace the original gives
// when run on, and the trace a fresh run from the start gives.
func TestCloneRunsOnLikeTheOriginal(t *testing.T) {
	for _, c := range cloneCases() {
		t.Run(c.name, func(t *testing.T) {
			sc, err := sandbox.FindScenario(c.name)
			if err != nil {
				t.Fatal(err)
			}
			c.p.Seed, c.p.Actions = 3, c.extra
			end := sc.Duration
			if c.p.Duration > 0 {
				end = c.p.Duration
			}
			want := fullRunHash(t, sc, c.p, end)
			for _, at := range c.at {
				s, _, err := sc.Build(c.p)
				if err != nil {
					t.Fatal(err)
				}
				s.RunUntil(at)
				cl := s.Clone()
				s.RunUntil(end)
				cl.RunUntil(end)
				if got := cl.Trace.Hash(); got != want {
					t.Errorf("clone at %s: hash %s, want %s (fresh run)", at, got, want)
				}
				if got := s.Trace.Hash(); got != want {
					t.Errorf("original after cloning at %s: hash %s, want %s", at, got, want)
				}
			}
		})
	}
}

// Clone and original share no mutable state: driving the clone somewhere
// else (pauses, partitions, fencing off, direct changes) leaves the
// original's run exactly as it would have been, and the other way round.
func TestCloneSharesNoMutableState(t *testing.T) {
	for _, c := range cloneCases() {
		t.Run(c.name, func(t *testing.T) {
			sc, _ := sandbox.FindScenario(c.name)
			c.p.Seed, c.p.Actions = 5, c.extra
			end := sc.Duration
			if c.p.Duration > 0 {
				end = c.p.Duration
			}
			want := fullRunHash(t, sc, c.p, end)
			at := c.at[len(c.at)-1]
			s, _, _ := sc.Build(c.p)
			s.RunUntil(at)
			mid := s.Trace.Hash()
			cl := s.Clone()
			// Disturb the clone every way a learner can.
			var victim string
			if ps := cl.Processes(); len(ps) > 0 {
				victim = ps[0].Name()
			} else {
				victim = cl.Workers()[0].Name()
			}
			for _, a := range []core.Action{
				{Do: "fencing", On: false}, {Do: "idempotency", On: false},
				{Do: "partition", Proc: victim, Peer: core.CoordinatorName},
				{Do: "pause", Proc: victim, For: core.Duration(7 * time.Second)},
				{Do: "expire", Proc: victim}, {Do: "set-ttl", Proc: victim, TTL: core.Duration(3 * time.Second)},
			} {
				cl.Apply(a)
			}
			cl.Coord.Put("learner", "poke", "x", 0)
			cl.Net.SetDelay(victim, core.CoordinatorName, time.Second, 0)
			if cl.Register != nil {
				cl.Register.Value, cl.Register.Highest = "clobbered", 1<<40
			}
			if cl.Offsets != nil {
				cl.Offsets.Offset[0] = -1
			}
			if cl.Queue != nil {
				cl.Queue.Enqueue("invoice:customer-01:2026-11-29")
			}
			cl.Rand().Uint64()
			cl.RunUntil(end)
			if s.Trace.Hash() != mid {
				t.Fatalf("disturbing the clone changed the original's trace")
			}
			s.RunUntil(end)
			if got := s.Trace.Hash(); got != want {
				t.Errorf("original after its clone was disturbed: hash %s, want %s", got, want)
			}
			if cl.Trace.Hash() == want {
				t.Errorf("the disturbed clone ran like the original: the disturbance did nothing, the test proves nothing")
			}
			// And the other way: a second clone of the finished original
			// is unaffected by the first clone's changes.
			if s.Register != nil && s.Register.Value == "clobbered" {
				t.Errorf("the clone's register is the original's")
			}
		})
	}
}

// Cloning must not be a hidden re-run: a clone costs far less than the
// prefix it skips. (Guards against a Clone that rebuilds by replay.)
func BenchmarkClone(b *testing.B) {
	sc, _ := sandbox.FindScenario("fenced-register")
	s, _, _ := sc.Build(sandbox.Params{Seed: 1})
	s.RunUntil(20 * time.Second)
	b.ReportAllocs()
	for b.Loop() {
		s.Clone()
	}
}
