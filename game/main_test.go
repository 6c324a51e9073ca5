package game

import (
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestMain runs the tests inside Ebitengine's game loop so they may draw and
// read pixels back. Run them under a display: xvfb-run -a go test.
func TestMain(m *testing.M) {
	l := &testLoop{m: m}
	ebiten.SetWindowSize(160, 120)
	if err := ebiten.RunGame(l); err != nil {
		panic(err)
	}
	os.Exit(l.code)
}

type testLoop struct {
	m    *testing.M
	code int
}

func (l *testLoop) Update() error {
	l.code = l.m.Run()
	return ebiten.Termination
}

func (l *testLoop) Draw(*ebiten.Image)             {}
func (l *testLoop) Layout(int, int) (w int, h int) { return 160, 120 }
