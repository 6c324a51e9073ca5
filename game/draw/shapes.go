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

// Fill fills path (non-zero winding) with clr. The shapes below keep their
// triangles from frame to frame (geometry.go); Fill and Stroke build them
// every call, for paths drawn once.
func Fill(dst *ebiten.Image, path *vector.Path, clr color.Color) {
	vs, is := path.AppendVerticesAndIndicesForFilling(scratch[:0], nil)
	scratch = vs[:0]
	paint(dst, vs, is, clr, ebiten.FillRuleNonZero)
}

// Stroke strokes path with lines width pixels wide.
func Stroke(dst *ebiten.Image, path *vector.Path, width float64, clr color.Color) {
	vs, is := path.AppendVerticesAndIndicesForStroke(scratch[:0], nil, strokeOptions(float32(width)))
	scratch = vs[:0]
	paint(dst, vs, is, clr, ebiten.FillRuleFillAll)
}

// paint draws the triangles of shape (vs, is) in clr. shape is only
// read. Shapes drawn one after another on the same image with no winding
// rule go into one batch, drawn by a single DrawTriangles when something
// else is drawn (Flush): each call into Ebitengine costs more than the
// triangles of a button. A winding rule needs a pass of its own, so such a
// shape ends the batch and is drawn at once.
func paint(dst *ebiten.Image, shape []ebiten.Vertex, is []uint16, clr color.Color, rule ebiten.FillRule) {
	if len(is) == 0 {
		return
	}
	if rule != ebiten.FillRuleFillAll || batch.dst != dst || len(batch.vs)+len(shape) > math.MaxUint16 {
		Flush()
	}
	base := len(batch.vs)
	batch.vs = append(batch.vs, shape...)
	r, g, b, a := clr.RGBA()
	cr, cg, cb, ca := float32(r)/0xffff, float32(g)/0xffff, float32(b)/0xffff, float32(a)/0xffff
	vs := batch.vs[base:]
	for i := range vs {
		vs[i].SrcX, vs[i].SrcY = 1, 1
		vs[i].ColorR, vs[i].ColorG, vs[i].ColorB, vs[i].ColorA = cr, cg, cb, ca
	}
	for _, i := range is {
		batch.is = append(batch.is, i+uint16(base))
	}
	batch.dst = dst
	if rule != ebiten.FillRuleFillAll {
		paintOptions.FillRule = rule
		Flush()
	}
}

// batch is the shapes painted but not yet handed to Ebitengine.
var batch struct {
	dst *ebiten.Image
	vs  []ebiten.Vertex
	is  []uint16
}

// Flush draws the shapes painted since the last flush. Text, the end of a
// frame and anything that draws on or from an image without this package
// call it first, so what is drawn keeps its order.
func Flush() {
	if batch.dst != nil && len(batch.is) > 0 {
		batch.dst.DrawTriangles(batch.vs, batch.is, white, &paintOptions)
	}
	batch.dst, batch.vs, batch.is = nil, batch.vs[:0], batch.is[:0]
	paintOptions.FillRule = ebiten.FillRuleFillAll
}

// Background fills dst with clr, after the shapes already painted on it.
func Background(dst *ebiten.Image, clr color.Color) {
	Flush()
	dst.Fill(clr)
}

// paintOptions is paint's, set per call: one value, not an allocation a
// draw. No AntiAlias: Ebitengine implements it with a double-size
// offscreen per draw call, sized to the shape, so a screen of a hundred
// shapes between text draws allocates a hundred textures a frame (about
// one frame a second on a software renderer). game.Game supersamples the
// whole screen instead.
var paintOptions = ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}

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
	k := shapeKey{kind: shapeFillRoundRect, p: [7]float32{float32(r.X), float32(r.Y), float32(r.W), float32(r.H), float32(radius)}}
	fillConvex(dst, k, func() *vector.Path { return RoundRectPath(r, radius) }, clr)
}

// StrokeRoundRect outlines r with rounded corners; the line is centred on
// r's edge inset by half its width, so it stays inside r.
func StrokeRoundRect(dst *ebiten.Image, r ui.Rect, radius, width float64, clr color.Color) {
	in := r.Inset(width / 2)
	if in.Empty() {
		return
	}
	k := shapeKey{kind: shapeStrokeRoundRect, p: [7]float32{float32(r.X), float32(r.Y), float32(r.W), float32(r.H), float32(radius), float32(width)}}
	strokeShape(dst, k, strokeOptions(float32(width)), func() *vector.Path { return RoundRectPath(in, radius-width/2) }, clr)
}

// FillRect fills r with clr: the two triangles vector.DrawFilledRect
// makes, without building a path.
func FillRect(dst *ebiten.Image, r ui.Rect, clr color.Color) {
	x0, y0 := float32(r.X), float32(r.Y)
	x1, y1 := x0+float32(r.W), y0+float32(r.H)
	vs := append(scratch[:0],
		ebiten.Vertex{DstX: x0, DstY: y0}, ebiten.Vertex{DstX: x0, DstY: y1},
		ebiten.Vertex{DstX: x1, DstY: y1}, ebiten.Vertex{DstX: x1, DstY: y0})
	scratch = vs[:0]
	paint(dst, vs, rectIndices, clr, ebiten.FillRuleFillAll)
}

var rectIndices = []uint16{0, 1, 2, 0, 2, 3}

// FillCircle fills a circle.
func FillCircle(dst *ebiten.Image, c ui.Point, radius float64, clr color.Color) {
	k := shapeKey{kind: shapeCircle, p: [7]float32{float32(c.X), float32(c.Y), float32(radius)}}
	fillConvex(dst, k, func() *vector.Path { return circlePath(c, radius) }, clr)
}

// StrokeCircle outlines a circle.
func StrokeCircle(dst *ebiten.Image, c ui.Point, radius, width float64, clr color.Color) {
	k := shapeKey{kind: shapeStrokeCircle, p: [7]float32{float32(c.X), float32(c.Y), float32(radius), float32(width)}}
	// vector.StrokeCircle's stroke: a closed path, mitred (the default).
	strokeShape(dst, k, &vector.StrokeOptions{Width: float32(width)}, func() *vector.Path {
		p := circlePath(c, radius)
		p.Close()
		return p
	}, clr)
}

// circlePath is the circle vector.DrawFilledCircle and vector.StrokeCircle
// draw.
func circlePath(c ui.Point, radius float64) *vector.Path {
	var p vector.Path
	p.Arc(float32(c.X), float32(c.Y), float32(radius), 0, 2*math.Pi, vector.Clockwise)
	return &p
}

// StrokeArc strokes the arc of a circle from angle start to end (radians,
// clockwise on screen, 0 pointing right), with round ends. A countdown's
// arc changes every frame, so its triangles are made directly, a strip
// between the inner and outer circle and a fan for each end, not through a
// path's stroker (which joins each of the arc's segments to the next).
func StrokeArc(dst *ebiten.Image, c ui.Point, radius, start, end, width float64, clr color.Color) {
	if end <= start || width <= 0 {
		return
	}
	vs, is := arcStrip(scratch[:0], arcIndices[:0], c, radius, start, end, width/2)
	scratch = vs[:0]
	arcIndices = is[:0]
	paint(dst, vs, is, clr, ebiten.FillRuleFillAll)
}

// arcIndices is StrokeArc's index buffer, as scratch is its vertices'.
var arcIndices []uint16

// arcStrip appends the triangles of a round-ended arc of half-width hw.
// Segments are at most 0.15 rad (under a pixel off the true circle for the
// lab's ring sizes).
func arcStrip(vs []ebiten.Vertex, is []uint16, c ui.Point, radius, start, end, hw float64) ([]ebiten.Vertex, []uint16) {
	n := int(math.Ceil((end - start) / 0.15))
	in, out := math.Max(0, radius-hw), radius+hw
	at := func(r, a float64) ebiten.Vertex {
		sin, cos := math.Sincos(a)
		return ebiten.Vertex{DstX: float32(c.X + r*cos), DstY: float32(c.Y + r*sin)}
	}
	for i := 0; i <= n; i++ {
		a := start + (end-start)*float64(i)/float64(n)
		vs = append(vs, at(in, a), at(out, a))
		if i > 0 {
			k := uint16(2 * i)
			is = append(is, k-2, k-1, k+1, k-2, k+1, k)
		}
	}
	// Each end: a half disc of radius hw on the arc's end point, facing
	// away from the arc.
	const capSteps = 6
	for _, e := range [2]struct{ a, dir float64 }{{start, -1}, {end, 1}} {
		sin, cos := math.Sincos(e.a)
		p := ui.Point{X: c.X + radius*cos, Y: c.Y + radius*sin}
		centre := uint16(len(vs))
		vs = append(vs, ebiten.Vertex{DstX: float32(p.X), DstY: float32(p.Y)})
		for j := 0; j <= capSteps; j++ {
			// From the inner circle (t = 0) round to the outer (t = pi),
			// through the tangent pointing out of the arc.
			t := math.Pi * float64(j) / capSteps
			tx, ty := -sin*e.dir, cos*e.dir // tangent, out of the arc
			st, ct := math.Sincos(t)
			dx, dy := -cos*ct+tx*st, -sin*ct+ty*st
			vs = append(vs, ebiten.Vertex{DstX: float32(p.X + hw*dx), DstY: float32(p.Y + hw*dy)})
			if j > 0 {
				k := uint16(len(vs) - 1)
				is = append(is, centre, k-1, k)
			}
		}
	}
	return vs, is
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
	k := shapeKey{kind: shapeLine, p: [7]float32{float32(a.X), float32(a.Y), float32(b.X), float32(b.Y), float32(width)}}
	strokeShape(dst, k, strokeOptions(float32(width)), func() *vector.Path {
		var p vector.Path
		p.MoveTo(float32(a.X), float32(a.Y))
		p.LineTo(float32(b.X), float32(b.Y))
		return &p
	}, clr)
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
	tip, left, right := b, ui.Point{X: base.X - uy*half, Y: base.Y + ux*half}, ui.Point{X: base.X + uy*half, Y: base.Y - ux*half}
	k := shapeKey{kind: shapeTriangle, p: [7]float32{float32(tip.X), float32(tip.Y), float32(left.X), float32(left.Y), float32(right.X), float32(right.Y)}}
	fillConvex(dst, k, func() *vector.Path {
		var p vector.Path
		p.MoveTo(float32(tip.X), float32(tip.Y))
		p.LineTo(float32(left.X), float32(left.Y))
		p.LineTo(float32(right.X), float32(right.Y))
		p.Close()
		return &p
	}, clr)
}

// CheckMark draws ✓ as two strokes inside the square of side size centred
// on c: the accepted mark.
func CheckMark(dst *ebiten.Image, c ui.Point, size, width float64, clr color.Color) {
	s := size / 2
	k := shapeKey{kind: shapeCheck, p: [7]float32{float32(c.X), float32(c.Y), float32(size), float32(width)}}
	strokeShape(dst, k, strokeOptions(float32(width)), func() *vector.Path {
		var p vector.Path
		p.MoveTo(float32(c.X-s*0.75), float32(c.Y+s*0.05))
		p.LineTo(float32(c.X-s*0.2), float32(c.Y+s*0.6))
		p.LineTo(float32(c.X+s*0.8), float32(c.Y-s*0.6))
		return &p
	}, clr)
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
