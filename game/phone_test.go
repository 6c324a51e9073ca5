package game

import (
	"leaselab/game/lesson"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/draw"
	"leaselab/game/place"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
	"leaselab/game/view"
	"leaselab/lessons"
)

// On the phone and in the browser's canvas at 1024x640, every worker's
// chip in the shards lesson names its worker: its whole name, or its
// number ("03") with the whole name on hover or focus (issue 29: twelve
// chips in the side column were slivers of colour, named only by the
// timeline; then the chips said "03" with no way to read "worker-03").
func TestShardWorkersAreNamedOnThePhone(t *testing.T) {
	rigs := map[string]func() *appRig{
		"phone":            func() *appRig { return phoneRig(t) },
		"browser-1024x640": func() *appRig { return bareRig(t, browserWindows["browser-1024x640"], 1) },
	}
	for size, rig := range rigs {
		r := rig()
		require.NoError(t, r.a.Goto(place.Place{Kind: place.Lesson, ID: "shards"}))
		r.tick(ui.Input{})
		sc := r.a.top().(*lesson.Scene)
		sc.Lab.Advance(30 * time.Second)
		shot := r.record("lesson-shards-workers-" + size)
		workers := sc.World().Snapshot().Workers
		require.NotEmpty(t, workers)
		for i, wk := range workers {
			chip := sc.World().ShardGeom().Workers[i]
			named := false
			for _, d := range shot.drawn {
				whole := d.Text == wk.Name || d.Text == view.ShortWorker(wk.Name) && d.Full == wk.Name && d.Tip
				named = named || whole && chip.Contains(d.Ink.Center())
			}
			assert.True(t, named, "%s: %s's chip %v names it", size, wk.Name, chip)
		}
		assert.Empty(t, shot.overlapping(), size)
		assert.Empty(t, shot.offenders(), size)
	}
}

// On the phone a completed lesson's moment of success covers nothing the
// world draws: where the world is too short to give up its line, the
// whole canvas does (issue 29: in the shards lesson the band lay over the
// world's heading row, its buttons and its clock).
func TestTheMomentOfSuccessCoversNoWordOnThePhone(t *testing.T) {
	for _, l := range lessons.All() {
		r, _ := phoneSolution(t, l.ID, -1)
		shot := r.record("lesson-" + l.ID + "-done-band-phone")
		said := false
		for _, d := range shot.drawn {
			said = said || strings.HasPrefix(d.Text, "Lesson complete")
			assert.False(t, d.Covered, "%s: %q lies under the moment of success", l.ID, d.Text)
		}
		assert.True(t, said, "%s: the moment of success is drawn", l.ID)
		assert.Empty(t, shot.overlapping(), l.ID)
	}
}

// On the phone every lesson's timeline says what its bars mean, in fewer
// words where the strip is narrow (issue 29: the legend was left out,
// and "upper bar"/"lower bar" were said nowhere on the canvas).
func TestTheTimelineSaysWhatItsBarsMeanOnThePhone(t *testing.T) {
	for _, l := range lessons.All() {
		r, _ := phoneSolution(t, l.ID, 10*time.Second)
		shot := r.record("lesson-" + l.ID + "-legend-phone")
		said := slices.ContainsFunc(shot.drawn, func(d draw.Drawn) bool {
			return strings.HasPrefix(d.Text, "upper") && strings.Contains(d.Text, "lower")
		})
		assert.True(t, said, "%s: the timeline's legend is drawn", l.ID)
		assert.Empty(t, shot.offenders(), l.ID)
		assert.Empty(t, shot.overlapping(), l.ID)
	}
}

// sizesIn are the face sizes of the texts drawn whose ink lies in any of
// rs, less those in skip and blank ones (which show no size).
func sizesIn(shot screenText, rs []ui.Rect, skip ...string) map[float64][]string {
	out := map[float64][]string{}
	for _, d := range shot.drawn {
		if slices.Contains(skip, d.Text) || strings.TrimSpace(d.Text) == "" {
			continue
		}
		for _, r := range rs {
			if r.Contains(d.Ink.Center()) {
				out[d.Size] = append(out[d.Size], d.Text)
				break
			}
		}
	}
	return out
}

// Labels of one kind are drawn in one size on a screen (issue 29: at
// 1024x640 Compare systems drew "ZooKeeper" and "Kubernetes" small among
// names in the label face, and their goals likewise; the troubleshooting
// lesson's timeline named some lanes in one size and some in another;
// the menu drew the titles of lessons 7, 8, 10, 13, E1 and E2 smaller
// than the others).
func TestLabelsOfOneKindShareOneSize(t *testing.T) {
	rm := newAppRig(t)
	rm.resize(1024, 640)
	menuShot := rm.record("menu-sizes-1024x640")
	var rows []ui.Rect
	var skip []string
	for _, b := range rm.a.menu.Rows() {
		num, _, _ := strings.Cut(b.Label, ". ")
		rows, skip = append(rows, b.Rect), append(skip, num)
	}
	titles := sizesIn(menuShot, rows, append(skip, "not started", "not tried")...)
	assert.Len(t, titles, 1, "the lessons' and exercises' titles: %v", titles)

	// Compare systems over the leases preset.
	r := newAppRig(t)
	r.resize(1024, 640)
	for _, id := range []string{"sandbox", "preset:leases", "compareSystems"} {
		r.click(id)
	}
	v := r.a.top().(*sandbox.Scene).Systems()
	shot := r.record("compare-systems-sizes-1024x640")
	var chips []ui.Rect
	for _, c := range v.Chips() {
		chips = append(chips, c.Rect)
	}
	assert.Len(t, sizesIn(shot, chips), 1, "the systems' names: %v", sizesIn(shot, chips))
	goals := sizesIn(shot, v.Player().GoalRows())
	assert.Len(t, goals, 1, "the goals: %v", goals)

	r2, sc := phoneSolution(t, "troubleshooting", -1)
	shot = r2.record("lesson-troubleshooting-sizes-phone")
	tv := sc.Player.Timeline.(*view.Timeline)
	lanes := sizesIn(shot, []ui.Rect{tv.Geom().Labels})
	assert.Len(t, lanes, 1, "the lanes' names: %v", lanes)
}

// A crashed worker's chip keeps its name readable: its cross is drawn on
// its swatch, clear of its name (issue 29: in the coordinator-costs
// lesson on the phone the cross struck worker-03's "03" out).
func TestACrashedWorkersChipKeepsItsName(t *testing.T) {
	r := phoneRig(t)
	require.NoError(t, r.a.Goto(place.Place{Kind: place.Lesson, ID: "shards"}))
	r.tick(ui.Input{})
	sc := r.a.top().(*lesson.Scene)
	sc.Lab.Advance(10 * time.Second)
	require.NoError(t, sc.Lab.Do(core.Crash("worker-03")))
	sc.Lab.Advance(time.Second)
	shot := r.record("lesson-shards-crashed-worker-phone")
	chip := sc.World().ShardGeom().Workers[3]
	require.True(t, sc.World().Snapshot().Workers[3].Crashed)
	c, size := view.ChipCross(r.st.Style, chip, true)
	half := size*0.36 + r.st.Style.U(1)
	cross := ui.Rect{X: c.X - half, Y: c.Y - half, W: 2 * half, H: 2 * half}
	named := false
	for _, d := range shot.drawn {
		if (d.Text == "worker-03" || d.Text == "03") && chip.Contains(d.Ink.Center()) {
			named = true
			assert.False(t, d.Ink.Overlaps(cross), "the cross %v over the name's ink %v", cross, d.Ink)
		}
	}
	assert.True(t, named, "the chip %v names worker-03", chip)
}

// On the phone, with the state-machine lesson complete (its band takes
// some of the world's height), the "link cut" pills lie clear of the
// coordinator's card and cover no word (issue 29: they lay over the
// card's bottom border, which hid their top).
func TestALinkCutPillKeepsOffTheCoordinatorsCard(t *testing.T) {
	r, sc := phoneSolution(t, "state-machine", -1)
	shot := r.record("lesson-state-machine-link-cut-phone")
	cuts := 0
	for _, d := range shot.drawn {
		if d.Text == "link cut" {
			cuts++
			assert.False(t, d.Box.Overlaps(sc.World().Geom().Coord), "the pill %v and the card %v", d.Box, sc.World().Geom().Coord)
		}
	}
	assert.Equal(t, 2, cuts, "A's and B's links are cut")
	assert.Empty(t, shot.overlapping())
}

// The moment of success names the next lesson as a sentence with one
// mark: after the Redlock lesson it read "...who decides that a token is
// stale?." (issue 29's screenshots).
func TestTheNextLessonIsNamedWithOneMark(t *testing.T) {
	r, sc := phoneSolution(t, "redlock-pause", -1)
	r.tick(ui.Input{})
	require.Contains(t, sc.Player.Noticed(), "Next lesson: Hands-on: who decides that a token is stale?")
	assert.NotContains(t, sc.Player.Noticed(), "?.")
}
