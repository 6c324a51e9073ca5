package explore

import (
	"reflect"
	"testing"
	"time"

	"leaselab/core"
)

// searchWith runs an exhaustive search of p on n goroutines (1:
// sequential, the stepwise path).
func searchWith(t *testing.T, p Problem, n int) Result {
	t.Helper()
	x, err := New(p, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	x.workers = n
	r, err := x.Run()
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	return r
}

// The parallel search returns what the sequential one does — the same
// simplest counterexample, violating event and coverage count — however
// its workers happen to interleave.
func TestExploreParallelEqualsSequential(t *testing.T) {
	crashes := Bounds{Procs: []string{"A", "B"}, Kinds: []string{FaultPause, FaultCrash}, From: 0, To: 20 * time.Second, Step: 1300 * time.Millisecond,
		MinLen: 700 * time.Millisecond, MaxLen: 25 * time.Second, LenStep: 1700 * time.Millisecond, MaxFaults: 1, Horizon: 50 * time.Second}
	two := Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause}, From: 2 * time.Second, To: 12 * time.Second, Step: 2500 * time.Millisecond,
		MinLen: 3 * time.Second, MaxLen: 15 * time.Second, LenStep: 4 * time.Second, MaxFaults: 2, Horizon: 45 * time.Second, Settle: 4 * time.Second}
	late := *coarse("fenced-writes", 500*time.Millisecond)
	late.From = 4 * time.Second // the first starts hold no break
	for _, c := range []struct {
		name, target string
		off          bool
		b            *Bounds
		found        bool
	}{
		{"fenced-on", "fenced-writes", false, coarse("fenced-writes", 500*time.Millisecond), false},
		{"fenced-off", "fenced-writes", true, coarse("fenced-writes", 500*time.Millisecond), true},
		{"fenced-off-late", "fenced-writes", true, &late, true},
		{"crashes", "fenced-writes", true, &crashes, true},
		{"crashes-on", "fenced-writes", false, &crashes, false},
		{"two-faults", "fenced-writes", true, &two, true},
		{"two-faults-on", "fenced-writes", false, &two, false},
		{"shards", "shards", true, nil, true},
		{"scheduler", "scheduler", true, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Every schedule simulated (TestExploreSettledRunsKeepTheResult
			// covers the early stop).
			p := withoutSettled(problem(t, c.target, c.off, c.b))
			seq := searchWith(t, p, 1)
			if seq.Found != c.found || !seq.Complete || seq.Tried == 0 {
				t.Fatalf("sequential: %s", seq.Summary())
			}
			if c.found && seq.Tried < 2 {
				t.Fatalf("found at the first schedule: the case proves nothing about order")
			}
			for _, n := range []int{2, 3, 7} {
				par := searchWith(t, p, n)
				if !reflect.DeepEqual(par, seq) {
					t.Errorf("%d workers: %s\n%+v\nsequential: %s\n%+v", n, par.Summary(), par, seq.Summary(), seq)
				}
			}
		})
	}
}

// The comparison above can fail: a search stopped one schedule early, or
// with another counterexample, differs from the sequential result.
func TestExploreParallelComparisonCanFail(t *testing.T) {
	p := problem(t, "fenced-writes", true, coarse("fenced-writes", 500*time.Millisecond))
	seq := searchWith(t, p, 1)
	short := seq
	short.Tried--
	other := seq
	other.Faults = []Fault{{Kind: FaultPause, Proc: "A", At: seq.Faults[0].At + time.Second, For: seq.Faults[0].For}}
	for _, r := range []Result{short, other} {
		if reflect.DeepEqual(r, seq) {
			t.Errorf("%+v compares equal to %+v", r, seq)
		}
	}
}

// Stepping an explorer keeps it sequential: Run after Step finishes the
// same search on the same goroutine.
func TestExploreRunAfterStepStaysSequential(t *testing.T) {
	p := problem(t, "fenced-writes", false, coarse("fenced-writes", 500*time.Millisecond))
	x, err := New(p, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	x.workers = 4
	x.Step(10)
	r, err := x.Run()
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	if want := searchWith(t, p, 1); !reflect.DeepEqual(r, want) {
		t.Errorf("stepped then run: %s, want %s", r.Summary(), want.Summary())
	}
}

// withoutSettled is p with the search's early stop turned off: every
// schedule is simulated to its end.
func withoutSettled(p Problem) Problem {
	p.Invariant.Settled = nil
	return p
}

// Stopping runs whose outcome is certain changes no verdict: with fencing
// on from the start, with it switched off midway (so runs are not settled
// until a fault start past the switch), and switched on midway, the result
// and coverage equal a search that simulates every schedule.
func TestExploreSettledRunsKeepTheResult(t *testing.T) {
	tg, err := FindTarget("fenced-writes")
	if err != nil {
		t.Fatal(err)
	}
	b := *coarse("fenced-writes", 500*time.Millisecond)
	late := b
	late.From = 26 * time.Second // every fault after the switch on
	switched := func(log core.ActionLog, b Bounds) Problem {
		return Problem{
			Build: func() (*core.Sim, error) {
				s, err := tg.Build(1)
				if err != nil {
					return nil, err
				}
				s.Schedule(log)
				return s, nil
			},
			Base: log, Invariant: tg.Invariant, Bounds: b,
		}
	}
	for _, c := range []struct {
		name  string
		p     Problem
		found bool
	}{
		{"on", tg.Problem(1, false, b), false},
		{"scheduler-on", problem(t, "scheduler", false, nil), false},
		{"off-at-12s", switched(core.ActionLog{core.At(0, core.Fencing(true)), core.At(12*time.Second, core.Fencing(false))}, b), true},
		{"on-at-25s", switched(core.ActionLog{core.At(0, core.Fencing(false)), core.At(25*time.Second, core.Fencing(true))}, b), true},
		{"on-at-25s-late-faults", switched(core.ActionLog{core.At(0, core.Fencing(false)), core.At(25*time.Second, core.Fencing(true))}, late), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			full := searchWith(t, withoutSettled(c.p), 1)
			if full.Found != c.found || !full.Complete {
				t.Fatalf("simulating every schedule: %s", full.Summary())
			}
			for _, n := range []int{1, 2} {
				got := searchWith(t, c.p, n)
				if got.Settled > got.Tried {
					t.Errorf("%d workers: %d settled of %d tried", n, got.Settled, got.Tried)
				}
				got.Settled = 0 // the only field the early stop may change
				if !reflect.DeepEqual(got, full) {
					t.Errorf("%d workers, settled runs stopped: %s\nwant %s", n, got.Summary(), full.Summary())
				}
			}
		})
	}
}

// FencedForGood and IdempotentForGood are the certainties the early stop
// rests on: the protection on and no queued action that could switch it.
func TestSettledWorlds(t *testing.T) {
	s := core.NewSim(1)
	if !FencedForGood(s) {
		t.Error("a world without a register cannot accept a stale write")
	}
	r := s.AddRegister("db", false)
	if FencedForGood(s) {
		t.Error("fencing off: settled")
	}
	r.Fencing = true
	if !FencedForGood(s) {
		t.Error("fencing on, nothing queued: not settled")
	}
	s.ScheduleAction(5*time.Second, core.Pause("A", time.Second))
	if !FencedForGood(s) {
		t.Error("a queued pause cannot switch fencing off")
	}
	s.ScheduleAction(9*time.Second, core.Fencing(false))
	if FencedForGood(s) {
		t.Error("a queued fencing switch: settled")
	}
	s.RunUntil(9 * time.Second)
	if FencedForGood(s) || r.Fencing {
		t.Error("fencing switched off: settled")
	}

	q := s.AddJobQueue("jobs", true)
	if !IdempotentForGood(s) {
		t.Error("idempotency on, nothing queued: not settled")
	}
	s.ScheduleAction(12*time.Second, core.Idempotency(false))
	if IdempotentForGood(s) {
		t.Error("a queued idempotency switch: settled")
	}
	q.Idempotency = false
	s.RunUntil(12 * time.Second)
	if IdempotentForGood(s) {
		t.Error("idempotency off: settled")
	}
}
