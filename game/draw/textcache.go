package draw

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Text is drawn glyph by glyph by text/v2: a screen of prose is thousands of
// draw calls a frame. Most strings repeat from frame to frame, so each one
// is rendered once, in white, into a small image (Ebitengine packs those
// into an atlas) and then drawn with one call, tinted. Entries not used for
// a while are dropped at the end of a frame.

type textKey struct {
	s    string
	face *text.GoTextFace
}

type textEntry struct {
	img      *ebiten.Image
	w, h     float64 // the text's measured size
	lastUsed int64
}

// textCacheLife is how many frames an unused entry survives.
const textCacheLife = 120

var (
	textCache  = map[textKey]*textEntry{}
	widthCache = map[textKey]*widthEntry{}
	textFrame  int64
)

type widthEntry struct {
	w        float64
	lastUsed int64
}

// cachedAdvance is text.Advance, remembered.
func cachedAdvance(s string, face *text.GoTextFace) float64 {
	k := textKey{s, face}
	if e := widthCache[k]; e != nil {
		e.lastUsed = textFrame
		return e.w
	}
	w := text.Advance(s, face)
	widthCache[k] = &widthEntry{w: w, lastUsed: textFrame}
	return w
}

// pad keeps glyph edges that overhang the measured box.
const textPad = 2

func cachedText(s string, face *text.GoTextFace) *textEntry {
	k := textKey{s, face}
	if e := textCache[k]; e != nil {
		e.lastUsed = textFrame
		return e
	}
	ls := LineHeight(face)
	w, h := text.Measure(s, face, ls)
	e := &textEntry{w: w, h: h, lastUsed: textFrame}
	iw, ih := int(math.Ceil(w))+2*textPad, int(math.Ceil(h))+2*textPad
	if iw > 2*textPad && ih > 2*textPad {
		e.img = ebiten.NewImage(iw, ih)
		op := &text.DrawOptions{}
		op.GeoM.Translate(textPad, textPad)
		op.LineSpacing = ls
		text.Draw(e.img, s, face, op)
	}
	textCache[k] = e
	return e
}

// EndFrame ages the text cache; the game calls it once per drawn frame.
func EndFrame() {
	textFrame++
	if textFrame%30 != 0 {
		return
	}
	for k, e := range textCache {
		if textFrame-e.lastUsed > textCacheLife {
			if e.img != nil {
				e.img.Deallocate()
			}
			delete(textCache, k)
		}
	}
	for k, e := range widthCache {
		if textFrame-e.lastUsed > textCacheLife {
			delete(widthCache, k)
		}
	}
}
