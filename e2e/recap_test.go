package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core/permalink"
	"leaselab/lessons"
)

// The fenced-writes lesson's solution run (seed 1), its events as
// `labctl lesson fenced-writes --actions FILE --trace` numbers them: 31 the
// coordinator renews A's lease at 3.516 s, 34 A freezes at 4 s, 48 the
// coordinator expires A's lease at 14 s, 52 B holds the lock with token 8,
// 63 storage accepts B's write, 87 storage refuses A's late write. The
// lesson's pinned solution hash keeps these numbers.
var (
	fencedRecapRight = []int{31, 34, 48, 52, 63, 87}
	// Without what A's lease last rested on.
	fencedRecapNoRenewal = []int{34, 48, 52, 63, 87}
)

// TestBrowserRecapChainByKeyboard completes the first real lesson with its
// solution and answers its recap question in the page with the keyboard
// alone, as a screen-reader user would: the question is a heading of the
// panel, each event of the run a button reached and pressed with Enter. A
// chain that leaves out what A's lease rested on is told the gap (in the
// check button's description, and said aloud) without naming the event;
// emptied and built again in full, it is right.
func TestBrowserRecapChainByKeyboard(t *testing.T) {
	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	b := openBrowserSized(t, firstSizes[1])
	b.eval(t, fmt.Sprintf(`(location.hash = %q, "")`, permalink.LessonLink(l.ID, 1, l.SolutionKnobs, l.Solution).Fragment()))
	b.until(t, "the lesson", time.Minute, func(s fullState) bool { return s.Scene.Run != nil && s.Scene.Run.Lesson == l.ID })
	b.setControlFrac(t, "scrub", 1)
	b.until(t, "the lesson complete", time.Minute, func(s fullState) bool { return s.Scene.Run.Complete })

	heading := "Recap question: " + l.RecapChain.Question
	assert.NotEmpty(t, b.axTree(t).listUnder(heading), "the question heads its controls for a screen reader")

	// verdict checks the chain and returns the verdict said aloud, once
	// the check button's description says it too.
	verdict := func() string {
		t.Helper()
		b.focusControl(t, "recap:check")
		b.listenLive(t)
		b.press(t, enterKey)
		said := ""
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(said, "Recap: ") && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			said += strings.Join(b.said(t), "\n")
		}
		_, v, ok := strings.Cut(said, "Recap: ")
		require.True(t, ok, "the verdict is said aloud: %q", said)
		v, _, _ = strings.Cut(v, "\n")
		// One announcement may carry a later line after the verdict (the
		// last "Added event" line when the page says both at once), so the
		// verdict is what the announcement begins with.
		var title string
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if title = b.eval(t, `(document.querySelector('#mirror [data-id="recap:check"]') || {}).title || ""`); title != "" && strings.HasPrefix(v, title) {
				break
			}
		}
		require.NotEmpty(t, title, "the check button describes the verdict")
		assert.True(t, strings.HasPrefix(v, title), "the check button describes the verdict said: said %q, described %q", v, title)
		return title
	}

	b.buildRecap(t, fencedRecapNoRenewal...)
	gap := verdict()
	assert.Contains(t, gap, "something before it matters", "the gap: what came before the pause")
	assert.NotContains(t, gap, "3.516", "never the missing event's time")
	assert.NotContains(t, gap, "event 31", "nor its number")

	b.focusControl(t, "recap:clear")
	b.press(t, enterKey)
	b.until(t, "the chain emptied", 30*time.Second, func(fullState) bool {
		return b.eval(t, `String(document.querySelectorAll('#mirror [data-id^="recap:remove:"]').length)`) == "0"
	})
	b.buildRecap(t, fencedRecapRight...)
	right := verdict()
	assert.True(t, strings.HasPrefix(right, "Your chain of events: right."), "the whole story is right: %s", right)
	b.screenshot(t, "recap-chain-1280x800.png")
}

// focusControl moves the keyboard focus to the panel's control id, as a
// screen reader's list of buttons does.
func (b *browser) focusControl(t *testing.T, id string) {
	t.Helper()
	sel := fmt.Sprintf(`#mirror [data-id=%q]`, id)
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(sel), chromedp.Focus(sel)), "the panel offers %s", id)
}

// buildRecap adds the events seqs to the recap's chain, in order, with the
// keyboard: each event's button focused and pressed with Enter, then its
// step listed among the chain's own buttons.
func (b *browser) buildRecap(t *testing.T, seqs ...int) {
	t.Helper()
	for i, seq := range seqs {
		b.focusControl(t, fmt.Sprintf("recap:add:%d", seq))
		b.press(t, enterKey)
		step := fmt.Sprintf(`#mirror [data-id="recap:remove:%d"]`, i)
		ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
		require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(step)), "step %d (event %d) is listed", i+1, seq)
		cancel()
	}
}
