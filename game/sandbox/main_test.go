package sandbox

import (
	"testing"

	"github.com/stretchr/testify/require"

	"leaselab/game/internal/ebitest"
	"leaselab/game/internal/scenetest"
	"leaselab/game/lesson"
	"leaselab/game/ui"
)

// TestMain runs the tests inside Ebitengine's game loop so they may draw
// and read pixels back.
func TestMain(m *testing.M) { ebitest.Main(m) }

// rig drives a sandbox as the App shows it, tick by tick: its way back to
// the lesson menu counts the times it is taken, and its exports are kept.
type rig struct {
	*scenetest.Rig
	sb     *Scene
	toMenu int
	saved  map[string]string
}

// newSandbox returns the sandbox's setup showing preset (the default
// setup if ""), the way back and the exports kept by r.
func (r *rig) newSandbox(t *testing.T, preset string) *Scene {
	r.saved = map[string]string{}
	sb, err := New(preset, func() { r.toMenu++ }, func(name string, data []byte) (string, error) {
		r.saved[name] = string(data)
		return "in memory", nil
	})
	require.NoError(t, err)
	r.sb = sb
	return sb
}

// newRig is the setup of preset in a w×h window.
func newRig(t *testing.T, preset string, w, h float64) *rig {
	r := &rig{}
	r.Rig = scenetest.New(t, r.newSandbox(t, preset), w, h)
	return r
}

// phoneWindow is the browser's phone canvas in device pixels: 390 CSS px
// at 3x, 55 % of an 844 px screen (web/style.css), no panel beside it.
var phoneWindow = ui.Rect{W: 1170, H: 1392}

// phoneRig is the setup of preset laid out as the page lays it out on a
// phone.
func phoneRig(t *testing.T, preset string) *rig {
	r := &rig{}
	r.Rig = scenetest.Bare(t, r.newSandbox(t, preset), phoneWindow, 3)
	return r
}

// sizes are the window sizes every screen must fit: a small laptop and
// an ordinary one.
var sizes = [][2]float64{{1024, 640}, {1280, 800}}

// search runs the run's "Find a break" to its end, a slice of it each
// frame (lab.TestASliceOfSearchStopsAtItsBudget proves a slice keeps to
// its budget).
func (r *rig) search(f *lesson.Finder) {
	r.T.Helper()
	r.Click("explore")
	require.True(r.T, f.Searching() || f.Status() != "", "a search started")
	for ticks := 0; f.Searching(); ticks++ { // (a small one may end in its first frame)
		require.Less(r.T, ticks, 5000, "the search ends")
		r.Tick(ui.Input{})
	}
}
