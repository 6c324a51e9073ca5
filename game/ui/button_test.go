package ui

import "testing"

// tick feeds one input per step to update and returns what each step fired.
func ticks(update func(*Input) bool, steps ...*Input) []bool {
	out := make([]bool, len(steps))
	for i, in := range steps {
		out[i] = update(in)
	}
	return out
}

func TestButtonFiresOnReleaseOnlyIfPressBeganInside(t *testing.T) {
	r := Rect{100, 100, 80, 40}
	tests := []struct {
		name     string
		disabled bool
		focus    Focus
		steps    []*Input
		want     []bool
	}{
		{name: "click inside",
			steps: []*Input{hover(120, 120), mouseDown(120, 120), mouseHeld(121, 121), mouseUp(121, 121)},
			want:  []bool{false, false, false, true}},
		{name: "press outside, release inside",
			steps: []*Input{mouseDown(10, 10), mouseHeld(120, 120), mouseUp(120, 120)},
			want:  []bool{false, false, false}},
		{name: "press inside, release outside",
			steps: []*Input{mouseDown(120, 120), mouseHeld(300, 300), mouseUp(300, 300)},
			want:  []bool{false, false, false}},
		{name: "slide out and back in still fires",
			steps: []*Input{mouseDown(120, 120), mouseHeld(300, 300), mouseHeld(120, 120), mouseUp(120, 120)},
			want:  []bool{false, false, false, true}},
		{name: "release without press",
			steps: []*Input{mouseUp(120, 120)},
			want:  []bool{false}},
		{name: "tap with a finger",
			steps: []*Input{touch(120, 120, true, false), touch(121, 120, false, true)},
			want:  []bool{false, true}},
		{name: "quick tap within one tick",
			steps: []*Input{touch(120, 120, true, true)},
			want:  []bool{true}},
		{name: "disabled never fires",
			disabled: true, focus: FocusVisible,
			steps: []*Input{mouseDown(120, 120), mouseUp(120, 120), keys(IntentActivate)},
			want:  []bool{false, false, false}},
		{name: "activate while focused",
			focus: FocusVisible,
			steps: []*Input{keys(IntentActivate), keys(IntentFocusNext)},
			want:  []bool{true, false}},
		{name: "activate without focus",
			steps: []*Input{keys(IntentActivate)},
			want:  []bool{false}},
	}
	for _, tt := range tests {
		b := &Button{Rect: r, Label: "Play", Disabled: tt.disabled}
		b.SetFocus(tt.focus)
		got := ticks(b.Update, tt.steps...)
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: step %d fired = %v, want %v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

func TestButtonVisualStates(t *testing.T) {
	b := &Button{Rect: Rect{0, 0, 50, 50}}
	b.Update(hover(10, 10))
	if !b.Hovered() || b.Pressed() {
		t.Fatalf("hovering: hovered=%v pressed=%v", b.Hovered(), b.Pressed())
	}
	b.Update(mouseDown(10, 10))
	if !b.Pressed() {
		t.Fatal("held inside: not pressed")
	}
	b.Update(mouseHeld(100, 100))
	if b.Pressed() || b.Hovered() {
		t.Fatal("held outside: still looks pressed")
	}
	b.Update(mouseUp(100, 100))
	b.Disabled = true
	b.Update(hover(10, 10))
	if b.Hovered() {
		t.Fatal("disabled button shows hover")
	}
	if b.CanFocus() {
		t.Fatal("disabled button takes focus")
	}
	b.SetFocus(FocusVisible)
	if b.Focus() != FocusVisible || b.Bounds() != b.Rect {
		t.Fatal("focus or bounds not reported")
	}
}

func TestToggleFlips(t *testing.T) {
	tg := &Toggle{Rect: Rect{0, 0, 40, 20}, Label: "Fencing"}
	steps := []struct {
		in      *Input
		changed bool
		on      bool
	}{
		{mouseDown(5, 5), false, false},
		{mouseUp(5, 5), true, true},
		{mouseDown(5, 5), false, true},
		{mouseUp(50, 5), false, true}, // released outside: no change
		{mouseDown(5, 5), false, true},
		{mouseUp(5, 5), true, false},
	}
	for i, s := range steps {
		if got := tg.Update(s.in); got != s.changed || tg.On != s.on {
			t.Errorf("step %d: changed=%v on=%v, want %v %v", i, got, tg.On, s.changed, s.on)
		}
	}
	tg.SetFocus(FocusVisible)
	if !tg.Update(keys(IntentActivate)) || !tg.On {
		t.Error("keyboard activate did not flip")
	}
	tg.Disabled = true
	if tg.Update(keys(IntentActivate)) || tg.CanFocus() {
		t.Error("disabled toggle reacted")
	}
	if tg.Bounds() != tg.Rect {
		t.Error("Bounds")
	}
}
