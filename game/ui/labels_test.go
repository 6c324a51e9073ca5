package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A label is kept only inside the bounds, clear of every obstacle and of
// the labels kept before it; the earlier of two colliding labels wins.
func TestPlaceLabelsKeepsNoTwoThatCollide(t *testing.T) {
	bounds := Rect{W: 600, H: 100}
	labels := []Rect{
		{X: 10, Y: 10, W: 80, H: 15},  // kept
		{X: 60, Y: 20, W: 80, H: 15},  // runs into the first: dropped
		{X: 200, Y: 10, W: 80, H: 15}, // runs into a mark: dropped
		{X: 200, Y: 60, W: 80, H: 15}, // the next lane down, clear: kept
		{X: 560, Y: 10, W: 80, H: 15}, // past the right edge: dropped
	}
	marks := []Rect{{X: 250, Y: 8, W: 20, H: 20}}
	assert.Equal(t, []bool{true, false, false, true, false}, PlaceLabels(labels, marks, bounds))
	assert.Empty(t, PlaceLabels(nil, marks, bounds))
}
