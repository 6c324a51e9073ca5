package draw

import (
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/ui"
)

// A screen of prose is thousands of glyphs. Most strings repeat from frame
// to frame, so each one is rendered once, in white, into a small image
// (Ebitengine packs those into an atlas) and then drawn with one call,
// tinted. Entries not used for a while are dropped at the end of a frame.

type textKey struct {
	s    string
	face *Face
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

	// textBudget, when positive, caps the time a frame spends rasterising
	// new strings; textSpent is this frame's so far. Strings over budget are
	// skipped this frame (deferred) and drawn in a later one.
	textBudget, textSpent time.Duration
	textDeferred          bool // a string was skipped this frame
	textPending           bool // ... or in the frame before
)

// SetTextBudget caps the time one frame spends rasterising strings it has
// not drawn before (0: no cap). The browser sets it: a first screen of text
// rasterised in WebAssembly took longer than a frame should, so the first
// frames show the text as it is ready instead of one frame showing it late.
func SetTextBudget(d time.Duration) { textBudget = d }

// TextPending reports that the last frame left strings undrawn for want of
// budget, so the next frame must be drawn even if nothing else changed.
func TextPending() bool { return textPending }

type wrapKey struct {
	s    string
	face *Face
	w    float64
}

type wrapEntry struct {
	lines    []string
	lastUsed int64
}

var wrapCache = map[wrapKey]*wrapEntry{}

// Wrap is ui.Wrap measured in face, remembered: a screen wraps the same
// paragraphs at the same widths every frame. The lines are shared; append
// to them only through a copy (they are clipped, so append copies).
func Wrap(s string, width float64, face *Face) []string {
	k := wrapKey{s, face, width}
	if e := wrapCache[k]; e != nil {
		e.lastUsed = textFrame
		return e.lines
	}
	lines := slices.Clip(ui.Wrap(s, width, Measure(face)))
	wrapCache[k] = &wrapEntry{lines: lines, lastUsed: textFrame}
	return lines
}

type widthEntry struct {
	w        float64
	lastUsed int64
}

// cachedAdvance is the width of one line of s in face, remembered.
func cachedAdvance(s string, face *Face) float64 {
	k := textKey{s, face}
	if e := widthCache[k]; e != nil {
		e.lastUsed = textFrame
		return e.w
	}
	w := fixed26ToFloat(face.advance(s))
	widthCache[k] = &widthEntry{w: w, lastUsed: textFrame}
	return w
}

// pad keeps glyph edges that overhang the measured box.
const textPad = 2

func cachedText(s string, face *Face) *textEntry {
	k := textKey{s, face}
	if e := textCache[k]; e != nil {
		e.lastUsed = textFrame
		return e
	}
	ls := LineHeight(face)
	w, h := face.measure(s, ls)
	e := &textEntry{w: w, h: h, lastUsed: textFrame}
	if textBudget > 0 && textSpent >= textBudget {
		textDeferred = true
		return e // not cached: rasterised in a later frame
	}
	start := time.Now()
	defer func() { textSpent += time.Since(start) }()
	// The budget is checked before every glyph not rasterised yet, not
	// only before each string: one new paragraph's glyphs cost tens of
	// milliseconds in WebAssembly. A string begun within the budget makes
	// at least one glyph, so every frame makes progress.
	first := true
	more := func() bool {
		ok := first || textBudget <= 0 || textSpent+time.Since(start) < textBudget
		first = false
		return ok
	}
	if w > 0 && h > 0 && !face.prepare(s, ls, more) {
		textDeferred = true
		return e // its remaining glyphs come in a later frame
	}
	if w > 0 && h > 0 {
		if a := face.render(s, ls, w, h, textPad); a != nil {
			e.img = ebiten.NewImage(a.Rect.Dx(), a.Rect.Dy())
			e.img.WritePixels(whiteCoverage(a.Pix))
		}
	}
	textCache[k] = e
	return e
}

// whiteCoverage is coverage as premultiplied white RGBA, what WritePixels
// takes.
func whiteCoverage(alpha []byte) []byte {
	px := make([]byte, 4*len(alpha))
	for i, a := range alpha {
		px[4*i], px[4*i+1], px[4*i+2], px[4*i+3] = a, a, a, a
	}
	return px
}

// EndFrame ages the text cache; the game calls it once per drawn frame.
func EndFrame() {
	Flush()
	textFrame++
	textSpent, textPending, textDeferred = 0, textDeferred, false
	endFrameTexts()
	if textFrame%30 != 0 {
		return
	}
	endFrameShapes()
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
	for k, e := range wrapCache {
		if textFrame-e.lastUsed > textCacheLife {
			delete(wrapCache, k)
		}
	}
}
