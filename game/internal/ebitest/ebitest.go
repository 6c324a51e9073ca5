// Package ebitest runs a package's tests inside Ebitengine's game loop, the
// only place images can be read back, for the front end's packages that
// draw in their tests. Run them under a display: xvfb-run -a go test.
package ebitest

import (
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// Main is a TestMain: it runs m's tests on the loop's first tick and
// exits with their code.
func Main(m *testing.M) {
	l := &loop{m: m}
	ebiten.SetWindowSize(160, 120)
	if err := ebiten.RunGame(l); err != nil {
		panic(err)
	}
	os.Exit(l.code)
}

type loop struct {
	m    *testing.M
	code int
}

func (l *loop) Update() error {
	l.code = l.m.Run()
	return ebiten.Termination
}

func (l *loop) Draw(*ebiten.Image)             {}
func (l *loop) Layout(int, int) (w int, h int) { return 160, 120 }
