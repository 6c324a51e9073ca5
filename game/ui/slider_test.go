package ui

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSliderSnapsAndClamps(t *testing.T) {
	tests := []struct {
		name           string
		min, max, step float64
		set, want      float64
	}{
		{"on grid", 0, 10, 1, 3, 3},
		{"rounds to nearest step", 0, 10, 1, 3.4, 3},
		{"rounds up", 0, 10, 1, 3.6, 4},
		{"clamps low", 0, 10, 1, -5, 0},
		{"clamps high", 0, 10, 1, 50, 10},
		{"continuous", 0, 1, 0, 0.123, 0.123},
		{"offset grid", 0.25, 4, 0.25, 1.1, 1.0},
		{"max off grid stays below max", 0, 1, 0.3, 1, 0.9},
		{"max off grid, rounding up would pass max", 0, 1, 0.4, 0.95, 0.8},
		{"empty range", 5, 5, 1, 7, 5},
		{"NaN", 0, 10, 1, math.NaN(), 0},
	}
	for _, tt := range tests {
		s := &Slider{Min: tt.min, Max: tt.max, Step: tt.step}
		s.SetValue(tt.set)
		if !near(s.Value, tt.want) {
			t.Errorf("%s: SetValue(%v) -> %v, want %v", tt.name, tt.set, s.Value, tt.want)
		}
	}
}

func TestSliderDrag(t *testing.T) {
	// Height 20 gives a thumb radius of 6.4, so the track runs 6.4..193.6.
	newSlider := func() *Slider {
		return &Slider{Rect: Rect{0, 0, 200, 20}, Min: 0, Max: 100, Step: 10, Value: 50}
	}
	tests := []struct {
		name  string
		steps []*Input
		want  []float64
	}{
		{"press jumps and drag follows",
			[]*Input{mouseDown(6.4, 10), mouseHeld(100, 10), mouseHeld(193.6, 10), mouseUp(193.6, 10)},
			[]float64{0, 50, 100, 100}},
		{"drag continues outside the slider",
			[]*Input{mouseDown(100, 10), mouseHeld(-500, 300), mouseUp(-500, 300)},
			[]float64{50, 0, 0}},
		{"stops following after release",
			[]*Input{mouseDown(100, 10), mouseUp(100, 10), hover(193, 10)},
			[]float64{50, 50, 50}},
		{"press outside does not drag",
			[]*Input{mouseDown(100, 50), mouseHeld(10, 10), mouseUp(10, 10)},
			[]float64{50, 50, 50}},
		{"finger drag",
			[]*Input{touch(100, 10, true, false), touch(140, 10, false, false), touch(150, 10, false, true)},
			[]float64{50, 70, 80}},
		{"snaps while dragging",
			[]*Input{mouseDown(100, 10), mouseHeld(112, 10)},
			[]float64{50, 60}},
	}
	for _, tt := range tests {
		s := newSlider()
		for i, in := range tt.steps {
			s.Update(in)
			if !near(s.Value, tt.want[i]) {
				t.Errorf("%s: step %d value %v, want %v", tt.name, i, s.Value, tt.want[i])
			}
		}
	}
}

func TestSliderKeyboard(t *testing.T) {
	tests := []struct {
		name   string
		step   float64
		intent Intent
		want   float64
	}{
		{"right", 5, IntentRight, 55},
		{"up", 5, IntentUp, 55},
		{"left", 5, IntentLeft, 45},
		{"down", 5, IntentDown, 45},
		{"page up", 1, IntentPageUp, 60},
		{"page down", 1, IntentPageDown, 40},
		{"home", 5, IntentHome, 0},
		{"end", 5, IntentEnd, 100},
		{"continuous step is 1%", 0, IntentRight, 51},
		{"page clamps", 20, IntentPageUp, 100},
	}
	for _, tt := range tests {
		s := &Slider{Rect: Rect{0, 0, 200, 20}, Max: 100, Step: tt.step, Value: 50}
		s.SetFocus(FocusVisible)
		changed := s.Update(keys(tt.intent))
		if !near(s.Value, tt.want) || changed != (tt.want != 50) {
			t.Errorf("%s: value %v changed %v, want %v", tt.name, s.Value, changed, tt.want)
		}
	}
	s := &Slider{Rect: Rect{0, 0, 200, 20}, Max: 100, Step: 5, Value: 50}
	if s.Update(keys(IntentRight)) {
		t.Error("unfocused slider took a key")
	}
	s.SetFocus(FocusQuiet)
	s.Disabled = true
	if s.Update(keys(IntentRight)) || s.Update(mouseDown(10, 10)) || s.CanFocus() {
		t.Error("disabled slider reacted")
	}
}

func TestSliderGeometry(t *testing.T) {
	s := &Slider{Rect: Rect{10, 0, 200, 20}, Min: 10, Max: 20, Value: 15}
	if got := s.Fraction(); !near(got, 0.5) {
		t.Errorf("Fraction = %v", got)
	}
	x0, x1, y := s.Track()
	r := s.ThumbRadius()
	if !near(x0, 10+r) || !near(x1, 210-r) || y != 10 {
		t.Errorf("Track = %v %v %v", x0, x1, y)
	}
	if th := s.Thumb(); !near(th.X, (x0+x1)/2) {
		t.Errorf("Thumb = %v", th)
	}
	s.Update(hover(50, 5))
	if !s.Hovered() || s.Dragging() {
		t.Error("hover state")
	}
	s.Update(mouseDown(50, 5))
	if !s.Dragging() {
		t.Error("not dragging after press")
	}
	if (&Slider{Min: 1, Max: 1}).Fraction() != 0 || s.Bounds() != s.Rect {
		t.Error("degenerate fraction or bounds")
	}
}
