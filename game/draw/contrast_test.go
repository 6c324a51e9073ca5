package draw

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Contrast is WCAG's ratio: its known end points and a published value.
func TestContrastIsWCAGsRatio(t *testing.T) {
	black, white := color.RGBA{0, 0, 0, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}
	assert.InDelta(t, 21, Contrast(black, white), 1e-9)
	assert.InDelta(t, 21, Contrast(white, black), 1e-9, "the order does not matter")
	assert.InDelta(t, 1, Contrast(white, white), 1e-9)
	// #767676 on white is the well-known 4.54:1, just past AA.
	assert.InDelta(t, 4.54, Contrast(color.RGBA{0x76, 0x76, 0x76, 0xff}, white), 0.01)
}

// Every text colour of the theme on every background it is drawn on reads
// at 4.5:1 or more (issue 16 item 9; WCAG 2.2 1.4.3, AA for body text).
func TestEveryTextPairOfTheThemeHasContrast(t *testing.T) {
	pairs := Dark.TextPairs()
	require.NotEmpty(t, pairs)
	for _, p := range pairs {
		r := Contrast(p.Text, p.On)
		t.Logf("%-26s %5.2f:1", p.Name, r)
		assert.GreaterOrEqual(t, r, 4.5, "%s", p.Name)
	}
	// The check can fail: the old Disabled grey on a panel did.
	assert.Less(t, Contrast(color.RGBA{0x70, 0x7b, 0x88, 0xff}, Dark.Panel), 4.5)
}
