package draw

import (
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestMain runs the tests inside Ebitengine's game loop, the only place
// images can be read back. Run them under a display: xvfb-run -a go test.
func TestMain(m *testing.M) {
	g := &testLoop{m: m}
	ebiten.SetWindowSize(160, 120)
	if err := ebiten.RunGame(g); err != nil {
		panic(err)
	}
	os.Exit(g.code)
}

type testLoop struct {
	m    *testing.M
	code int
}

func (g *testLoop) Update() error {
	g.code = g.m.Run()
	return ebiten.Termination
}

func (g *testLoop) Draw(*ebiten.Image)             {}
func (g *testLoop) Layout(int, int) (w int, h int) { return 160, 120 }
