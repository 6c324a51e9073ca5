package ui

import "math"

// Slider picks a value in [Min, Max] by dragging, or with the arrow keys
// when focused. With Step > 0 every value it takes is Min + k*Step.
type Slider struct {
	Rect           Rect
	Min, Max, Step float64
	Value          float64
	Disabled       bool

	hovered  bool
	dragging bool
	focus    Focus
	// requested is the value Request asked for, taken by the next Update.
	requested  float64
	hasRequest bool
}

// pageSteps is how many steps PageUp and PageDown move.
const pageSteps = 10

// Update handles a drag (which starts with a press anywhere on the slider,
// jumps the thumb there, and follows the pointer even outside the slider
// until release) and, while focused, the arrow, Page and Home/End intents.
// It reports whether Value changed.
func (s *Slider) Update(in *Input) (changed bool) {
	ptr := in.Pointer()
	s.hovered = !s.Disabled && ptr.Present && s.Rect.Contains(ptr.Pos)
	req, asked := s.requested, s.hasRequest
	s.hasRequest = false
	if s.Disabled {
		s.dragging = false
		return false
	}
	old := s.Value
	if asked {
		s.SetValue(req)
		return s.Value != old
	}
	if ptr.JustDown && s.hovered {
		s.dragging = true
	}
	if s.dragging {
		s.SetValue(s.valueAt(ptr.Pos.X))
		if ptr.JustUp || !ptr.Down {
			s.dragging = false
		}
	}
	if s.focus != NoFocus {
		step := s.keyStep()
		switch {
		case in.Keys.Has(IntentLeft), in.Keys.Has(IntentDown):
			s.SetValue(s.Value - step)
		case in.Keys.Has(IntentRight), in.Keys.Has(IntentUp):
			s.SetValue(s.Value + step)
		case in.Keys.Has(IntentPageDown):
			s.SetValue(s.Value - pageSteps*step)
		case in.Keys.Has(IntentPageUp):
			s.SetValue(s.Value + pageSteps*step)
		case in.Keys.Has(IntentHome):
			s.SetValue(s.Min)
		case in.Keys.Has(IntentEnd):
			s.SetValue(s.Max)
		}
	}
	return s.Value != old
}

// SetValue clamps v to [Min, Max], snaps it to the step grid, stores it and
// reports whether Value changed. When Max is not on the grid, the largest
// reachable value is the last grid point below Max.
func (s *Slider) SetValue(v float64) bool {
	old := s.Value
	s.Value = s.snap(v)
	return s.Value != old
}

func (s *Slider) snap(v float64) float64 {
	if s.Max <= s.Min || math.IsNaN(v) {
		return s.Min
	}
	v = clamp(v, s.Min, s.Max)
	if s.Step > 0 {
		k := math.Round((v - s.Min) / s.Step)
		if s.Min+k*s.Step > s.Max+s.Step*1e-9 {
			k--
		}
		v = s.Min + k*s.Step
	}
	return v
}

func (s *Slider) keyStep() float64 {
	if s.Step > 0 {
		return s.Step
	}
	return (s.Max - s.Min) / 100
}

// Fraction is where Value sits between Min (0) and Max (1).
func (s *Slider) Fraction() float64 {
	if s.Max <= s.Min {
		return 0
	}
	return clamp((s.Value-s.Min)/(s.Max-s.Min), 0, 1)
}

// ThumbRadius is the radius of the round thumb.
func (s *Slider) ThumbRadius() float64 { return math.Min(s.Rect.H*0.32, s.Rect.W/4) }

// Track is the line the thumb's centre travels along: the slider's width
// less a thumb radius at each end, so the thumb never pokes out.
func (s *Slider) Track() (x0, x1, y float64) {
	r := s.ThumbRadius()
	return s.Rect.X + r, s.Rect.MaxX() - r, s.Rect.Y + s.Rect.H/2
}

// Thumb is the centre of the thumb.
func (s *Slider) Thumb() Point {
	x0, x1, y := s.Track()
	return Point{x0 + s.Fraction()*(x1-x0), y}
}

func (s *Slider) valueAt(x float64) float64 {
	x0, x1, _ := s.Track()
	if x1 <= x0 {
		return s.Min
	}
	return s.Min + clamp((x-x0)/(x1-x0), 0, 1)*(s.Max-s.Min)
}

// Hovered reports whether the pointer is over the slider.
func (s *Slider) Hovered() bool { return s.hovered }

// Dragging reports whether a drag is in progress.
func (s *Slider) Dragging() bool { return s.dragging }

// Focus reports the slider's keyboard focus.
func (s *Slider) Focus() Focus { return s.focus }

// Bounds implements [Focusable].
func (s *Slider) Bounds() Rect { return s.Rect }

// CanFocus implements [Focusable].
func (s *Slider) CanFocus() bool { return !s.Disabled }

// SetFocus implements [Focusable].
func (s *Slider) SetFocus(f Focus) { s.focus = f }
