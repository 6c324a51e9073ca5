package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Marks closer than the gap run together into one run, to be drawn as one
// mark with a count (issue 29: on a phone a write a second drew a blob of
// ticks); a mark with room either side stands alone.
func TestCrowdedMarksRunTogether(t *testing.T) {
	xs := []float64{10, 14, 18, 22, 60, 100, 103}
	runs := Runs(xs, 8)
	assert.Equal(t, []Run{{0, 3}, {4, 4}, {5, 6}}, runs)
	assert.Equal(t, 4, runs[0].Len())
	assert.Equal(t, 1, runs[1].Len())
	assert.Empty(t, Runs(nil, 8), "no marks, no runs")
	assert.Equal(t, []Run{{0, 0}, {1, 1}}, Runs([]float64{0, 8}, 8), "exactly a gap apart: apart")
}
