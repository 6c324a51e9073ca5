package ui

import "testing"

// ring builds a ring over three buttons side by side; b is disabled.
func ring(wrap bool) (*FocusRing, *Button, *Button, *Button) {
	a := &Button{Rect: Rect{0, 0, 10, 10}, Label: "a"}
	b := &Button{Rect: Rect{20, 0, 10, 10}, Label: "b", Disabled: true}
	c := &Button{Rect: Rect{40, 0, 10, 10}, Label: "c"}
	return NewFocusRing(wrap, a, b, c), a, b, c
}

func label(f Focusable) string {
	if f == nil {
		return "-"
	}
	return f.(*Button).Label
}

func TestFocusRingOrder(t *testing.T) {
	tab, back := keys(IntentFocusNext), keys(IntentFocusPrev)
	tests := []struct {
		name    string
		wrap    bool
		steps   []*Input
		want    []string
		escapes []Escape
	}{
		{"tab skips disabled and escapes", false,
			[]*Input{tab, tab, tab, tab},
			[]string{"a", "c", "-", "a"},
			[]Escape{NoEscape, NoEscape, EscapeForward, NoEscape}},
		{"shift-tab from nothing goes to the last", false,
			[]*Input{back, back, back},
			[]string{"c", "a", "-"},
			[]Escape{NoEscape, NoEscape, EscapeBackward}},
		{"wrapping ring cycles", true,
			[]*Input{tab, tab, tab, back, back},
			[]string{"a", "c", "a", "c", "a"},
			[]Escape{NoEscape, NoEscape, NoEscape, NoEscape, NoEscape}},
		{"press focuses quietly, tab continues from there", false,
			[]*Input{mouseDown(45, 5), back},
			[]string{"c", "a"},
			[]Escape{NoEscape, NoEscape}},
		{"press on nothing clears", false,
			[]*Input{tab, mouseDown(100, 100)},
			[]string{"a", "-"},
			[]Escape{NoEscape, NoEscape}},
		{"press on a disabled widget clears", false,
			[]*Input{tab, mouseDown(25, 5)},
			[]string{"a", "-"},
			[]Escape{NoEscape, NoEscape}},
	}
	for _, tt := range tests {
		r, _, _, _ := ring(tt.wrap)
		for i, in := range tt.steps {
			esc := r.Update(in)
			if got := label(r.Current()); got != tt.want[i] || esc != tt.escapes[i] {
				t.Errorf("%s: step %d focus %s escape %v, want %s %v", tt.name, i, got, esc, tt.want[i], tt.escapes[i])
			}
		}
	}
}

func TestFocusRingTellsWidgets(t *testing.T) {
	r, a, b, c := ring(false)
	r.Update(keys(IntentFocusNext))
	if a.Focus() != FocusVisible || b.Focus() != NoFocus || c.Focus() != NoFocus || !r.Visible() {
		t.Fatalf("after tab: a=%v b=%v c=%v", a.Focus(), b.Focus(), c.Focus())
	}
	r.Update(mouseDown(45, 5))
	if a.Focus() != NoFocus || c.Focus() != FocusQuiet || r.Visible() {
		t.Fatalf("after press: a=%v c=%v", a.Focus(), c.Focus())
	}
	// A widget that becomes disabled loses focus.
	c.Disabled = true
	r.Update(&Input{})
	if r.Current() != nil || c.Focus() != NoFocus {
		t.Fatal("disabled widget kept focus")
	}
	// Set keeps the current widget if it is still there.
	c.Disabled = false
	r.Focus(c, FocusVisible)
	r.Set(c, a)
	if r.Current() != c {
		t.Fatal("Set lost focus")
	}
	r.Set(a)
	if r.Current() != nil || c.Focus() != NoFocus {
		t.Fatal("Set kept focus on a removed widget")
	}
}

func TestFocusRingWithNothingFocusable(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		empty := NewFocusRing(wrap)
		want := EscapeForward
		if wrap {
			want = NoEscape
		}
		if esc := empty.Update(keys(IntentFocusNext)); esc != want {
			t.Errorf("wrap=%v empty ring: escape %v", wrap, esc)
		}
		off := NewFocusRing(wrap, &Button{Disabled: true}, &Button{Disabled: true})
		if esc := off.Update(keys(IntentFocusPrev)); off.Current() != nil || (wrap && esc != NoEscape) || (!wrap && esc != EscapeBackward) {
			t.Errorf("wrap=%v all disabled: focus %v escape %v", wrap, off.Current(), esc)
		}
	}
}
