package e2e

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserIdleDrawsNothing measures the frames the page draws a second
// while nothing moves (issue 17's "the desktop at rest", in the browser):
// on the menu and on a paused lesson, once the screen is still, the page
// goes on ticking but draws no frame anew.
func TestBrowserIdleDrawsNothing(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	measure := func(what string) {
		t.Helper()
		// Settled: no frame drawn for a second (start-up, the click's
		// hover and its tooltip come first).
		last, since := b.state(t), time.Now()
		for deadline := time.Now().Add(90 * time.Second); time.Since(since) < time.Second; {
			require.True(t, time.Now().Before(deadline), "%s: never stopped drawing", what)
			time.Sleep(100 * time.Millisecond)
			if st := b.state(t); st.Drawn != last.Drawn {
				last, since = st, time.Now()
			}
		}
		const window = 5 * time.Second
		start := time.Now()
		a := b.state(t)
		time.Sleep(window)
		z := b.state(t)
		secs := time.Since(start).Seconds()
		drawn, ticks := float64(z.Drawn-a.Drawn)/secs, float64(z.Tick-a.Tick)/secs
		t.Logf("%s, idle: %.1f frames drawn a second (%.0f ticks a second)", what, drawn, ticks)
		assert.Greater(t, ticks, 1.0, "%s: the page goes on ticking", what)
		assert.LessOrEqual(t, drawn, 0.2, "%s: and draws nothing anew", what)
	}
	measure("menu")
	b.click(t, "lesson:fenced-writes")
	st := b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "lesson" && s.Scene.Run != nil })
	require.False(t, st.Scene.Run.Playing, "a lesson opens paused")
	measure("paused lesson")
}
