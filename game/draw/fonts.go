package draw

import (
	_ "embed"
	"fmt"
	"math"
	"sync"

	"golang.org/x/image/font/opentype"
)

// The Go fonts, cut down to the characters the lab shows and without hinting
// by internal/tools/fontsubset: 37 kB instead of 473 kB in every download.
var (
	//go:embed fonts/regular.ttf
	regularTTF []byte
	//go:embed fonts/bold.ttf
	boldTTF []byte
	//go:embed fonts/mono.ttf
	monoTTF []byte
)

// FontKind picks one of the embedded Go fonts.
type FontKind uint8

const (
	Regular FontKind = iota
	Bold
	Mono
	fontKinds
)

// Fonts parses each font once and keeps one face per kind and size, so the
// glyphs rasterised for a size are reused by every string drawn in it.
type Fonts struct {
	fonts [fontKinds]*opentype.Font

	mu    sync.Mutex
	faces map[faceKey]*Face
}

type faceKey struct {
	kind FontKind
	size float64
}

// NewFonts parses the embedded fonts.
func NewFonts() (*Fonts, error) {
	f := &Fonts{faces: map[faceKey]*Face{}}
	for kind, ttf := range [fontKinds][]byte{regularTTF, boldTTF, monoTTF} {
		fnt, err := opentype.Parse(ttf)
		if err != nil {
			return nil, fmt.Errorf("draw: parse font %d: %w", kind, err)
		}
		f.fonts[kind] = fnt
	}
	return f, nil
}

var (
	sharedOnce  sync.Once
	sharedFonts *Fonts
)

// SharedFonts returns the process-wide font cache. The fonts are compiled
// in, so failing to parse them is a build defect and panics.
func SharedFonts() *Fonts {
	sharedOnce.Do(func() {
		f, err := NewFonts()
		if err != nil {
			panic(err)
		}
		sharedFonts = f
	})
	return sharedFonts
}

// Face returns the face of kind at size pixels, rounded to a quarter pixel
// so nearly equal sizes share one cache entry.
func (f *Fonts) Face(kind FontKind, size float64) *Face {
	size = math.Max(1, math.Round(size*4)/4)
	key := faceKey{kind, size}
	f.mu.Lock()
	defer f.mu.Unlock()
	face, ok := f.faces[key]
	if !ok {
		var err error
		if face, err = newFace(f.fonts[kind], size); err != nil {
			// opentype refuses only sizes of zero or less.
			panic(fmt.Sprintf("draw: face %d at %v px: %v", kind, size, err))
		}
		f.faces[key] = face
	}
	return face
}

// Measure returns a function giving the advance of a string in face, the
// measure ui.Wrap and ui.TextPanel take.
// Widths are remembered per frame-aged cache entry (see textcache.go):
// layout measures the same strings every frame.
func Measure(face *Face) func(string) float64 {
	return func(s string) float64 { return cachedAdvance(s, face) }
}
