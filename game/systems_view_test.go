package game

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/place"
	"leaselab/game/player"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
)

// From the sandbox: a preset, a pause of the leader in a run, back to
// the setup, the system switched, then Compare systems: the same pause on
// every system, one play head, a line per system; Esc returns.
func TestCompareSystemsFromTheSandbox(t *testing.T) {
	r := newAppRig(t)
	r.click("sandbox")
	sb, ok := r.a.top().(*sandbox.Scene)
	require.True(t, ok)
	r.click("preset:leases")
	r.click("field:system")
	require.Equal(t, core.SystemZooKeeper, sb.Config().System, "one click steps etcd to ZooKeeper")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "System: ZooKeeper")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "Recipe: etcd fair queue (not used). ZooKeeper's own recipe")
	r.shot("sandbox-system-zookeeper.png")

	r.click("start")
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	require.Len(t, sb.Run.Lab.Log(), 1)
	r.key(ui.IntentBack)
	require.Equal(t, "sandbox-setup", r.a.Inspect().Name)

	r.click("compareSystems")
	info := r.a.Inspect()
	require.Equal(t, "compare-systems", info.Name)
	require.NotNil(t, info.Systems)
	assert.Equal(t, core.SystemNames(), info.Systems.Systems, "the leases preset fits every system")
	for i, line := range info.Systems.Lines {
		assert.Contains(t, line, "A paused at 3 s", "%s replays the learner's pause", info.Systems.Systems[i])
	}
	assert.Equal(t, []string{"etcd", "zookeeper"}, info.Systems.Shown, "etcd beside the setup's system")
	for _, sys := range core.SystemNames() {
		r.region("systemsShow:" + sys)
	}
	r.click("systemsShow:redlock")
	assert.Equal(t, []string{"zookeeper", "redlock"}, r.a.Inspect().Systems.Shown, "a name shows its world beside the last one")
	r.region("systemsPane:redlock")
	for range 20 {
		r.tick(ui.Input{Keys: ui.KeysOf(ui.IntentStep)})
	}
	now := r.a.Inspect().Systems.Now
	assert.Positive(t, now, "stepping moves the play head")
	v := r.a.top().(*sandbox.Scene).Systems()
	for i, lb := range v.Comparison().Runs {
		assert.Equal(t, now, lb.Now().Seconds(), "%s at the one play head", v.Comparison().Systems[i])
	}
	lab.SystemsClock(v.Comparison().Runs).Apply(lab.SeekTo(14 * time.Second)) // where B has taken over on most systems
	r.tick(ui.Input{})
	r.shot("compare-systems.png")

	r.click("systemsBack")
	assert.Equal(t, "sandbox-setup", r.a.Inspect().Name)
	assert.True(t, strings.Contains(r.a.Inspect().Mirror.Text, "System: ZooKeeper"), "the setup is as it was")
}

// Inside a running sandbox run: Compare systems (on the canvas, and the
// page's control, one path) opens the comparison of the run's own
// scenario with its pause at its play head; Back returns to the run as it
// was. A lesson's run carried over has no scenario to compare and offers
// the control disabled.
func TestCompareSystemsFromARunningRun(t *testing.T) {
	r := newAppRig(t)
	r.resize(1024, 640)
	r.click("sandbox")
	sb := r.a.top().(*sandbox.Scene)
	r.click("preset:leases")
	r.click("start")
	run := sb.Run
	require.NotNil(t, run)
	run.Lab.Advance(3 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	run.Lab.Advance(9 * time.Second)
	log, at := run.Lab.Log(), run.Lab.Now()
	require.Len(t, log, 1)
	require.Equal(t, 12*time.Second, at)
	c, ok := r.control(sandbox.RunCompareSystems)
	require.True(t, ok, "the run offers the page a Compare systems control")
	assert.Equal(t, "Compare systems", c.Label)
	assert.False(t, c.Disabled)
	assert.Contains(t, c.Detail, "every system")

	opened := func(how string) *sandbox.Systems {
		info := r.a.Inspect()
		require.Equal(t, "compare-systems", info.Name, how)
		require.NotNil(t, info.Systems)
		assert.Equal(t, core.SystemNames(), info.Systems.Systems, how)
		assert.Equal(t, at.Seconds(), info.Systems.Now, "%s: at the run's play head", how)
		for i, line := range info.Systems.Lines {
			assert.Contains(t, line, "A paused at 3 s", "%s: %s replays the run's pause", how, info.Systems.Systems[i])
		}
		v := sb.Systems()
		for i, lb := range v.Comparison().Runs {
			assert.Equal(t, log, lb.Log(), "%s: %s has the run's log", how, v.Comparison().Systems[i])
		}
		return v
	}
	r.click(sandbox.RunCompareSystems)
	opened("the canvas button")
	r.shot("compare-systems-from-run.png")
	r.click("systemsBack")
	require.Equal(t, "sandbox", r.a.Inspect().Name, "back in the run")
	require.Same(t, run, sb.Run)
	assert.Equal(t, at, run.Lab.Now(), "the run is where it was")
	assert.Equal(t, log, run.Lab.Log())

	r.use(sandbox.RunCompareSystems, 0)
	opened("the page's control")
	r.key(ui.IntentBack)
	require.Equal(t, "sandbox", r.a.Inspect().Name, "Esc returns to the run")

	// A lesson's run opened in the sandbox.
	r = newAppRig(t)
	r.click("lesson:fenced-writes")
	r.use("sandbox", 0)
	require.Equal(t, "sandbox", r.a.Inspect().Name)
	c, ok = r.control(sandbox.RunCompareSystems)
	require.True(t, ok)
	assert.True(t, c.Disabled, "no sandbox scenario to play on other systems")
	assert.Contains(t, c.Detail, "the lesson's own", "the page says why")
}

// Compare systems fits beside the run's other buttons at every size the
// lab supports: at the run row's right, or, while Back to my run is
// there, at the export row's right; it overlaps none of them and stays
// inside the panel's hint area.
func TestCompareSystemsFitsBesideTheRunsButtons(t *testing.T) {
	for _, size := range clipSizes {
		r := newAppRig(t)
		r.resize(size[0], size[1])
		r.click("sandbox")
		r.click("preset:leases")
		r.click("start")
		sb := r.a.top().(*sandbox.Scene)
		sb.Run.Lab.Advance(5 * time.Second)
		check := func(when string, row string) {
			r.tick(ui.Input{})
			reg := r.a.Inspect().Regions
			cmp := reg[sandbox.RunCompareSystems]
			require.False(t, cmp.Empty(), when)
			assert.True(t, cmp.Within(reg["hints"]), "%s at %v: %v in %v", when, size, cmp, reg["hints"])
			assert.InDelta(t, reg[row].Center().Y, cmp.Center().Y, 1, "%s at %v: in the %s's row", when, size, row)
			for _, other := range []string{player.RunRestart, player.RunUndo, player.RunBackToMine, "exportJSONL", "exportMermaid"} {
				if o, ok := reg[other]; ok {
					assert.False(t, cmp.Overlaps(o), "%s at %v: clear of %s", when, size, other)
				}
			}
		}
		check("a run", player.RunRestart)
		require.NoError(t, sb.Run.Lab.ShowFound(sb.Run.Lab.Knobs(), core.ActionLog{core.At(2*time.Second, core.Pause("A", 10*time.Second))}))
		check("a found run", "exportJSONL")
		_, ok := r.a.Inspect().Regions[player.RunBackToMine]
		assert.True(t, ok, "Back to my run is offered")
	}
}

// comparePhone opens Compare systems on the phone, over the leases
// preset with A paused at 3 s, at 14 s: where the worlds were cramped.
func comparePhone(t *testing.T) (*appRig, *sandbox.Systems) {
	r := phoneRig(t)
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Sandbox}))
	r.tick(ui.Input{})
	r.click("preset:leases")
	r.click("start")
	sb := r.a.top().(*sandbox.Scene)
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	require.NoError(t, sb.Run.Lab.Do(core.Pause("A", 20*time.Second)))
	r.key(ui.IntentBack)
	r.click("compareSystems")
	v := sb.Systems()
	lab.SystemsClock(v.Comparison().Runs).Apply(lab.SeekTo(14 * time.Second))
	r.tick(ui.Input{})
	return r, v
}

// On the phone Compare systems shows one system's world at a time, the
// region's full width, so its cards, badges and tags keep their room
// (issue 29: two worlds side by side on a phone put the "leader · token"
// badge against the store's card and the "paused" tag against the
// coordinator's). The names in the header switch the system shown: on
// the canvas, from the page and from the keyboard.
func TestCompareSystemsOnThePhoneShowsOneWorldAtATime(t *testing.T) {
	r, v := comparePhone(t)
	assert.Equal(t, []string{"zookeeper"}, r.a.Inspect().Systems.Shown, "the setup's system, alone")
	shot := r.record("compare-systems-one-phone")
	s := r.st.Style
	i := v.Drawn()[0]
	g := v.World(i).Geom()
	for k, b := range g.Badges {
		assert.LessOrEqual(t, b.MaxY(), g.Store.Y-s.U(4), "badge %d ends clear of the store's card", k)
	}
	paused := false
	for _, d := range shot.drawn {
		if d.Text == "paused" {
			paused = true
			assert.GreaterOrEqual(t, d.Ink.Y, g.Coord.MaxY()+s.U(5), "the paused tag sits clear of the coordinator's card")
		}
	}
	assert.True(t, paused, "A's paused tag is drawn")

	for _, sys := range core.SystemNames() {
		c, ok := r.control("systemsShow:" + sys)
		require.True(t, ok, "the page lists a control to show %s", sys)
		assert.False(t, c.Disabled, "%s can be chosen", sys)
	}
	r.use("systemsShow:redlock", 0)
	r.tick(ui.Input{})
	assert.Equal(t, []string{"redlock"}, r.a.Inspect().Systems.Shown, "the page's control switches the system")
	r.click("systemsShow:consul")
	assert.Equal(t, []string{"consul"}, r.a.Inspect().Systems.Shown, "a touch on its name switches it")
	r.tabTo("systemsShow:etcd")
	r.key(ui.IntentActivate)
	assert.Equal(t, []string{"etcd"}, r.a.Inspect().Systems.Shown, "so does Enter on its focused name")
	assert.Equal(t, r.region("systemsPane:etcd").W, v.Labels()[0].W)
	assert.Empty(t, r.record("compare-systems-etcd-phone").overlapping())
}

// At a desktop's size both worlds stay side by side.
func TestCompareSystemsOnADesktopShowsTwoWorlds(t *testing.T) {
	r, _ := compareAt1024(t)
	assert.Len(t, r.a.Inspect().Systems.Shown, 2)
}

// compareAt1024 opens Compare systems over the leases preset at 1024x640.
func compareAt1024(t *testing.T) (*appRig, *sandbox.Systems) {
	r := newAppRig(t)
	r.resize(1024, 640)
	r.click("sandbox")
	r.click("preset:leases")
	r.click("compareSystems")
	return r, r.a.top().(*sandbox.Scene).Systems()
}

// At 1024x640, with A paused in the run compared (each system's story
// four lines over its world), every world shown keeps its state badges
// clear of its store's card, the timeline giving up the room it has to
// spare (issue 29: the badges lay 7 px over the card's top border).
func TestCompareSystemsBadgesClearTheStoreAt1024(t *testing.T) {
	r := newAppRig(t)
	r.resize(1024, 640)
	for _, id := range []string{"sandbox", "preset:leases", "start"} {
		r.click(id)
	}
	run := r.a.top().(*sandbox.Scene).Run
	require.NotNil(t, run)
	run.Lab.Advance(3 * time.Second)
	require.NoError(t, run.Lab.Do(core.Pause("A", 20*time.Second)))
	run.Lab.Advance(20 * time.Second)
	r.key(ui.IntentBack)
	r.click("compareSystems")
	v := r.a.top().(*sandbox.Scene).Systems()
	lab.SystemsClock(v.Comparison().Runs).Apply(lab.SeekTo(14 * time.Second))
	shot := r.record("compare-systems-badges-1024x640")
	require.Len(t, v.Drawn(), 2)
	for _, i := range v.Drawn() {
		g := v.World(i).Geom()
		for k, b := range g.Badges {
			assert.LessOrEqual(t, b.MaxY(), g.Store.Y-r.st.Style.U(6), "%s: badge %d %v and the store %v", v.Comparison().Systems[i], k, b, g.Store)
		}
	}
	assert.Empty(t, shot.offenders())
	assert.Empty(t, shot.overlapping())
}
