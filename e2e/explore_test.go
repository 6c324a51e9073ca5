package e2e

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"leaselab/core"
	"leaselab/core/explore"
	"leaselab/core/permalink"
	"leaselab/lessons"
)

// brokenFencing is the explorer's counterexample for fenced-writes with
// fencing off (the switch, then a pause of A), found as labctl finds it.
func brokenFencing(t *testing.T) core.ActionLog {
	t.Helper()
	tg, err := lessons.FindTarget("fenced-writes")
	if err != nil {
		t.Fatal(err)
	}
	x, err := explore.New(tg.Problem(1, true, tg.Bounds), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	r, err := x.Run()
	if err != nil || !r.Found || len(r.Log) != 2 || r.Log[1].Do != "pause" {
		t.Fatalf("no counterexample to open: %s (%v)", r.Summary(), err)
	}
	return r.Log
}

// TestBrowserPermalinkAndFindABreak opens a run from a #run= link, shares
// it back, checks that a bad link is explained and changes nothing, then
// runs "Find a break" (one browser for both saves a start-up).
func TestBrowserPermalinkAndFindABreak(t *testing.T) {
	broken := brokenFencing(t)
	link := permalink.LessonLink("fenced-writes", 1, nil, broken)
	b := openBrowserAt(t, 1440, 860, "/"+link.Fragment())
	ctx, srv := b.ctx, b.srv
	st := b.until(t, "the linked lesson", 2*time.Minute, func(s fullState) bool {
		return s.Scene.Run != nil && s.Scene.Run.Lesson == "fenced-writes" && s.Frame > 2
	})
	if st.Scene.Run.Now != 0.1 || len(st.Scene.Run.Procs) != 2 || !st.Scene.Run.Procs[0].Paused {
		t.Fatalf("opened at %v with procs %+v; want t=0.1s with A paused", st.Scene.Run.Now, st.Scene.Run.Procs)
	}
	b.screenshot(t, "permalink-opened.png")

	// Scrub past A's wake-up: the stale write lands.
	b.seek(t, 20, 90)
	b.until(t, "the stale write", time.Minute, func(s fullState) bool {
		for _, w := range s.Scene.Run.Writes {
			if w.From == "A" && w.Token == 7 && w.Accepted {
				return true
			}
		}
		return false
	})

	// Share: the link of the run as it is now (the same log) goes into
	// the address bar.
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`leaselab.share()`))
	if err != nil {
		t.Fatal(err)
	}
	var shared struct{ Link, Fragment, Error string }
	if err := json.Unmarshal([]byte(raw), &shared); err != nil || shared.Error != "" {
		t.Fatalf("share: %s (%v)", raw, err)
	}
	got, err := permalink.DecodeLink(shared.Fragment)
	if err != nil || got.Name != "fenced-writes" || len(got.Log) != 2 || got.Log[1] != broken[1] {
		t.Fatalf("shared link %q decodes to %+v (%v)", shared.Fragment, got, err)
	}
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil || !strings.HasSuffix(href, shared.Fragment) || !strings.HasPrefix(shared.Link, srv.URL) {
		t.Errorf("address bar %q, shared link %q", href, shared.Link)
	}

	// A damaged link: explained beside the canvas, the run untouched.
	before := b.state(t).Scene.Run
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`location.hash = "#run=`+shared.Fragment[len("#run="):len(shared.Fragment)-3]+`"`)); err != nil {
		t.Fatal(err)
	}
	var status string
	for deadline := time.Now().Add(time.Minute); !strings.Contains(status, "could not be opened"); {
		if time.Now().After(deadline) {
			t.Fatalf("no message for a damaged link; status %q", status)
		}
		time.Sleep(50 * time.Millisecond)
		status, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("share-status").textContent`))
	}
	after := b.state(t).Scene.Run
	if after.Lesson != before.Lesson || len(after.Writes) < len(before.Writes) {
		t.Errorf("a damaged link changed the run: %+v -> %+v", before, after)
	}
	b.screenshot(t, "permalink-damaged.png")

	// A good link typed into the address bar opens at once.
	other := permalink.LessonLink("scheduler", 2, nil, core.ActionLog{core.At(3*time.Second, core.Crash("api-1"))})
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`location.hash = "`+other.Fragment()+`"`)); err != nil {
		t.Fatal(err)
	}
	b.until(t, "the second link", time.Minute, func(s fullState) bool {
		return s.Scene.Run != nil && s.Scene.Run.Lesson == "scheduler" && s.Scene.Run.Now == 3
	})
	t.Run("FindABreak", func(t *testing.T) { findABreak(t, b, broken[:1]) })
}

// findABreak clicks "Find a break" in the fenced-writes lesson: with
// fencing on, the search runs across frames with a progress bar and can be
// cancelled; with fencing off, the counterexample it finds becomes the
// lesson's run.
func findABreak(t *testing.T, b *browser, fencingOff core.ActionLog) {
	ctx, srv := b.ctx, b.srv
	open := func(l permalink.RunLink) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+l.Fragment())); err != nil {
			t.Fatal(err)
		}
		b.until(t, "the lesson", 2*time.Minute, func(s fullState) bool {
			return s.Scene.Run != nil && s.Scene.Run.Lesson == "fenced-writes" && s.Frame > 2 && s.Scene.Regions["explore"] != nil
		})
	}
	narration := func() string {
		s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("narration").textContent`))
		return s
	}

	// Fencing on: 3600 schedules, a search long enough to watch.
	open(permalink.LessonLink("fenced-writes", 1, nil, nil))
	b.click(t, "explore")
	b.screenshot(t, "find-a-break-searching.png")
	b.click(t, "explore")
	for deadline := time.Now().Add(time.Minute); !strings.Contains(narration(), "Cancelled after"); {
		if time.Now().After(deadline) {
			t.Fatalf("cancel not reported; narration:\n%s", narration())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Fencing off.
	open(permalink.LessonLink("fenced-writes", 1, nil, fencingOff))
	b.click(t, "explore")
	start := time.Now()
	frames := b.state(t).Frame
	for !strings.Contains(narration(), "Found the simplest break") {
		if time.Since(start) > 3*time.Minute {
			t.Fatalf("no break found; narration:\n%s", narration())
		}
		time.Sleep(100 * time.Millisecond)
	}
	st := b.state(t)
	took := time.Since(start)
	t.Logf("search took %s over %d frames", took.Round(time.Millisecond), st.Frame-frames)
	// The search runs in slices between frames, so the page keeps drawing:
	// at least one frame per slowFrame of search (headless Chromium draws
	// in software, a few frames a second). A search that blocked the page
	// would show one frame however long it took.
	const slowFrame = 400 * time.Millisecond
	if want := int64(took / slowFrame); st.Frame-frames < max(want, 1) {
		t.Errorf("the page drew %d frames during a %s search (want at least %d): it must stay responsive", st.Frame-frames, took.Round(time.Millisecond), want)
	}
	if st.Scene.Run.Now >= 1 || !st.Scene.Run.Procs[0].Paused {
		t.Errorf("loaded run: now %v, procs %+v; want A paused near the start", st.Scene.Run.Now, st.Scene.Run.Procs)
	}
	b.screenshot(t, "find-a-break-found.png")

	// The same schedule with fencing off and on, side by side: each
	// verdict read from its run's trace.
	b.click(t, "compare")
	st = b.until(t, "the comparison", time.Minute, func(s fullState) bool { return s.Scene.Compare != nil })
	c := st.Scene.Compare
	if !c.OffBroke || !strings.HasPrefix(c.Off, "Fencing off: stale write accepted at t=") ||
		c.OnBroke || c.On != "Fencing on: 1 stale write rejected" {
		t.Errorf("comparison verdicts: %+v", c)
	}
	if _, ok := st.Scene.Regions["explore"]; ok {
		t.Error("Find a break offered inside the comparison")
	}
	// One play head: a click on the fencing-on timeline moves both runs.
	b.clickFrac(t, "compareLanes:on", 25.0/90, 0.5)
	b.until(t, "the play head near 25s", 30*time.Second, func(s fullState) bool {
		return s.Scene.Compare != nil && math.Abs(s.Scene.Compare.Now-25) < 0.6
	})
	b.screenshot(t, "compare-fencing.png")
	b.press(t, escKey)
	b.until(t, "the learner's run again", time.Minute, func(s fullState) bool {
		return s.Scene.Compare == nil && s.Scene.Name == "lesson" && s.Scene.Regions["explore"] != nil
	})
}
