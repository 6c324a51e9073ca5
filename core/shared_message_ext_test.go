package core_test

import (
	"leaselab/core/sandbox"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shards scenario (BenchmarkEvents) allocates a few thousand times
// per run, not once or twice per message: 7,778 before its repeated
// messages were shared and their payloads cut from slabs.
func TestShardsRunAllocatesLittle(t *testing.T) {
	sc, err := sandbox.FindScenario("shards")
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(3, func() {
		s, _, err := sc.Build(sandbox.Params{Seed: 1})
		require.NoError(t, err)
		s.RunUntil(sc.Duration)
	})
	assert.LessOrEqual(t, allocs, 1700.0)
}
