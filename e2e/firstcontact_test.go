package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A learner's first minutes (issue 29), tried as a new learner would: at
// 1024x640, 1280x800 and on a 390x844 phone, with the panel and the
// keyboard, reading focus and announcements as a screen reader does.

// The three sizes a first contact must work at.
var firstSizes = []screenSize{
	{"1024x640", 1024, 640, 1, false},
	{"1280x800", 1280, 800, 1, false},
	{"phone-390x844", 390, 844, 3, true},
}

// listenLive records every text any live region of the page is given
// (aria-live, role=status), in leaselabSaid, from now on.
func (b *browser) listenLive(t *testing.T) {
	t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => {
		globalThis.leaselabSaid = [];
		const obs = new MutationObserver(() => {
			for (const el of document.querySelectorAll("[aria-live], [role=status]")) {
				const text = el.textContent.trim();
				if (text && el.dataset.said !== text) {
					el.dataset.said = text;
					globalThis.leaselabSaid.push((el.id || el.getAttribute("role")) + ": " + text);
				}
			}
		});
		for (const el of document.querySelectorAll("[aria-live], [role=status]")) {
			el.dataset.said = el.textContent.trim();
			obs.observe(el, {childList: true, characterData: true, subtree: true});
		}
		return true;
	})()`))
	require.NoError(t, err)
}

// said returns what the live regions said since listenLive, and forgets it.
func (b *browser) said(t *testing.T) []string {
	t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`(() => { const s = globalThis.leaselabSaid || []; globalThis.leaselabSaid = []; return s })()`))
	require.NoError(t, err)
	return out
}

// inView reports whether element sel is wholly on screen: inside the
// viewport and inside the visible part of the panel.
func (b *browser) inView(t *testing.T, sel string) bool {
	t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		if (!el || !el.getClientRects().length) return false;
		const r = el.getBoundingClientRect(), m = document.getElementById("mirror").getBoundingClientRect();
		return r.top >= Math.max(0, m.top) - 1 && r.bottom <= Math.min(innerHeight, m.bottom) + 1 && r.height > 0;
	})()`, sel)))
	require.NoError(t, err)
	return ok
}

// focused is the accessibility tree's focused node (the document itself
// aside, which says focused while the page has the focus): its role and
// name.
func (b *browser) focused(t *testing.T) (role, name string) {
	t.Helper()
	res, err := chromedp.Call(b.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	require.NoError(t, err)
	str := func(v *accessibility.Value) string {
		var s string
		if v != nil && json.Unmarshal(v.Value, &s) == nil {
			return s
		}
		return ""
	}
	for _, n := range res.Nodes {
		for _, p := range n.Properties {
			if p.Name == accessibility.PropertyNameFocused && p.Value != nil && string(p.Value.Value) == "true" && str(n.Role) != "RootWebArea" {
				role, name = str(n.Role), str(n.Name)
			}
		}
	}
	return role, name
}

func (b *browser) eval(t *testing.T, js string) string {
	t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	require.NoError(t, err, js)
	return s
}

// checkScreen checks what a screen reader meets on a new screen: the
// focus on its heading (read from the accessibility tree), the page's
// title naming it, and exactly one announcement, which names it.
func (b *browser) checkScreen(t *testing.T, what, heading string) {
	t.Helper()
	time.Sleep(800 * time.Millisecond) // what the screen might say later would come now
	role, name := b.focused(t)
	assert.Equal(t, "heading", role, "%s: the focus is on a heading", what)
	assert.Equal(t, heading, name, "%s: the focused heading", what)
	title := b.eval(t, `document.title`)
	assert.True(t, strings.HasPrefix(title, heading), "%s: the page title %q names the screen %q", what, title, heading)
	// The drawing-quality notice is the machine's, not the screen's: a
	// loaded machine (software rendering at 2 frames a second) says it
	// whenever the rate drops, on any screen.
	said := slices.DeleteFunc(b.said(t), func(s string) bool { return strings.Contains(s, "reduced quality to keep up") })
	if assert.Len(t, said, 1, "%s: one announcement, got %q", what, said) {
		assert.Contains(t, said[0], heading, "%s: the announcement names the screen", what)
	}
	assert.Equal(t, "0", b.eval(t, `String(document.getElementById("mirror").scrollTop)`), "%s opens at its top", what)
}

// TestBrowserFocusAndTitleFollowEveryScreen goes into a lesson, back with
// Esc, into an exercise, its simulator, back to the answer with Esc and to
// the menu: each time the focus lands on the new screen's heading, the
// title names it, and one announcement says so.
func TestBrowserFocusAndTitleFollowEveryScreen(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.listenLive(t)
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.checkScreen(t, "the lesson", "The paused leader and fenced writes")
	b.press(t, escKey)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.checkScreen(t, "the menu after Esc", "LeaseLab: lessons")
	b.useControl(t, "exercise:no-fencing")
	b.until(t, "the exercise", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "exercise" })
	ex := b.eval(t, `document.getElementById("lesson-title").textContent`)
	require.True(t, strings.HasPrefix(ex, "Exercise 3"), "the exercise's heading %q", ex)
	b.checkScreen(t, "the exercise", ex)
	b.useControl(t, "simulator")
	b.until(t, "the simulator", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	sim := b.eval(t, `document.getElementById("lesson-title").textContent`)
	b.checkScreen(t, "the simulator", sim)
	b.press(t, escKey)
	b.until(t, "the answer", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "exercise" && s.Scene.Run == nil })
	b.checkScreen(t, "the answer after Esc", ex)
	b.useControl(t, "back")
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.checkScreen(t, "the menu", "LeaseLab: lessons")
}

// TestBrowserTheWorldSummaryFollowsTheRun: the panel's "The world now"
// says who holds the lock with which token, each process's lease by both
// clocks and the store's highest token, and a new holder is announced.
func TestBrowserTheWorldSummaryFollowsTheRun(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.setControl(t, "scrub", 4)
	b.until(t, "4 s", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Now >= 4 })
	b.useControl(t, "act:A:pause")
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	b.listenLive(t)
	b.setControl(t, "speed", 5) // 8x
	b.useControl(t, "play")
	b.until(t, "B leads", time.Minute, func(s fullState) bool { return s.Scene.Run.Holder == "B" })
	var world []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		world = b.axTree(t).listUnder("The world now")
		if len(world) > 0 && world[0] == "Lock: held by B with token 8" {
			break
		}
	}
	require.NotEmpty(t, world, "the world summary is a list under its heading")
	assert.Equal(t, "Lock: held by B with token 8", world[0])
	joined := strings.Join(world, "\n")
	assert.Contains(t, joined, "A: acts as leader with token 7")
	assert.Contains(t, joined, "by its own clock")
	assert.Contains(t, joined, "by the coordinator's")
	assert.Contains(t, joined, "Storage: highest token accepted")
	said := ""
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(said, "Now: Lock: held by B") && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		said += strings.Join(b.said(t), "\n") + "\n"
	}
	assert.Contains(t, said, "Now: Lock: held by B with token 8", "the new holder is announced")
	assert.Less(t, strings.Count(said, "Now: "), 6, "without flooding: %s", said)
}

// TestBrowserCompletionIsSeenAndHeardAtEverySize opens the first real
// lesson at each size: its objective and the step to take are in view;
// completed, the moment of success is at the top of the panel (the recap
// and the next lesson) and over the world, and it is announced.
func TestBrowserCompletionIsSeenAndHeardAtEverySize(t *testing.T) {
	for _, sz := range firstSizes {
		t.Run(sz.name, func(t *testing.T) {
			b := openBrowserSized(t, sz)
			b.useControl(t, "lesson:fenced-writes")
			b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
			time.Sleep(300 * time.Millisecond)
			for _, sel := range []string{"#lesson-title", "#lesson-objective", "#lesson-step"} {
				assert.True(t, b.inView(t, sel), "%s in view on opening the lesson", sel)
			}
			assert.Contains(t, b.eval(t, `document.getElementById("lesson-step").textContent`), "Pause leader A", "the step is the first goal")
			b.screenshot(t, "first-lesson-open-"+sz.name+".png")
			b.listenLive(t)
			b.useControl(t, "solution") // restarts the run and plays it
			b.setControl(t, "speed", 8) // 64x
			b.until(t, "the lesson complete", 2*time.Minute, func(s fullState) bool { return s.Scene.Run.Complete })
			b.until(t, "the success over the world", 30*time.Second, func(s fullState) bool { _, ok := s.Scene.Regions["notice"]; return ok })
			time.Sleep(500 * time.Millisecond)
			assert.True(t, b.inView(t, "#done"), "the moment of success is in view")
			assert.True(t, b.inView(t, "#lesson-objective"), "and the objective")
			done := b.eval(t, `document.getElementById("done").textContent`)
			assert.Contains(t, done, "Lesson complete")
			assert.Contains(t, done, "Storage enforced that order", "the recap")
			assert.Contains(t, done, "Next lesson: ", "the next lesson")
			said := ""
			for deadline := time.Now().Add(10 * time.Second); !strings.Contains(said, "Lesson complete") && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				said += strings.Join(b.said(t), "\n")
			}
			assert.Contains(t, said, "Lesson complete", "announced")
			b.screenshot(t, "first-lesson-done-"+sz.name+".png")
			b.useControl(t, "done-next")
			b.until(t, "the next lesson", 30*time.Second, func(s fullState) bool {
				return s.Scene.Run != nil && s.Scene.Run.Lesson != "fenced-writes"
			})
		})
	}
}

// TestBrowserShortcutsWorkFromAFocusedSlider: with the play head's slider
// focused, P plays and pauses, the arrows step from event to event, Page
// Up moves 10 s, a digit selects a process; from the speed menu Esc goes
// back to the menu.
func TestBrowserShortcutsWorkFromAFocusedSlider(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	focus := func(id string) {
		b.eval(t, fmt.Sprintf(`(() => { document.querySelector('#mirror [data-id=%q]').focus(); return document.activeElement.dataset.id })()`, id))
	}
	focus("scrub")
	b.press(t, pKey)
	b.until(t, "playing", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Playing })
	b.press(t, pKey)
	st := b.until(t, "paused", 30*time.Second, func(s fullState) bool { return !s.Scene.Run.Playing })
	assert.Equal(t, "scrub", b.eval(t, `document.activeElement.dataset.id`), "the slider keeps the focus")
	at := st.Scene.Run.Now
	b.press(t, key{key: "PageUp", code: "PageUp", vk: 33})
	st = b.until(t, "10 s on", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Now >= at+9.99 })
	at = st.Scene.Run.Now
	b.press(t, key{key: "ArrowRight", code: "ArrowRight", vk: 39})
	st = b.until(t, "the next event", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Now > at })
	next := st.Scene.Run.Now
	assert.LessOrEqual(t, next, at+5, "one event on, not a jump")
	b.press(t, key{key: "ArrowLeft", code: "ArrowLeft", vk: 37})
	b.until(t, "the event before", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Now < next })
	b.press(t, digit1)
	b.until(t, "A selected", 30*time.Second, func(s fullState) bool { _, ok := s.Scene.Regions["act:A:pause"]; return ok })
	focus("speed")
	b.press(t, escKey) // closes A's menu
	b.press(t, escKey)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
}

// TestBrowserAReloadReturnsToTheLesson: the address names the lesson; a
// reload returns to it with the learner's pause, Back goes to the menu and
// Forward to the lesson again; a lesson opened from a scrolled menu opens
// at its top.
func TestBrowserAReloadReturnsToTheLesson(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	assert.Equal(t, "#lesson=fenced-writes", b.eval(t, `location.hash`))
	b.setControl(t, "scrub", 4)
	b.useControl(t, "act:A:pause")
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), firstFrames()), "the reloaded page")
	st := b.until(t, "the lesson again", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	assert.Equal(t, "fenced-writes", st.Scene.Run.Lesson)
	assert.True(t, st.Scene.Run.Procs[0].Paused, "with A paused, as the learner left it")
	assert.Equal(t, "The paused leader and fenced writes – LeaseLab", b.eval(t, `document.title`))

	b.useControl(t, "menu")
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	assert.Equal(t, "", b.eval(t, `location.hash`))
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(history.back(), true)`))
	require.NoError(t, err)
	b.until(t, "Back: the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	_, err = chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(history.forward(), true)`))
	require.NoError(t, err)
	b.until(t, "Forward: the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })

	// The last lesson, from the menu scrolled to its bottom.
	b.eval(t, `(() => { const m = document.getElementById("mirror"); m.scrollTop = m.scrollHeight; return "" })()`)
	last := b.eval(t, `[...document.querySelectorAll('#mirror [data-id^="lesson:"]')].pop().dataset.id`)
	b.useControl(t, last)
	b.until(t, last, 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	time.Sleep(300 * time.Millisecond)
	assert.Equal(t, "0", b.eval(t, `String(document.getElementById("mirror").scrollTop)`), "the lesson opens at its top")
	assert.Equal(t, "#lesson="+strings.TrimPrefix(last, "lesson:"), b.eval(t, `location.hash`))
}

// TestBrowserPhoneOpensALessonAtItsTitle: on a phone, a lesson opened from
// the menu shows its title, objective and step under the canvas, and lists
// the actors' actions before playback.
func TestBrowserPhoneOpensALessonAtItsTitle(t *testing.T) {
	b := openBrowserSized(t, firstSizes[2])
	b.eval(t, `(() => { const m = document.getElementById("mirror"); m.scrollTop = 400; return "" })()`)
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	time.Sleep(300 * time.Millisecond)
	for _, sel := range []string{"#lesson-title", "#lesson-objective"} {
		assert.True(t, b.inView(t, sel), "%s in view", sel)
	}
	order := b.eval(t, `[...document.querySelectorAll("#controls .group h3")].map(h => h.textContent).join("|")`)
	groups := strings.Split(order, "|")
	require.NotEmpty(t, groups)
	assert.True(t, strings.HasPrefix(groups[0], "A"), "the actors first: %q", order)
	assert.Less(t, strings.Index(order, "A"), strings.Index(order, "Playback"), "then playback: %q", order)
	goals := b.eval(t, `String(document.getElementById("goals-section").getBoundingClientRect().top < document.querySelector(".story").getBoundingClientRect().top)`)
	assert.Equal(t, "true", goals, "the goals come before the story")
	b.screenshot(t, "first-phone-lesson-open.png")
}

// TestBrowserLoadingSaysWhatIsComing holds the lab's download: the page
// says what is coming and shows no empty lesson panel; once loaded, the
// panel shows the menu.
func TestBrowserLoadingSaysWhatIsComing(t *testing.T) {
	ctx, srv := startChromium(t, 1280, 800)
	paused := make(chan fetch.RequestID, 1)
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e.RequestID
		}
	})
	require.NoError(t, err)
	_, err = chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*leaselab.wasm"}}})
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/"))
	require.NoError(t, err)
	var id fetch.RequestID
	select {
	case id = <-paused:
	case <-time.After(time.Minute):
		t.Fatal("the page never asked for leaselab.wasm")
	}
	b := &browser{ctx: ctx, srv: srv}
	loading := b.eval(t, `document.getElementById("loading").innerText`)
	assert.Contains(t, loading, "lessons on leader election, leases and fencing tokens", "what is coming")
	assert.Equal(t, "none", b.eval(t, `getComputedStyle(document.getElementById("mirror")).display`), "no lesson panel yet")
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	t.Logf("screenshot: %s", saveArtifact(t, "first-loading.png", png))
	err = chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		return chromedp.Void{}, err
	})
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, firstFrames()))
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	assert.Equal(t, "block", b.eval(t, `getComputedStyle(document.getElementById("mirror")).display`), "the panel, with the menu")
}

// TestBrowserAReloadReturnsToTheSubScreen: a reload in an exercise's
// simulator comes back to the simulator with the learner's run, and one in
// a sandbox run comes back to that run, its setup and actions (issue 29:
// both came back to the screen above, the run lost).
func TestBrowserAReloadReturnsToTheSubScreen(t *testing.T) {
	b := openExercise(t, "no-fencing")
	b.openSimulator(t)
	assert.Equal(t, "#exercise=no-fencing/simulator", b.eval(t, `location.hash`))
	b.setControl(t, "scrub", 4)
	b.useControl(t, "act:A:pause")
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), firstFrames()), "the reloaded page")
	b.exUntil(t, "the simulator again", 30*time.Second, func(s exState) bool {
		return s.Scene.Exercise != nil && s.Scene.Exercise.Simulator
	})
	assert.Equal(t, "#exercise=no-fencing/simulator", b.eval(t, `location.hash`))
	b.backToAnswer(t, 1) // with the pause as the answer's schedule

	b.useControl(t, "back")
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.useControl(t, "sandbox")
	b.useControl(t, "start")
	b.until(t, "the run", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.setControl(t, "scrub", 4)
	b.useControl(t, "act:A:pause")
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	link := b.eval(t, `location.hash`)
	assert.True(t, strings.HasPrefix(link, "#run="), "the run's link is the address: %q", link)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), firstFrames()), "the reloaded page")
	b.until(t, "the run again", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.setControl(t, "scrub", 5)
	b.until(t, "with A paused at 4 s", 30*time.Second, func(s fullState) bool {
		return s.Scene.Run.Now >= 4.5 && s.Scene.Run.Procs[0].Paused
	})
	assert.Equal(t, link, b.eval(t, `location.hash`))
}
