package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/lesson"
	"leaselab/game/player"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// From the sandbox: a preset, a pause of the leader in a run, back to
// the setup, the system switched, then Compare systems: the same pause on
// every system, one play head, a line per system; Esc returns.
func TestCompareSystemsFromTheSandbox(t *testing.T) {
	r := newRig(t, "", 1280, 800)
	sb := r.sb
	r.Click("preset:leases")
	r.Click("field:system")
	require.Equal(t, core.SystemZooKeeper, sb.Config().System, "one click steps etcd to ZooKeeper")
	assert.Contains(t, r.Info().Mirror.Text, "System: ZooKeeper")
	assert.Contains(t, r.Info().Mirror.Text, "Recipe: etcd fair queue (not used). ZooKeeper's own recipe")
	r.Drawn("sandbox-system-zookeeper")

	r.Click("start")
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	r.Click("proc:A")
	r.Click("act:A:pause")
	require.Len(t, sb.Run.Lab.Log(), 1)
	r.Key(ui.IntentBack)
	require.Equal(t, "sandbox-setup", r.Info().Name)

	r.Click("compareSystems")
	info := r.Info()
	require.Equal(t, "compare-systems", info.Name)
	require.NotNil(t, info.Systems)
	assert.Equal(t, core.SystemNames(), info.Systems.Systems, "the leases preset fits every system")
	for i, line := range info.Systems.Lines {
		assert.Contains(t, line, "A paused at 3 s", "%s replays the learner's pause", info.Systems.Systems[i])
	}
	assert.Equal(t, []string{"etcd", "zookeeper"}, info.Systems.Shown, "etcd beside the setup's system")
	for _, sys := range core.SystemNames() {
		r.Region("systemsShow:" + sys)
	}
	r.Click("systemsShow:redlock")
	assert.Equal(t, []string{"zookeeper", "redlock"}, r.Info().Systems.Shown, "a name shows its world beside the last one")
	r.Region("systemsPane:redlock")
	for range 20 {
		r.Tick(ui.Input{Keys: ui.KeysOf(ui.IntentStep)})
	}
	now := r.Info().Systems.Now
	assert.Positive(t, now, "stepping moves the play head")
	v := r.sb.Systems()
	for i, lb := range v.m.Runs {
		assert.Equal(t, now, lb.Now().Seconds(), "%s at the one play head", v.m.Systems[i])
	}
	lab.SystemsClock(v.m.Runs).Apply(lab.SeekTo(14 * time.Second)) // where B has taken over on most systems
	r.Tick(ui.Input{})
	r.Drawn("compare-systems")

	r.Click("systemsBack")
	assert.Equal(t, "sandbox-setup", r.Info().Name)
	assert.True(t, strings.Contains(r.Info().Mirror.Text, "System: ZooKeeper"), "the setup is as it was")
}

// Inside a running sandbox run: Compare systems (on the canvas, and the
// page's control, one path) opens the comparison of the run's own
// scenario with its pause at its play head; Back returns to the run as it
// was. A lesson's run carried over has no scenario to compare and offers
// the control disabled.
func TestCompareSystemsFromARunningRun(t *testing.T) {
	r := newRig(t, "", 1024, 640)
	sb := r.sb
	r.Click("preset:leases")
	r.Click("start")
	run := sb.Run
	require.NotNil(t, run)
	run.Lab.Advance(3 * time.Second)
	r.Click("proc:A")
	r.Click("act:A:pause")
	run.Lab.Advance(9 * time.Second)
	log, at := run.Lab.Log(), run.Lab.Now()
	require.Len(t, log, 1)
	require.Equal(t, 12*time.Second, at)
	c, ok := r.Control(RunCompareSystems)
	require.True(t, ok, "the run offers the page a Compare systems control")
	assert.Equal(t, "Compare systems", c.Label)
	assert.False(t, c.Disabled)
	assert.Contains(t, c.Detail, "every system")

	opened := func(how string) *Systems {
		info := r.Info()
		require.Equal(t, "compare-systems", info.Name, how)
		require.NotNil(t, info.Systems)
		assert.Equal(t, core.SystemNames(), info.Systems.Systems, how)
		assert.Equal(t, at.Seconds(), info.Systems.Now, "%s: at the run's play head", how)
		for i, line := range info.Systems.Lines {
			assert.Contains(t, line, "A paused at 3 s", "%s: %s replays the run's pause", how, info.Systems.Systems[i])
		}
		v := sb.Systems()
		for i, lb := range v.m.Runs {
			assert.Equal(t, log, lb.Log(), "%s: %s has the run's log", how, v.m.Systems[i])
		}
		return v
	}
	r.Click(RunCompareSystems)
	opened("the canvas button")
	r.Drawn("compare-systems-from-run")
	r.Click("systemsBack")
	require.Equal(t, "sandbox", r.Info().Name, "back in the run")
	require.Same(t, run, sb.Run)
	assert.Equal(t, at, run.Lab.Now(), "the run is where it was")
	assert.Equal(t, log, run.Lab.Log())

	r.Use(RunCompareSystems, 0)
	opened("the page's control")
	r.Key(ui.IntentBack)
	require.Equal(t, "sandbox", r.Info().Name, "Esc returns to the run")

	// A lesson's run opened in the sandbox.
	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	ls, err := lesson.New(l, lesson.Spec{})
	require.NoError(t, err)
	lb, err := ls.Lab.OpenInSandbox()
	require.NoError(t, err)
	r = newRig(t, l.SandboxPreset, 1280, 800)
	r.sb.OpenRun(lb)
	r.Tick(ui.Input{})
	require.Equal(t, "sandbox", r.Info().Name)
	c, ok = r.Control(RunCompareSystems)
	require.True(t, ok)
	assert.True(t, c.Disabled, "no sandbox scenario to play on other systems")
	assert.Contains(t, c.Detail, "the lesson's own", "the page says why")
}

// Compare systems fits beside the run's other buttons at every size the
// lab supports: at the run row's right, or, while Back to my run is
// there, at the export row's right; it overlaps none of them and stays
// inside the panel's hint area.
func TestCompareSystemsFitsBesideTheRunsButtons(t *testing.T) {
	for _, size := range sizes {
		r := newRig(t, "", size[0], size[1])
		r.Click("preset:leases")
		r.Click("start")
		sb := r.sb
		sb.Run.Lab.Advance(5 * time.Second)
		check := func(when string, row string) {
			r.Tick(ui.Input{})
			reg := r.Info().Regions
			cmp := reg[RunCompareSystems]
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
		_, ok := r.Info().Regions[player.RunBackToMine]
		assert.True(t, ok, "Back to my run is offered")
	}
}

// comparePhone opens Compare systems on the phone, over the leases
// preset with A paused at 3 s, at 14 s: where the worlds were cramped.
func comparePhone(t *testing.T) (*rig, *Systems) {
	r := phoneRig(t, "")
	r.Tick(ui.Input{})
	r.Click("preset:leases")
	r.Click("start")
	sb := r.sb
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	require.NoError(t, sb.Run.Lab.Do(core.Pause("A", 20*time.Second)))
	r.Key(ui.IntentBack)
	r.Click("compareSystems")
	v := sb.Systems()
	lab.SystemsClock(v.m.Runs).Apply(lab.SeekTo(14 * time.Second))
	r.Tick(ui.Input{})
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
	assert.Equal(t, []string{"zookeeper"}, r.Info().Systems.Shown, "the setup's system, alone")
	shot := r.Record("compare-systems-one-phone")
	s := r.St.Style
	i := v.shown[1]
	g := v.worlds[i].Geom()
	for k, b := range g.Badges {
		assert.LessOrEqual(t, b.MaxY(), g.Store.Y-s.U(4), "badge %d ends clear of the store's card", k)
	}
	paused := false
	for _, d := range shot.Drawn {
		if d.Text == "paused" {
			paused = true
			assert.GreaterOrEqual(t, d.Ink.Y, g.Coord.MaxY()+s.U(5), "the paused tag sits clear of the coordinator's card")
		}
	}
	assert.True(t, paused, "A's paused tag is drawn")

	for _, sys := range core.SystemNames() {
		c, ok := r.Control("systemsShow:" + sys)
		require.True(t, ok, "the page lists a control to show %s", sys)
		assert.False(t, c.Disabled, "%s can be chosen", sys)
	}
	r.Use("systemsShow:redlock", 0)
	r.Tick(ui.Input{})
	assert.Equal(t, []string{"redlock"}, r.Info().Systems.Shown, "the page's control switches the system")
	r.Click("systemsShow:consul")
	assert.Equal(t, []string{"consul"}, r.Info().Systems.Shown, "a touch on its name switches it")
	r.TabTo("systemsShow:etcd")
	r.Key(ui.IntentActivate)
	assert.Equal(t, []string{"etcd"}, r.Info().Systems.Shown, "so does Enter on its focused name")
	assert.Equal(t, r.Region("systemsPane:etcd").W, v.labels[0].W)
	assert.Empty(t, r.Record("compare-systems-etcd-phone").Overlapping())
}

// At a desktop's size both worlds stay side by side.
func TestCompareSystemsOnADesktopShowsTwoWorlds(t *testing.T) {
	r, _ := compareAt1024(t)
	assert.Len(t, r.Info().Systems.Shown, 2)
}

// compareAt1024 opens Compare systems over the leases preset at 1024x640.
func compareAt1024(t *testing.T) (*rig, *Systems) {
	r := newRig(t, "", 1024, 640)
	r.Click("preset:leases")
	r.Click("compareSystems")
	return r, r.sb.Systems()
}

// At 1024x640, with A paused in the run compared (each system's story
// four lines over its world), every world shown keeps its state badges
// clear of its store's card, the timeline giving up the room it has to
// spare (issue 29: the badges lay 7 px over the card's top border).
func TestCompareSystemsBadgesClearTheStoreAt1024(t *testing.T) {
	r := newRig(t, "", 1024, 640)
	for _, id := range []string{"preset:leases", "start"} {
		r.Click(id)
	}
	run := r.sb.Run
	require.NotNil(t, run)
	run.Lab.Advance(3 * time.Second)
	require.NoError(t, run.Lab.Do(core.Pause("A", 20*time.Second)))
	run.Lab.Advance(20 * time.Second)
	r.Key(ui.IntentBack)
	r.Click("compareSystems")
	v := r.sb.Systems()
	lab.SystemsClock(v.m.Runs).Apply(lab.SeekTo(14 * time.Second))
	shot := r.Record("compare-systems-badges-1024x640")
	require.Len(t, v.drawn(), 2)
	for _, i := range v.drawn() {
		g := v.worlds[i].Geom()
		for k, b := range g.Badges {
			assert.LessOrEqual(t, b.MaxY(), g.Store.Y-r.St.Style.U(6), "%s: badge %d %v and the store %v", v.m.Systems[i], k, b, g.Store)
		}
	}
	assert.Empty(t, shot.Offenders())
	assert.Empty(t, shot.Overlapping())
}
