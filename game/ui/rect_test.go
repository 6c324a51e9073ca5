package ui

import "testing"

func TestRectContainsIsHalfOpen(t *testing.T) {
	r := Rect{10, 20, 30, 40}
	tests := []struct {
		p    Point
		want bool
	}{
		{Point{10, 20}, true},
		{Point{39.9, 59.9}, true},
		{Point{40, 30}, false}, // right edge belongs to the neighbour
		{Point{20, 60}, false}, // bottom edge too
		{Point{9.9, 30}, false},
		{Point{20, 19.9}, false},
	}
	for _, tt := range tests {
		if got := r.Contains(tt.p); got != tt.want {
			t.Errorf("%v.Contains(%v) = %v, want %v", r, tt.p, got, tt.want)
		}
	}
}

func TestRectInset(t *testing.T) {
	tests := []struct {
		name   string
		r      Rect
		dx, dy float64
		want   Rect
	}{
		{"shrinks", Rect{0, 0, 100, 50}, 10, 5, Rect{10, 5, 80, 40}},
		{"grows with negative", Rect{10, 10, 10, 10}, -2, -2, Rect{8, 8, 14, 14}},
		{"collapses to centre", Rect{0, 0, 10, 4}, 20, 20, Rect{5, 2, 0, 0}},
	}
	for _, tt := range tests {
		if got := tt.r.InsetXY(tt.dx, tt.dy); got != tt.want {
			t.Errorf("%s: InsetXY = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := (Rect{0, 0, 100, 50}).Inset(10); got != (Rect{10, 10, 80, 30}) {
		t.Errorf("Inset = %v", got)
	}
}

func TestRectSplits(t *testing.T) {
	r := Rect{0, 0, 200, 100}
	tests := []struct {
		name    string
		wantA   Rect
		wantB   Rect
		process func() (Rect, Rect)
	}{
		{name: "SplitH half", wantA: Rect{0, 0, 100, 100}, wantB: Rect{100, 0, 100, 100},
			process: func() (Rect, Rect) { return r.SplitH(0.5) }},
		{name: "SplitH clamps ratio", wantA: Rect{0, 0, 200, 100}, wantB: Rect{200, 0, 0, 100},
			process: func() (Rect, Rect) { return r.SplitH(1.7) }},
		{name: "SplitHPx", wantA: Rect{0, 0, 30, 100}, wantB: Rect{30, 0, 170, 100},
			process: func() (Rect, Rect) { return r.SplitHPx(30) }},
		{name: "SplitHPx from right", wantA: Rect{0, 0, 170, 100}, wantB: Rect{170, 0, 30, 100},
			process: func() (Rect, Rect) { return r.SplitHPx(-30) }},
		{name: "SplitV quarter", wantA: Rect{0, 0, 200, 25}, wantB: Rect{0, 25, 200, 75},
			process: func() (Rect, Rect) { return r.SplitV(0.25) }},
		{name: "SplitV negative ratio", wantA: Rect{0, 0, 200, 0}, wantB: Rect{0, 0, 200, 100},
			process: func() (Rect, Rect) { return r.SplitV(-1) }},
		{name: "SplitVPx from bottom", wantA: Rect{0, 0, 200, 60}, wantB: Rect{0, 60, 200, 40},
			process: func() (Rect, Rect) { return r.SplitVPx(-40) }},
		{name: "CutLeft with gap", wantA: Rect{0, 0, 50, 100}, wantB: Rect{60, 0, 140, 100},
			process: func() (Rect, Rect) { return r.CutLeft(50, 10) }},
		{name: "CutRight with gap", wantA: Rect{150, 0, 50, 100}, wantB: Rect{0, 0, 140, 100},
			process: func() (Rect, Rect) { return r.CutRight(50, 10) }},
		{name: "CutTop with gap", wantA: Rect{0, 0, 200, 20}, wantB: Rect{0, 25, 200, 75},
			process: func() (Rect, Rect) { return r.CutTop(20, 5) }},
		{name: "CutBottom with gap", wantA: Rect{0, 80, 200, 20}, wantB: Rect{0, 0, 200, 75},
			process: func() (Rect, Rect) { return r.CutBottom(20, 5) }},
		{name: "CutLeft too wide clamps", wantA: Rect{0, 0, 200, 100}, wantB: Rect{200, 0, 0, 100},
			process: func() (Rect, Rect) { return r.CutLeft(500, 10) }},
		{name: "CutTop gap larger than rest", wantA: Rect{0, 0, 200, 90}, wantB: Rect{0, 100, 200, 0},
			process: func() (Rect, Rect) { return r.CutTop(90, 30) }},
	}
	for _, tt := range tests {
		a, b := tt.process()
		if a != tt.wantA || b != tt.wantB {
			t.Errorf("%s = %v, %v; want %v, %v", tt.name, a, b, tt.wantA, tt.wantB)
		}
		if a.Overlaps(b) {
			t.Errorf("%s: parts overlap", tt.name)
		}
		if !a.Within(r) || !b.Within(r) {
			t.Errorf("%s: parts leave the rect", tt.name)
		}
	}
}

func TestRectIntersectOverlapsWithin(t *testing.T) {
	a := Rect{0, 0, 10, 10}
	tests := []struct {
		b        Rect
		inter    Rect
		overlaps bool
		within   bool
	}{
		{Rect{5, 5, 10, 10}, Rect{5, 5, 5, 5}, true, false},
		{Rect{10, 0, 5, 5}, Rect{}, false, false}, // touching edges
		{Rect{2, 2, 3, 3}, Rect{2, 2, 3, 3}, true, true},
		{Rect{-5, -5, 30, 30}, Rect{0, 0, 10, 10}, true, false},
		{Rect{20, 20, 1, 1}, Rect{}, false, false},
	}
	for _, tt := range tests {
		if got := a.Intersect(tt.b); got != tt.inter {
			t.Errorf("Intersect(%v) = %v, want %v", tt.b, got, tt.inter)
		}
		if got := a.Overlaps(tt.b); got != tt.overlaps {
			t.Errorf("Overlaps(%v) = %v", tt.b, got)
		}
		if got := tt.b.Within(a); got != tt.within {
			t.Errorf("%v.Within(a) = %v", tt.b, got)
		}
	}
	if c := (Rect{10, 20, 30, 40}).Center(); c != (Point{25, 40}) {
		t.Errorf("Center = %v", c)
	}
	if !(Rect{0, 0, 0, 5}).Empty() || (Rect{0, 0, 1, 1}).Empty() {
		t.Error("Empty is wrong")
	}
}
