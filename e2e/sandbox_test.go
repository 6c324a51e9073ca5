package e2e

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core/permalink"
)

// TestBrowserSandboxKubernetes is the scenario in headless
// Chromium: open the sandbox from the menu, pick the Kubernetes preset
// (first making it invalid, to see Start refused with the reason beside
// the field), pause the leader for 20 s, and check that a second leader
// appears and that the invariant panel reports the belief overlap; then
// jump to the first break by clicking it, and export the trace.
func TestBrowserSandboxKubernetes(t *testing.T) {
	b := openSandbox(t, "kubernetes", func(text string) bool {
		return strings.Contains(text, "TTL: 15 s") && strings.Contains(text, "Renew every: 2 s")
	})
	assert.Empty(t, b.axTree(t).named("heading", "Goals"), "the setup has no goals, so the panel has no Goals heading")

	b.startIsRefusedThenStartsWithThePreset(t)
	st, pausedAt := b.pauseTheLeaderFor20s(t)
	belief := beliefInvariant(t, st)
	g := st.Scene.Mirror.Goals[belief]
	// Woken, A may still be leading: client-go's leader stops only at its
	// renew deadline, so the overlap can still be open ("broken now").
	if g.Met || !strings.Contains(g.Text, " at t=") || !strings.Contains(g.Text, "A and "+st.Scene.Run.Holder+" both believed they held leader") {
		t.Fatalf("the invariant panel does not report the belief overlap: %+v", g)
	}
	for _, other := range st.Scene.Mirror.Goals[:2] {
		if !other.Met {
			t.Errorf("a coordinator invariant broke: %+v", other)
		}
	}
	b.screenshot(t, "browser-sandbox.png")

	// Clicking the broken invariant moves the play head to its first break.
	at, err := strconv.ParseFloat(strings.SplitN(strings.SplitN(g.Text, " at t=", 2)[1], "s", 2)[0], 64)
	if err != nil {
		t.Fatalf("no time in %q: %v", g.Text, err)
	}
	b.click(t, "inv:"+strconv.Itoa(belief))
	st = b.until(t, "the play head at the first break", 30*time.Second, func(s fullState) bool {
		return math.Abs(s.Scene.Run.Now-at) < 0.002
	})
	if st.Scene.Run.Now < pausedAt || st.Scene.Run.Now > pausedAt+20 {
		t.Errorf("the first overlap at %.3fs lies outside A's pause from %.1fs", st.Scene.Run.Now, pausedAt)
	}

	b.exportsTheTraceAsJSONL(t)
	b.sharedRunComesBackOnReload(t, pausedAt)
}

// untilText polls the scene's mirror text until ok holds.
// openSandbox opens the sandbox from the menu in a 1280×760 page and
// clicks preset, waiting until the setup's text shows it loaded.
func openSandbox(t *testing.T, preset string, loaded func(text string) bool) *browser {
	t.Helper()
	b := openBrowser(t, 1280, 760)
	b.until(t, "the menu", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "menu" })
	b.click(t, "sandbox")
	b.until(t, "the sandbox setup", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox-setup" })
	b.click(t, "preset:"+preset)
	b.untilText(t, "the "+preset+" preset", loaded)
	return b
}

func (b *browser) untilText(t *testing.T, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		text, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`JSON.parse(globalThis.leaselab.state()).scene.mirror.text`))
		if err != nil {
			t.Fatal(err)
		}
		if ok(text) {
			return text
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; the scene says:\n%s", what, text)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// startIsRefusedThenStartsWithThePreset: renewing every 120 s with a 15 s
// TTL is refused, with the reason beside the field, and Start does
// nothing; the preset again is valid (its verdict counts its own scripted
// pause) and starts the run.
func (b *browser) startIsRefusedThenStartsWithThePreset(t *testing.T) {
	t.Helper()
	b.clickFrac(t, "field:renew", 0.999, 0.5)
	text := b.untilText(t, "the renew field refused", func(text string) bool { return strings.HasPrefix(text, "Cannot start:") })
	if !strings.Contains(text, "Renew every: 120 s - problem: renewing every 120 s with a TTL of 15 s lets the lease lapse between renewals") {
		t.Fatalf("no reason beside the field:\n%s", text)
	}
	b.screenshot(t, "browser-sandbox-invalid.png")
	b.click(t, "start")
	if b.state(t).Scene.Name != "sandbox-setup" {
		t.Fatal("an invalid setup started")
	}
	b.click(t, "preset:kubernetes") // back to the preset's 2 s
	b.untilText(t, "the preset again", func(text string) bool {
		// The preset's own scripted pause (A frozen 20 s against a 15 s
		// Lease) is counted: the verdict says the policy does not hold.
		return !strings.HasPrefix(text, "Cannot start") && strings.Contains(text, "Policy not OK") &&
			strings.Contains(text, "the worst pause is the setup's own")
	})
	b.click(t, "start")
	b.until(t, "the sandbox run", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "sandbox" && s.Scene.Run != nil })
}

// pauseTheLeaderFor20s lets A lead for a few seconds, pauses it for 20 s
// and plays on until a second leader has appeared and A is awake; it
// returns the state then and when A was paused.
func (b *browser) pauseTheLeaderFor20s(t *testing.T) (st fullState, pausedAt float64) {
	t.Helper()
	// Let A lead for a few seconds (at 8x: a loaded machine draws few
	// frames a second), then pause it for 20 s and play on.
	for range 3 {
		b.press(t, bracketRight)
	}
	b.press(t, pKey)
	b.until(t, "A leading", time.Minute, func(s fullState) bool { return s.Scene.Run.Holder == "A" && s.Scene.Run.Now > 3 })
	b.press(t, pKey)
	b.act(t, "A", "pause")
	st = b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	pausedAt = st.Scene.Run.Now
	b.press(t, pKey)
	st = b.until(t, "a second leader", 2*time.Minute, func(s fullState) bool {
		return s.Scene.Run.Holder != "A" && s.Scene.Run.Holder != "" && s.Scene.Run.Now > pausedAt+16
	})
	st = b.until(t, "A awake after its 20 s", 2*time.Minute, func(s fullState) bool { return s.Scene.Run.Now > pausedAt+21 })
	b.press(t, pKey)
	t.Logf("A paused at %.1fs; holder now %s with token %d at %.1fs", pausedAt, st.Scene.Run.Holder, st.Scene.Run.Token, st.Scene.Run.Now)
	return st, pausedAt
}

// beliefInvariant is the index of the invariant panel's "at most one
// believer" line; the test fails without one.
func beliefInvariant(t *testing.T, st fullState) int {
	t.Helper()
	belief := -1
	for i, g := range st.Scene.Mirror.Goals {
		if strings.HasPrefix(g.Text, "at most one believer per lock or shard: ") {
			belief = i
		}
	}
	if belief < 0 {
		t.Fatalf("the invariant panel lacks the belief invariant: %+v", st.Scene.Mirror.Goals)
	}
	return belief
}

// exportsTheTraceAsJSONL: the export button downloads the run's trace,
// one JSON event a line.
func (b *browser) exportsTheTraceAsJSONL(t *testing.T) {
	t.Helper()
	b.click(t, "exportJSONL")
	type dl struct {
		Name  string `json:"name"`
		Bytes int    `json:"bytes"`
		Text  string `json:"text"`
	}
	var dls []dl
	deadline := time.Now().Add(10 * time.Second)
	for len(dls) == 0 && time.Now().Before(deadline) {
		var err error
		if dls, err = chromedp.Run(b.ctx, chromedp.Evaluate[[]dl](`globalThis.leaselabDownloads || []`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
	}
	if len(dls) != 1 || !strings.HasSuffix(dls[0].Name, ".jsonl") || !strings.HasPrefix(dls[0].Text, `{"seq":0,"t_ms":0,`) || dls[0].Bytes < 1000 {
		t.Fatalf("downloads: %+v", dls)
	}
	t.Logf("downloaded %s, %d bytes", dls[0].Name, dls[0].Bytes)
}

// sharedRunComesBackOnReload: Share the run with the page's button, then
// reload: the link in the address bar brings back the same setup, the
// same pause and the play head at it (pausedAt).
func (b *browser) sharedRunComesBackOnReload(t *testing.T, pausedAt float64) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("share"))))
	var frag string
	for deadline := time.Now().Add(10 * time.Second); !strings.HasPrefix(frag, "#run=") && time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
		var err error
		frag, err = chromedp.Run(b.ctx, chromedp.Evaluate[string](`location.hash`))
		require.NoError(t, err)
	}
	status, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById("share-status").textContent`))
	require.NoError(t, err)
	link, err := permalink.DecodeLink(frag)
	require.NoError(t, err, "the address bar holds a link after Share (the page says %q)", status)
	require.Equal(t, permalink.LinkSandbox, link.Kind)
	assert.Equal(t, "kubernetes", link.Name)
	require.Len(t, link.Log, 1, "the learner's pause")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload()))
	st := b.until(t, "the shared run after a reload", time.Minute, func(s fullState) bool {
		return s.Scene.Name == "sandbox" && s.Scene.Run != nil && math.Abs(s.Scene.Run.Now-pausedAt) < 0.002
	})
	assert.True(t, st.Scene.Run.Procs[0].Paused, "A is paused at the play head, as shared")
	b.screenshot(t, "browser-sandbox-shared.png")
}
