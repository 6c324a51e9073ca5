package lessons

import (
	"encoding/json"
	"flag"
	"fmt"
	"leaselab/core/sandbox"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser build must reproduce every run natively, not just one. make
// test-wasm first runs TestTraceHashesAreDeterministic natively with
// -write-hashes, then the same table is computed inside Chromium and
// compared (determinism_js_test.go): a model change anywhere changes both
// sides alike, so no hash is written down by hand.
var writeHashes = flag.String("write-hashes", "", "write every run's trace hash to `file` as JSON (for make test-wasm)")

// hashSeeds are the seeds each scenario and preset runs with.
var hashSeeds = []uint64{1, 2, 3}

// traceHashes returns the trace hash of every run the lab ships: each
// scenario and each preset with each of hashSeeds, and each lesson's
// solution, by name.
func traceHashes(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, seed := range hashSeeds {
		for _, sc := range sandbox.Scenarios() {
			r, err := sc.Run(sandbox.Params{Seed: seed})
			require.NoError(t, err, sc.Name)
			out[fmt.Sprintf("scenario %s seed %d", sc.Name, seed)] = r.Sim.Trace.Hash()
		}
		for _, p := range sandbox.Presets() {
			c := p.Config
			c.Seed = seed
			s, _, err := c.Run()
			require.NoError(t, err, p.Name)
			out[fmt.Sprintf("preset %s seed %d", p.Name, seed)] = s.Trace.Hash()
		}
	}
	for _, l := range All() {
		w, err := l.EvaluateWith(1, l.SolutionKnobs, l.Solution)
		require.NoError(t, err, l.ID)
		out["lesson "+l.ID+" solution"] = w.Sim.Trace.Hash()
	}
	return out
}

func TestTraceHashesAreDeterministic(t *testing.T) {
	first := traceHashes(t)
	assert.Equal(t, first, traceHashes(t), "the same runs twice give the same traces")
	assert.Len(t, first, len(hashSeeds)*(len(sandbox.Scenarios())+len(sandbox.Presets()))+len(All()))
	if *writeHashes != "" {
		b, err := json.MarshalIndent(first, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(*writeHashes, b, 0o644))
	}
}
