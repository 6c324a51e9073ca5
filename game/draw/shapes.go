package draw

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"leaselab/game/ui"
)

// white is a 1×1 opaque white source for DrawTriangles, cut from the middle
// of a 3×3 image so linear filtering at its edges never samples outside it.
var white = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
}()

// Fill fills path (non-zero winding) with clr.
func Fill(dst *ebiten.Image, path *vector.Path, clr color.Color) {
	vs, is := path.AppendVerticesAndIndicesForFilling(nil, nil)
	paint(dst, vs, is, clr, ebiten.FillRuleNonZero)
}

// Stroke strokes path with lines width pixels wide.
func Stroke(dst *ebiten.Image, path *vector.Path, width float64, clr color.Color) {
	op := &vector.StrokeOptions{Width: float32(width), LineJoin: vector.LineJoinRound, LineCap: vector.LineCapRound}
	vs, is := path.AppendVerticesAndIndicesForStroke(nil, nil, op)
	paint(dst, vs, is, clr, ebiten.FillRuleFillAll)
}

func paint(dst *ebiten.Image, vs []ebiten.Vertex, is []uint16, clr color.Color, rule ebiten.FillRule) {
	if len(is) == 0 {
		return
	}
	r, g, b, a := clr.RGBA()
	for i := range vs {
		vs[i].SrcX, vs[i].SrcY = 1, 1
		vs[i].ColorR = float32(r) / 0xffff
		vs[i].ColorG = float32(g) / 0xffff
		vs[i].ColorB = float32(b) / 0xffff
		vs[i].ColorA = float32(a) / 0xffff
	}
	// No AntiAlias: Ebitengine implements it with a double-size offscreen
	// per draw call, sized to the shape, so a screen of a hundred shapes
	// between text draws allocates a hundred textures a frame (about one
	// frame a second on a software renderer). game.Game supersamples the
	// whole screen instead.
	op := &ebiten.DrawTrianglesOptions{
		ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha,
		FillRule:       rule,
	}
	dst.DrawTriangles(vs, is, white, op)
}

// RoundRectPath returns the outline of r with corners of the given radius
// (clamped to half the shorter side).
func RoundRectPath(r ui.Rect, radius float64) *vector.Path {
	rad := float32(math.Max(0, math.Min(radius, math.Min(r.W, r.H)/2)))
	x0, y0, x1, y1 := float32(r.X), float32(r.Y), float32(r.MaxX()), float32(r.MaxY())
	var p vector.Path
	p.MoveTo(x0+rad, y0)
	p.LineTo(x1-rad, y0)
	p.Arc(x1-rad, y0+rad, rad, -math.Pi/2, 0, vector.Clockwise)
	p.LineTo(x1, y1-rad)
	p.Arc(x1-rad, y1-rad, rad, 0, math.Pi/2, vector.Clockwise)
	p.LineTo(x0+rad, y1)
	p.Arc(x0+rad, y1-rad, rad, math.Pi/2, math.Pi, vector.Clockwise)
	p.LineTo(x0, y0+rad)
	p.Arc(x0+rad, y0+rad, rad, math.Pi, 3*math.Pi/2, vector.Clockwise)
	p.Close()
	return &p
}

// FillRoundRect fills r with rounded corners.
func FillRoundRect(dst *ebiten.Image, r ui.Rect, radius float64, clr color.Color) {
	if r.Empty() {
		return
	}
	Fill(dst, RoundRectPath(r, radius), clr)
}

// StrokeRoundRect outlines r with rounded corners; the line is centred on
// r's edge inset by half its width, so it stays inside r.
func StrokeRoundRect(dst *ebiten.Image, r ui.Rect, radius, width float64, clr color.Color) {
	in := r.Inset(width / 2)
	if in.Empty() {
		return
	}
	Stroke(dst, RoundRectPath(in, radius-width/2), width, clr)
}

// FillRect fills r with clr.
func FillRect(dst *ebiten.Image, r ui.Rect, clr color.Color) {
	vector.DrawFilledRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), clr, false)
}

// FillCircle fills a circle.
func FillCircle(dst *ebiten.Image, c ui.Point, radius float64, clr color.Color) {
	vector.DrawFilledCircle(dst, float32(c.X), float32(c.Y), float32(radius), clr, false)
}

// StrokeCircle outlines a circle.
func StrokeCircle(dst *ebiten.Image, c ui.Point, radius, width float64, clr color.Color) {
	vector.StrokeCircle(dst, float32(c.X), float32(c.Y), float32(radius), float32(width), clr, false)
}

// StrokeArc strokes the arc of a circle from angle start to end (radians,
// clockwise on screen, 0 pointing right).
func StrokeArc(dst *ebiten.Image, c ui.Point, radius, start, end, width float64, clr color.Color) {
	if end <= start {
		return
	}
	var p vector.Path
	p.MoveTo(float32(c.X+radius*math.Cos(start)), float32(c.Y+radius*math.Sin(start)))
	p.Arc(float32(c.X), float32(c.Y), float32(radius), float32(start), float32(end), vector.Clockwise)
	Stroke(dst, &p, width, clr)
}

// Ring draws a countdown ring: a faint full track, and over it an arc from
// twelve o'clock clockwise covering frac (0..1) of the circle. A lease's
// remaining time reads as the arc's length, with or without colour.
func Ring(dst *ebiten.Image, c ui.Point, radius, width, frac float64, track, clr color.Color) {
	StrokeCircle(dst, c, radius, width, track)
	frac = math.Max(0, math.Min(1, frac))
	if frac > 0 {
		start := -math.Pi / 2
		StrokeArc(dst, c, radius, start, start+2*math.Pi*frac, width, clr)
	}
}

// Line strokes a straight line with round caps.
func Line(dst *ebiten.Image, a, b ui.Point, width float64, clr color.Color) {
	var p vector.Path
	p.MoveTo(float32(a.X), float32(a.Y))
	p.LineTo(float32(b.X), float32(b.Y))
	Stroke(dst, &p, width, clr)
}

// Arrow draws a line from a to b with a filled head at b, head pixels long.
func Arrow(dst *ebiten.Image, a, b ui.Point, width, head float64, clr color.Color) {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	ux, uy := dx/n, dy/n
	head = math.Min(head, n)
	base := ui.Point{X: b.X - ux*head, Y: b.Y - uy*head}
	Line(dst, a, base, width, clr)
	half := head * 0.55
	var p vector.Path
	p.MoveTo(float32(b.X), float32(b.Y))
	p.LineTo(float32(base.X-uy*half), float32(base.Y+ux*half))
	p.LineTo(float32(base.X+uy*half), float32(base.Y-ux*half))
	p.Close()
	Fill(dst, &p, clr)
}

// CheckMark draws ✓ as two strokes inside the square of side size centred
// on c: the accepted mark.
func CheckMark(dst *ebiten.Image, c ui.Point, size, width float64, clr color.Color) {
	s := size / 2
	var p vector.Path
	p.MoveTo(float32(c.X-s*0.75), float32(c.Y+s*0.05))
	p.LineTo(float32(c.X-s*0.2), float32(c.Y+s*0.6))
	p.LineTo(float32(c.X+s*0.8), float32(c.Y-s*0.6))
	Stroke(dst, &p, width, clr)
}

// CrossMark draws ✗ as two crossing strokes: the rejected mark.
func CrossMark(dst *ebiten.Image, c ui.Point, size, width float64, clr color.Color) {
	s := size * 0.36
	Line(dst, ui.Point{X: c.X - s, Y: c.Y - s}, ui.Point{X: c.X + s, Y: c.Y + s}, width, clr)
	Line(dst, ui.Point{X: c.X - s, Y: c.Y + s}, ui.Point{X: c.X + s, Y: c.Y - s}, width, clr)
}

// Polygon fills the polygon through pts.
func Polygon(dst *ebiten.Image, clr color.Color, pts ...ui.Point) {
	if len(pts) < 3 {
		return
	}
	var p vector.Path
	p.MoveTo(float32(pts[0].X), float32(pts[0].Y))
	for _, q := range pts[1:] {
		p.LineTo(float32(q.X), float32(q.Y))
	}
	p.Close()
	Fill(dst, &p, clr)
}
