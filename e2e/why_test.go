package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// whyInPage asks, from the panel, why A's late write was rejected, as a
// screen-reader user would: the line of "What happened" has a Why? button
// (read from the accessibility tree); pressing it lists the chain of
// causes under "Why?", each step a button, back to the learner's pause.
// use presses a button given its CSS selector (keyboard, or a tap).
func whyInPage(t *testing.T, b *browser, use func(sel string)) {
	t.Helper()
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.setControl(t, "scrub", 4)
	b.useControl(t, "act:A:pause")
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	b.setControl(t, "scrub", 30)
	b.until(t, "the late write told", 30*time.Second, func(s fullState) bool {
		return strings.Contains(strings.Join(s.Scene.Mirror.Narration, "\n"), "rejected A's write with token 7")
	})

	tr := b.axTree(t)
	asks := tr.named("button", "Why? ")
	require.NotEmpty(t, asks, "the lines of What happened offer Why?")
	var rejected bool
	for _, n := range asks {
		rejected = rejected || strings.Contains(n.Name, "rejected A's write with token 7")
	}
	require.True(t, rejected, "the rejection's line has a Why? a screen reader names by its line")

	st := b.state(t)
	use(`#narration li button.why[aria-label*="rejected A's write with token 7"]`)
	var steps []string
	require.Eventually(t, func() bool {
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#mirror [data-id^="why:go:"], #mirror [data-id="why:close"]')].map(e => e.textContent.trim())`))
		steps = got
		return err == nil && len(steps) > 0 && strings.Contains(steps[len(steps)-1], "Close Why?")
	}, 30*time.Second, 100*time.Millisecond, "the chain is listed in the panel")
	require.GreaterOrEqual(t, len(steps), 4, "the question, its causes and Close: %q", steps)
	assert.Contains(t, steps[0], "rejected A's write with token 7")
	assert.Contains(t, strings.Join(steps, "\n"), "because")
	assert.Contains(t, steps[len(steps)-1], "it began with the action at 4 s: pause A", "the chain ends at the learner's pause")

	tr = b.axTree(t)
	assert.NotEmpty(t, tr.named("heading", "Why?"), "the chain is under a heading a screen reader can jump to")
	assert.NotEmpty(t, tr.named("button", "because ["), "each cause is a button")

	// A cause's button moves the play head back to it.
	before := st.Scene.Run.Now
	ids, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#mirror [data-id^="why:go:"]')].map(e => e.dataset.id)`))
	require.NoError(t, err)
	require.Greater(t, len(ids), 1, "a cause to go to")
	use(`#mirror [data-id="` + ids[1] + `"]`)
	b.until(t, "the play head at the cause", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Now < before })
}

// At 1280x800 with the keyboard alone: Tab to the line's Why? and Enter.
func TestBrowserWhyWithTheKeyboard(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	whyInPage(t, b, func(sel string) {
		t.Helper()
		err := chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent("\r"))
		require.NoError(t, err, "focus %s and press Enter", sel)
	})
	b.screenshot(t, "browser-why-1280x800.png")
}

// On a 390x844 phone, by touch.
func TestBrowserWhyByTouchOnAPhone(t *testing.T) {
	b := openBrowserSized(t, screenSize{"phone-390x844", 390, 844, 3, true})
	whyInPage(t, b, func(sel string) { b.tap(t, sel) })
	b.screenshot(t, "browser-why-phone.png")
}

// tap scrolls element sel into view and touches its middle with one
// finger, as a phone's learner does.
func (b *browser) tap(t *testing.T, sel string) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.ScrollIntoView(chromedp.CSS(sel))), "scroll to %s", sel)
	xy, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector(`+"`"+sel+"`"+`).getBoundingClientRect(); return [r.left + r.width/2, r.top + r.height/2] })()`))
	require.NoError(t, err, "find %s", sel)
	require.Len(t, xy, 2)
	x, y := xy[0], xy[1]
	for _, typ := range []input.DispatchTouchEventType{input.DispatchTouchEventTypeTouchStart, input.DispatchTouchEventTypeTouchEnd} {
		pts := []*input.TouchPoint{{X: x, Y: y}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		_, err := chromedp.Call(b.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
		require.NoError(t, err)
	}
}
