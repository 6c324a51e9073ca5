package core

// Determinism: one seed and one action log give one trace, byte for byte.
// These tests need no files and no network, so the same test binary built
// with GOOS=js GOARCH=wasm (run by wasmbrowsertest) checks that the browser
// build reproduces the native traces exactly.

import (
	"math/bits"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// GoldenHandsOnLabHash is the trace hash of the hands-on-lab scenario with
// seed 1 and default parameters. Native and wasm builds must both produce
// it; it changes only when the simulator's behaviour (or its trace format)
// changes on purpose, and then every shared permalink changes meaning too.
const GoldenHandsOnLabHash = "7dd5eb5f14193739a4da19f4b81d5300c23c7dd1b79d87e0e3509573ecb23364"

// HandsOnLabHash runs the hands-on-lab scenario with seed and returns its
// trace hash. It is exported (in a test file) so every determinism test,
// native or wasm, computes the golden value the same way.
func HandsOnLabHash(tb testing.TB, seed uint64) string {
	tb.Helper()
	sc, err := FindScenario("hands-on-lab")
	if err != nil {
		tb.Fatal(err)
	}
	r, err := sc.Run(Params{Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	return r.Sim.Trace.Hash()
}

func TestHandsOnLabTraceMatchesGoldenHash(t *testing.T) {
	if got := HandsOnLabHash(t, 1); got != GoldenHandsOnLabHash {
		t.Errorf("hands-on-lab seed 1 hash = %s, want %s: the simulator's behaviour changed, or this platform computes differently", got, GoldenHandsOnLabHash)
	}
}

func TestTraceHashIsStable(t *testing.T) {
	for _, sc := range Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			var hashes [2]string
			for i := range hashes {
				r, err := sc.Run(Params{Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				if r.Sim.Trace.Len() == 0 {
					t.Fatal("empty trace")
				}
				hashes[i] = r.Sim.Trace.Hash()
			}
			if hashes[0] != hashes[1] {
				t.Errorf("two runs with seed 1: %s then %s", hashes[0], hashes[1])
			}
		})
	}
}

// Different seeds must change what happens (jitter, lease IDs, scan
// times), or the seed would not be worth recording.
func TestDifferentSeedsGiveDifferentTraces(t *testing.T) {
	for _, name := range []string{"shards", "hands-on-lab", "election"} {
		t.Run(name, func(t *testing.T) {
			sc, err := FindScenario(name)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]uint64{}
			for seed := uint64(1); seed <= 3; seed++ {
				r, err := sc.Run(Params{Seed: seed, Duration: time.Minute})
				if err != nil {
					t.Fatal(err)
				}
				h := r.Sim.Trace.Hash()
				if prev, dup := seen[h]; dup {
					t.Errorf("seeds %d and %d gave the same trace", prev, seed)
				}
				seen[h] = seed
			}
		})
	}
}

// Hash reads every event field: changing one value changes the hash, and
// the text form it hashes is the one WriteText exports.
func TestTraceHashCoversEveryField(t *testing.T) {
	sc, err := FindScenario("hands-on-lab")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sc.Run(Params{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr := r.Sim.Trace
	base := tr.Hash()
	// Every value an event carries, text or number, is in the hash.
	for _, i := range []int{len(tr.Events) / 2, len(tr.Events) / 3} {
		e := &tr.Events[i]
		require.NotZero(t, e.mask, "event %d carries no field: %s", i, e.Text())
		v := &e.c.vals[e.off]
		old := *v
		if f := kinds[e.Kind].fields[bits.TrailingZeros16(e.mask)]; f.IsText() {
			e.c.strs = append(e.c.strs, e.Str(f)+"x")
			*v = int32(len(e.c.strs) - 1)
		} else {
			*v = e.c.number(e.Num(f) + 1)
		}
		assert.NotEqual(t, base, tr.Hash(), "changing the first field of %s left the hash unchanged", e.Text())
		*v = old
		assert.Equal(t, base, tr.Hash(), "restoring the field did not restore the hash")
	}
}

// Replaying a recorded log on a freshly built world reproduces the run:
// the learner's log is the whole input.
func TestReplayingTheActionLogReproducesTheRun(t *testing.T) {
	sc, err := FindScenario("hands-on-lab")
	if err != nil {
		t.Fatal(err)
	}
	extra := ActionLog{
		At(5*time.Second, Action{Do: "partition", Proc: "B", Peer: CoordinatorName, OneWay: true}),
		At(20*time.Second, Heal("B", CoordinatorName)),
	}
	first, err := sc.Run(Params{Seed: 9, Actions: extra})
	if err != nil {
		t.Fatal(err)
	}
	// Rebuild the bare world and apply the full recorded log by hand.
	s, _, err := sc.Build(Params{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	s.Schedule(extra)
	s.RunUntil(first.End)
	if got, want := s.Trace.Hash(), first.Sim.Trace.Hash(); got != want {
		t.Errorf("replay hash %s, want %s", got, want)
	}
	if len(first.Sim.Trace.Filter(KindPartition)) != 1 {
		t.Error("the extra actions were not applied")
	}
}
