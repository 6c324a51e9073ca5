package ui

import "math"

// Rect is an axis-aligned rectangle in screen pixels. It contains the points
// with X <= x < X+W and Y <= y < Y+H, so rectangles that share an edge do not
// overlap.
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// MaxX is the right edge.
func (r Rect) MaxX() float64 { return r.X + r.W }

// MaxY is the bottom edge.
func (r Rect) MaxY() float64 { return r.Y + r.H }

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Center is the middle of r.
func (r Rect) Center() Point { return Point{r.X + r.W/2, r.Y + r.H/2} }

// Contains reports whether p is inside r.
func (r Rect) Contains(p Point) bool {
	return p.X >= r.X && p.X < r.MaxX() && p.Y >= r.Y && p.Y < r.MaxY()
}

// Inset shrinks r by d on every side. A rectangle too small to shrink
// collapses to zero size around its centre rather than turning inside out.
func (r Rect) Inset(d float64) Rect { return r.InsetXY(d, d) }

// InsetXY shrinks r by dx on the left and right and dy on the top and bottom.
func (r Rect) InsetXY(dx, dy float64) Rect {
	dx = math.Min(dx, r.W/2)
	dy = math.Min(dy, r.H/2)
	return Rect{r.X + dx, r.Y + dy, r.W - 2*dx, r.H - 2*dy}
}

// Intersect returns the part of r inside o (empty if they do not meet).
func (r Rect) Intersect(o Rect) Rect {
	x0, y0 := math.Max(r.X, o.X), math.Max(r.Y, o.Y)
	x1, y1 := math.Min(r.MaxX(), o.MaxX()), math.Min(r.MaxY(), o.MaxY())
	if x1 <= x0 || y1 <= y0 {
		return Rect{}
	}
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// Overlaps reports whether r and o share any area (touching edges do not).
func (r Rect) Overlaps(o Rect) bool { return !r.Intersect(o).Empty() }

// Within reports whether r lies entirely inside o.
func (r Rect) Within(o Rect) bool {
	const eps = 1e-9
	return r.X >= o.X-eps && r.Y >= o.Y-eps && r.MaxX() <= o.MaxX()+eps && r.MaxY() <= o.MaxY()+eps
}

// SplitH cuts r with a vertical line at frac of its width (clamped to 0..1)
// into a left and a right part.
func (r Rect) SplitH(frac float64) (left, right Rect) {
	return r.SplitHPx(clamp(frac, 0, 1) * r.W)
}

// SplitHPx cuts r into a left part px wide and the rest. A negative px
// measures from the right instead: the right part is -px wide.
func (r Rect) SplitHPx(px float64) (left, right Rect) {
	if px < 0 {
		px = r.W + px
	}
	return r.CutLeft(px, 0)
}

// SplitV cuts r with a horizontal line at frac of its height (clamped to
// 0..1) into a top and a bottom part.
func (r Rect) SplitV(frac float64) (top, bottom Rect) {
	return r.SplitVPx(clamp(frac, 0, 1) * r.H)
}

// SplitVPx cuts r into a top part px tall and the rest. A negative px
// measures from the bottom: the bottom part is -px tall.
func (r Rect) SplitVPx(px float64) (top, bottom Rect) {
	if px < 0 {
		px = r.H + px
	}
	return r.CutTop(px, 0)
}

// CutLeft takes a strip w wide off the left of r, then leaves gap empty
// between it and the rest. Sizes clamp to what r has, never below zero.
func (r Rect) CutLeft(w, gap float64) (cut, rest Rect) {
	w = clamp(w, 0, r.W)
	gap = clamp(gap, 0, r.W-w)
	return Rect{r.X, r.Y, w, r.H}, Rect{r.X + w + gap, r.Y, r.W - w - gap, r.H}
}

// CutRight takes a strip w wide off the right of r, with gap before it.
func (r Rect) CutRight(w, gap float64) (cut, rest Rect) {
	w = clamp(w, 0, r.W)
	gap = clamp(gap, 0, r.W-w)
	return Rect{r.MaxX() - w, r.Y, w, r.H}, Rect{r.X, r.Y, r.W - w - gap, r.H}
}

// CutTop takes a strip h tall off the top of r, with gap below it.
func (r Rect) CutTop(h, gap float64) (cut, rest Rect) {
	h = clamp(h, 0, r.H)
	gap = clamp(gap, 0, r.H-h)
	return Rect{r.X, r.Y, r.W, h}, Rect{r.X, r.Y + h + gap, r.W, r.H - h - gap}
}

// CutBottom takes a strip h tall off the bottom of r, with gap above it.
func (r Rect) CutBottom(h, gap float64) (cut, rest Rect) {
	h = clamp(h, 0, r.H)
	gap = clamp(gap, 0, r.H-h)
	return Rect{r.X, r.MaxY() - h, r.W, h}, Rect{r.X, r.Y, r.W, r.H - h - gap}
}

func clamp(v, lo, hi float64) float64 {
	if hi < lo {
		return lo
	}
	return math.Max(lo, math.Min(hi, v))
}
