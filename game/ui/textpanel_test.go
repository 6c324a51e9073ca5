package ui

import (
	"strings"
	"testing"
)

// twentyLines is 20 lines of text in a 100-pixel-wide panel.
func twentyLines() *TextPanel {
	var words []string
	for range 20 {
		words = append(words, "0123456789")
	}
	p := &TextPanel{Rect: Rect{0, 0, 100, 50}}
	p.SetMeasure(mono, 10)
	p.SetText(strings.Join(words, " "))
	return p
}

func TestTextPanelWrapsAndMeasures(t *testing.T) {
	p := twentyLines()
	if n := len(p.Lines()); n != 20 {
		t.Fatalf("%d lines, want 20", n)
	}
	if p.ContentHeight() != 200 || p.MaxScroll() != 150 {
		t.Fatalf("content %v max %v", p.ContentHeight(), p.MaxScroll())
	}
	p.Rect.W = 210 // two words per line now
	if n := len(p.Lines()); n != 10 {
		t.Fatalf("after resize %d lines, want 10", n)
	}
	if p.LineHeight() != 10 || !strings.HasPrefix(p.Text(), "0123") {
		t.Fatal("accessors")
	}
}

func TestTextPanelScrolling(t *testing.T) {
	focused := func(p *TextPanel) { p.SetFocus(FocusVisible) }
	tests := []struct {
		name  string
		setup func(*TextPanel)
		start float64
		in    *Input
		want  float64
	}{
		{"wheel down over panel", nil, 0, &Input{Cursor: Point{10, 10}, Wheel: Point{0, -1}}, 30},
		{"wheel up clamps at top", nil, 10, &Input{Cursor: Point{10, 10}, Wheel: Point{0, 2}}, 0},
		{"wheel down clamps at bottom", nil, 140, &Input{Cursor: Point{10, 10}, Wheel: Point{0, -5}}, 150},
		{"wheel elsewhere ignored", nil, 0, &Input{Cursor: Point{500, 10}, Wheel: Point{0, -1}}, 0},
		{"down key", focused, 0, keys(IntentDown), 10},
		{"up key", focused, 20, keys(IntentUp), 10},
		{"page down", focused, 0, keys(IntentPageDown), 40},
		{"page up", focused, 100, keys(IntentPageUp), 60},
		{"end", focused, 0, keys(IntentEnd), 150},
		{"home", focused, 90, keys(IntentHome), 0},
		{"keys need focus", nil, 0, keys(IntentEnd), 0},
		{"finger drags content", nil, 50, touch(10, 40, true, false), 50},
	}
	for _, tt := range tests {
		p := twentyLines()
		if tt.setup != nil {
			tt.setup(p)
		}
		p.SetScroll(tt.start)
		changed := p.Update(tt.in)
		if p.Scroll() != tt.want || changed != (tt.want != tt.start) {
			t.Errorf("%s: scroll %v (changed %v), want %v", tt.name, p.Scroll(), changed, tt.want)
		}
	}
}

func TestTextPanelTouchDrag(t *testing.T) {
	p := twentyLines()
	steps := []struct {
		in   *Input
		want float64
	}{
		{touch(10, 40, true, false), 0},
		{touch(10, 20, false, false), 20}, // finger up 20 px: content follows it
		{touch(10, -100, false, false), 140},
		{touch(10, -100, false, true), 140},
		{touch(10, -200, false, false), 140}, // new finger outside: no drag
	}
	for i, s := range steps {
		p.Update(s.in)
		if p.Scroll() != s.want {
			t.Errorf("step %d: scroll %v, want %v", i, p.Scroll(), s.want)
		}
	}
}

func TestTextPanelVisibleRange(t *testing.T) {
	p := twentyLines()
	tests := []struct {
		scroll      float64
		first, last int
	}{
		{0, 0, 5},
		{5, 0, 6}, // half a line at each end
		{150, 15, 20},
	}
	for _, tt := range tests {
		p.SetScroll(tt.scroll)
		f, l := p.Visible()
		if f != tt.first || l != tt.last {
			t.Errorf("scroll %v: Visible = %d,%d want %d,%d", tt.scroll, f, l, tt.first, tt.last)
		}
		if y := p.LineY(f); y > p.Rect.Y || y <= p.Rect.Y-p.LineHeight() {
			t.Errorf("scroll %v: first visible line at %v", tt.scroll, y)
		}
	}
}

func TestTextPanelTextChangeAndFocus(t *testing.T) {
	p := twentyLines()
	p.SetScroll(100)
	p.SetText(p.Text()) // same text keeps the place
	if p.Scroll() != 100 {
		t.Fatal("same text reset scroll")
	}
	p.SetText("short")
	if p.Scroll() != 0 || p.CanFocus() {
		t.Fatal("new short text: want scroll 0 and not focusable")
	}
	if !twentyLines().CanFocus() {
		t.Fatal("scrollable panel should take focus")
	}
	// Growing the panel clamps the scroll position.
	p = twentyLines()
	p.SetScroll(150)
	p.Rect.H = 190
	p.Update(&Input{})
	if p.Scroll() != 10 {
		t.Fatalf("scroll after growing = %v, want 10", p.Scroll())
	}
	empty := &TextPanel{}
	if f, l := empty.Visible(); f != 0 || l != 0 || empty.Lines() != nil {
		t.Fatal("panel without measure should have no lines")
	}
	p.SetFocus(FocusQuiet)
	p.Update(hover(5, 5))
	if p.Focus() != FocusQuiet || !p.Hovered() || p.Bounds() != p.Rect {
		t.Fatal("state accessors")
	}
}

func TestTextPanelGutterAndScrollBar(t *testing.T) {
	p := twentyLines()
	if _, ok := p.ScrollBar(); ok {
		t.Fatal("no gutter, yet a scroll bar")
	}
	p.Rect.W, p.Gutter = 110, 10 // text still wraps at 100
	if n := len(p.Lines()); n != 20 || p.TextWidth() != 100 {
		t.Fatalf("%d lines in width %v", n, p.TextWidth())
	}
	bar, ok := p.ScrollBar()
	if !ok || bar.X != 100 || bar.W != 10 || bar.Y != 0 || bar.H != 20 { // 50*50/200 = 12.5 < 2*gutter
		t.Fatalf("top bar %v %v", bar, ok)
	}
	p.SetScroll(p.MaxScroll())
	if bar, _ = p.ScrollBar(); bar.MaxY() != p.Rect.MaxY() {
		t.Fatalf("bottom bar %v", bar)
	}
	p.SetText("fits")
	if _, ok := p.ScrollBar(); ok {
		t.Fatal("text fits, yet a scroll bar")
	}
}
