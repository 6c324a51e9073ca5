package draw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// With a budget, a frame rasterises new strings until the budget is spent
// and defers the rest, which later frames draw; TextPending tells the game a
// frame must follow. Strings already drawn cost nothing and are never held.
func TestTextBudgetDefersNewStringsToLaterFrames(t *testing.T) {
	SetTextBudget(time.Nanosecond)
	defer SetTextBudget(0)
	face := SharedFonts().Face(Regular, 17.25)
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
	assert.Equal(t, 1, drawn(), "one new string fits a frame whose budget is spent by it")
	EndFrame()
	assert.True(t, TextPending())
	frames := 1
	for drawn() < len(words) {
		EndFrame()
		frames++
		assert.Less(t, frames, 10, "deferred strings never drawn")
	}
	frames++ // the frame that drew the last one
	assert.Equal(t, len(words), frames, "one new string a frame")
	EndFrame()
	drawn()
	EndFrame()
	assert.False(t, TextPending(), "cached strings are not held back")
}
