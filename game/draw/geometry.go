package draw

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// Most shapes on a screen are the same from frame to frame (a button's
// outline, a panel's corners, the timeline's ticks), and turning a path
// into triangles was the biggest part of a frame's CPU: a round-joined
// stroke is arcs of small segments. So each shape's triangles are kept,
// keyed by what it is and where, and reused while it is drawn; only its
// colour is set per draw. Shapes not drawn for a while are dropped at the
// end of a frame, as the text cache's entries are.

type shapeKind uint8

const (
	shapeFillRoundRect shapeKind = iota
	shapeStrokeRoundRect
	shapeArc
	shapeLine
	shapeCheck
	shapeTriangle
	shapeCircle
	shapeStrokeCircle
)

// shapeKey is a shape's kind and the numbers that fix its triangles.
type shapeKey struct {
	kind shapeKind
	p    [7]float32
}

type shapeEntry struct {
	vs       []ebiten.Vertex // positions only: paint sets colour and source
	is       []uint16
	lastUsed int64
}

// shapeCacheLife is how many frames an unused shape survives: long enough
// for a screen that comes back (a hover, a tab), short enough that a shape
// that moves every frame leaves little behind.
const shapeCacheLife = 30

var (
	shapeCache = map[shapeKey]*shapeEntry{}
	// scratch is where an uncached path's triangles are built before
	// paint copies them into the batch.
	scratch []ebiten.Vertex
)

// strokeOptions is the lab's strokes': round joins and caps.
func strokeOptions(width float32) *vector.StrokeOptions {
	return &vector.StrokeOptions{Width: width, LineJoin: vector.LineJoinRound, LineCap: vector.LineCapRound}
}

// fillConvex draws the convex shape of k, filled, building its triangles
// with path the first time. A convex path's triangle fan covers each pixel
// once, so it needs no winding rule: FillRuleFillAll draws it in one pass
// where the non-zero rule takes a stencil pass and a draw call of its own.
func fillConvex(dst *ebiten.Image, k shapeKey, path func() *vector.Path, clr color.Color) {
	cachedShape(dst, k, clr, func() ([]ebiten.Vertex, []uint16) {
		return path().AppendVerticesAndIndicesForFilling(nil, nil)
	})
}

// strokeShape draws the shape of k as a stroke with options op.
func strokeShape(dst *ebiten.Image, k shapeKey, op *vector.StrokeOptions, path func() *vector.Path, clr color.Color) {
	cachedShape(dst, k, clr, func() ([]ebiten.Vertex, []uint16) {
		return path().AppendVerticesAndIndicesForStroke(nil, nil, op)
	})
}

// cachedShape paints the triangles of k, made by build the first time.
func cachedShape(dst *ebiten.Image, k shapeKey, clr color.Color, build func() ([]ebiten.Vertex, []uint16)) {
	e := shapeCache[k]
	if e == nil {
		e = &shapeEntry{}
		e.vs, e.is = build()
		shapeCache[k] = e
	}
	e.lastUsed = textFrame
	paint(dst, e.vs, e.is, clr, ebiten.FillRuleFillAll)
}

// endFrameShapes drops the shapes not drawn for shapeCacheLife frames.
func endFrameShapes() {
	for k, e := range shapeCache {
		if textFrame-e.lastUsed > shapeCacheLife {
			delete(shapeCache, k)
		}
	}
}
