package e2e

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"

	browserpath "leaselab/internal/browser"
	"leaselab/internal/webserve"
)

// browser is a headless Chromium on a page served by the real handler.
type browser struct {
	ctx context.Context
	srv *httptest.Server
}

// startChromium serves the built web/ directory with the real handler on a
// random loopback port and starts headless Chromium on a blank page. It
// fails (never skips) when Chromium or the build is missing. The returned
// context bounds the whole test.
func startChromium(t *testing.T, width, height int) (context.Context, *httptest.Server) {
	t.Helper()
	chromiumPath, err := browserpath.Path()
	if err != nil {
		t.Fatal(err)
	}
	web := filepath.Join(repoRoot(t), "web")
	for _, f := range []string{"leaselab.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(web, f)); err != nil {
			t.Fatalf("web/%s is missing: run make wasm first", f)
		}
	}
	h, err := webserve.NewHandler(web)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancel := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	// The browser lives as long as the context of its first call. The
	// exercise tests set sliders key press by key press; on a loaded
	// machine (load average 15+ on 2 cores) that alone took over 6 minutes.
	ctx, cancelTimeout := context.WithTimeout(bctx, 12*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return ctx, srv
}

// openBrowser starts Chromium and waits for the lab's first frames.
func openBrowser(t *testing.T, width, height int) *browser {
	t.Helper()
	return openBrowserAt(t, width, height, "/")
}

// openBrowserAt is openBrowser on page path (a #run= link, say).
func openBrowserAt(t *testing.T, width, height int, path string) *browser {
	t.Helper()
	ctx, srv := startChromium(t, width, height)
	// Report what the page prints: a Go panic in the wasm build lands here.
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range ev.Args {
				args = append(args, describe(a))
			}
			t.Logf("console.%s: %s", ev.Type, strings.Join(args, " "))
		case *runtime.EventExceptionThrown:
			t.Logf("exception: %s %s", ev.ExceptionDetails.Text, describe(ev.ExceptionDetails.Exception))
		}
	}); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+path),
		firstFrames(),
	)
	if err != nil {
		t.Fatalf("waiting for the first frame: %v", err)
	}
	return &browser{ctx: ctx, srv: srv}
}

// firstFrames waits until the page has drawn its first frames.
func firstFrames() chromedp.Action[chromedp.Void] {
	return poll(`(() => { try { return JSON.parse(globalThis.leaselab.state()).frame > 2 } catch (e) { return false } })()`)
}

// fullState is leaselab.state() with the lesson run.
type fullState struct {
	state
	Scene struct {
		Name string `json:"name"`
		// Page: the browser shows the scene as the panel alone.
		Page    bool                          `json:"page"`
		Regions map[string]map[string]float64 `json:"regions"`
		Focus   string                        `json:"focus"`
		Mirror  struct {
			Narration []string `json:"narration"`
			Goals     []struct {
				Text string `json:"text"`
				Met  bool   `json:"met"`
			} `json:"goals"`
		} `json:"mirror"`
		Run *struct {
			Lesson  string  `json:"lesson"`
			Now     float64 `json:"now"`
			Holder  string  `json:"holder"`
			Token   int64   `json:"token"`
			Playing bool    `json:"playing"`
			Procs   []struct {
				Name   string `json:"name"`
				Paused bool   `json:"paused"`
			} `json:"procs"`
			Writes []struct {
				From     string `json:"from"`
				Token    int64  `json:"token"`
				Accepted bool   `json:"accepted"`
			} `json:"writes"`
			Complete bool `json:"complete"`
		} `json:"run"`
		Compare *struct {
			Off      string  `json:"off"`
			On       string  `json:"on"`
			OffBroke bool    `json:"offBroke"`
			OnBroke  bool    `json:"onBroke"`
			Now      float64 `json:"now"`
		} `json:"compare"`
	} `json:"scene"`
}

func (b *browser) state(t *testing.T) fullState { t.Helper(); return mustState[fullState](t, b) }

// mustState reads the game's state into a T, failing the test if it cannot.
func mustState[T any](t *testing.T, b *browser) T {
	t.Helper()
	st, err := readState[T](b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// until polls the state until ok holds, failing after timeout.
func (b *browser) until(t *testing.T, what string, timeout time.Duration, ok func(fullState) bool) fullState {
	t.Helper()
	return pollState(t, b, what, timeout, ok, func(st fullState) string {
		run := "no run"
		if r := st.Scene.Run; r != nil {
			run = fmt.Sprintf("t=%.2fs playing=%v holder=%q token=%d procs=%+v", r.Now, r.Playing, r.Holder, r.Token, r.Procs)
		}
		return fmt.Sprintf("scene %q, %s; last narration %q", st.Scene.Name, run, lastOf(st.Scene.Mirror.Narration))
	})
}

// pollState polls the state, read as a T, until ok holds. After timeout
// it saves a screenshot and fails saying what the page showed (describe),
// to tell a slow page from a wrong one.
func pollState[T any](t *testing.T, b *browser, what string, timeout time.Duration, ok func(T) bool, describe func(T) string) T {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		st := mustState[T](t, b)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			b.screenshot(t, "timeout-"+strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())+".png")
			t.Fatalf("timed out waiting for %s (%s)", what, describe(st))
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func lastOf(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[len(ss)-1]
}

// click presses and releases the mouse on the centre of a named region of
// the game screen, holding it for two game ticks so Ebitengine sees it.
func (b *browser) click(t *testing.T, region string) {
	t.Helper()
	b.clickFrac(t, region, 0.5, 0.5)
}

func (b *browser) press(t *testing.T, k key) {
	t.Helper()
	if err := chromedp.Do(b.ctx, press(k)); err != nil {
		t.Fatal(err)
	}
}

func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", saveArtifact(t, name, png))
	if b.state(t).Scene.Page {
		// A page of text (the panel alone): mostly background, not blank.
		checkNotBlank(t, name, png, 16, 0.98)
		return
	}
	checkNotBlank(t, name, png, 64, 0.8)
}

var (
	bracketRight = key{key: "]", code: "BracketRight", text: "]", vk: 221}
)

// TestBrowserFencedWritesLesson plays the paused-leader lesson as a learner
// would: open it from the menu, click leader A and pause it, let time run
// past the lease, and check from the page's state and its HTML mirror that
// B took over with token 8 and A's late write with token 7 was rejected.
func TestBrowserFencedWritesLesson(t *testing.T) {
	b := openBrowser(t, 1440, 860)
	b.click(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "lesson" })

	// Let A lead and write once (play at 1x for a little), then pause A.
	b.press(t, pKey)
	b.until(t, "A leading and writing", time.Minute, func(s fullState) bool {
		return s.Scene.Run.Holder == "A" && len(s.Scene.Run.Writes) > 0
	})
	b.press(t, pKey)
	b.click(t, "proc:A")
	b.click(t, "act:A:pause")
	st := b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	pausedAt := st.Scene.Run.Now

	// Faster, then play past the lease and A's wake-up (20 s later).
	for range 4 {
		b.press(t, bracketRight)
	}
	b.press(t, pKey)
	// Before A wakes, the run stops and asks what storage will do with
	// its late write: a card over the world and the panel's buttons.
	st = b.until(t, "the question before A wakes", 2*time.Minute, func(s fullState) bool {
		_, ok := s.Scene.Regions["predict:reject"]
		return ok
	})
	assert.False(t, st.Scene.Run.Playing, "the run waits for the prediction")
	assert.True(t, st.Scene.Run.Procs[0].Paused, "asked before A wakes")
	assert.NotEmpty(t, b.axTree(t).named("button", "Refuse it"), "the page offers the options as buttons")
	b.screenshot(t, "browser-predict-card.png")
	b.press(t, digit2) // "Refuse it", from the keyboard
	b.until(t, "the question answered", 30*time.Second, func(s fullState) bool {
		_, ok := s.Scene.Regions["predict:reject"]
		return !ok
	})
	b.press(t, pKey)
	st = b.until(t, "A awake again", 2*time.Minute, func(s fullState) bool { return s.Scene.Run.Now > pausedAt+21 })
	b.press(t, pKey)

	run := st.Scene.Run
	if run.Holder != "B" || run.Token != 8 {
		t.Errorf("coordinator: holder %q token %d, want B with 8", run.Holder, run.Token)
	}
	rejected := false
	for _, w := range run.Writes {
		rejected = rejected || (w.From == "A" && w.Token == 7 && !w.Accepted)
	}
	if !rejected {
		t.Errorf("no rejected write from A with token 7: %+v", run.Writes)
	}
	if g := st.Scene.Mirror.Goals; len(g) != 3 || !g[0].Met || !g[1].Met {
		t.Errorf("goals: %+v", g)
	}
	narration, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById("narration").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"B acquired locks/leader with token 8", "storage rejected A's write with token 7"} {
		if !strings.Contains(narration, want) {
			t.Errorf("HTML narration lacks %q", want)
		}
	}
	b.screenshot(t, "browser-fenced-writes.png")
}

// clickFrac clicks a named region at fractions (fx, fy) of its size,
// holding the button for two game ticks so Ebitengine sees it.
//
// A region the page's panel offers as a control of its own (the menu's
// links, an exercise's buttons and fields, the sandbox's setup: screens
// that are the panel alone) is used there instead, as a learner would: a
// button clicked, a range set at that fraction of its span.
func (b *browser) clickFrac(t *testing.T, region string, fx, fy float64) {
	t.Helper()
	switch b.htmlKind(t, region) {
	case "":
	case "range":
		b.setControlFrac(t, region, fx)
		return
	case "select":
		b.nextOption(t, region)
		return
	default:
		b.useControl(t, region)
		return
	}
	x, y := b.canvasPoint(t, region, fx, fy)
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMouseMoved, input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		ev := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, ClickCount: 1}
		if typ == input.DispatchMouseEventTypeMouseMoved {
			ev.Button, ev.ClickCount = input.MouseButtonNone, 0
		}
		before := b.state(t).Tick
		if err := chromedp.Do(b.ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := cdp.Call(ctx, tg, input.DispatchMouseEvent, ev)
			return chromedp.Void{}, err
		}); err != nil {
			t.Fatal(err)
		}
		b.until(t, "two ticks", 30*time.Second, func(s fullState) bool { return s.Tick >= before+2 })
	}
}

// canvasPoint is the page point at fractions (fx, fy) of the canvas's
// region, once the scene has it.
func (b *browser) canvasPoint(t *testing.T, region string, fx, fy float64) (x, y float64) {
	t.Helper()
	st := b.until(t, "region "+region, 30*time.Second, func(s fullState) bool { _, ok := s.Scene.Regions[region]; return ok })
	r := st.Scene.Regions[region]
	type box struct{ X, Y, W float64 }
	rect, err := chromedp.Run(b.ctx, chromedp.Evaluate[box](`(() => { const r = document.querySelector("canvas").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width} })()`))
	if err != nil {
		t.Fatal(err)
	}
	k := rect.W / st.Width
	return rect.X + (r["x"]+r["w"]*fx)*k, rect.Y + (r["y"]+r["h"]*fy)*k
}

// seek moves the play head to at (seconds) by clicking the timeline's
// lanes where that time is drawn, and checks where it landed.
func (b *browser) seek(t *testing.T, at, length float64) {
	t.Helper()
	b.clickFrac(t, "lanes", math.Min(at/length, 0.999), 0.5)
	st := b.until(t, fmt.Sprintf("the play head near %gs", at), 30*time.Second, func(s fullState) bool {
		return s.Scene.Run != nil && math.Abs(s.Scene.Run.Now-at) < 0.6
	})
	t.Logf("seeked to %.2fs (wanted %gs)", st.Scene.Run.Now, at)
}

// act clicks an actor, then an entry of its action menu.
func (b *browser) act(t *testing.T, actor, action string) {
	t.Helper()
	b.click(t, "proc:"+actor)
	b.click(t, "act:"+actor+":"+action)
}

// allGoals waits until every goal of the lesson is met.
func (b *browser) allGoals(t *testing.T, timeout time.Duration) fullState {
	t.Helper()
	return b.until(t, "every goal met", timeout, func(s fullState) bool {
		if s.Scene.Run == nil || len(s.Scene.Mirror.Goals) == 0 {
			return false
		}
		for _, g := range s.Scene.Mirror.Goals {
			if !g.Met {
				return false
			}
		}
		return s.Scene.Run.Complete
	})
}

var (
	digit1  = key{key: "1", code: "Digit1", text: "1", vk: 49}
	digit2  = key{key: "2", code: "Digit2", text: "2", vk: 50}
	keyU    = key{key: "u", code: "KeyU", text: "u", vk: 85}
	keyI    = key{key: "i", code: "KeyI", text: "i", vk: 73}
	keyNext = key{key: "n", code: "KeyN", text: "n", vk: 78}
	keyZ    = key{key: "z", code: "KeyZ", text: "z", vk: 90}
)

// openLesson starts a browser and opens lesson id from the menu.
func openLesson(t *testing.T, id string) *browser {
	t.Helper()
	b := openBrowser(t, 1280, 760)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.click(t, "lesson:"+id)
	b.until(t, id, 30*time.Second, func(s fullState) bool {
		return s.Scene.Name == "lesson" && s.Scene.Run != nil && s.Scene.Run.Lesson == id
	})
	return b
}

// The next three tests play a lesson each, as a learner would: opened from
// the menu, its solution's actions done with clicks and keys at their
// times (the play head moved there by clicking the timeline, or played
// fast with ] and P), every goal checked from the page's state, and a
// screenshot of the finished lesson saved.

func TestBrowserSchedulerLesson(t *testing.T) {
	start := time.Now()
	b := openLesson(t, "scheduler")
	b.seek(t, 4.5, 60)
	b.act(t, "api-1", "crash")
	b.seek(t, 19, 60)
	b.press(t, keyI) // idempotency on, from the keyboard
	b.until(t, "idempotency on", 10*time.Second, func(s fullState) bool {
		return strings.Contains(strings.Join(s.Scene.Mirror.Narration, "\n"), "idempotency on")
	})
	b.seek(t, 20.5, 60)
	b.act(t, "api-2", "crash")
	for range 5 {
		b.press(t, bracketRight) // 32x
	}
	b.press(t, pKey)
	st := b.allGoals(t, 2*time.Minute)
	b.press(t, pKey)
	t.Logf("scheduler complete at t=%.1fs, in %v", st.Scene.Run.Now, time.Since(start).Round(time.Millisecond))
	b.screenshot(t, "browser-scheduler.png")
}

func TestBrowserShardsLesson(t *testing.T) {
	start := time.Now()
	b := openLesson(t, "shards")
	b.clickFrac(t, "knob:jitter", 0.995, 0.5) // scan jitter to 1
	b.seek(t, 30, 200)
	b.act(t, "worker-03", "pause")
	b.seek(t, 90, 200)
	for _, w := range []string{"worker-06", "worker-07", "worker-08", "worker-09", "worker-10"} {
		b.act(t, w, "pause")
	}
	// The twelfth worker from the keyboard: 9 selects worker-08, N moves
	// on to worker-09, -10, -11, and Z pauses it.
	b.press(t, key{key: "9", code: "Digit9", text: "9", vk: 57})
	for range 3 {
		b.press(t, keyNext)
	}
	b.press(t, keyZ)
	st := b.until(t, "six workers paused at 90 s", 10*time.Second, func(s fullState) bool {
		return strings.Contains(strings.Join(s.Scene.Mirror.Narration, "\n"), "pause worker-11 for 30s")
	})
	if math.Abs(st.Scene.Run.Now-90) > 0.6 {
		t.Fatalf("time moved while pausing: %.2f", st.Scene.Run.Now)
	}
	b.seek(t, 199.6, 200)
	b.allGoals(t, time.Minute)
	t.Logf("shards complete in %v", time.Since(start).Round(time.Millisecond))
	b.screenshot(t, "browser-shards.png")
}

func TestBrowserSecurityLesson(t *testing.T) {
	start := time.Now()
	b := openLesson(t, "security")
	b.seek(t, 2, 30)
	b.act(t, "worker-00", "delete")
	b.seek(t, 6, 30)
	b.act(t, "migrator", "delete")
	b.seek(t, 7, 30)
	b.press(t, digit1) // the migrator, from the keyboard
	b.press(t, keyU)   // put its status
	for range 4 {
		b.press(t, bracketRight)
	}
	b.press(t, pKey)
	b.allGoals(t, time.Minute)
	b.press(t, pKey)
	t.Logf("security complete in %v", time.Since(start).Round(time.Millisecond))
	b.screenshot(t, "browser-security.png")
}
