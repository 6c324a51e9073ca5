package game

import (
	"fmt"
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/lab"
	"leaselab/game/player"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
)

// shot draws the app and, when LEASELAB_SHOTS names a directory, saves
// the frame there as name (to look at).
func (r *appRig) shot(name string) {
	r.t.Helper()
	r.drawn(strings.TrimSuffix(name, ".png"))
}

// brokenFencedWrites opens fenced-writes with fencing off and loads the
// break the search finds.
func brokenFencedWrites(t *testing.T, r *appRig) *lesson.Scene {
	t.Helper()
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	// Fencing off at time zero, as a link opens it: the action is due at
	// the play head but has not fired yet.
	if err := sc.Lab.Resume(nil, core.ActionLog{core.At(0, core.Fencing(false))}); err != nil {
		t.Fatal(err)
	}
	r.tick(ui.Input{})
	runFinder(t, r)
	if len(sc.Lab.Log()) != 2 {
		t.Fatalf("no break loaded: %v", sc.Lab.Log())
	}
	return sc
}

func TestCompareFencingOnOffReplaysOneScheduleTwice(t *testing.T) {
	r := rigWith(t, nil)
	sc := brokenFencedWrites(t, r)
	log := sc.Lab.Log()
	if r.a.Inspect().Compare != nil {
		t.Fatal("comparison open before asked for")
	}
	r.click("compare")
	info := r.a.Inspect()
	c := info.Compare
	if c == nil {
		t.Fatal("no comparison after clicking compare")
	}
	if !c.OffBroke || !strings.HasPrefix(c.Off, "Fencing off: stale write accepted at t=") {
		t.Errorf("off verdict %q (broke %v)", c.Off, c.OffBroke)
	}
	if c.OnBroke || c.On != "Fencing on: 1 stale write rejected" {
		t.Errorf("on verdict %q (broke %v)", c.On, c.OnBroke)
	}
	if _, ok := info.Regions["explore"]; ok {
		t.Error("Find a break offered inside the comparison")
	}
	cmp := sc.Finder().Comparison()
	// The two runs differ only in the switch at time zero.
	for i, on := range []bool{false, true} {
		l := cmp.Runs()[i].Log()
		if len(l) != 2 || l[0].Do != "fencing" || l[0].On != on || l[1] != log[1] {
			t.Errorf("run %d log %v", i, l)
		}
	}
	// One play head: playing, stepping and scrubbing move both runs.
	r.key(ui.IntentPlayPause)
	for range 30 {
		r.tick(ui.Input{})
	}
	r.key(ui.IntentPlayPause)
	r.key(ui.IntentStep)
	now := cmp.Runs()[0].Now()
	if now == 0 || cmp.Runs()[1].Now() != now || cmp.Player().Clock.Now() != now {
		t.Errorf("play heads %v and %v, clock %v", now, cmp.Runs()[1].Now(), cmp.Player().Clock.Now())
	}
	lanes := cmp.Lines()[1].Geom().Lanes
	r.clickAt(ui.Point{X: lanes.X + lanes.W*0.8, Y: lanes.Y + 4})
	if a, b := cmp.Runs()[0].Now(), cmp.Runs()[1].Now(); a != b || a < 10*time.Second {
		t.Errorf("a click on the second timeline: play heads %v and %v", a, b)
	}
	// Past the pause: the off run holds the stale write, the on run its
	// refusal.
	cmp.Player().Clock.Apply(lab.SeekTo(40 * time.Second))
	if n := len(cmp.Runs()[0].Sim().Trace.Filter(core.KindStale)); n == 0 {
		t.Error("the fencing-off run shows no stale write")
	}
	if n := len(cmp.Runs()[1].Sim().Trace.Filter(core.KindStale)); n != 0 {
		t.Error("the fencing-on run shows a stale write")
	}
	r.click("compare") // the way back is the same button
	if r.a.Inspect().Compare != nil || r.a.top() != Scene(sc) {
		t.Fatal("the back button did not leave the comparison")
	}
	if got := sc.Lab.Log(); len(got) != len(log) || got[1] != log[1] {
		t.Errorf("the comparison changed the learner's log: %v", got)
	}

	// Esc leaves too, and keeps the lesson open; Tab reaches the button.
	r.click("compare")
	r.key(ui.IntentBack)
	if info := r.a.Inspect(); info.Compare != nil || info.Name != "lesson" {
		t.Errorf("after Esc: compare %+v, scene %q", info.Compare, info.Name)
	}
	for i := 0; r.a.Inspect().Focus != "compare"; i++ {
		if i > 60 {
			t.Fatal("Tab never reaches the compare button")
		}
		r.key(ui.IntentFocusNext)
	}
	r.key(ui.IntentActivate)
	if r.a.Inspect().Compare == nil {
		t.Error("Enter on the focused button did not open the comparison")
	}
}

// On demand, without a search: the learner's own pause with fencing on
// (the lesson's default) compares as a break and its refusal; a run with
// nothing to refuse says so on both sides.
func TestCompareOnDemandShowsBothVerdicts(t *testing.T) {
	r := rigWith(t, nil)
	r.click("lesson:fenced-writes")
	sc := r.a.top().(*lesson.Scene)
	pause := core.ActionLog{core.At(4*time.Second, core.Pause("A", 20*time.Second))}
	if err := sc.Lab.Resume(nil, pause); err != nil {
		t.Fatal(err)
	}
	r.click("compare")
	c := r.a.Inspect().Compare
	if c == nil || !c.OffBroke || !strings.HasPrefix(c.Off, "Fencing off: stale write accepted at t=") ||
		c.OnBroke || c.On != "Fencing on: 1 stale write rejected" {
		t.Fatalf("after a pause: %+v", c)
	}
	if now := c.Now; now != 4 {
		t.Errorf("the comparison starts at %vs, want the play head's 4s", now)
	}

	r = rigWith(t, nil)
	r.click("lesson:hands-on-lab")
	r.click("compare")
	c = r.a.Inspect().Compare
	if c == nil || c.OffBroke || c.OnBroke || c.Off != "Fencing off: no break, nothing to refuse" ||
		c.On != "Fencing on: no break, nothing to refuse" {
		t.Errorf("without a fault: %+v", c)
	}
}

func TestCompareIsReadable(t *testing.T) {
	for _, size := range [][2]float64{{1280, 760}, {1920, 1080}, {1024, 700}} {
		r := rigWith(t, nil)
		r.st.Window = ui.Rect{W: size[0], H: size[1]}
		r.st.Style = draw.NewStyle(ui.UnitFor(size[0], size[1], 1))
		sc := brokenFencedWrites(t, r)
		r.shot(fmt.Sprintf("found-%.0fx%.0f.png", size[0], size[1]))
		r.click("compare")
		cmp := sc.Finder().Comparison()
		cmp.Player().Clock.Apply(lab.SeekTo(25 * time.Second))
		r.tick(ui.Input{})
		s := r.st.Style
		// Both verdicts fit their label rows unclipped, and the rows and
		// the back button do not overlap.
		for i, v := range cmp.Verdicts() {
			if w := draw.Measure(s.Small())(v) + s.U(16); w > cmp.Labels()[i].W {
				t.Errorf("%v: verdict %q needs %.0f, has %.0f", size, v, w, cmp.Labels()[i].W)
			}
		}
		if cmp.Labels()[0].MaxX() > cmp.Labels()[1].X || cmp.Header().MaxY() > cmp.Labels()[0].Y {
			t.Errorf("%v: header %+v labels %+v", size, cmp.Header(), cmp.Labels())
		}
		if w := draw.Measure(s.Label())(cmp.Back().Label) + s.U(16); cmp.Back().Rect.W < w {
			t.Errorf("%v: back button %.0f wide, needs %.0f", size, cmp.Back().Rect.W, w)
		}
		r.shot(fmt.Sprintf("compare-%.0fx%.0f.png", size[0], size[1]))
	}
}

// Every lesson with a search compares its run with its own protection
// off and on, at the size the issue asks to stay readable.
func TestCompareEveryLessonSpec(t *testing.T) {
	for id, spec := range searches() {
		t.Run(id, func(t *testing.T) {
			r := rigWith(t, nil)
			r.resize(1280, 760)
			r.click("lesson:" + id)
			r.click("compare")
			c := r.a.Inspect().Compare
			head := strings.ToUpper(spec.Switch()[:1]) + spec.Switch()[1:]
			if c == nil || c.Protects != spec.Switch() || !strings.HasPrefix(c.Off, head+" off: ") || !strings.HasPrefix(c.On, head+" on: ") {
				t.Fatalf("comparison %+v", c)
			}
			cmp := r.a.top().(*lesson.Comparison)
			cmp.Player().Clock.Apply(lab.SeekTo(30 * time.Second))
			r.tick(ui.Input{})
			for i, v := range cmp.Verdicts() {
				if w := draw.Measure(r.st.Style.Small())(v) + r.st.Style.U(16); w > cmp.Labels()[i].W {
					t.Errorf("verdict %q needs %.0f, has %.0f", v, w, cmp.Labels()[i].W)
				}
			}
			r.shot("compare-" + id + ".png")
		})
	}
}

// Views swapped during an update are laid out in that same update: the
// frame that leaves the comparison draws the finder's button where it
// belongs, not where the comparison's way back was.
func TestLeavingTheComparisonLaysTheFinderOutAtOnce(t *testing.T) {
	r := rigWith(t, nil)
	sc := brokenFencedWrites(t, r)
	home := r.region("compare")
	r.click("compare")
	if sc.Finder().Comparison() == nil {
		t.Fatal("no comparison")
	}
	if back := r.region("compare"); back == home {
		t.Fatalf("the way back sits where the button did (%+v): this test proves nothing", back)
	}
	// Press and release in one update each, then look before any other.
	c := r.region("compare").Center()
	r.tick(ui.Input{Cursor: c, MouseDown: true, MouseJustDown: true})
	r.tick(ui.Input{Cursor: c, MouseJustUp: true})
	if sc.Finder().Comparison() != nil {
		t.Fatal("still comparing")
	}
	if got := sc.Finder().CompareButton(); got != home {
		t.Errorf("the frame after leaving lays the button at %+v, want %+v", got, home)
	}
}

// assertWidgetsDeclared: every scene widget the player shows with words
// is a control declared with what it does, under its widget's name, its
// words and its state.
func assertWidgetsDeclared(t *testing.T, p *player.Player) {
	t.Helper()
	decls := p.Declared()
	for _, w := range p.Widgets() {
		b, isButton := w.W.(*ui.Button)
		if !isButton || b.Label == "" {
			continue
		}
		c, ok := decls.Find(w.Name)
		if assert.True(t, ok, "the canvas's %q is declared", w.Name) {
			assert.NotNil(t, c.Do, "%q is declared with what it does", w.Name)
			assert.Equal(t, ui.PlainLabel(b.Label), c.Label, "%q: the canvas's words are the page's", w.Name)
			assert.Equal(t, b.Disabled, c.Disabled, "%q: and its state", w.Name)
		}
	}
}

// TestTheComparisonsPageAndCanvasAreOneDeclaration: the comparisons'
// buttons (Compare on/off and its way back, the systems' names and way
// back) and the run's own (Find a break, the exports) are declared once
// with what they do; a page's use and a canvas's click of each lead to
// the same screen, the same state and the same words.
func TestTheComparisonsPageAndCanvasAreOneDeclaration(t *testing.T) {
	type state struct {
		Name    string
		Compare bool
		Shown   []string
		Search  string
		Said    []string
	}
	stateOf := func(r *appRig) state {
		info := r.a.Inspect()
		s := state{Name: info.Name, Compare: info.Compare != nil, Said: info.Mirror.Narration}
		if info.Systems != nil {
			s.Shown = info.Systems.Shown
		}
		if sb, ok := r.a.top().(*sandbox.Scene); ok && sb.Run != nil && sb.Run.Finder() != nil {
			s.Search = sb.Run.Finder().Status()
		}
		return s
	}
	alike := func(open func(r *appRig), id string) state {
		t.Helper()
		page, canvas := newAppRig(t), newAppRig(t)
		open(page)
		open(canvas)
		page.use(id, 0)
		canvas.click(id)
		canvas.tick(ui.Input{})
		assert.Equal(t, stateOf(page), stateOf(canvas), "%s: the page's use and the canvas's click do the same", id)
		return stateOf(page)
	}

	// Compare on/off, over a lesson, and its way back.
	inLesson := func(r *appRig) { r.click("lesson:fenced-writes") }
	r := newAppRig(t)
	inLesson(r)
	assertWidgetsDeclared(t, r.a.top().(*lesson.Scene).Player)
	assert.True(t, alike(inLesson, "compare").Compare, "the comparison opens")
	compared := func(r *appRig) { inLesson(r); r.click("compare") }
	r = newAppRig(t)
	compared(r)
	assertWidgetsDeclared(t, r.a.top().(*lesson.Comparison).Player())
	assert.False(t, alike(compared, "compare").Compare, "the way back leaves it")

	// Compare systems, from the sandbox's setup: a system's name, and
	// the way back.
	systems := func(r *appRig) {
		r.click("sandbox")
		r.click("preset:leases")
		r.click("compareSystems")
	}
	r = newAppRig(t)
	systems(r)
	assertWidgetsDeclared(t, r.a.top().(*sandbox.Scene).Systems().Player())
	assert.Contains(t, alike(systems, "systemsShow:redlock").Shown, "redlock", "a name shows its world")
	assert.Equal(t, "sandbox-setup", alike(systems, "systemsBack").Name, "back on the setup")

	// A sandbox run's own: Find a break and an export.
	run := func(r *appRig) {
		r.a.Export = func(name string, data []byte) (string, error) { return "in memory", nil }
		r.click("sandbox")
		r.click("preset:kubernetes")
		r.click("start")
	}
	r = newAppRig(t)
	run(r)
	require.Empty(t, stateOf(r).Search, "no search before Find a break")
	assertWidgetsDeclared(t, r.a.top().(*sandbox.Scene).Run.Player)
	assert.NotEmpty(t, alike(run, "explore").Search, "the search ran")
	said := alike(run, "exportJSONL").Said
	assert.Contains(t, said[len(said)-1], "in memory", "the export is saved and said")
}
