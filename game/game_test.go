package game

import (
	"encoding/json"
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/stretchr/testify/require"
	"leaselab/game/draw"
	"leaselab/game/ui"
)

func TestSupersampling(t *testing.T) {
	tests := []struct {
		w, h, scale, want float64
	}{
		{1280, 800, 1, 2},
		{1920, 1080, 1.25, 2},
		{2560, 1600, 2, 1}, // HiDPI: pixels are small enough
		{3840, 2160, 1, 1}, // the offscreen would be too big
	}
	for _, tt := range tests {
		if got := supersampling(tt.w, tt.h, tt.scale); got != tt.want {
			t.Errorf("supersampling(%v, %v, %v) = %v", tt.w, tt.h, tt.scale, got)
		}
	}
	in := ui.Input{Cursor: ui.Point{X: 10, Y: 20}, Touches: []ui.Touch{{Pos: ui.Point{X: 3, Y: 4}}}, WindowW: 100, WindowH: 50, Scale: 1}
	supersampleInput(&in, 2)
	if in.Cursor != (ui.Point{X: 20, Y: 40}) || in.Touches[0].Pos != (ui.Point{X: 6, Y: 8}) || in.WindowW != 200 || in.Scale != 2 {
		t.Errorf("supersampled input %+v", in)
	}
	r := scaleRegions(map[string]ui.Rect{"a": {X: 2, Y: 4, W: 6, H: 8}}, 0.5)
	if r["a"] != (ui.Rect{X: 1, Y: 2, W: 3, H: 4}) {
		t.Errorf("scaled region %v", r["a"])
	}
}

// TestGameRunsAndCaptures drives Game through Update and Draw the way
// Ebitengine does, and checks the snapshot and the capture.
func TestGameRunsAndCaptures(t *testing.T) {
	var captured *image.RGBA
	var snaps []Snapshot
	a := NewApp(nil)
	_, err := a.OpenID("fenced-writes")
	require.NoError(t, err)
	g := New(a, Options{
		CaptureFrame: 2,
		OnCapture:    func(img *image.RGBA) error { captured = img; return nil },
		OnUpdate:     func(s Snapshot) { snaps = append(snaps, s) },
	})
	w, h := g.LayoutF(320, 200)
	screen := ebiten.NewImage(int(w), int(h))
	g.Draw(screen) // before the first Update: only the background
	if g.Snapshot().Frame != 0 {
		t.Fatal("a frame counted before any Update")
	}
	for i := range 3 {
		err := g.Update()
		if i < 2 && err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
		if i == 2 && err != ebiten.Termination {
			t.Fatalf("after the capture Update returned %v, want ebiten.Termination", err)
		}
		g.Draw(screen)
	}
	if captured == nil || captured.Bounds().Dx() != int(w) {
		t.Fatal("no capture of the screen")
	}
	s := g.Snapshot()
	if s.Frame != 3 || s.Tick != 2 || s.Scene.Name != "lesson" || s.Width != w {
		t.Errorf("snapshot %+v", s)
	}
	if len(snaps) != 2 {
		t.Errorf("OnUpdate called %d times", len(snaps))
	}
	// Regions are reported in screen pixels, whatever the supersampling.
	if world := s.Scene.Regions["world"]; world.MaxX() > w || world.Empty() {
		t.Errorf("world region %v on a %v-wide screen", world, w)
	}
	if _, err := json.Marshal(s); err != nil {
		t.Fatal(err)
	}
	if lw, lh := g.Layout(320, 200); float64(lw) != w || float64(lh) != h {
		t.Error("Layout and LayoutF disagree")
	}
}

func TestFocusEscapeReachesTheHost(t *testing.T) {
	var got []ui.Escape
	g := New(escapingScene{}, Options{OnFocusEscape: func(e ui.Escape) { got = append(got, e) }})
	g.LayoutF(100, 100)
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != ui.EscapeForward || g.state.FocusEscape != ui.NoEscape {
		t.Errorf("escapes %v, left in state %v", got, g.state.FocusEscape)
	}
}

type escapingScene struct{}

func (escapingScene) Update(st *State) error {
	st.FocusEscape = ui.EscapeForward
	return nil
}

func (escapingScene) Layout(ui.Rect, draw.Style) {}
func (escapingScene) Draw(*ebiten.Image)         {}

// windowScene records, at each Update, the window it was last laid out
// for.
type windowScene struct {
	laid ui.Rect
	seen []ui.Rect
}

func (s *windowScene) Update(*State) error            { s.seen = append(s.seen, s.laid); return nil }
func (s *windowScene) Layout(w ui.Rect, _ draw.Style) { s.laid = w }
func (s *windowScene) Draw(*ebiten.Image)             {}

// Input is read against what was last laid out, unless the window has
// changed since (a resize, or the first supersampled frame doubling its
// pixels): then the scene is laid out for the new window first, so a
// click released in the new pixels still lands on its button.
func TestAResizedWindowIsLaidOutBeforeItsInputIsRead(t *testing.T) {
	s := &windowScene{}
	g := New(s, Options{})
	g.LayoutF(320, 200)
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	g.LayoutF(640, 400)
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	if s.seen[1] != g.state.Window || s.seen[2] != g.state.Window {
		t.Errorf("updates saw layouts for %+v, want the new window %+v", s.seen, g.state.Window)
	}
	if s.seen[0] == s.seen[1] {
		t.Errorf("the first update saw the new window already: %+v", s.seen)
	}
}
