package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quickClick presses and releases the mouse on the centre of a region of
// the canvas inside one task of the page, as the browser delivers a click
// that lands between two frames: pointerdown, mousedown, pointerup,
// mouseup, with no frame (and so no game tick) in between.
func (b *browser) quickClick(t *testing.T, region string) {
	t.Helper()
	x, y := b.canvasPoint(t, region, 0.5, 0.5)
	js := fmt.Sprintf(`(() => {
		const c = document.querySelector("canvas");
		const at = {bubbles: true, cancelable: true, composed: true, clientX: %v, clientY: %v, button: 0, isPrimary: true, pointerId: 1, pointerType: "mouse"};
		c.dispatchEvent(new PointerEvent("pointerdown", {...at, buttons: 1}));
		c.dispatchEvent(new MouseEvent("mousedown", {...at, buttons: 1}));
		c.dispatchEvent(new PointerEvent("pointerup", {...at, buttons: 0}));
		c.dispatchEvent(new MouseEvent("mouseup", {...at, buttons: 0}));
		return true;
	})()`, x, y)
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
	require.NoError(t, err)
}

// A click whose press and release fall inside one frame counts, at a
// frame rate slowed down by throttling the CPU: the learner selects A on
// the canvas and pauses it with two such clicks. Pausing A before it ever
// led is the fenced-writes lesson's wrong first move: the page says why
// at once, and the panel's Undo takes it back.
func TestBrowserAOneFrameClickCountsAndTheWrongFirstMoveIsUndone(t *testing.T) {
	b := openBrowser(t, 1024, 640)
	b.click(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "lesson" })

	_, err := chromedp.Call(b.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 8})
	require.NoError(t, err)
	start, t0 := b.state(t).Tick, time.Now()
	time.Sleep(2 * time.Second)
	fps := float64(b.state(t).Tick-start) / time.Since(t0).Seconds()
	t.Logf("throttled frame rate: %.1f ticks a second", fps)

	b.quickClick(t, "proc:A")
	b.until(t, "A selected (its action menu open)", 30*time.Second, func(s fullState) bool {
		_, ok := s.Scene.Regions["act:A:pause"]
		return ok
	})
	b.quickClick(t, "act:A:pause")
	st := b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	assert.Zero(t, st.Scene.Run.Now, "paused before Play")
	said := strings.Join(st.Scene.Mirror.Narration, "\n")
	assert.Contains(t, said, "A has not acquired the lock yet: B will take it with token 7 and A never leads. Play until A leads, then pause it. Undo takes it back.")
	_, ok := st.Scene.Regions["notice"]
	assert.True(t, ok, "the reason shows over the world, where the learner is looking")
	b.screenshot(t, "browser-misstep-1024x640.png")

	_, err = chromedp.Call(b.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 1})
	require.NoError(t, err)
	b.useControl(t, "undo")
	st = b.until(t, "the pause undone", 30*time.Second, func(s fullState) bool { return !s.Scene.Run.Procs[0].Paused })
	assert.Zero(t, st.Scene.Run.Now)
	assert.Contains(t, lastOf(st.Scene.Mirror.Narration), "Undid the pause A for 20s at t = 0.000 s")
}
