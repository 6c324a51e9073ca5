package game

// Tests that the canvas and the page agree: one declaration, one id and
// one key for each control, and a canvas that works on its own where the
// page shows no panel (an upright phone, the desktop's menu).

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/lesson"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/game/view"
	"leaselab/lessons"
)

// TestEveryLessonFitsAnUprightPhoneWithoutThePanel lays every lesson's
// solution out mid-run on a phone held upright (390×464 CSS px at 3×,
// the canvas above the page's panel) and checks that the world's actors
// stay apart and inside it, and that its text is not shrunk below 9 CSS
// px.
func TestEveryLessonFitsAnUprightPhoneWithoutThePanel(t *testing.T) {
	const w, h, scale = 1170, 1392, 3
	for _, l := range lessons.All() {
		t.Run(l.ID, func(t *testing.T) {
			r := newPanelRig(t)
			r.st.Window = ui.Rect{W: w, H: h}
			r.st.Style = draw.NewStyle(ui.UnitForBare(w, h, scale))
			r.st.Style.PanelOutside = true
			assert.GreaterOrEqual(t, r.st.Style.Unit/scale*13, 9.0, "small text is %.1f CSS px", r.st.Style.Unit/scale*13)
			r.use("lesson:"+l.ID, 0)
			sc := r.a.top().(*lesson.Scene)
			sc.ShowSolution()
			sc.Play(false)
			sc.Seek(l.Duration * 2 / 3)
			r.tick(ui.Input{})
			info := r.a.Inspect()
			checkApart(t, info.Regions, "proc:", info.Regions["world"])
			for _, name := range []string{"world", "timeline", "controls", "play", "scrub", "fork"} {
				reg := info.Regions[name]
				assert.False(t, reg.Empty(), "%s is laid out", name)
				assert.LessOrEqual(t, reg.MaxX(), float64(w)+0.5, "%s inside the canvas", name)
			}
		})
	}
}

// TestTabFollowsTheLayoutWithoutThePanel: on the canvas the page shares,
// Tab visits its widgets row by row from the top, left to right.
func TestTabFollowsTheLayoutWithoutThePanel(t *testing.T) {
	r := newPanelRig(t)
	r.use("lesson:fenced-writes", 0)
	regions := r.a.Inspect().Regions
	var seen []string
	for range 12 {
		r.key(ui.IntentFocusNext)
		f := r.a.Inspect().Focus
		if f == "" || len(seen) > 0 && f == seen[0] {
			break
		}
		seen = append(seen, f)
	}
	require.GreaterOrEqual(t, len(seen), 5, "Tab visits the canvas's widgets: %v", seen)
	assert.NotContains(t, seen, "hint", "the panel's buttons are the page's")
	for i := 1; i < len(seen); i++ {
		a, b := regions[seen[i-1]], regions[seen[i]]
		require.False(t, a.Empty() || b.Empty(), "%s and %s are on the canvas", seen[i-1], seen[i])
		sameRow := math.Abs(a.Y-b.Y) <= math.Min(a.H, b.H)/2
		assert.True(t, b.Y > a.Y || sameRow && b.X > a.X, "Tab goes from %s %v to %s %v", seen[i-1], a, seen[i], b)
	}
}

// TestThePagesShortcutKeysAreTheCanvasKeys: a shortcut pressed while the
// page has the focus arrives as its intent (or digit); the keys that move
// and press the canvas's focus do not, as the page uses them itself.
func TestThePagesShortcutKeysAreTheCanvasKeys(t *testing.T) {
	in := ui.Input{Host: []ui.HostAction{{ID: "key:play-pause"}, {ID: "digit", Value: 3}, {ID: "key:focus-next"}, {ID: "key:activate"}, {ID: "hint"}, {ID: "act:A:pause"}}}
	hostIntents(&in)
	assert.True(t, in.Keys.Has(ui.IntentPlayPause))
	assert.Equal(t, 3, in.Digit)
	assert.False(t, in.Keys.Has(ui.IntentFocusNext), "Tab is the page's")
	assert.False(t, in.Keys.Has(ui.IntentActivate), "Enter is the page's")
	assert.False(t, in.Keys.Has(ui.IntentHint), "a control named like an intent is the control, not the key")
	assert.Equal(t, []ui.HostAction{{ID: "key:focus-next"}, {ID: "key:activate"}, {ID: "hint"}, {ID: "act:A:pause"}}, in.Host, "the rest go to the scene")

	r := newPanelRig(t)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "digit", Value: 3}}})
	r.tick(ui.Input{})
	assert.Equal(t, "The paused leader and fenced writes", r.a.Inspect().Mirror.Title, "3 on the menu opens the third lesson")
}

// TestTheCanvasMenuSaysWhatEachLessonIsAbout: resting the pointer on a
// lesson's row (on the desktop, where the canvas draws the menu) shows
// what it is about and how long it takes.
func TestTheCanvasMenuSaysWhatEachLessonIsAbout(t *testing.T) {
	r := newAppRig(t)
	row := r.region("lesson:fenced-writes").Center()
	for range player.TooltipDelay + 2 {
		r.tick(ui.Input{Cursor: row})
	}
	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	var shown []string
	for _, tp := range r.a.menu.Tips() {
		if tp.Visible() {
			shown = append(shown, tp.Text)
		}
	}
	require.Len(t, shown, 1, "one tip, the row's")
	assert.Equal(t, fmt.Sprintf("%s About %d min.", l.Summary, l.Minutes), shown[0])
}

// TestSelectingAWorkerShowsItsLane: in the shards lesson most workers
// share a "+N more" lane; selecting one brings its own lane up.
func TestSelectingAWorkerShowsItsLane(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:shards")
	sc := r.a.top().(*lesson.Scene)
	tv := sc.Player.Timeline.(*view.Timeline)
	lanes := func() []string {
		var out []string
		for _, l := range tv.Run().Lanes {
			out = append(out, l.Name)
		}
		return out
	}
	require.Contains(t, strings.Join(lanes(), ","), "more", "a summary lane: %v", lanes())
	require.NotContains(t, lanes(), "worker-11")
	r.tick(ui.Input{Digit: 9})
	for range 3 {
		r.key(ui.IntentNextActor)
	}
	assert.Contains(t, lanes(), "worker-11", "the selected worker's lane is shown: %v", lanes())
}

// TestTheCanvasMenuAndThePageAreOneDeclaration checks that an actor's
// canvas menu is made from the same declarations the page lists, under the
// same ids, and that a click on either runs the same action: the page's
// "Pause A" and the canvas's pause of B both go through the declarations'
// door and are told as the learner's actions.
func TestTheCanvasMenuAndThePageAreOneDeclaration(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	sc.Lab.Advance(4 * time.Second)
	r.tick(ui.Input{})
	r.click("proc:B")
	regions := r.a.Inspect().Regions
	for _, c := range sc.World().Choices()[1] {
		id := view.ActID("B", c.ID)
		decl, ok := r.control(id)
		require.True(t, ok, "the page lists %s", id)
		assert.Contains(t, regions, id, "the canvas names its menu item by the page's id")
		for i, b := range sc.World().Buttons() {
			if sc.World().MenuID(i) == id {
				assert.Equal(t, decl.CanvasLabel(), b.Label, "the canvas's item is the declaration's words and key")
			}
		}
	}
	r.click("act:B:pause")
	assert.Contains(t, narration(r), "You: pause B", "the canvas's click ran B's pause")
	r.click("proc:A")
	require.True(t, sc.World().Modal(), "A's menu is open on the canvas")
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "act:A:pause"}}})
	assert.Contains(t, narration(r), "You: pause A", "the page's click ran A's pause")
	assert.False(t, sc.World().Modal(), "and closed the canvas's menu, as a click in it does")
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "act:A:pause"}}})
	assert.Contains(t, lastLine(r), "A cannot do that now: the world changed", "a stale use is said, not acted on")
}

// The page says which token "write with token" sends next, as the canvas
// does: the words of the declaration are the canvas's, less the key.
func TestThePageSaysTheNextToken(t *testing.T) {
	r := newPanelRig(t)
	r.use("lesson:hands-on-lab", 0)
	token, ok := r.control("act:A:token-next")
	require.True(t, ok, "among %v", controlIDs(r.a.Inspect().Mirror.Controls))
	assert.Equal(t, "Pick another token (now 3)", token.Label)
	r.use("act:A:token-next", 0)
	token, _ = r.control("act:A:token-next")
	assert.Equal(t, "Pick another token (now 4)", token.Label, "picking words the menu anew")
	write, _ := r.control("act:A:write-token")
	assert.Equal(t, "Write with token 4", write.Label)
}

// A scene says whether the browser shows it as the page alone (no world)
// or beside the canvas, so the page need name no scene.
func TestAScreenSaysWhetherItIsAPage(t *testing.T) {
	r := newAppRig(t)
	info := r.a.Inspect()
	assert.True(t, info.Page, "the menu is a page")
	assert.Equal(t, "Lessons and exercises", info.ControlsHeading)
	r.click("exercise:no-fencing")
	assert.True(t, r.a.Inspect().Page, "the exercise's answer is a page")
	r.click("simulator")
	assert.False(t, r.a.Inspect().Page, "its simulator has a world")
	r.key(ui.IntentBack)
	r.key(ui.IntentBack)
	require.Equal(t, "menu", r.a.Inspect().Name)
	r.click("sandbox")
	assert.True(t, r.a.Inspect().Page, "the sandbox's setup is a page")
	r.click("start")
	info = r.a.Inspect()
	assert.False(t, info.Page, "the sandbox's run has a world")
	assert.Empty(t, info.ControlsHeading, "its controls are the page's Actions")
}

// The player names each control by one id on the canvas and on the page:
// the region a click on the canvas lands in, the focus the page follows
// and the control the page lists are the same string, as "hintButton"
// beside "hint", "openSandbox" beside "sandbox" and "knob:0" beside
// "knob:ttl" were not.
func TestThePlayerNamesEachControlOnceForCanvasAndPage(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:ttl-tradeoff")
	sc := r.a.top().(*lesson.Scene)
	info := r.a.Inspect()
	ids := controlIDs(info.Mirror.Controls)
	for w, name := range sc.Player.WidgetNames() {
		if _, isControl := sc.Player.Declared().Find(name); !isControl {
			continue // the lesson's text, the keys' help: no page control
		}
		assert.Contains(t, ids, name, "the page lists the canvas's %q", name)
		if w.Bounds().Empty() {
			continue
		}
		assert.Equal(t, w.Bounds(), info.Regions[name], "the canvas's region of %q is the widget's", name)
	}
	for _, name := range []string{"hint", "sandbox", "knob:ttl"} {
		assert.Contains(t, ids, name)
		assert.Contains(t, info.Regions, name)
	}
	for name := range info.Regions {
		assert.NotContains(t, []string{"hintButton", "openSandbox", "knob:0"}, name, "no second name for a control")
	}
	r.click("hint")
	assert.NotEmpty(t, r.a.Inspect().Mirror.Hint, "a click on the canvas's hint region reveals a hint")
}
