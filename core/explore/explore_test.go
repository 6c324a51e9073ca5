package explore

import (
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"leaselab/core"
)

func problem(t testing.TB, name string, off bool, b *Bounds) Problem {
	t.Helper()
	tg, err := FindTarget(name)
	if err != nil {
		t.Fatal(err)
	}
	bounds := tg.Bounds
	if b != nil {
		bounds = *b
	}
	return tg.Problem(1, off, bounds)
}

func explore(t testing.TB, p Problem) Result {
	t.Helper()
	x, err := New(p, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	r, err := x.Run()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// coarse narrows a target's default grid so a full proof fits in a test.
func coarse(name string, step time.Duration) *Bounds {
	tg, _ := FindTarget(name)
	b := tg.Bounds
	b.Step, b.LenStep = step, step
	b.MinLen = step
	return &b
}

// delays makes b (nil: the shards target's) search message delays instead
// of pauses.
func delays(b *Bounds) *Bounds {
	if b == nil {
		tg, _ := FindTarget("shards")
		c := tg.Bounds
		b = &c
	}
	c := *b
	c.Kinds = []string{FaultDelay}
	return &c
}

// For each target: with its protection off the search finds a schedule
// whose replay shows the violation; with it on, the same bounds hold none.
func TestExploreFindsTheBreakOnlyWithoutProtection(t *testing.T) {
	for _, c := range []struct {
		target string
		bounds *Bounds
		kind   core.Kind // the violating event's kind and result
		result string
	}{
		{"fenced-writes", coarse("fenced-writes", 500*time.Millisecond), core.KindStale, ""},
		// A never paused: its writes were held in the network (the
		// delayed-packet case) and landed after B's.
		{"fenced-writes", delays(coarse("fenced-writes", 500*time.Millisecond)), core.KindStale, ""},
		{"shards", nil, core.KindStale, ""},
		{"shards", delays(nil), core.KindStale, ""},
		{"scheduler", nil, core.KindEnqueue, core.JobDuplicateExecuted},
	} {
		t.Run(c.target, func(t *testing.T) {
			off := problem(t, c.target, true, c.bounds)
			r := explore(t, off)
			if !r.Found || len(r.Faults) != 1 || !r.Complete {
				t.Fatalf("protection off: %s", r.Summary())
			}
			faults := r.Faults
			s, bad, err := off.Replay(r.Faults)
			if err != nil {
				t.Fatal(err)
			}
			if bad == nil || bad.Kind != c.kind || (c.result != "" && bad.Result() != c.result) {
				t.Fatalf("replay of %v: violating event %v, want %s", r.Faults, bad, c.kind)
			}
			if bad.At != r.Violation.At || bad.Actor != r.Violation.Actor {
				t.Errorf("replay broke at %s by %s, search said %s by %s", bad.At, bad.Actor, r.Violation.At, r.Violation.Actor)
			}
			// The log (switch + fault) replays the same run in a world
			// built the plain way, as the lesson player builds it.
			if len(r.Log) != 2 || r.Log[0].Do != off.Base[0].Do || string(r.Log[1].Do) != r.Faults[0].Kind {
				t.Errorf("log %v, want the switch then the fault", r.Log)
			}
			if rep := core.Check(s.Trace, s.Now()); len(rep.Stale)+len(rep.Duplicates) == 0 {
				t.Errorf("Check of the replay finds no stale write or duplicate: %+v", rep)
			}
			if r.Faults[0].Kind == FaultDelay && len(s.Trace.Filter(core.KindPause)) > 0 {
				t.Errorf("a delay schedule paused someone")
			}

			on := problem(t, c.target, false, c.bounds)
			r = explore(t, on)
			if r.Found || !r.Complete || float64(r.Tried) != r.Total {
				t.Fatalf("protection on: %s (tried %d of %.0f)", r.Summary(), r.Tried, r.Total)
			}
			if !strings.HasPrefix(r.Summary(), "no violation within bounds") {
				t.Errorf("summary %q", r.Summary())
			}
			// The counterexample beside its fix: the protection refuses.
			fixed, still, _ := on.Replay(faults)
			if still != nil || Refusals(fixed.Trace) == "nothing needed refusing" {
				t.Errorf("with protection, %v: violation %v, refusals %q", faults, still, Refusals(fixed.Trace))
			}
		})
	}
}

// Two workers believing they own one shard is found with fencing on:
// fencing cannot stop a stalled owner believing. The replay shows the
// overlap (Check agrees), the stale owner's offsets never land, and pauses
// within the lease policy (renew 5 s + pause <= TTL 15 s) prove clean.
func TestExploreShardOwnersOverlapDespiteFencing(t *testing.T) {
	p := problem(t, "shard-owners", false, nil)
	r := explore(t, p)
	if !r.Found || len(r.Faults) != 1 || r.Faults[0].Kind != FaultPause {
		t.Fatalf("fencing on: %s", r.Summary())
	}
	f := r.Faults[0]
	s, bad, err := p.Replay(r.Faults)
	if err != nil {
		t.Fatal(err)
	}
	if bad == nil || bad.Kind != core.KindShardOwn || bad.Actor == f.Proc || bad.At != r.Violation.At {
		t.Fatalf("replay of %v broke at %v, search at %v", r.Faults, bad, r.Violation)
	}
	what := "shard " + bad.Format(core.FShard)
	found := false
	for _, iv := range core.Check(s.Trace, s.Now()).Overlaps {
		if iv.What == what && iv.From == bad.At && slices.Contains(iv.Who, f.Proc) && slices.Contains(iv.Who, bad.Actor) {
			found = true
		}
	}
	if !found {
		t.Errorf("Check reports no overlap of %s by %s and %s at %s: %+v", what, f.Proc, bad.Actor, bad.At, core.Check(s.Trace, s.Now()).Overlaps)
	}
	if NoStaleOffset.First(s.Trace) != nil {
		t.Errorf("with fencing on a stale offset landed: %v", NoStaleOffset.First(s.Trace))
	}
	// A pause shorter than the lease's slack never hands a shard over.
	if f.For <= 10*time.Second {
		t.Errorf("a %s pause broke it: within renew + pause <= TTL", f.For)
	}
	b := p.Bounds
	b.MaxLen = 10 * time.Second
	p.Bounds = b
	if r := explore(t, p); r.Found || !r.Complete || float64(r.Tried) != b.Count() {
		t.Errorf("pauses up to 10 s: %s", r.Summary())
	}
}

// The simplest counterexample: fewest faults, then the earliest start,
// then the shortest pause. No earlier start or shorter pause breaks it.
func TestExploreReturnsTheSimplestSchedule(t *testing.T) {
	b := coarse("fenced-writes", time.Second)
	p := problem(t, "fenced-writes", true, b)
	r := explore(t, p)
	if !r.Found {
		t.Fatal(r.Summary())
	}
	f := r.Faults[0]
	for s := b.From; s <= f.At; s += b.Step {
		for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
			if s == f.At && l >= f.For {
				break
			}
			if _, bad, _ := p.Replay([]Fault{{Kind: FaultPause, Proc: "A", At: s, For: l}}); bad != nil {
				t.Fatalf("pause at %s for %s also breaks it, before the returned %v", s, l, f)
			}
		}
	}
}

// Prefix sharing must not change a verdict: for every schedule of a grid
// (pauses and crashes, with and without a settle window), the search's
// verdict equals a fresh replay of that schedule from time zero.
func TestExploreVerdictsEqualFreshReplays(t *testing.T) {
	for _, c := range []struct {
		target string
		b      Bounds
	}{
		{"fenced-writes", Bounds{Procs: []string{"A", "B"}, Kinds: []string{FaultPause, FaultCrash}, From: 0, To: 20 * time.Second, Step: 1300 * time.Millisecond,
			MinLen: 700 * time.Millisecond, MaxLen: 25 * time.Second, LenStep: 1700 * time.Millisecond, MaxFaults: 1, Horizon: 50 * time.Second}},
		{"fenced-writes", Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause}, From: 2 * time.Second, To: 12 * time.Second, Step: 2500 * time.Millisecond,
			MinLen: 3 * time.Second, MaxLen: 15 * time.Second, LenStep: 4 * time.Second, MaxFaults: 2, Horizon: 45 * time.Second, Settle: 4 * time.Second}},
		// Pauses that outlast the horizon.
		{"fenced-writes", Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause}, From: 0, To: 20 * time.Second, Step: 1900 * time.Millisecond,
			MinLen: 5 * time.Second, MaxLen: 40 * time.Second, LenStep: 3100 * time.Millisecond, MaxFaults: 1, Horizon: 30 * time.Second}},
		{"scheduler", Bounds{Procs: []string{"api-1", "api-2"}, Kinds: []string{FaultCrash, FaultPause}, From: 0, To: 8 * time.Second, Step: 900 * time.Millisecond,
			MinLen: time.Second, MaxLen: 14 * time.Second, LenStep: 3 * time.Second, MaxFaults: 1, Horizon: 30 * time.Second}},
		// Delays (each length its own clone) beside pauses, two faults.
		{"fenced-writes", Bounds{Procs: []string{"A", "B"}, Kinds: []string{FaultDelay, FaultPause}, From: 0, To: 14 * time.Second, Step: 2700 * time.Millisecond,
			MinLen: 2 * time.Second, MaxLen: 20 * time.Second, LenStep: 4500 * time.Millisecond, MaxFaults: 2, Horizon: 40 * time.Second}},
		// Belief read off the world mid-search (MatchIn) against belief
		// read off the whole trace (Scan).
		{"shard-owners", Bounds{Procs: []string{"worker-00", "worker-01"}, Kinds: []string{FaultPause, FaultCrash}, From: 2 * time.Second, To: 20 * time.Second, Step: 2300 * time.Millisecond,
			MinLen: 2 * time.Second, MaxLen: 26 * time.Second, LenStep: 2900 * time.Millisecond, MaxFaults: 1, Horizon: 50 * time.Second}},
	} {
		t.Run(c.target, func(t *testing.T) {
			p := problem(t, c.target, true, &c.b)
			x, err := New(p, time.Now)
			if err != nil {
				t.Fatal(err)
			}
			runs, bad := 0, 0
			x.verdict = func(fs []Fault, got *core.Event) {
				runs++
				_, want, err := p.Replay(fs)
				if err != nil {
					t.Fatal(err)
				}
				if (got == nil) != (want == nil) {
					t.Errorf("%v: search says violated=%v, replay says %v", fs, got != nil, want != nil)
					return
				}
				if got != nil {
					bad++
					if got.At != want.At || got.Kind != want.Kind || got.Actor != want.Actor {
						t.Errorf("%v: search broke at %s (%s), replay at %s (%s)", fs, got.At, got.Text(), want.At, want.Text())
					}
				}
			}
			if _, err := x.Run(); err != nil {
				t.Fatal(err)
			}
			if float64(runs) != c.b.Count() {
				t.Errorf("%d verdicts, want %.0f", runs, c.b.Count())
			}
			if bad == 0 || bad == runs {
				t.Errorf("%d of %d schedules violate: the sample must hold both verdicts to prove anything", bad, runs)
			}
		})
	}
}

func TestExploreRandomSearch(t *testing.T) {
	p := problem(t, "fenced-writes", true, nil)
	var first Result
	for i := range 2 {
		x, err := NewRandom(p, 300, 42, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		r, err := x.Run()
		if err != nil {
			t.Fatal(err)
		}
		if !r.Found || r.Tried != 300 || !r.Random || r.PerSecond() <= 0 {
			t.Fatalf("random search: %s", r.Summary())
		}
		if _, bad, _ := p.Replay(r.Faults); bad == nil {
			t.Fatalf("random counterexample %v does not replay", r.Faults)
		}
		if i == 0 {
			first = r
		} else if first.Faults[0] != r.Faults[0] {
			t.Errorf("same seed, different answers: %v then %v", first.Faults, r.Faults)
		}
	}
	on := problem(t, "fenced-writes", false, nil)
	x, _ := NewRandom(on, 200, 42, time.Now)
	if r, _ := x.Run(); r.Found || !strings.Contains(r.Summary(), "a sample proves nothing") {
		t.Errorf("fencing on, random: %s", r.Summary())
	}
}

func TestExploreCancel(t *testing.T) {
	x, err := New(problem(t, "fenced-writes", false, nil), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if x.Step(50) {
		t.Fatal("a 90000-schedule search ended after 50")
	}
	x.Cancel()
	r := x.Result()
	if r.Complete || r.Found || r.Tried != 50 || !strings.HasPrefix(r.Summary(), "search cancelled") {
		t.Errorf("after cancel: tried %d, %s", r.Tried, r.Summary())
	}
	if !x.Step(10) {
		t.Error("a cancelled search went on")
	}
}

func TestBoundsValidate(t *testing.T) {
	tg, _ := FindTarget("fenced-writes")
	for _, c := range []struct {
		name string
		edit func(*Bounds)
		want string
	}{
		{"no procs", func(b *Bounds) { b.Procs = nil }, "no process"},
		{"bad kind", func(b *Bounds) { b.Kinds = []string{"explode"} }, "unknown fault kind"},
		{"empty grid", func(b *Bounds) { b.To = b.From }, "start grid"},
		{"zero step", func(b *Bounds) { b.Step = 0 }, "start grid"},
		{"no lengths", func(b *Bounds) { b.MaxLen = b.MinLen - 1 }, "pause lengths"},
		{"too many faults", func(b *Bounds) { b.MaxFaults = 9 }, "faults"},
		{"short horizon", func(b *Bounds) { b.Horizon = time.Second }, "horizon"},
		{"huge space", func(b *Bounds) { b.MaxFaults, b.Step, b.LenStep = 3, time.Millisecond, time.Millisecond }, "narrow the grid"},
	} {
		b := tg.Bounds
		c.edit(&b)
		err := b.Validate()
		if !errors.Is(err, ErrBounds) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if _, err := New(Problem{Bounds: b}, time.Now); err == nil {
			t.Errorf("%s: New accepted it", c.name)
		}
	}
	if err := tg.Bounds.Validate(); err != nil || tg.Bounds.Count() != 90000 {
		t.Errorf("default bounds: %v, %.0f schedules", err, tg.Bounds.Count())
	}
}

// BenchmarkExploreFenced90k is the measure: the exhaustive search
// of the fenced-writes world with fencing on (no violation, so all 300 x
// 300 schedules are clean). Its invariant knows that a world fenced for
// good cannot break it, so the search stops those runs at once; the
// "simulated" variants switch that off and run every schedule to its end
// (the horizon, or 10 s after its pause), which measures prefix sharing
// and the simulator itself: those are the ones to watch.
func BenchmarkExploreFenced90k(b *testing.B) {
	for _, c := range []struct {
		name     string
		settle   time.Duration
		simulate bool
	}{
		{"horizon-60s", 0, false},
		{"settle-10s", 10 * time.Second, false},
		{"horizon-60s-simulated", 0, true},
		{"settle-10s-simulated", 10 * time.Second, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			tg, _ := FindTarget("fenced-writes")
			bounds := tg.Bounds
			bounds.Settle = c.settle
			p := tg.Problem(1, false, bounds)
			if c.simulate {
				p.Invariant.Settled = nil
			}
			var r Result
			for b.Loop() {
				r = explore(b, p)
			}
			if r.Found || r.Tried != 90000 {
				b.Fatalf("tried %d, found %v: want all 90000 clean", r.Tried, r.Found)
			}
			b.ReportMetric(float64(r.Tried)*float64(b.N)/b.Elapsed().Seconds(), "schedules/s")
		})
	}
}

func TestParseBounds(t *testing.T) {
	tg, _ := FindTarget("fenced-writes")
	b, err := ParseBounds("procs=A+B,kinds=pause+crash,start=1s..5s/500ms,len=1s..20s/1s,faults=2,horizon=40s,settle=5s", tg.Bounds)
	require.NoError(t, err)
	assert.Len(t, b.Procs, 2)
	assert.Len(t, b.Kinds, 2)
	assert.Equal(t, []time.Duration{time.Second, 5 * time.Second, 500 * time.Millisecond}, []time.Duration{b.From, b.To, b.Step})
	assert.Equal(t, []time.Duration{time.Second, 20 * time.Second, time.Second}, []time.Duration{b.MinLen, b.MaxLen, b.LenStep})
	assert.Equal(t, 2, b.MaxFaults)
	assert.Equal(t, []time.Duration{40 * time.Second, 5 * time.Second}, []time.Duration{b.Horizon, b.Settle})
	assert.Equal(t, []string{"A"}, tg.Bounds.Procs, "parsing leaves the target's defaults alone")
	for _, bad := range []string{"start=1s", "start=1s..2s", "len=x..1s/1s", "faults=many", "colour=red", "procs", "horizon=1s", "start=5s..1s/1s", "settle=-1s",
		// Three dots once read as 0 s to 0.1 s without a word.
		"start=0s...1s/100ms", "len=1s...2s/1s"} {
		_, err := ParseBounds(bad, tg.Bounds)
		assert.ErrorIs(t, err, ErrBounds, bad)
	}
	_, err = ParseBounds("start=0s...1s/100ms", tg.Bounds)
	assert.ErrorContains(t, err, `"0s...1s" has three dots: want two between from and to`)
}

// TestSettledSchedulesAreReported: a search that counts schedules clean
// without simulating them says how many, so its coverage report is honest,
// and a search without the early stop simulates every one.
func TestSettledSchedulesAreReported(t *testing.T) {
	tg, _ := FindTarget("fenced-writes")
	bounds := tg.Bounds
	bounds.To, bounds.MaxLen = 5*time.Second, 5*time.Second
	p := tg.Problem(1, false, bounds)
	r := explore(t, p)
	if r.Found || r.Settled == 0 || r.Settled > r.Tried || !strings.Contains(r.Summary(), "settled without simulating") {
		t.Fatalf("fencing on: settled %d of %d; %s", r.Settled, r.Tried, r.Summary())
	}
	p.Invariant.Settled = nil
	r2 := explore(t, p)
	if r2.Settled != 0 || r2.Tried != r.Tried || strings.Contains(r2.Summary(), "settled") {
		t.Fatalf("without the early stop: settled %d of %d; %s", r2.Settled, r2.Tried, r2.Summary())
	}
}
