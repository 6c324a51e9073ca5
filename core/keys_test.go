package core

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Keys created and deleted in any order read back sorted, through Keys,
// Range and the live workers a scan reports, and a delete leaves every
// other key findable: the list of keys is put in order when read, not
// shifted at each change.
func TestKeysReadSortedWhateverOrderTheyCameAndWent(t *testing.T) {
	s := NewSim(1)
	c := s.Coord
	for _, k := range []string{"workers/w2", "stream/shard-007", "workers/w1", "a", "stream/shard-001", "workers/w3", "z"} {
		require.NoError(t, c.Put("t", k, k[max(len(k)-2, 0):], 0))
	}
	require.NoError(t, c.Delete("t", "a"))
	require.NoError(t, c.Delete("t", "workers/w2"))
	require.NoError(t, c.Put("t", "m", "m", 0))

	var got []string
	for _, kv := range c.Keys() {
		got = append(got, kv.Key)
	}
	assert.Equal(t, []string{"m", "stream/shard-001", "stream/shard-007", "workers/w1", "workers/w3", "z"}, got)
	for _, k := range got {
		assert.Equal(t, k, c.Get(k).Key)
	}
	require.NoError(t, c.Put("t", "workers/w0", "w0", 0))
	require.NoError(t, c.Delete("t", "m"))
	assert.Equal(t, []string{"w0", "w1", "w3"}, c.rangeValues(WorkerPrefix), "live workers, in key order, before any full sort")
	assert.NotNil(t, c.rangeValues("none/"), "no key under a prefix is an answer (empty), not a list still to read")
	var shards []string
	for _, kv := range c.Range("stream/") {
		shards = append(shards, kv.Key)
	}
	assert.True(t, slices.IsSorted(shards))
	assert.Equal(t, []string{"stream/shard-001", "stream/shard-007"}, shards)
}
