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

// TextHeight is the height of one line's box in face: its ascent and
// descent, what a row must hold for the text to stay inside it.
func TextHeight(face *Face) float64 { m := face.Metrics(); return m.HAscent + m.HDescent }

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
	ink := textAt(dst, s, face, x, y, h, v, clr)
	record(Drawn{Text: s, Ink: ink, Colour: rgba(clr), Size: face.Size}, dst.Bounds())
}

// textOptions is textAt's, reset per call: one value, not an allocation a
// draw.
var textOptions ebiten.DrawImageOptions

// textAt draws s as TextAligned does and returns the rectangle of its box.
func textAt(dst *ebiten.Image, s string, face *Face, x, y float64, h, v Align, clr color.Color) ui.Rect {
	e := cachedText(s, face)
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
	ink := ui.Rect{X: math.Round(x), Y: math.Round(y), W: e.w, H: e.h}
	if e.img == nil {
		return ink
	}
	Flush() // the shapes under it first
	op := &textOptions
	*op = ebiten.DrawImageOptions{}
	op.GeoM.Translate(ink.X-textPad, ink.Y-textPad)
	op.ColorScale.ScaleWithColor(clr)
	dst.DrawImage(e.img, op)
	return ink
}

// TextIn draws s on one line centred vertically in r, aligned horizontally
// by h, and cut with an ellipsis if it is wider than r. Text that may not
// fit and has no room to wrap is drawn with TextInTip instead.
func TextIn(dst *ebiten.Image, s string, face *Face, r ui.Rect, h Align, clr color.Color) {
	textIn(dst, s, face, r, h, clr, false)
}

// TextInTip is TextIn for text that may be cut: when it is, the whole of
// it shows in a FullTextTip while the pointer rests on r or the focus is
// on it.
func TextInTip(dst *ebiten.Image, s string, face *Face, r ui.Rect, h Align, clr color.Color) {
	textIn(dst, s, face, r, h, clr, true)
}

// ClausesInTip is TextInTip for a sentence: too long for r, it is cut
// after its last clause that fits (ui.Clauses), with no ellipsis, and
// the whole of it shows in a FullTextTip as TextInTip's does.
func ClausesInTip(dst *ebiten.Image, s string, face *Face, r ui.Rect, h Align, clr color.Color) {
	textShown(dst, s, ui.Clauses(s, r.W, Measure(face)), face, r, h, clr, true)
}

// ShortInTip draws short, a shorter wording of whole chosen to fit r,
// with the whole wording in a FullTextTip as TextInTip's (short is
// itself cut with an ellipsis if it does not fit either).
func ShortInTip(dst *ebiten.Image, whole, short string, face *Face, r ui.Rect, h Align, clr color.Color) {
	textShown(dst, whole, ui.Ellipsize(short, r.W, Measure(face)), face, r, h, clr, true)
}

// FirstFitInTip draws whole if it fits r, else the first of shorter (each
// a complete, shorter wording of it, longest first) that fits, with the
// whole in a FullTextTip as TextInTip's; only when none fits is the last
// cut with an ellipsis.
func FirstFitInTip(dst *ebiten.Image, whole string, shorter []string, face *Face, r ui.Rect, h Align, clr color.Color) {
	textShown(dst, whole, FirstFit(whole, shorter, face, r.W), face, r, h, clr, true)
}

// OneFace is the face a set of labels of one kind is drawn in, each
// on a line w wide: the first of faces (largest first) every one of
// texts fits, else the last. Labels of one kind in two sizes read as two
// kinds (issue 29).
func OneFace(texts []string, w float64, faces ...*Face) *Face {
	for _, f := range faces[:len(faces)-1] {
		m, fits := Measure(f), true
		for _, t := range texts {
			fits = fits && m(t) <= w
		}
		if fits {
			return f
		}
	}
	return faces[len(faces)-1]
}

// FirstFit is what FirstFitInTip shows.
func FirstFit(whole string, shorter []string, face *Face, w float64) string {
	m := Measure(face)
	if m(whole) <= w || len(shorter) == 0 {
		return ui.Ellipsize(whole, w, m)
	}
	for _, s := range shorter {
		if m(s) <= w {
			return s
		}
	}
	return ui.Ellipsize(shorter[len(shorter)-1], w, m)
}

func textIn(dst *ebiten.Image, s string, face *Face, r ui.Rect, h Align, clr color.Color, tip bool) {
	textShown(dst, s, ui.Ellipsize(s, r.W, Measure(face)), face, r, h, clr, tip)
}

// textShown draws shown, which is s or a shortening of s that fits r.
func textShown(dst *ebiten.Image, s, shown string, face *Face, r ui.Rect, h Align, clr color.Color, tip bool) {
	cut := shown != s
	if cut && tip {
		cutText(r, s)
	}
	x := r.X
	switch h {
	case AlignCenter:
		x = r.X + r.W/2
	case AlignEnd:
		x = r.MaxX()
	}
	ink := textAt(dst, shown, face, x, r.Y+r.H/2, h, AlignCenter, clr)
	record(Drawn{Text: shown, Full: s, Box: r, Ink: ink, Cut: cut, Tip: cut && tip, Colour: rgba(clr), Size: face.Size}, dst.Bounds())
}

// Paragraph wraps s to r's width and draws as many lines as fit in r,
// returning the height used. It is for short fixed text (hints, labels);
// long text belongs in a ui.TextPanel, which scrolls. ParagraphHeight is
// the height s needs, to lay r out so that nothing is dropped.
func Paragraph(dst *ebiten.Image, s string, face *Face, r ui.Rect, clr color.Color) float64 {
	return paragraph(dst, s, face, r, clr, false)
}

// ParagraphTip is Paragraph for text that may not fit its box: the last
// line that fits ends with an ellipsis, and the whole text shows in a
// FullTextTip while the pointer rests on r or the focus is on it.
func ParagraphTip(dst *ebiten.Image, s string, face *Face, r ui.Rect, clr color.Color) float64 {
	return paragraph(dst, s, face, r, clr, true)
}

// ParagraphFirstFitTip is ParagraphTip for a text with shorter wordings
// of its own (each complete, longest first): where whole does not fit r,
// the first of shorter that does is drawn, with the whole in a
// FullTextTip; only when none fits is the last cut with an ellipsis.
func ParagraphFirstFitTip(dst *ebiten.Image, whole string, shorter []string, face *Face, r ui.Rect, clr color.Color) float64 {
	if len(shorter) == 0 || ParagraphHeight(whole, face, r.W) <= r.H+0.5 {
		return paragraph(dst, whole, face, r, clr, true)
	}
	for _, s := range shorter {
		if ParagraphHeight(s, face, r.W) <= r.H+0.5 {
			cutText(r, whole)
			lh, y := LineHeight(face), r.Y
			for _, line := range Wrap(s, r.W, face) {
				ink := textAt(dst, line, face, r.X, y+halfLeading(face), AlignStart, AlignStart, clr)
				record(Drawn{Text: line, Full: whole, Box: r, Ink: ink, Cut: true, Tip: true, Colour: rgba(clr), Size: face.Size}, dst.Bounds())
				y += lh
			}
			return y - r.Y
		}
	}
	return paragraph(dst, shorter[len(shorter)-1], face, r, clr, true)
}

func paragraph(dst *ebiten.Image, s string, face *Face, r ui.Rect, clr color.Color, tip bool) float64 {
	lh := LineHeight(face)
	lines := Wrap(s, r.W, face)
	fit := min(len(lines), int(math.Floor((r.H+0.5)/lh)))
	cut := fit < len(lines)
	if cut && tip && fit > 0 {
		lines = append(lines[:fit-1:fit-1], ui.Ellipsize(strings.Join(lines[fit-1:], " "), r.W, Measure(face)))
		cutText(r, s)
	}
	y := r.Y
	for i, line := range lines[:fit] {
		ink := textAt(dst, line, face, r.X, y+halfLeading(face), AlignStart, AlignStart, clr)
		d := Drawn{Text: line, Box: r, Ink: ink, Colour: rgba(clr), Size: face.Size}
		if cut && tip && i == fit-1 {
			d.Full, d.Cut, d.Tip = s, true, true // the line that ends with the ellipsis
		}
		record(d, dst.Bounds())
		y += lh
	}
	if cut && (!tip || fit == 0) {
		// What is lost, recorded as one cut.
		record(Drawn{Text: strings.Join(lines[:fit], " "), Full: s, Box: r, Ink: ui.Rect{X: r.X, Y: r.Y, W: r.W, H: y - r.Y}, Cut: true, Colour: rgba(clr), Size: face.Size}, dst.Bounds())
	}
	return y - r.Y
}

// ParagraphHeight is the height Paragraph needs to draw all of s at
// width w.
func ParagraphHeight(s string, face *Face, w float64) float64 {
	return float64(len(Wrap(s, w, face))) * LineHeight(face)
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
