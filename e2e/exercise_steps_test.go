package e2e

// The learner's steps through an exercise in the browser, for the
// exercise tests: open it, use the simulator, fill the form with the
// keyboard or the panel's menus, build the chain of events, and check.

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// exState is the part of leaselab.state() the exercise tests read.
type exState struct {
	Scene struct {
		Name   string `json:"name"`
		Mirror struct {
			Text string `json:"text"`
		} `json:"mirror"`
		Exercise *struct {
			ID             string  `json:"id"`
			Attempts       int     `json:"attempts"`
			Passed         bool    `json:"passed"`
			Actions        int     `json:"actions"`
			Checking       bool    `json:"checking"`
			Progress       float64 `json:"progress"`
			Simulator      bool    `json:"simulator"`
			Status         string  `json:"status"`
			HintsSeen      int     `json:"hintsSeen"`
			ModelAvailable bool    `json:"modelAvailable"`
			ModelArmed     bool    `json:"modelArmed"`
			ModelShown     bool    `json:"modelShown"`
			Tab            string  `json:"tab"`
			Answer         struct {
				Choices map[string][]string `json:"choices"`
				Numbers map[string]float64  `json:"numbers"`
				Defence string              `json:"defence"`
			} `json:"answer"`
			Result *struct {
				Pass    bool   `json:"pass"`
				Summary string `json:"summary"`
				Parts   []struct {
					Part string `json:"part"`
					OK   bool   `json:"ok"`
					Why  string `json:"why"`
				} `json:"parts"`
			} `json:"result"`
		} `json:"exercise"`
	} `json:"scene"`
}

// exUntil polls the exercise state until ok holds.
func (b *browser) exUntil(t *testing.T, what string, timeout time.Duration, ok func(exState) bool) exState {
	t.Helper()
	return pollState(t, b, what, timeout, ok, func(st exState) string { return fmt.Sprintf("scene %q", st.Scene.Name) })
}

var (
	escKey   = key{key: "Escape", code: "Escape", vk: 27}
	rightKey = key{key: "ArrowRight", code: "ArrowRight", vk: 39}
	leftKey  = key{key: "ArrowLeft", code: "ArrowLeft", vk: 37}
)

var enterKey = key{key: "Enter", code: "Enter", text: "\r", vk: 13}

// choose picks a form option as a keyboard learner does when it is
// scrolled out of sight: Tab until it has the focus (the form scrolls to
// it), then Enter. A visible option is simply clicked.
func (b *browser) choose(t *testing.T, region string) {
	t.Helper()
	if b.htmlKind(t, region) != "" {
		b.useControl(t, region) // the page shows the form itself
		return
	}
	if _, ok := b.state(t).Scene.Regions[region]; ok {
		b.click(t, region)
		return
	}
	for i := 0; b.state(t).Scene.Focus != region; i++ {
		if i > 120 {
			t.Fatalf("Tab never reached %s", region)
		}
		b.press(t, tabKey)
	}
	b.press(t, enterKey)
}

// numberRange is each number field's slider range (lessons' Knob).
var numberRange = map[string][2]float64{
	"left": {0, 12}, "min-ttl": {1, 40},
	"ttl": {2, 60}, "renew": {0.5, 30}, "est-failover": {-1, 90}, "per-hour": {0, 7200},
	"alt-ttl": {2, 60}, "alt-renew": {0.5, 30}, "est-dup-nights": {-1, 1000}, "alt-est-failover": {-1, 90}, "alt-est-dup-nights": {-1, 1000},
	"predict-load": {-1, 5000}, "predict-failover": {-1, 300},
}

// setNumber sets number field id as a learner would: a click on its
// slider near the value (which focuses it), then the arrow keys until it
// reads want.
func (b *browser) setNumber(t *testing.T, id string, want float64) {
	t.Helper()
	if b.htmlKind(t, "number:"+id) == "range" {
		// The page shows the form itself: its field takes the value.
		b.setControl(t, "number:"+id, want)
		b.exUntil(t, "number "+id, 30*time.Second, func(s exState) bool { return s.Scene.Exercise.Answer.Numbers[id] == want })
		return
	}
	r := numberRange[id]
	if _, ok := b.state(t).Scene.Regions["number:"+id]; ok {
		b.clickFrac(t, "number:"+id, (want-r[0])/(r[1]-r[0]), 0.5)
	} else {
		// Scrolled out of sight: Tab to it (the form scrolls), then
		// the arrow keys below set the value.
		for i := 0; b.state(t).Scene.Focus != "number:"+id; i++ {
			if i > 120 {
				t.Fatalf("Tab never reached number:%s", id)
			}
			b.press(t, tabKey)
		}
		b.press(t, rightKey) // the first key press sets the shown value
	}
	for i := 0; ; i++ {
		st := b.exUntil(t, "the number "+id, 10*time.Second, func(s exState) bool {
			_, ok := s.Scene.Exercise.Answer.Numbers[id]
			return ok
		})
		got := st.Scene.Exercise.Answer.Numbers[id]
		switch {
		case math.Abs(got-want) < 1e-9:
			return
		case i > 400:
			t.Fatalf("number %s stuck at %v, want %v", id, got, want)
		case got < want:
			b.press(t, rightKey)
		default:
			b.press(t, leftKey)
		}
	}
}

// openExercise starts a browser and opens exercise id from the menu.
func openExercise(t *testing.T, id string) *browser {
	t.Helper()
	b := openBrowser(t, 1280, 760)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.click(t, "exercise:"+id)
	b.exUntil(t, id, 30*time.Second, func(s exState) bool {
		return s.Scene.Name == "exercise" && s.Scene.Exercise != nil && s.Scene.Exercise.ID == id
	})
	return b
}

// openSimulator clicks the exercise's simulator button and waits for the
// lesson player on its lab.
func (b *browser) openSimulator(t *testing.T) {
	t.Helper()
	b.click(t, "simulator")
	b.until(t, "the simulator", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "lesson" && s.Scene.Run != nil })
}

// backToAnswer leaves the simulator by its back button and checks that the
// run came along as the answer's schedule.
func (b *browser) backToAnswer(t *testing.T, actions int) {
	t.Helper()
	b.useControl(t, "menu") // the panel's way back, "< Answer"
	b.exUntil(t, "the answer again", 30*time.Second, func(s exState) bool {
		return s.Scene.Name == "exercise" && s.Scene.Exercise.Actions == actions
	})
}

// checkPasses clicks Check, waits for the verdict and fails with every
// part's reason unless it passed.
func (b *browser) checkPasses(t *testing.T, attempts int) exState {
	t.Helper()
	b.click(t, "check")
	st := b.exUntil(t, "the verdict", time.Minute, func(s exState) bool {
		return s.Scene.Exercise != nil && s.Scene.Exercise.Attempts == attempts && s.Scene.Exercise.Result != nil
	})
	res := st.Scene.Exercise.Result
	if !res.Pass || !st.Scene.Exercise.Passed {
		for _, p := range res.Parts {
			t.Logf("ok=%v %s: %s", p.OK, p.Part, p.Why)
		}
		t.Fatalf("not passed: %s", res.Summary)
	}
	if !strings.Contains(st.Scene.Mirror.Text, "Result: "+res.Summary) {
		t.Errorf("the text mirror lacks the result %q", res.Summary)
	}
	return st
}

// menuRow is what the page's menu says of the lesson or exercise whose
// link reads title: its summary, time and standing.
func (b *browser) menuRow(t *testing.T, title string) string {
	t.Helper()
	html, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById("controls").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(html, title)
	if i < 0 {
		t.Fatalf("the page's menu has no %q:\n%s", title, html)
	}
	seg := html[i+len(title):]
	if j := strings.Index(seg, "\nE"); j >= 0 {
		seg = seg[:j] // up to the next exercise's link
	}
	return seg
}

// menuShowsPassed goes back to the menu with Esc and checks the exercise's
// row says passed.
func (b *browser) menuShowsPassed(t *testing.T, row string) {
	t.Helper()
	b.press(t, escKey)
	b.exUntil(t, "the menu", 30*time.Second, func(s exState) bool { return s.Scene.Name == "menu" })
	seg := b.menuRow(t, row)
	if !strings.Contains(seg, "Passed.") {
		t.Errorf("the page's menu does not show %q passed: %q", row, seg)
	}
	// On the menu there is no run: the empty narration says where one starts.
	empty, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("narration"), "::before").content`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(empty, "Open a lesson") {
		t.Errorf("the menu's empty narration says %s", empty)
	}
}

// chooseOption picks the option whose text is text in the panel's menu
// id, as a screen-reader or keyboard user picks it from the select.
func (b *browser) chooseOption(t *testing.T, id, text string) {
	t.Helper()
	// The page redraws its controls on the next frame after a change
	// (a comparison added, a kind picked): wait for the menu and option.
	i := -1.0
	for deadline := time.Now().Add(10 * time.Second); i < 0; time.Sleep(50 * time.Millisecond) {
		var err error
		i, err = chromedp.Run(b.ctx, chromedp.Evaluate[float64](fmt.Sprintf(`(() => {
			const el = document.querySelector('#mirror [data-id=%q]');
			if (!el) return -2;
			return [...el.options].findIndex(o => o.textContent === %q);
		})()`, id, text)))
		require.NoError(t, err)
		require.True(t, i >= 0 || time.Now().Before(deadline), "the panel's menu %q offers %q (%v)", id, text, i)
	}
	b.setControl(t, id, i)
	b.twoTicks(t)
}

// twoTicks waits until the game has ticked twice, so the page's controls
// show what the last use changed (a menu's options follow another's).
func (b *browser) twoTicks(t *testing.T) {
	t.Helper()
	before := b.state(t).Tick
	b.until(t, "two ticks", 30*time.Second, func(s fullState) bool { return s.Tick >= before+2 })
}

// buildChain adds the run's events seqs to the exercise's chain with the
// keyboard alone: each event is a button of the page's panel, focused and
// pressed with Enter, and the chain's own buttons then list the steps.
func (b *browser) buildChain(t *testing.T, seqs ...int) {
	t.Helper()
	// A wait with a deadline: a button that never shows fails the test
	// with what the page lists instead of hanging it.
	wait := func(sel string, focus bool) error {
		ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
		defer cancel()
		if focus {
			return chromedp.Do(ctx, chromedp.WaitVisible(sel), chromedp.Focus(sel))
		}
		return chromedp.Do(ctx, chromedp.WaitVisible(sel))
	}
	listed := func() string {
		ids, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#mirror [data-id^="chain:"]')].map(e => e.dataset.id + (e.offsetParent ? "" : " (hidden)")).join(", ")`))
		return ids
	}
	for i, seq := range seqs {
		sel := fmt.Sprintf(`#mirror [data-id="chain:add:%d"]`, seq)
		if err := wait(sel, true); err != nil {
			t.Fatalf("focus event %d: %v; the page lists: %s", seq, err, listed())
		}
		b.press(t, enterKey)
		step := fmt.Sprintf(`#mirror [data-id="chain:remove:%d"]`, i)
		if err := wait(step, false); err != nil {
			t.Fatalf("step %d of the chain (event %d) is not listed: %v; the page lists: %s", i+1, seq, err, listed())
		}
	}
}

// seekExactly moves the play head to at with the page's slider, exactly:
// a click on the lanes lands where its pixel does (4.06 s for 4 s at some
// sizes), and a run's events are numbered from where its actions fell.
func (b *browser) seekExactly(t *testing.T, at float64) {
	t.Helper()
	b.setControl(t, "scrub", at)
	b.until(t, fmt.Sprintf("the play head at %gs", at), 30*time.Second, func(s fullState) bool {
		return s.Scene.Run != nil && math.Abs(s.Scene.Run.Now-at) < 0.001
	})
}
