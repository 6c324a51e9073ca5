package game

import (
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/ui"
)

// drawnWith are the strings of s standing for a whole text that
// contains part.
func drawnWith(s screenText, part string) []draw.Drawn {
	var out []draw.Drawn
	for _, d := range s.drawn {
		if strings.Contains(d.Full, part) {
			out = append(out, d)
		}
	}
	return out
}

// assertWhole checks that each drawn string ends with no ellipsis, lies
// inside its box, and has its whole text on hover when shortened.
func assertWhole(t *testing.T, ds []draw.Drawn) {
	t.Helper()
	for _, d := range ds {
		assert.False(t, strings.Contains(d.Text, ui.Ellipsis), "%q is cut with an ellipsis (whole: %q)", d.Text, d.Full)
		assert.False(t, d.Outside(), "%q runs outside its box", d.Text)
		if d.Text != d.Full {
			assert.True(t, d.Tip, "%q is shortened with no way to read %q", d.Text, d.Full)
		}
	}
}

// At 1024x640 the lease lesson's policy verdict ends at a pause in its
// sentence, not with "one rene…", and the whole verdict is in the page's
// panel; the Compare screen's ring legend is words that fit, not
// "inner ring: the coordinat…" (issue 29, item 7).
func TestCanvasVerdictAndLegendFitAt1024(t *testing.T) {
	r := rigWith(t, nil)
	r.resize(1024, 640)
	r.tick(ui.Input{})
	r.click("lesson:leases")
	sc, ok := r.a.top().(*lesson.Scene)
	require.True(t, ok)
	verdict, has := sc.Lab.KnobVerdict()
	require.True(t, has)
	require.Contains(t, verdict.Why, "even if the renewal sent on waking is lost")

	shot := r.record("leases-1024x640")
	drawn := drawnWith(shot, "lease policy leaves")
	require.Len(t, drawn, 1, "the verdict is drawn once")
	assertWhole(t, drawn)
	assert.Contains(t, drawn[0].Text, "14 s < ttl 15 s (1 s to spare)", "the rule's sum stays on the canvas")
	assert.Contains(t, r.a.Inspect().Mirror.Text, verdict.Word+": "+verdict.Why, "the whole verdict is in the page's panel")

	r = rigWith(t, nil)
	r.resize(1024, 640)
	r.tick(ui.Input{})
	brokenFencedWrites(t, r)
	r.click("compare")
	r.a.top().(*lesson.Comparison).Player().Clock.Apply(lab.SeekTo(25 * time.Second))
	shot = r.record("compare-fencing-1024x640")
	for _, ring := range []string{"outer ring", "inner ring"} {
		legend := drawnWith(shot, ring)
		require.Len(t, legend, 2, "%s: one in each world", ring)
		assertWhole(t, legend)
		for _, d := range legend {
			assert.NotEmpty(t, d.Text, "%s drawn as nothing", ring)
		}
	}
}
