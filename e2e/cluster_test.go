package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core/permalink"
	"leaselab/lessons"
)

// Lesson 14 has a coordinator of three members: in the page each member
// is an actor like a process, its state in the world summary and its
// actions among the panel's buttons.

var (
	digit3 = key{key: "3", code: "Digit3", text: "3", vk: 51}
	keyX   = key{key: "x", code: "KeyX", text: "x", vk: 88}
)

// world is the panel's "The world now" list, once it has an item that
// contains want (it is redrawn once a second).
func (b *browser) world(t *testing.T, want string) []string {
	t.Helper()
	var world []string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		world = b.axTree(t).listUnder("The world now")
		if slices.ContainsFunc(world, func(s string) bool { return strings.Contains(s, want) }) {
			return world
		}
	}
	require.Failf(t, "the world summary", "no item says %q: %q", want, world)
	return nil
}

// tabTo presses Tab until the panel's control id has the focus, as a
// keyboard user reaches a button, and fails after max presses.
func (b *browser) tabTo(t *testing.T, id string, max int) {
	t.Helper()
	for range max {
		if b.eval(t, `String(document.activeElement && document.activeElement.dataset && document.activeElement.dataset.id)`) == id {
			return
		}
		b.press(t, tabKey)
	}
	require.Failf(t, "tab", "%d presses of Tab never reached %q", max, id)
}

// playTo plays (P) until the play head passes at, then pauses (P).
func (b *browser) playTo(t *testing.T, at float64) {
	t.Helper()
	b.press(t, pKey)
	b.until(t, fmt.Sprintf("%g s", at), 2*time.Minute, func(s fullState) bool { return s.Scene.Run.Now >= at })
	b.press(t, pKey)
	b.until(t, "paused", 30*time.Second, func(s fullState) bool { return !s.Scene.Run.Playing })
}

// TestBrowserClusterLessonByKeyboard plays lesson 14's first two goals at
// 1024x640 with the keyboard alone: Tab and Enter on the panel's "Slow
// disk" buttons of member-2 and member-3; P to play; 1 and X to crash A;
// the leading member (read from the world summary, as a screen reader
// user would) selected by its digit and crashed with X; A restarted with
// 1 and X once its lease is gone. The accessibility tree then says which
// member leads in which term, that member-1 is down and which disks are
// slow, and both goals say Met.
func TestBrowserClusterLessonByKeyboard(t *testing.T) {
	b := openBrowserSized(t, everySize[1]) // 1024x640
	b.eval(t, `(location.hash = "#lesson=coordinator-cluster", "")`)
	b.until(t, "lesson 14", time.Minute, func(s fullState) bool {
		return s.Scene.Run != nil && s.Scene.Run.Lesson == "coordinator-cluster"
	})
	world := b.world(t, "Coordinator: member-1 leads")
	assert.Contains(t, world, "member-2: follower in the quorum, revision 1 applied")

	b.tabTo(t, "act:member-2:disk-slow", 200)
	b.press(t, enterKey)
	b.world(t, "member-2: follower in the quorum, slow disk (300 ms syncs)")
	b.tabTo(t, "act:member-3:disk-slow", 60)
	b.press(t, enterKey)
	b.world(t, "member-3: follower in the quorum, slow disk (300 ms syncs)")

	b.playTo(t, 1)
	b.press(t, digit1)
	b.until(t, "A's menu", 30*time.Second, func(s fullState) bool { _, ok := s.Scene.Regions["act:A:crash"]; return ok })
	b.press(t, keyX)
	b.world(t, "A: crashed")

	leader := ""
	for _, line := range b.world(t, "leads (term") {
		if l, ok := strings.CutPrefix(line, "Coordinator: "); ok {
			leader, _, _ = strings.Cut(l, " ")
		}
	}
	require.Equal(t, "member-1", leader, "member-1 leads until it goes")
	b.press(t, digit3) // A, B, then member-1
	b.until(t, "member-1's menu", 30*time.Second, func(s fullState) bool { _, ok := s.Scene.Regions["act:member-1:crash"]; return ok })
	b.press(t, keyX)
	b.world(t, "member-1: crashed")

	// The leading member went under a dead holder: the run stops and asks
	// when the lock will pass on as soon as it plays on; 2 answers
	// "Later", from the keyboard.
	b.press(t, pKey)
	st := b.until(t, "the question at the failover", 30*time.Second, func(s fullState) bool {
		_, ok := s.Scene.Regions["predict:later"]
		return ok
	})
	assert.False(t, st.Scene.Run.Playing, "the run waits for the prediction")
	assert.NotEmpty(t, b.axTree(t).named("button", "Later: after a new leader is elected"), "the page offers the options as buttons")
	b.press(t, digit2)
	b.until(t, "the question answered", 30*time.Second, func(s fullState) bool {
		_, ok := s.Scene.Regions["predict:later"]
		return !ok
	})

	b.playTo(t, 11) // past A's re-armed lease
	world = b.world(t, "leads (term 3)")
	assert.NotContains(t, strings.Join(world, "\n"), "member-1 leads")
	b.press(t, digit1)
	b.until(t, "A's menu", 30*time.Second, func(s fullState) bool { _, ok := s.Scene.Regions["act:A:restart"]; return ok })
	b.press(t, keyX)
	b.press(t, pKey)
	st = b.until(t, "the first two goals", 2*time.Minute, func(s fullState) bool {
		g := s.Scene.Mirror.Goals
		return len(g) == 5 && g[0].Met && g[1].Met
	})
	b.press(t, pKey)
	t.Logf("goals 1 and 2 met by %.1f s", st.Scene.Run.Now)

	tr := b.axTree(t)
	world = tr.listUnder("The world now")
	joined := strings.Join(world, "\n")
	assert.Contains(t, joined, "member-1: crashed")
	assert.Regexp(t, `Coordinator: member-[23] leads \(term 3\)`, joined)
	assert.Regexp(t, `member-2: (leader, term 3|follower in the quorum), slow disk \(300 ms syncs\)`, joined)
	goals := tr.listUnder("Goals")
	require.Len(t, goals, 5)
	for _, g := range goals[:2] {
		assert.Contains(t, g, "Met", "goal: %s", g)
	}
	assert.NotEmpty(t, tr.named("button", "Restart"), "member-1's Restart is a button")
	b.screenshot(t, "cluster-keyboard-1024x640.png")
}

// TestBrowserClusterLessonFitsEverySize opens lesson 14 with its solution
// at 25 s (member-2 cut off from its peers, member-3 leading in term 3)
// on a phone, at 1024x640 and at 1280x800: the panel offers every
// member's actions, each control at least 24 px and no text under 14 px;
// the screenshots are saved for a person to look at. On the phone a tap
// on member-1's cell and one on its Crash crash it.
func TestBrowserClusterLessonFitsEverySize(t *testing.T) {
	l, err := lessons.Find("coordinator-cluster")
	require.NoError(t, err)
	link := permalink.LessonLink(l.ID, 1, l.SolutionKnobs, l.Solution).Fragment()
	for _, sz := range everySize[:3] {
		t.Run(sz.name, func(t *testing.T) {
			b := openBrowserSized(t, sz)
			b.eval(t, fmt.Sprintf(`(location.hash = %q, "")`, link))
			b.until(t, "lesson 14", time.Minute, func(s fullState) bool {
				return s.Scene.Run != nil && s.Scene.Run.Lesson == l.ID
			})
			b.setControl(t, "scrub", 25)
			b.until(t, "25 s", time.Minute, func(s fullState) bool { return s.Scene.Run.Now >= 24.9 })
			world := b.world(t, "member-2: out of the quorum, cut off from its peers")
			assert.Contains(t, world, "Coordinator: member-3 leads (term 3)")
			for _, id := range []string{"act:member-1:crash", "act:member-2:heal:peers", "act:member-3:read-linearizable", "act:member-2:disk-normal"} {
				assert.Equal(t, "button", b.htmlKind(t, id), "the panel's %s", id)
			}
			time.Sleep(400 * time.Millisecond)
			png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
			require.NoError(t, err)
			t.Logf("screenshot: %s", saveArtifact(t, "cluster-"+sz.name+".png", png))
			if dir := os.Getenv("LEASELAB_SHOTS"); dir != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "browser-"+sz.name+"-cluster.png"), png, 0o644))
			}
			bad, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](panelProblems))
			require.NoError(t, err)
			assert.Empty(t, bad, "lesson 14 at %s:\n  %s", sz.name, strings.Join(bad, "\n  "))
			if sz.phone {
				// By touch on the canvas: tap member-1's cell, then Crash.
				b.touchAt(t, "proc:member-1", 0.5, 0.5, 0.5)
				b.until(t, "member-1's menu", 30*time.Second, func(s fullState) bool { _, ok := s.Scene.Regions["act:member-1:crash"]; return ok })
				b.touchAt(t, "act:member-1:crash", 0.5, 0.5, 0.5)
				b.world(t, "member-1: crashed")
			}
		})
	}
}
