package ui

import "math"

// TimeWindow is the part of a run the timeline shows, [From, To] in
// seconds of a run Length long: the whole run until the learner zooms.
// Every method keeps it inside the run and no narrower than MinWindow (or
// the run, if shorter). It knows nothing of pixels but the fraction of the
// lanes' width a pointer is at, so the zoom and scroll are tested without a
// display.
type TimeWindow struct {
	From, To, Length float64
}

// MinWindow is the narrowest window in seconds: a few seconds of a run
// still show the marks apart.
const MinWindow = 4.0

// ZoomStep is how much one key press or wheel notch zooms.
const ZoomStep = 1.5

// WholeRun is the window over the whole of a run length seconds long.
func WholeRun(length float64) TimeWindow {
	length = math.Max(length, 1)
	return TimeWindow{From: 0, To: length, Length: length}
}

// Span is the window's width in seconds.
func (w TimeWindow) Span() float64 { return w.To - w.From }

// Whole reports whether the window shows the whole run.
func (w TimeWindow) Whole() bool { return w.From <= 0 && w.To >= w.Length }

// Resize is w over a run now length seconds long (a run grows as the
// learner adds actions, or shrinks on a fork): a window that showed the
// whole run still does; a zoomed one keeps its place, clamped.
func (w TimeWindow) Resize(length float64) TimeWindow {
	if w.Length == 0 || w.Whole() {
		return WholeRun(length)
	}
	w.Length = math.Max(length, 1)
	return w.clamp()
}

// clamp keeps w inside the run and at least MinWindow wide, moving it
// rather than cutting it where it can.
func (w TimeWindow) clamp() TimeWindow {
	span := math.Min(math.Max(w.Span(), math.Min(MinWindow, w.Length)), w.Length)
	if w.From < 0 {
		w.From = 0
	}
	if w.From+span > w.Length {
		w.From = w.Length - span
	}
	w.To = w.From + span
	return w
}

// ZoomAt zooms by factor (> 1 in, < 1 out) about the time at fraction at
// (0 the left edge, 1 the right) of the window: that time stays where it
// is on the screen, as under a pointer.
func (w TimeWindow) ZoomAt(factor, at float64) TimeWindow {
	if factor <= 0 {
		return w
	}
	at = clamp(at, 0, 1)
	pivot := w.From + at*w.Span()
	span := math.Min(math.Max(w.Span()/factor, math.Min(MinWindow, w.Length)), w.Length)
	w.From = pivot - at*span
	w.To = w.From + span
	return w.clamp()
}

// ZoomAround zooms by factor about time t: about t where it is if it is
// in view, else about the window's middle and then brings t into view.
func (w TimeWindow) ZoomAround(factor, t float64) TimeWindow {
	if t < w.From || t > w.To {
		return w.ZoomAt(factor, 0.5).Follow(t)
	}
	return w.ZoomAt(factor, (t-w.From)/math.Max(w.Span(), 1e-9))
}

// Pan moves the window by dt seconds (negative: earlier), clamped.
func (w TimeWindow) Pan(dt float64) TimeWindow {
	w.From += dt
	w.To += dt
	return w.clamp()
}

// Follow brings time t into view: a window that already shows it, with
// an eighth of its width to spare at either side, stays; one that does
// not moves the least that does (a play head running off the right edge
// pages the view on).
func (w TimeWindow) Follow(t float64) TimeWindow {
	margin := w.Span() / 8
	switch {
	case t < w.From+margin && w.From > 0:
		return w.Pan(t - margin - w.From)
	case t > w.To-margin && w.To < w.Length:
		return w.Pan(t + margin - w.To)
	}
	return w
}

// Fraction is where time t falls in the window, 0 at From and 1 at To
// (outside [0, 1] when out of view).
func (w TimeWindow) Fraction(t float64) float64 {
	if w.Span() <= 0 {
		return 0
	}
	return (t - w.From) / w.Span()
}

// At is the time at fraction f of the window (clamped to it).
func (w TimeWindow) At(f float64) float64 { return w.From + clamp(f, 0, 1)*w.Span() }

// Pinch is the window after two fingers moved from a0, b0 to a1, b1
// (fractions of the lanes' width): the times under the fingers stay under
// them as far as the clamps allow, so spreading them zooms in about their
// middle and moving both together scrolls.
func (w TimeWindow) Pinch(a0, b0, a1, b1 float64) TimeWindow {
	d0, d1 := math.Abs(b0-a0), math.Abs(b1-a1)
	if d0 < 1e-3 || d1 < 1e-3 {
		return w
	}
	mid0, mid1 := (a0+b0)/2, (a1+b1)/2
	pivot := w.From + mid0*w.Span()
	span := math.Min(math.Max(w.Span()*d0/d1, math.Min(MinWindow, w.Length)), w.Length)
	w.From = pivot - mid1*span
	w.To = w.From + span
	return w.clamp()
}
