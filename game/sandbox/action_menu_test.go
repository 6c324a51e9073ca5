package sandbox

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// On the phone an actor's action menu, taller than the world, lies over
// the timeline and is drawn after it, every item whole and inside the
// window; a press on an item there is the menu's, not the timeline's (the
// play head stays). The herd and Redlock presets' menus were drawn under
// the timeline, their last items hidden.
func TestAPhoneMenuIsDrawnOverTheTimeline(t *testing.T) {
	for _, preset := range []string{"herd", "redlock"} {
		r := phoneRig(t, "")
		r.Tick(ui.Input{})
		r.Click("preset:" + preset)
		r.Click("start")
		sb := r.sb
		require.NotNil(t, sb.Run, "preset %s starts", preset)
		sb.Run.Lab.Advance(3 * time.Second)
		r.Tick(ui.Input{})
		var procs []string
		for name := range r.Info().Regions {
			if strings.HasPrefix(name, "proc:") {
				procs = append(procs, name)
			}
		}
		require.NotEmpty(t, procs)
		slices.Sort(procs)
		r.Click(procs[0])
		w, ok := sb.Run.Player.World.(*view.World)
		require.True(t, ok)
		require.NotEmpty(t, w.Buttons(), "%s: the menu opens", preset)
		shot := r.Record(preset + "-menu-over-timeline-phone")

		tl := sb.Run.Player.Placed().Timeline
		last := w.Buttons()[len(w.Buttons())-1]
		require.True(t, last.Rect.Overlaps(tl), "%s: the menu is taller than the world (the case under test)", preset)
		lastTimeline, firstMenu := -1, len(shot.Drawn)
		for i, d := range shot.Drawn {
			isItem := slices.ContainsFunc(w.Buttons(), func(b ui.Button) bool { return b.Label == d.Full && b.Rect.Overlaps(d.Ink) })
			switch {
			case isItem:
				firstMenu = min(firstMenu, i)
			case d.Ink.Overlaps(tl):
				lastTimeline = i
			}
		}
		assert.Greater(t, firstMenu, lastTimeline, "%s: the menu is drawn before the timeline's text", preset)
		for _, b := range w.Buttons() {
			assert.True(t, b.Rect.Within(r.St.Window), "%s: %q lies outside the window", preset, b.Label)
		}

		now := sb.Run.Lab.Now()
		r.ClickAt(last.Rect.Center())
		assert.Empty(t, w.Buttons(), "%s: the press on %q went to the menu", preset, last.Label)
		assert.GreaterOrEqual(t, sb.Run.Lab.Now(), now, "%s: the press on the menu moved the play head back", preset)
	}
}

// A message's token label keeps clear of the state badges: in the
// sandbox, "write, token 1" leaving A covered A's "leader · token 1"
// (at 1280x800, 1024x640 and on the phone). Played on in small steps,
// no label drawn meets a badge.
func TestMessageLabelsKeepOffTheBadges(t *testing.T) {
	for _, size := range []string{"1280x800", "1024x640", "phone"} {
		var r *rig
		switch size {
		case "1280x800":
			r = newRig(t, "", 1280, 800)
		case "1024x640":
			r = newRig(t, "", 1024, 640)
		case "phone":
			r = phoneRig(t, "")
		}
		r.Tick(ui.Input{})
		r.Click("preset:leases")
		r.Click("start")
		sb := r.sb
		require.NotNil(t, sb.Run)
		w, ok := sb.Run.Player.World.(*view.World)
		require.True(t, ok)
		labels := 0
		for at := time.Duration(0); at < 8*time.Second; at += 25 * time.Millisecond {
			sb.Run.Lab.Apply(lab.SeekTo(at))
			shot := r.Record("message-labels-" + size)
			for _, d := range shot.Drawn {
				if !strings.Contains(d.Text, ", token ") {
					continue
				}
				labels++
				for i, b := range w.Geom().Badges {
					assert.False(t, d.Ink.Overlaps(b), "%s at %v: %q covers %s's badge", size, at, d.Text, w.Snapshot().Procs[i].Name)
				}
			}
		}
		require.NotZero(t, labels, "%s: no message with a token was seen", size)
	}
}
