// Package scenetest drives one scene in a test, tick by tick, as the Game
// does, and checks what it draws: the rig and the screen checks that the
// front end's scene packages share. A test that draws runs inside
// Ebitengine's loop (game/internal/ebitest), under a display.
package scenetest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/page"
	"leaselab/game/scene"
	"leaselab/game/ui"
)

// Scene is a scene a rig can drive and ask what it shows.
type Scene interface {
	scene.Scene
	scene.Inspector
}

// Rig drives Scene in a window, one tick at a time.
type Rig struct {
	T     *testing.T
	Scene Scene
	St    scene.State
}

// New returns a rig showing sc in a window w×h pixels at a device scale
// of 1, after its first tick.
func New(t *testing.T, sc Scene, w, h float64) *Rig {
	r := &Rig{T: t, Scene: sc}
	r.Resize(w, h)
	r.Tick(ui.Input{})
	return r
}

// Bare returns a rig showing sc as the page lays the canvas out beside
// its panel (or alone, on a phone): window big at scale.
func Bare(t *testing.T, sc Scene, window ui.Rect, scale float64) *Rig {
	r := &Rig{T: t, Scene: sc}
	r.St.Window = window
	r.St.Style = draw.NewStyle(ui.UnitForBare(window.W, window.H, scale))
	r.St.Style.PanelOutside = true
	r.Tick(ui.Input{})
	return r
}

// Resize makes the window w×h pixels at a device scale of 1.
func (r *Rig) Resize(w, h float64) {
	r.St.Window = ui.Rect{W: w, H: h}
	r.St.Style = draw.NewStyle(ui.UnitFor(w, h, 1))
}

// Tick is one tick of the scene with input in: Update, then Layout.
func (r *Rig) Tick(in ui.Input) {
	r.T.Helper()
	in.Scale = 1
	in.WindowW, in.WindowH = r.St.Window.W, r.St.Window.H
	if in.Cursor == (ui.Point{}) {
		in.Cursor = ui.Point{X: -1, Y: -1}
	}
	r.St.Input = in
	r.St.Tick++
	require.NoError(r.T, scene.Step(r.Scene, &r.St))
}

// Info is what the scene shows now.
func (r *Rig) Info() page.SceneInfo { return r.Scene.Inspect() }

// Region is where the scene laid name out; the test fails if it did not.
func (r *Rig) Region(name string) ui.Rect {
	r.T.Helper()
	reg, ok := r.Info().Regions[name]
	require.Truef(r.T, ok, "no region %q in scene %q", name, r.Info().Name)
	return reg
}

// Click presses and releases the mouse on the middle of region name.
func (r *Rig) Click(name string) {
	r.T.Helper()
	r.Tick(ui.Input{}) // lay out for a window the test may have resized
	r.ClickAt(r.Region(name).Center())
}

// ClickAt presses and releases the mouse at p.
func (r *Rig) ClickAt(p ui.Point) {
	r.T.Helper()
	r.Tick(ui.Input{Cursor: p, MouseDown: true, MouseJustDown: true})
	r.Tick(ui.Input{Cursor: p, MouseJustUp: true})
}

// Key presses the key of intent i for one tick.
func (r *Rig) Key(i ui.Intent) { r.T.Helper(); r.Tick(ui.Input{Keys: ui.KeysOf(i)}) }

// Control is the page's control id on the scene shown now.
func (r *Rig) Control(id string) (ui.Control, bool) {
	return ui.Controls(r.Info().Mirror.Controls).Find(id)
}

// Use does what a click on the page's control id (or a value picked in
// it) does; the page must offer it, enabled.
func (r *Rig) Use(id string, value float64) {
	r.T.Helper()
	c, ok := r.Control(id)
	require.Truef(r.T, ok, "the page of %q offers no %q", r.Info().Name, id)
	require.Falsef(r.T, c.Disabled, "%q is disabled", id)
	r.Tick(ui.Input{Host: []ui.HostAction{{ID: id, Value: value}}})
	r.Tick(ui.Input{})
}

// TabTo presses Tab until the canvas's focus is on name, and checks name
// is on screen.
func (r *Rig) TabTo(name string) {
	r.T.Helper()
	for i := 0; r.Info().Focus != name; i++ {
		require.Less(r.T, i, 400, "Tab never reached %s", name)
		r.Key(ui.IntentFocusNext)
	}
	_, visible := r.Info().Regions[name]
	assert.True(r.T, visible, "%s is on screen", name)
}

// Record draws the scene after a quiet tick and keeps every string drawn
// (see Draw).
func (r *Rig) Record(name string) Shot {
	r.T.Helper()
	r.Tick(ui.Input{})
	return r.Drawn(name)
}

// Drawn is Record without the tick, for a frame after the test's own.
func (r *Rig) Drawn(name string) Shot {
	r.T.Helper()
	return Draw(r.T, name, int(r.St.Window.W), int(r.St.Window.H), r.Scene.Draw)
}
