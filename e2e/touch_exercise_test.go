package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserExerciseFourByTouchOnAPhone completes exercise 4 on a 390x844
// phone by touch alone: the exercise opened from the panel's menu with a
// tap, each number typed in its box with the phone's keypad (a finger
// cannot drag a slider to 720 keepalives an hour in steps of one), the
// keypad's Enter committing it, Check tapped, and the verdict read from the
// accessibility tree as a screen reader would; the verdict appears under
// the Check button, in view. A value out of range is
// refused beside its box, marked invalid, and the answer keeps what it had.
func TestBrowserExerciseFourByTouchOnAPhone(t *testing.T) {
	b := openBrowserSized(t, screenSize{"phone-390x844", 390, 844, 3, true})
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.tap(t, `#mirror [data-id="exercise:compaction-ttl"]`)
	b.exUntil(t, "exercise 4", 30*time.Second, func(s exState) bool {
		return s.Scene.Name == "exercise" && s.Scene.Exercise != nil && s.Scene.Exercise.ID == "compaction-ttl"
	})

	// typeIn taps number id's box, replaces what it shows with text on
	// the keypad, and presses the keypad's Enter.
	typeIn := func(id, text string) {
		t.Helper()
		sel := fmt.Sprintf(`#mirror [data-entry="number:%s"]`, id)
		b.tap(t, sel)
		_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const el = document.activeElement; el.select(); return true })()`))
		require.NoError(t, err)
		focused, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.activeElement.dataset.entry || ""`))
		require.NoError(t, err)
		require.Equal(t, "number:"+id, focused, "the tap put the keypad in the box")
		_, err = chromedp.Call(b.ctx, input.InsertText, input.InsertTextParams{Text: text})
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent("\r")))
	}

	typeIn("per-hour", "7201")
	b.exUntil(t, "the refusal", 30*time.Second, func(exState) bool {
		return b.eval(t, `document.querySelector('#mirror [data-entry="number:per-hour"]').getAttribute("aria-invalid")`) == "true"
	})
	note := b.eval(t, `document.getElementById(document.querySelector('#mirror [data-entry="number:per-hour"]').getAttribute("aria-describedby")).textContent`)
	assert.Equal(t, "Work out: keepalives per hour, your design goes from 0 to 7200", note, "the refusal is said beside the box")
	assert.True(t, b.inView(t, `#mirror [data-entry="number:per-hour"]`), "the box stays in view")

	answer := map[string]float64{"ttl": 25, "renew": 5, "alt-ttl": 15, "alt-renew": 3, "est-failover": 25.5, "per-hour": 720}
	for _, id := range []string{"ttl", "renew", "alt-ttl", "alt-renew", "est-failover", "per-hour"} {
		typeIn(id, strings.TrimSuffix(fmt.Sprintf("%g", answer[id]), ".0"))
		b.exUntil(t, "number "+id, 30*time.Second, func(s exState) bool { return s.Scene.Exercise.Answer.Numbers[id] == answer[id] })
	}
	assert.Equal(t, "false", b.eval(t, `document.querySelector('#mirror [data-entry="number:per-hour"]').getAttribute("aria-invalid")`),
		"a value taken ends the refusal")
	b.screenshot(t, "exercise-4-typed-phone.png")

	b.tap(t, `#mirror [data-id="check"]`)
	st := b.exUntil(t, "the verdict", 3*time.Minute, func(s exState) bool {
		return s.Scene.Exercise.Attempts == 1 && s.Scene.Exercise.Result != nil
	})
	res := st.Scene.Exercise.Result
	for _, p := range res.Parts {
		if !p.OK {
			t.Logf("%s: %s", p.Part, p.Why)
		}
	}
	require.True(t, res.Pass, "the typed design passes: %s", res.Summary)

	// The verdict appears under the button tapped, in view.
	verdict := `#mirror [data-id="verdict"]`
	b.exUntil(t, "the verdict under Check", 30*time.Second, func(exState) bool {
		return strings.HasPrefix(b.eval(t, `(document.querySelector('`+verdict+`') || {}).textContent || ""`), "Result: "+res.Summary)
	})
	assert.True(t, b.inView(t, verdict), "the verdict is where the learner is looking")

	// A screen reader reads the verdict in the page.
	var read bool
	for _, n := range b.axTree(t).nodes {
		if n.Role == "StaticText" && strings.Contains(n.Name, "Result: "+res.Summary) {
			read = true
			break
		}
	}
	assert.True(t, read, "the accessibility tree holds the verdict %q", res.Summary)
	b.screenshot(t, "exercise-4-passed-phone.png")
}
