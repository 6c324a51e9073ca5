package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/lessons"
)

// state is the part of leaselab.state() the test reads.
type state struct {
	Frame  int64 `json:"frame"`
	Tick   int64 `json:"tick"`
	Drawn  int64 `json:"drawn"` // frames drawn anew (an idle frame draws nothing)
	Width  float64
	Height float64
	Scene  struct {
		Name    string                        `json:"name"`
		Focus   string                        `json:"focus"`
		Regions map[string]map[string]float64 `json:"regions"`
		Mirror  struct {
			Title     string   `json:"title"`
			Narration []string `json:"narration"`
		} `json:"mirror"`
	} `json:"scene"`
}

const stateExpr = `globalThis.leaselab ? globalThis.leaselab.state() : "{}"`

// TestBrowserFirstFrame loads the page from the real handler in headless
// Chromium, waits for the first frame, and checks that the page stayed on
// its origin under cross-origin isolation, drew something, mirrors its
// text, and lets Tab reach and leave the canvas.
func TestBrowserFirstFrame(t *testing.T) {
	ctx, srv := startChromium(t, 1600, 900)
	page := watchPage(ctx, t)

	start := time.Now()
	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		poll(`(() => { try { return JSON.parse(globalThis.leaselab.state()).frame > 0 } catch (e) { return false } })()`),
	)
	if err != nil {
		page.mu.Lock()
		t.Fatalf("waiting for the first frame: %v (page problems: %v)", err, page.problems)
	}
	t.Logf("time from navigation to first frame: %d ms", time.Since(start).Milliseconds())
	logStartup(ctx, t, start)

	// Let a few frames pass so the screenshot shows a settled screen.
	if err := chromedp.Do(ctx, poll(`JSON.parse(globalThis.leaselab.state()).frame > 10`)); err != nil {
		t.Fatal(err)
	}
	menuIsAPageOfLinks(ctx, t)
	keyboardPlaysALessonAndLeavesTheCanvas(ctx, t)
	page.stayedOnItsOriginWithoutProblems(t, srv.URL)
}

// pageLog is what a page asked the network for and the problems it
// reported (exceptions and console errors), as they happen.
type pageLog struct {
	mu       sync.Mutex
	requests []string
	problems []string
}

// watchPage starts logging the page's requests and problems.
func watchPage(ctx context.Context, t *testing.T) *pageLog {
	t.Helper()
	l := &pageLog{}
	err := chromedp.Listen(ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			l.requests = append(l.requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			l.problems = append(l.problems, "exception: "+ev.ExceptionDetails.Text+" "+describe(ev.ExceptionDetails.Exception))
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, describe(a))
				}
				l.problems = append(l.problems, "console.error: "+strings.Join(args, " "))
			}
		}
	})
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return l
}

// menuIsAPageOfLinks: the menu is a page. The canvas steps aside (it
// offers no regions while it is a pixel wide) and the panel lists every
// lesson as a link; the loading indicator is gone, the page is
// cross-origin isolated, its title mirrors the scene's, it draws
// something, and the hidden canvas does not hold the keyboard focus.
func menuIsAPageOfLinks(ctx context.Context, t *testing.T) {
	t.Helper()
	st, err := readState[state](ctx)
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, "menu", st.Scene.Name)
	assert.Positive(t, st.Width)
	links, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#mirror a[data-id^="lesson:"]').length`))
	require.NoError(t, err)
	assert.Equal(t, len(lessons.All()), links, "the menu's page links every lesson")
	loadingHidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("loading").hidden`))
	if err != nil || !loadingHidden {
		t.Errorf("the loading indicator still shows after the first frame (err %v)", err)
	}
	// The server's COOP and COEP headers make the page cross-origin
	// isolated, and it still loads its script and .wasm and starts.
	isolated, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`globalThis.crossOriginIsolated`))
	require.NoError(t, err)
	assert.True(t, isolated, "the page is not cross-origin isolated (Cross-Origin-Embedder-Policy missing?)")
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("lesson-title").textContent`))
	if err != nil || title != st.Scene.Mirror.Title || title == "" {
		t.Errorf("HTML mirror title %q, scene title %q (err %v)", title, st.Scene.Mirror.Title, err)
	}

	// The menu is a page of its own: the canvas steps aside.
	page, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", saveArtifact(t, "browser-page.png", page))
	checkNotBlank(t, "browser page", page, 16, 0.98)

	// Ebitengine focuses its canvas when it starts; on a page view the
	// canvas is hidden and would swallow every Tab, so the page must
	// have taken focus from it.
	onCanvas, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.activeElement === document.querySelector("canvas")`))
	require.NoError(t, err)
	assert.False(t, onCanvas, "the hidden canvas holds keyboard focus on the menu page")
}

// tabUntil presses Tab until the focused element a satisfies js, up to
// 60 times.
func tabUntil(js string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		for range 60 {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const a = document.activeElement; return !!a && (`+js+`) })()`))
			if err != nil || ok {
				return chromedp.Void{}, err
			}
			if err := chromedp.Do(ctx, press(tabKey)); err != nil {
				return chromedp.Void{}, err
			}
		}
		return chromedp.Void{}, fmt.Errorf("Tab never reached %s", js)
	}
}

// keyboardPlaysALessonAndLeavesTheCanvas, with the keyboard only: Tab to
// the third lesson's link and press Enter; Tab to the canvas and into its
// widgets; P plays; Tab past the last widget leaves the canvas for the
// panel, whose narration tells of the play.
func keyboardPlaysALessonAndLeavesTheCanvas(ctx context.Context, t *testing.T) {
	t.Helper()
	err := chromedp.Do(ctx,
		tabUntil(`a.dataset.id === "lesson:fenced-writes"`),
		press(enterKey),
		waitFor(func(s state) bool { return s.Scene.Name == "lesson" }),
		tabUntil(`a.tagName === "CANVAS"`),
		press(tabKey),
		waitFor(func(s state) bool { return s.Scene.Focus != "" }),
		press(pKey),
		waitFor(func(s state) bool {
			// The run narrates its own events right after, so look at
			// every line, not only the last.
			for _, l := range s.Scene.Mirror.Narration {
				if strings.HasPrefix(l, "Playing") {
					return true
				}
			}
			return false
		}),
	)
	if err != nil {
		t.Fatalf("keyboard: %v", err)
	}
	canvas, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("canvas")))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", saveArtifact(t, "browser-canvas.png", canvas))
	checkNotBlank(t, "browser canvas", canvas, 64, 0.8)
	active := ""
	for i := 0; i < 20 && active != "mirror"; i++ {
		if err := chromedp.Do(ctx, press(tabKey)); err != nil {
			t.Fatal(err)
		}
		if active, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ""`)); err != nil {
			t.Fatal(err)
		}
	}
	if active != "mirror" {
		t.Errorf("Tab never left the canvas: focus is on %q", active)
	}
	narration, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("narration").textContent`))
	if err != nil || !strings.Contains(narration, "Playing") {
		t.Errorf("narration mirror %q lacks the play event (err %v)", narration, err)
	}
}

// stayedOnItsOriginWithoutProblems: the page made its requests (at
// least three) to serverURL's origin alone, and reported no problem.
func (l *pageLog) stayedOnItsOriginWithoutProblems(t *testing.T, serverURL string) {
	t.Helper()
	origin, _ := url.Parse(serverURL)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.requests) < 3 {
		t.Errorf("only %d requests recorded: %v", len(l.requests), l.requests)
	}
	for _, r := range l.requests {
		u, err := url.Parse(r)
		if err != nil {
			t.Errorf("unparsable request URL %q", r)
			continue
		}
		if u.Scheme == "data" {
			continue // not a network request
		}
		if u.Scheme != origin.Scheme || u.Host != origin.Host {
			t.Errorf("request left the origin %s: %s", serverURL, r)
		}
	}
	t.Logf("%d requests, all to %s", len(l.requests), serverURL)
	for _, p := range l.problems {
		t.Errorf("page reported %s", p)
	}
}

// startupSteps are leaselab.timings()'s marks in the order they happen, each
// with what the time since the previous one was spent on.
var startupSteps = []struct{ mark, spent string }{
	{"boot", "HTML, CSS, boot.js"},
	{"exec-loaded", "wasm_exec.js"},
	{"response", "request to .wasm headers"},
	{"instantiated", "download + streaming compile"},
	{"main", "Go runtime and package init"},
	{"game", "main: page, store, game, scenes"},
	{"update1", "first Update (from RunGame)"},
	{"draw1", "first Draw"},
	{"frame", "next animation frame (WebGL work queued, not yet run)"},
}

// logStartup logs where the time to the first frame went, from the page's
// performance marks (see wasm/timing.go).
func logStartup(ctx context.Context, t *testing.T, start time.Time) {
	t.Helper()
	if err := chromedp.Do(ctx, poll(`JSON.parse(globalThis.leaselab.timings()).frame > 0`)); err != nil {
		t.Errorf("no startup timings: %v", err)
		return
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`globalThis.leaselab.timings()`))
	if err != nil {
		t.Error(err)
		return
	}
	var ms map[string]float64
	if err := json.Unmarshal([]byte(raw), &ms); err != nil {
		t.Error(err)
		return
	}
	var b strings.Builder
	prev := 0.0
	for _, s := range startupSteps {
		v, ok := ms[s.mark]
		if !ok {
			fmt.Fprintf(&b, "\n  %-13s missing", s.mark)
			continue
		}
		fmt.Fprintf(&b, "\n  %-13s at %6.0f ms  +%5.0f ms  %s", s.mark, v, v-prev, s.spent)
		prev = v
	}
	if v, ok := ms["wasm-response-end"]; ok {
		fmt.Fprintf(&b, "\n  (.wasm download ended at %.0f ms, %.2f MB on the wire)", v, ms["wasm-transfer-bytes"]/1e6)
	}
	if origin, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.timeOrigin`)); err == nil {
		fmt.Fprintf(&b, "\n  (the page's navigation began %.0f ms after the test asked for it)", origin-float64(start.UnixMicro())/1e3)
	}
	t.Logf("startup, ms since navigation:%s", b.String())
}

// A key as the DevTools protocol describes it.
type key struct {
	key, code, text string
	vk              int64
}

var (
	tabKey = key{key: "Tab", code: "Tab", vk: 9}
	pKey   = key{key: "p", code: "KeyP", text: "p", vk: 80}
)

// press holds k down until the game has run two more ticks, then releases
// it. Ebitengine polls keys once a tick, so a press released before the
// next tick (as chromedp.KeyEvent does, and a slow software-rendered frame
// allows) would never be seen.
func press(k key) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		ev := input.DispatchKeyEventParams{
			Type: input.DispatchKeyEventTypeKeyDown, Key: k.key, Code: k.code, Text: k.text,
			WindowsVirtualKeyCode: k.vk, NativeVirtualKeyCode: k.vk,
		}
		raw, err := chromedp.Evaluate[string](stateExpr)(ctx, t)
		if err != nil {
			return chromedp.Void{}, err
		}
		var before state
		if err := json.Unmarshal([]byte(raw), &before); err != nil {
			return chromedp.Void{}, err
		}
		if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, ev); err != nil {
			return chromedp.Void{}, err
		}
		if _, err := waitFor(func(s state) bool { return s.Tick >= before.Tick+2 })(ctx, t); err != nil {
			return chromedp.Void{}, err
		}
		ev.Type, ev.Text = input.DispatchKeyEventTypeKeyUp, ""
		_, err = cdp.Call(ctx, t, input.DispatchKeyEvent, ev)
		return chromedp.Void{}, err
	}
}

// poll waits until expr is truthy in the page.
func poll(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[chromedp.Void](expr,
			chromedp.WithPollingInterval(20*time.Millisecond),
			chromedp.WithPollingTimeout(2*time.Minute))(ctx, t)
		return chromedp.Void{}, err
	}
}

func readState[T any](ctx context.Context) (T, error) {
	var st T
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](stateExpr))
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal([]byte(raw), &st)
}

// waitFor polls the game's state until ok accepts it (or the context ends).
func waitFor(ok func(state) bool) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		for {
			raw, err := chromedp.Evaluate[string](stateExpr)(ctx, t)
			if err != nil {
				return chromedp.Void{}, err
			}
			var st state
			if err := json.Unmarshal([]byte(raw), &st); err != nil {
				return chromedp.Void{}, err
			}
			if ok(st) {
				return chromedp.Void{}, nil
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

func describe(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Value)
}
