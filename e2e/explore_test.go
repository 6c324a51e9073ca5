package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"leaselab/core"
)

// The explorer's counterexample for fenced-writes, as labctl explore
// prints it: fencing off, then A paused at 0.1 s for 12.5 s.
var brokenFencing = core.ActionLog{
	core.At(0, core.Action{Do: "fencing", On: false}),
	core.At(100*time.Millisecond, core.Action{Do: "pause", Proc: "A", For: core.Duration(12500 * time.Millisecond)}),
}

// TestBrowserPermalink opens a run from a #run= link, shares it back, and
// checks that a bad link is explained and changes nothing.
func TestBrowserPermalink(t *testing.T) {
	ctx, srv := startChromium(t, 1440, 860)
	b := &browser{ctx: ctx, srv: srv}
	link := core.LessonLink("fenced-writes", 1, nil, brokenFencing)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+link.Fragment())); err != nil {
		t.Fatal(err)
	}
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
	got, err := core.DecodeLink(shared.Fragment)
	if err != nil || got.Name != "fenced-writes" || len(got.Log) != 2 || got.Log[1] != brokenFencing[1] {
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
	other := core.LessonLink("scheduler", 2, nil, core.ActionLog{core.At(3*time.Second, core.Action{Do: "crash", Proc: "api-1"})})
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`location.hash = "`+other.Fragment()+`"`)); err != nil {
		t.Fatal(err)
	}
	b.until(t, "the second link", time.Minute, func(s fullState) bool {
		return s.Scene.Run != nil && s.Scene.Run.Lesson == "scheduler" && s.Scene.Run.Now == 3
	})
}
