package view

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"leaselab/game/draw"
)

// The ring legend takes the longest wording whose two labels fit, and
// falls back to the shortest: the bare words, the swatches saying which
// ring.
func TestRingLegendTakesTheLongestWordingThatFits(t *testing.T) {
	measure := func(s string) float64 { return float64(len(s)) }
	o, i := ringLegend(false, 1000, measure)
	assert.Equal(t, ringLabel{"outer ring: the process's own lease clock", "outer ring: the process's own lease clock"}, o)
	assert.Equal(t, "inner ring: the coordinator's", i.shown)
	o, i = ringLegend(false, 60, measure)
	assert.Equal(t, "outer ring: its own clock", o.shown)
	assert.Equal(t, "inner ring: the coordinator's", i.shown)
	assert.Equal(t, "outer ring: the process's own lease clock", o.whole)
	o, i = ringLegend(true, 31, measure)
	assert.Equal(t, "outer: own clock", o.shown)
	assert.Equal(t, "inner: majority", i.shown)
	assert.Equal(t, "inner ring: its keys on a majority", i.whole)
	o, i = ringLegend(false, 10, measure)
	assert.Equal(t, "own clock", o.shown)
	assert.Equal(t, "coordinator's", i.shown)
}

// The worker numbers on the shard map's cells read at 4.5:1 on every
// owner's colour.
func TestShardCellLabelsHaveContrast(t *testing.T) {
	for i := range ownerColours {
		assert.GreaterOrEqual(t, draw.Contrast(draw.Dark.Text, ownerColour(i)), 4.5, "owner %d: %v", i, ownerColour(i))
	}
}
