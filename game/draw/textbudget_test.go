package draw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With a budget, a frame rasterises the glyphs of new strings until the
// budget is spent, checking it before every glyph (one new paragraph is tens
// of milliseconds of glyphs in WebAssembly), and defers the rest; the glyphs
// made stay, so later frames finish the strings. Every frame makes progress,
// TextPending tells the game a frame must follow, and strings already drawn
// cost nothing and are never held.
func TestTextBudgetDefersNewGlyphsToLaterFrames(t *testing.T) {
	SetTextBudget(time.Nanosecond)
	defer SetTextBudget(0)
	face := SharedFonts().Face(Regular, 17.25) // a size no other test draws
	words := []string{"lease", "renewal", "fencing", "token"}
	drawn := func() (n int) {
		for _, w := range words {
			if cachedText(w, face).img != nil {
				n++
			}
		}
		return n
	}
	EndFrame()
	require.Zero(t, drawn(), "no string's glyphs all fit a spent budget")
	assert.Len(t, face.glyphs, 1, "but the first glyph was made: the frame made progress")
	EndFrame()
	assert.True(t, TextPending())
	frames := 1
	for glyphs := len(face.glyphs); drawn() < len(words); glyphs = len(face.glyphs) {
		assert.Greater(t, len(face.glyphs), glyphs, "frame %d made no glyph", frames)
		EndFrame()
		frames++
		require.Less(t, frames, 40, "deferred strings never drawn")
	}
	assert.Greater(t, frames, len(words), "the budget held back glyphs, not whole strings")
	EndFrame()
	drawn()
	EndFrame()
	assert.False(t, TextPending(), "cached strings are not held back")
}
