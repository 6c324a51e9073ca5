package draw

import (
	"image"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Face is one embedded font at one pixel size, rasterised on the CPU by
// x/image's opentype package.
//
// The lab used Ebitengine's text/v2 with text.GoTextFace, whose shaper
// (go-text/typesetting, with the image decoders and language tables it
// registers) was a quarter of the browser build. The lab's text is
// left-to-right Latin in three Go fonts: it needs kerning, which opentype
// applies, and no shaping. Strings are drawn once into a cached image
// (textcache.go), so glyphs are composed here, on the CPU, and each string
// costs one upload.
type Face struct {
	x font.Face
	// Size is the em size in pixels.
	Size            float64
	ascent, descent float64
	ascent26        fixed.Int26_6
	glyphs          map[glyphKey]*glyph
	advances        map[rune]fixed.Int26_6
	kerns           map[[2]rune]fixed.Int26_6
}

// Metrics are a face's vertical measures in pixels.
type Metrics struct {
	// HAscent is the distance from the top of a line to its baseline, and
	// HDescent from the baseline to the bottom.
	HAscent, HDescent float64
}

// glyphKey is a rune at one of subpixelSteps horizontal offsets: pens land
// between pixels, and a glyph rasterised for one offset looks blurred or
// uneven at another.
type glyphKey struct {
	r   rune
	sub fixed.Int26_6
}

const subpixelSteps = 4

// glyph is a rasterised glyph: its coverage and where its top-left corner
// lies from the (whole-pixel) pen position.
type glyph struct {
	mask *image.Alpha
	off  image.Point
}

func newFace(f *opentype.Font, size float64) (*Face, error) {
	// At 72 DPI a point is a pixel. Hinting stays off: hinted advances are
	// whole pixels, which makes prose uneven at the small sizes a phone gets.
	x, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, err
	}
	m := x.Metrics()
	return &Face{
		x: x, Size: size,
		ascent: fixed26ToFloat(m.Ascent), descent: fixed26ToFloat(m.Descent), ascent26: m.Ascent,
		glyphs: map[glyphKey]*glyph{}, advances: map[rune]fixed.Int26_6{}, kerns: map[[2]rune]fixed.Int26_6{},
	}, nil
}

// Metrics reports the face's ascent and descent.
func (f *Face) Metrics() Metrics { return Metrics{HAscent: f.ascent, HDescent: f.descent} }

// Has reports whether the font has a glyph for r.
func (f *Face) Has(r rune) bool {
	_, ok := f.x.GlyphAdvance(r)
	return ok
}

func (f *Face) advanceOf(r rune) fixed.Int26_6 {
	a, ok := f.advances[r]
	if !ok {
		a, _ = f.x.GlyphAdvance(r)
		f.advances[r] = a
	}
	return a
}

// kern is the kerning between a and b, remembered: sfnt looks each pair
// up in the font's tables, which in WebAssembly costs more than the rest of
// measuring a string.
func (f *Face) kern(a, b rune) fixed.Int26_6 {
	k, ok := f.kerns[[2]rune{a, b}]
	if !ok {
		k = f.x.Kern(a, b)
		f.kerns[[2]rune{a, b}] = k
	}
	return k
}

// advance is the width of one line of s, kerning included.
func (f *Face) advance(s string) fixed.Int26_6 {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += f.kern(prev, r)
		}
		w += f.advanceOf(r)
		prev = r
	}
	return w
}

// measure is the size of s's box: its widest line, and its lines stacked
// lineHeight apart (the first one ascent + descent tall).
func (f *Face) measure(s string, lineHeight float64) (w, h float64) {
	if s == "" {
		return 0, 0
	}
	lines := 0
	for line := range strings.SplitSeq(s, "\n") {
		lines++
		w = max(w, fixed26ToFloat(f.advance(line)))
	}
	return w, float64(lines-1)*lineHeight + f.ascent + f.descent
}

// glyph returns r rasterised at the subpixel offset sub, or nil for a rune
// with no ink (a space) or no glyph.
func (f *Face) glyph(r rune, sub fixed.Int26_6) *glyph {
	k := glyphKey{r, sub}
	if g, ok := f.glyphs[k]; ok {
		return g
	}
	var g *glyph
	dr, mask, mp, _, ok := f.x.Glyph(fixed.Point26_6{X: sub, Y: f.ascent26}, r)
	if ok && !dr.Empty() {
		// Copy out: opentype reuses its mask buffer for the next glyph.
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		src, isAlpha := mask.(*image.Alpha)
		for y := 0; y < dr.Dy(); y++ {
			if isAlpha {
				copy(a.Pix[y*a.Stride:y*a.Stride+dr.Dx()], src.Pix[src.PixOffset(mp.X, mp.Y+y):])
				continue
			}
			for x := 0; x < dr.Dx(); x++ {
				_, _, _, ma := mask.At(mp.X+x, mp.Y+y).RGBA()
				a.Pix[y*a.Stride+x] = uint8(ma >> 8)
			}
		}
		g = &glyph{mask: a, off: dr.Min}
	}
	f.glyphs[k] = g
	return g
}

// eachGlyph walks s as render lays it out: for every rune, its glyph key
// and the whole-pixel pen position (x, baseline-relative top y) in an
// image with pad pixels on every side. It stops when fn returns false and
// reports whether it walked every rune.
func (f *Face) eachGlyph(s string, lineHeight float64, pad int, fn func(k glyphKey, x, y int) bool) bool {
	top := 0.0
	for line := range strings.SplitSeq(s, "\n") {
		pen := fixed.I(pad)
		y := pad + int(top+0.5)
		prev := rune(-1)
		for _, r := range line {
			if prev >= 0 {
				pen += f.kern(prev, r)
			}
			prev = r
			whole := pen.Floor()
			sub := (pen - fixed.I(whole)) / (64 / subpixelSteps) * (64 / subpixelSteps)
			if !fn(glyphKey{r, sub}, whole, y) {
				return false
			}
			pen += f.advanceOf(r)
		}
		top += lineHeight
	}
	return true
}

// prepare rasterises the glyphs of s that are not cached yet, asking more
// before each one, and reports whether all of them are ready. Glyphs made
// before more said no stay cached, so a string too costly for one frame is
// finished over several.
func (f *Face) prepare(s string, lineHeight float64, more func() bool) bool {
	return f.eachGlyph(s, lineHeight, 0, func(k glyphKey, _, _ int) bool {
		if _, ok := f.glyphs[k]; ok {
			return true
		}
		if !more() {
			return false
		}
		f.glyph(k.r, k.sub)
		return true
	})
}

// render draws s, white, into a new coverage image with pad pixels on every
// side: the first line's top at pad, lines lineHeight apart. It returns nil
// when s has no ink.
func (f *Face) render(s string, lineHeight float64, w, h float64, pad int) *image.Alpha {
	iw, ih := ceil(w)+2*pad, ceil(h)+2*pad
	dst := image.NewAlpha(image.Rect(0, 0, iw, ih))
	inked := false
	f.eachGlyph(s, lineHeight, pad, func(k glyphKey, x, y int) bool {
		if g := f.glyph(k.r, k.sub); g != nil {
			blendOver(dst, g.mask, x+g.off.X, y+g.off.Y)
			inked = true
		}
		return true
	})
	if !inked {
		return nil
	}
	return dst
}

// blendOver lays coverage src over dst with its top-left at (x, y),
// clipped to dst.
func blendOver(dst, src *image.Alpha, x, y int) {
	b := src.Bounds().Add(image.Pt(x, y)).Intersect(dst.Bounds())
	for py := b.Min.Y; py < b.Max.Y; py++ {
		d := dst.Pix[py*dst.Stride+b.Min.X : py*dst.Stride+b.Max.X]
		s := src.Pix[(py-y)*src.Stride+b.Min.X-x:]
		for i := range d {
			d[i] += uint8(uint32(s[i]) * uint32(255-d[i]) / 255)
		}
	}
}

func fixed26ToFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

func ceil(v float64) int {
	i := int(v)
	if float64(i) < v {
		i++
	}
	return i
}
