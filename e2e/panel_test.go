package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser's lesson panel is HTML: these tests use nothing but its
// controls (real clicks on its buttons and links, values set in its
// ranges and menus, as a screen-reader or keyboard user would), and read
// what happened from the accessibility tree, as a screen reader does.

// useControl clicks the panel's control id (a button or link) with the
// mouse, where it is on the page.
func (b *browser) useControl(t *testing.T, id string) {
	t.Helper()
	sel := chromedp.CSS(fmt.Sprintf(`#mirror [data-id=%q]`, id))
	err := chromedp.Do(b.ctx, chromedp.WaitVisible(sel), chromedp.Click(sel))
	require.NoError(t, err, "click the panel's %q", id)
}

// setControl sets the panel's range or menu id to v (a menu's option
// index), as moving the range or picking the option does.
func (b *browser) setControl(t *testing.T, id string, v float64) {
	t.Helper()
	js := fmt.Sprintf(`(() => {
		const el = document.querySelector('#mirror [data-id=%q]');
		if (!el) return false;
		el.focus();
		if (el.tagName === "SELECT") el.selectedIndex = %v; else el.value = %v;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	})()`, id, v, v)
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
	require.NoError(t, err, "set the panel's %q to %v", id, v)
	require.True(t, ok, "the panel has a %q to set", id)
}

// htmlKind is the kind of the panel's visible control id: "range",
// "select", "button" (a button, link or choice), or "" when the panel has
// none.
func (b *browser) htmlKind(t *testing.T, id string) string {
	t.Helper()
	kind, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const el = document.querySelector('#mirror [data-id=%q]');
		if (!el || !el.getClientRects().length) return "";
		return el.type === "range" ? "range" : el.tagName === "SELECT" ? "select" : "button";
	})()`, id)))
	require.NoError(t, err)
	return kind
}

// nextOption picks the option after the chosen one in the panel's menu
// id, as a click on the canvas's choice button steps to the next.
func (b *browser) nextOption(t *testing.T, id string) {
	t.Helper()
	next, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](fmt.Sprintf(`(() => {
		const el = document.querySelector('#mirror [data-id=%q]');
		return (el.selectedIndex + 1) %% el.options.length;
	})()`, id)))
	require.NoError(t, err)
	b.setControl(t, id, next)
}

// setControlFrac sets the panel's range id at fraction f of its span.
func (b *browser) setControlFrac(t *testing.T, id string, f float64) {
	t.Helper()
	span, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
		const el = document.querySelector('#mirror [data-id=%q]');
		return [Number(el.min), Number(el.max), Number(el.step) || 0];
	})()`, id)))
	require.NoError(t, err, "the panel's range %q", id)
	require.Len(t, span, 3, "the panel's range %q", id)
	v := span[0] + f*(span[1]-span[0])
	if st := span[2]; st > 0 {
		v = span[0] + math.Round((v-span[0])/st)*st
	}
	b.setControl(t, id, v)
}

// axNode is one node of the accessibility tree, simplified.
type axNode struct {
	Role, Name string
	ID         string
	Children   []string
}

// axTree is the accessibility tree by node id, in document order.
type axTree struct {
	nodes []axNode
	byID  map[string]*axNode
}

// text is what a screen reader reads inside node id: its static texts.
func (tr axTree) text(id string) string {
	n := tr.byID[id]
	if n == nil {
		return ""
	}
	if n.Role == "StaticText" {
		return n.Name
	}
	var parts []string
	for _, c := range n.Children {
		if s := tr.text(c); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "")
}

// listUnder returns the texts of the items of the first list after the
// heading named heading.
func (tr axTree) listUnder(heading string) []string {
	seen := false
	for _, n := range tr.nodes {
		if n.Role == "heading" && n.Name == heading {
			seen = true
			continue
		}
		if seen && n.Role == "list" {
			var out []string
			for _, c := range n.Children {
				if tr.byID[c] != nil && tr.byID[c].Role == "listitem" {
					out = append(out, tr.text(c))
				}
			}
			return out
		}
	}
	return nil
}

// axTree reads the page's full accessibility tree.
func (b *browser) axTree(t *testing.T) axTree {
	t.Helper()
	res, err := chromedp.Call(b.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	nodes := res.Nodes
	require.NoError(t, err, "Accessibility.getFullAXTree")
	str := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		var s string
		if json.Unmarshal(v.Value, &s) == nil {
			return s
		}
		return string(v.Value)
	}
	tr := axTree{byID: map[string]*axNode{}}
	for _, n := range nodes {
		// Ignored nodes (plain containers) stay, to reach what is inside
		// them, with no role a search could find.
		node := axNode{Role: str(n.Role), Name: str(n.Name), ID: string(n.NodeID)}
		if n.Ignored {
			node.Role = ""
		}
		for _, c := range n.ChildIDs {
			node.Children = append(node.Children, string(c))
		}
		tr.nodes = append(tr.nodes, node)
	}
	for i := range tr.nodes {
		tr.byID[tr.nodes[i].ID] = &tr.nodes[i]
	}
	return tr
}

// named returns the tree's nodes of role whose name contains part.
func (tr axTree) named(role, part string) []axNode {
	var out []axNode
	for _, n := range tr.nodes {
		if n.Role == role && strings.Contains(n.Name, part) {
			out = append(out, n)
		}
	}
	return out
}

// TestBrowserFencedWritesWithThePanelAlone completes the fenced-writes
// lesson using only the HTML panel: the menu's link, the play head, A's
// and B's Pause buttons, the store's switch, then Play at 64×; and reads
// from the accessibility tree that every goal says "Met" and that A's
// write with token 7 was rejected.
func TestBrowserFencedWritesWithThePanelAlone(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	tr := b.axTree(t)
	for _, role := range []string{"main", "navigation"} {
		assert.NotEmpty(t, tr.named(role, ""), "a %s landmark in the accessibility tree", role)
	}
	// On the menu, a page of its own, the canvas is hidden from the tree
	// (and holds no focus); its name is checked once the world shows.
	assert.Empty(t, tr.named("application", "Click a process"), "the menu's hidden canvas is not in the tree")
	lessonsList := tr.listUnder("Lessons")
	require.GreaterOrEqual(t, len(lessonsList), 10, "the menu's lessons are a list of links: %q", lessonsList)
	require.Contains(t, lessonsList[0], "min", "each with its time")
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.setControl(t, "scrub", 4)
	b.useControl(t, "act:A:pause")
	b.until(t, "A paused", 30*time.Second, func(s fullState) bool { return s.Scene.Run.Procs[0].Paused })
	b.setControl(t, "scrub", 30)
	b.useControl(t, "fencing")
	b.setControl(t, "scrub", 36)
	b.useControl(t, "act:B:pause")
	b.setControl(t, "speed", 8) // 64×
	b.useControl(t, "play")
	st := b.until(t, "the lesson complete", 2*time.Minute, func(s fullState) bool { return s.Scene.Run.Complete })
	b.screenshot(t, "browser-panel-fenced-writes.png")

	tr = b.axTree(t)
	assert.NotEmpty(t, tr.named("application", "Click a process"), "the lesson's canvas has an accessible name that says how to use it")
	goals := tr.listUnder("Goals")
	require.Len(t, goals, 3, "the goals list reads %q", goals)
	require.Len(t, st.Scene.Mirror.Goals, len(goals))
	for _, g := range goals {
		assert.True(t, strings.HasPrefix(g, "Met: "), "a goal reads %q, want it met", g)
	}
	told := strings.Join(tr.listUnder("What happened"), "\n")
	assert.Contains(t, told, "rejected A's write with token 7", "the accessible narration tells the rejection")
	assert.NotEmpty(t, tr.named("button", "Pause"), "a Pause button in the accessibility tree")
}

// TestBrowserExerciseThreeWithThePanelAlone completes exercise 3 with
// the panel's controls only, and reads the verdict from the
// accessibility tree.
func TestBrowserExerciseThreeWithThePanelAlone(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.useControl(t, "exercise:no-fencing")
	b.until(t, "the exercise", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "exercise" })
	b.useControl(t, "simulator")
	b.until(t, "the simulator", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	b.setControl(t, "scrub", 4)
	b.useControl(t, "act:A:pause")
	b.setControl(t, "scrub", 60)
	b.setControl(t, "knob:fencing", 1)
	b.until(t, "both checkpoints", time.Minute, func(s fullState) bool {
		for _, g := range s.Scene.Mirror.Goals {
			if !g.Met {
				return false
			}
		}
		return len(s.Scene.Mirror.Goals) == 2
	})
	b.useControl(t, "menu") // "< Answer"
	b.until(t, "the answer", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "exercise" && s.Scene.Run == nil })
	for _, seq := range []int{31, 34, 48, 52, 63, 83, 88} {
		b.useControl(t, fmt.Sprintf("chain:add:%d", seq)) // a click, as a touch or a pointer does
	}
	b.useControl(t, "check")
	ex := b.exUntil(t, "the verdict", 2*time.Minute, func(s exState) bool { return s.Scene.Exercise.Result != nil })
	require.True(t, ex.Scene.Exercise.Passed, "exercise 3 passed: %+v", ex.Scene.Exercise.Result)
	b.screenshot(t, "browser-panel-exercise-3.png")
	tr := b.axTree(t)
	assert.NotEmpty(t, tr.named("button", "Step 2: [34] at 4 s: A froze (stop-the-world pause of 20s)"), "each step of the chain is a button in the accessibility tree, saying what it is")
	assert.NotEmpty(t, tr.named("button", "[48] at 14 s: the coordinator expired the lease of A"), "the run's events are buttons in the accessibility tree")
	assert.NotEmpty(t, tr.named("StaticText", "Result: Passed: 2 of 2 parts right."), "the accessibility tree says the exercise passed")
}

// TestBrowserThePanelCollapses hides the panel on a wide screen: the
// canvas takes the width back, the button says so, and Show brings the
// panel back.
func TestBrowserThePanelCollapses(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.useControl(t, "lesson:fenced-writes")
	b.until(t, "the lesson", 30*time.Second, func(s fullState) bool { return s.Scene.Run != nil })
	width := func() float64 {
		w, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`document.querySelector("canvas").getBoundingClientRect().width`))
		require.NoError(t, err)
		return w
	}
	expanded := func() string {
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById("collapse").getAttribute("aria-expanded")`))
		require.NoError(t, err)
		return v
	}
	before := width()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#collapse"))), "hide the panel")
	st := b.until(t, "the canvas widened", 30*time.Second, func(s fullState) bool { return s.Width > before+100 })
	assert.GreaterOrEqual(t, width(), before+100, "collapsed, the canvas widens (was %.0f px)", before)
	assert.Equal(t, "false", expanded(), "collapsed: aria-expanded")
	b.screenshot(t, "browser-panel-collapsed.png")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#collapse"))), "show the panel")
	b.until(t, "the panel back", 30*time.Second, func(s fullState) bool { return s.Width < st.Width-100 })
	assert.Equal(t, "true", expanded(), "shown again: aria-expanded")
}

// TestBrowserTheDefenceIsTypedAndSurvivesAReload types a defence into
// exercise 3's text field with the keyboard, reloads the page, and finds
// it still there.
func TestBrowserTheDefenceIsTypedAndSurvivesAReload(t *testing.T) {
	b := openBrowser(t, 1280, 800)
	b.useControl(t, "exercise:no-fencing")
	b.until(t, "the exercise", 30*time.Second, func(s fullState) bool { return s.Scene.Name == "exercise" })
	const words = "The lock was fine; the store could not tell an old token."
	field := chromedp.CSS(`#mirror [data-id="defence"]`)
	err := chromedp.Do(b.ctx, chromedp.WaitVisible(field), chromedp.Click(field), chromedp.SendKeys(field, words))
	require.NoError(t, err, "type the defence")
	b.exUntil(t, "the defence kept", 30*time.Second, func(s exState) bool { return s.Scene.Exercise.Answer.Defence == words })
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), firstFrames()), "the reloaded page")
	// The address names the exercise: the reload returns to it.
	b.exUntil(t, "the saved answer restored", 30*time.Second, func(s exState) bool {
		return s.Scene.Name == "exercise" && s.Scene.Exercise.Answer.Defence == words
	})
	got := ""
	for deadline := time.Now().Add(10 * time.Second); got != words && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var err error
		got, err = chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => { const el = document.querySelector('#mirror [data-id="defence"]'); return el ? el.value : "" })()`))
		require.NoError(t, err)
	}
	assert.Equal(t, words, got, "after a reload the page's field")
}
