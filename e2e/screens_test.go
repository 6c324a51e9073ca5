package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// screenSize is a viewport the lab must fit: a desktop window or a phone
// held upright, with touch.
type screenSize struct {
	name          string
	width, height int64
	scale         float64
	phone         bool
}

var everySize = []screenSize{
	{"phone-390x844", 390, 844, 3, true},
	{"1024x640", 1024, 640, 1, false},
	{"1280x800", 1280, 800, 1, false},
	{"1920x1080", 1920, 1080, 1, false},
}

// openBrowserSized opens the lab in a viewport of exactly sz.
func openBrowserSized(t *testing.T, sz screenSize) *browser {
	t.Helper()
	ctx, srv := startChromium(t, int(sz.width), int(sz.height)+100)
	_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: sz.width, Height: sz.height, DeviceScaleFactor: sz.scale, Mobile: sz.phone})
	require.NoError(t, err)
	if sz.phone {
		_, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 1})
		require.NoError(t, err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"),
		firstFrames())
	require.NoError(t, err, "waiting for the first frame")
	return &browser{ctx: ctx, srv: srv}
}

// panelProblems lists what on the panel a learner could not use or read:
// a control smaller than 24×24 CSS px (WCAG 2.2's minimum target; a
// choice's target is its whole label), text under 14 px, and a panel
// wider than its box.
const panelProblems = `(() => {
	const bad = [];
	for (const el of document.querySelectorAll("#mirror button, #mirror a, #mirror select, #mirror input, #mirror summary")) {
		const target = el.closest("label") || el;
		const r = target.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue;
		if (r.width < 24 || r.height < 24) bad.push("target " + (el.dataset.id || el.id || el.textContent.trim()).slice(0, 40) + " is " + Math.round(r.width) + "x" + Math.round(r.height));
	}
	for (const el of document.querySelectorAll("#mirror *")) {
		if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
		const r = el.getBoundingClientRect();
		if (!r.width || el.closest(".visually-hidden")) continue;
		const fs = parseFloat(getComputedStyle(el).fontSize);
		if (fs < 14) bad.push("text of " + fs + " px: " + el.textContent.trim().slice(0, 40));
	}
	const m = document.getElementById("mirror");
	if (m.scrollWidth > m.clientWidth + 1) bad.push("the panel is " + m.scrollWidth + " px wide in " + m.clientWidth);
	return bad;
})()`

// TestBrowserScreensAtEverySize opens the menu, the fenced-writes and
// shards lessons and an exercise on a phone and at three desktop sizes,
// saves a screenshot of each in artifacts/, and checks the panel: every
// control at least 24×24 px, no text under 14 px, nothing wider than the
// panel; on the phone the panel stacks under a canvas as wide as the
// screen.
func TestBrowserScreensAtEverySize(t *testing.T) {
	for _, sz := range everySize {
		t.Run(sz.name, func(t *testing.T) {
			b := openBrowserSized(t, sz)
			check := func(screen string) {
				t.Helper()
				time.Sleep(300 * time.Millisecond) // a frame or two to draw it
				name := fmt.Sprintf("screen-%s-%s.png", sz.name, screen)
				if screen == "menu" || strings.HasPrefix(screen, "exercise") {
					// A page of text: mostly background, yet not blank.
					png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
					require.NoError(t, err)
					t.Logf("screenshot: %s", saveArtifact(t, name, png))
					checkNotBlank(t, name, png, 16, 0.98)
				} else {
					b.screenshot(t, name)
				}
				bad, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](panelProblems))
				require.NoError(t, err)
				assert.Empty(t, bad, "%s at %s:\n  %s", screen, sz.name, strings.Join(bad, "\n  "))
			}
			check("menu")
			for _, id := range []string{"lesson:fenced-writes", "lesson:shards", "exercise:no-fencing"} {
				b.useControl(t, id)
				b.until(t, id, 30*time.Second, func(s fullState) bool { return s.Scene.Name != "menu" })
				check(strings.NewReplacer(":", "-").Replace(id))
				if sz.phone && id == "lesson:fenced-writes" {
					type box struct{ W, H, PanelTop float64 }
					bx, err := chromedp.Run(b.ctx, chromedp.Evaluate[box](`(() => { const c = document.querySelector("canvas").getBoundingClientRect(); return {W: c.width, H: c.height, PanelTop: document.getElementById("mirror").getBoundingClientRect().top} })()`))
					require.NoError(t, err)
					assert.GreaterOrEqual(t, bx.W, float64(sz.width)-1, "on the phone the canvas is full width")
					assert.GreaterOrEqual(t, bx.H, 0.4*float64(sz.height), "and at least 40 % of the height")
					assert.GreaterOrEqual(t, bx.PanelTop, bx.H-1, "the panel under it")
				}
				back := "menu"
				if strings.HasPrefix(id, "exercise:") {
					back = "back"
				}
				b.useControl(t, back)
				b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
			}
		})
	}
}

// touchAt lays a finger on the canvas at region's fractions (fx, fy),
// moves it to fx2, and lifts it, each step held for two game ticks.
func (b *browser) touchAt(t *testing.T, region string, fx, fy, fx2 float64) {
	t.Helper()
	at := func(f float64) []*input.TouchPoint {
		x, y := b.canvasPoint(t, region, f, fy)
		return []*input.TouchPoint{{X: x, Y: y}}
	}
	steps := []input.DispatchTouchEventParams{{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: at(fx)}}
	if fx2 != fx {
		steps = append(steps, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchMove, TouchPoints: at(fx2)})
	}
	steps = append(steps, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
	for _, ev := range steps {
		before := b.state(t).Tick
		_, err := chromedp.Call(b.ctx, input.DispatchTouchEvent, ev)
		require.NoError(t, err)
		b.until(t, "two ticks", 30*time.Second, func(s fullState) bool { return s.Tick >= before+2 })
	}
}

// TestBrowserPhonePlaysByTouch holds a phone upright and plays the
// fenced-writes lesson by touch on the canvas: tap A, tap Pause in its
// menu, drag the play head along the scrub bar.
func TestBrowserPhonePlaysByTouch(t *testing.T) {
	b := openBrowserSized(t, everySize[0])
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.touchAt(t, "proc:A", 0.5, 0.5, 0.5)
	b.touchAt(t, "act:A:pause", 0.5, 0.5, 0.5)
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	b.touchAt(t, "scrub", 0.05, 0.5, 0.5)
	st := b.until(t, "the play head dragged", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Now > 30 })
	t.Logf("dragged the play head to %.1f s", st.Scene.Run.Now)
	b.screenshot(t, "screen-phone-touch-fenced-writes.png")
}
