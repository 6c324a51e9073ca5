package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A ten-minute run, as the sandbox's default preset runs.
const tenMinutes = 600.0

// An untouched window shows the whole run, however long.
func TestTimeWindowStartsOverTheWholeRun(t *testing.T) {
	w := WholeRun(tenMinutes)
	assert.Equal(t, TimeWindow{From: 0, To: tenMinutes, Length: tenMinutes}, w)
	assert.True(t, w.Whole())
}

// Zooming in about a pointer keeps the time under the pointer where it
// is; zooming out as far as it goes gives the whole run back.
func TestTimeWindowZoomsAboutThePointer(t *testing.T) {
	w := WholeRun(tenMinutes)
	under := w.At(0.25) // 150 s, a quarter of the way along
	in := w.ZoomAt(4, 0.25)
	assert.InDelta(t, 150.0, in.Span(), 1e-9)
	assert.InDelta(t, under, in.At(0.25), 1e-9, "the time under the pointer moved")
	assert.InDelta(t, 0.25, in.Fraction(under), 1e-9)

	out := in
	for range 20 {
		out = out.ZoomAt(1/ZoomStep, 0.9)
	}
	assert.Equal(t, WholeRun(tenMinutes), out)
}

// The window never leaves the run nor narrows past MinWindow: zooming in
// at the run's very end, or scrolling past either end, stops at the edge.
func TestTimeWindowStaysInsideTheRun(t *testing.T) {
	w := WholeRun(tenMinutes)
	for range 50 {
		w = w.ZoomAt(ZoomStep, 1)
	}
	assert.InDelta(t, MinWindow, w.Span(), 1e-9)
	assert.InDelta(t, tenMinutes, w.To, 1e-9)

	w = w.Pan(-1000)
	assert.Equal(t, 0.0, w.From)
	assert.InDelta(t, MinWindow, w.Span(), 1e-9)
	w = w.Pan(5000)
	assert.InDelta(t, tenMinutes, w.To, 1e-9)

	short := WholeRun(2).ZoomAt(10, 0.5)
	assert.Equal(t, WholeRun(2), short, "a run shorter than MinWindow shows whole")
}

// The play head stays in view: a window it runs out of moves on with it,
// one it is inside stays put; zooming about a head out of view brings it
// in.
func TestTimeWindowFollowsThePlayHead(t *testing.T) {
	w := WholeRun(tenMinutes).ZoomAt(10, 0) // [0, 60]
	require.InDelta(t, 60.0, w.To, 1e-9)
	assert.Equal(t, w, w.Follow(30), "a head well inside does not move the window")

	on := w.Follow(90)
	assert.InDelta(t, 60.0, on.Span(), 1e-9, "following does not zoom")
	assert.True(t, on.From < 90 && 90 < on.To, "90 s in view: %+v", on)
	assert.Equal(t, tenMinutes, w.Follow(tenMinutes).To)
	assert.Equal(t, 0.0, on.Follow(0).From)

	z := w.ZoomAround(2, 300)
	assert.InDelta(t, 30.0, z.Span(), 1e-9)
	assert.True(t, z.From < 300 && 300 < z.To, "300 s in view: %+v", z)
	kept := w.ZoomAround(2, 15) // in view: zoom about it
	assert.InDelta(t, w.Fraction(15), kept.Fraction(15), 1e-9)
}

// Two fingers spread apart zoom in about their middle; moved together
// they scroll; pinched together they zoom out, no further than the run.
func TestTimeWindowPinches(t *testing.T) {
	w := WholeRun(tenMinutes).ZoomAt(4, 0.5) // [225, 375]
	mid := w.At(0.5)
	spread := w.Pinch(0.4, 0.6, 0.3, 0.7)
	assert.InDelta(t, w.Span()/2, spread.Span(), 1e-9)
	assert.InDelta(t, mid, spread.At(0.5), 1e-9)

	moved := w.Pinch(0.4, 0.6, 0.5, 0.7)
	assert.InDelta(t, w.Span(), moved.Span(), 1e-9)
	assert.InDelta(t, w.At(0.4), moved.At(0.5), 1e-9, "the time under the fingers follows them")

	assert.Equal(t, WholeRun(tenMinutes), w.Pinch(0.1, 0.9, 0.45, 0.55))
	assert.Equal(t, w, w.Pinch(0.5, 0.5, 0.4, 0.6), "fingers on one spot give no ratio")
}

// A run that grows keeps a whole-run window whole, and a zoomed one where
// it was.
func TestTimeWindowResizesWithTheRun(t *testing.T) {
	assert.Equal(t, WholeRun(90), WholeRun(60).Resize(90))
	z := WholeRun(tenMinutes).ZoomAt(10, 0.5)
	r := z.Resize(900)
	assert.Equal(t, z.From, r.From)
	assert.Equal(t, z.To, r.To)
	assert.Equal(t, WholeRun(30), z.Resize(30), "a run shrunk under the window shows whole")
}
