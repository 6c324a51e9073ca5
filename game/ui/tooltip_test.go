package ui

import "testing"

func TestTooltipDelay(t *testing.T) {
	anchor := Rect{100, 100, 50, 20}
	tests := []struct {
		name    string
		steps   []*Input
		focused bool
		visible bool
	}{
		{"appears after the delay", repeat(hover(110, 110), 4), false, true},
		{"not before", repeat(hover(110, 110), 3), false, false},
		{"leaving resets", append(append(repeat(hover(110, 110), 3), hover(0, 0)), repeat(hover(110, 110), 3)...), false, false},
		{"press hides", append(repeat(hover(110, 110), 5), mouseDown(110, 110), mouseUp(110, 110), hover(110, 110)), false, false},
		{"keyboard focus shows it too", repeat(&Input{}, 4), true, true},
		{"activate hides", append(repeat(&Input{}, 4), keys(IntentActivate)), true, false},
		{"fingers do not hover", repeat(touch(110, 110, false, false), 10), false, false},
	}
	for _, tt := range tests {
		tip := &Tooltip{Text: "Step to the next event", Delay: 3}
		for _, in := range tt.steps {
			tip.Update(in, anchor, tt.focused)
		}
		if tip.Visible() != tt.visible {
			t.Errorf("%s: visible = %v", tt.name, tip.Visible())
		}
	}
	empty := &Tooltip{Delay: 0}
	empty.Update(hover(110, 110), anchor, false)
	if empty.Visible() {
		t.Error("empty tooltip shown")
	}
}

func repeat(in *Input, n int) []*Input {
	out := make([]*Input, n)
	for i := range out {
		out[i] = in
	}
	return out
}

func TestTooltipPlace(t *testing.T) {
	win := Rect{0, 0, 400, 300}
	tests := []struct {
		name   string
		anchor Rect
		want   Rect
	}{
		{"below, centred", Rect{100, 100, 50, 20}, Rect{75, 124, 100, 30}},
		{"above when no room below", Rect{100, 270, 50, 20}, Rect{75, 236, 100, 30}},
		{"kept inside on the left", Rect{0, 100, 20, 20}, Rect{0, 124, 100, 30}},
		{"kept inside on the right", Rect{380, 100, 20, 20}, Rect{300, 124, 100, 30}},
	}
	for _, tt := range tests {
		tip := &Tooltip{Text: "x"}
		tip.Update(&Input{}, tt.anchor, false)
		got := tip.Place(100, 30, 4, win)
		if got != tt.want {
			t.Errorf("%s: Place = %v, want %v", tt.name, got, tt.want)
		}
		if !got.Within(win) {
			t.Errorf("%s: outside window", tt.name)
		}
	}
}
