package draw

import (
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/ui"
)

// Align places text against a point: its start (left or top), centre or end.
type Align uint8

const (
	AlignStart Align = iota
	AlignCenter
	AlignEnd
)

// LineHeight is the distance between baselines used for face: 1.4 em, which
// reads comfortably for prose.
func LineHeight(face *Face) float64 { return math.Ceil(face.Size * 1.4) }

// Text draws one line of s with its top-left corner at (x, y).
func Text(dst *ebiten.Image, s string, face *Face, x, y float64, clr color.Color) {
	TextAligned(dst, s, face, x, y, AlignStart, AlignStart, clr)
}

// TextAligned draws s positioned at (x, y) by the given alignments: with
// AlignCenter on both, (x, y) is the text's centre.
func TextAligned(dst *ebiten.Image, s string, face *Face, x, y float64, h, v Align, clr color.Color) {
	e := cachedText(s, face)
	if e.img == nil {
		return
	}
	switch h {
	case AlignCenter:
		x -= e.w / 2
	case AlignEnd:
		x -= e.w
	}
	switch v {
	case AlignCenter:
		y -= e.h / 2
	case AlignEnd:
		y -= e.h
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(math.Round(x)-textPad, math.Round(y)-textPad)
	op.ColorScale.ScaleWithColor(clr)
	dst.DrawImage(e.img, op)
}

// TextIn draws s on one line centred vertically in r, aligned horizontally
// by h, and cut with an ellipsis if it is wider than r.
func TextIn(dst *ebiten.Image, s string, face *Face, r ui.Rect, h Align, clr color.Color) {
	s = ui.Ellipsize(s, r.W, Measure(face))
	x := r.X
	switch h {
	case AlignCenter:
		x = r.X + r.W/2
	case AlignEnd:
		x = r.MaxX()
	}
	TextAligned(dst, s, face, x, r.Y+r.H/2, h, AlignCenter, clr)
}

// Paragraph wraps s to r's width and draws as many lines as fit in r,
// returning the height used. It is for short fixed text (hints, labels);
// long text belongs in a ui.TextPanel, which scrolls.
func Paragraph(dst *ebiten.Image, s string, face *Face, r ui.Rect, clr color.Color) float64 {
	lh := LineHeight(face)
	y := r.Y
	for _, line := range ui.Wrap(s, r.W, Measure(face)) {
		if y+lh > r.MaxY()+0.5 {
			break
		}
		Text(dst, line, face, r.X, y+halfLeading(face), clr)
		y += lh
	}
	return y - r.Y
}

// halfLeading is the space above a line's glyph box within LineHeight, so
// the glyphs sit in the middle of their line.
func halfLeading(face *Face) float64 {
	m := face.Metrics()
	return math.Round((LineHeight(face) - m.HAscent - m.HDescent) / 2)
}

// glyphless spells out the few characters of the lab's text that the
// embedded fonts have no glyph for (the HTML mirror keeps the originals).
var glyphless = strings.NewReplacer("⌈", "ceil(", "⌉", ")", "⌊", "floor(", "⌋", ")", "▶", ">", "✓", "ok", "✗", "x")

// Drawable is s with the characters the fonts cannot draw spelled out.
func Drawable(s string) string { return glyphless.Replace(s) }
