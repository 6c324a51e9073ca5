package exercise

import (
	"testing"

	"leaselab/game/internal/ebitest"
)

// TestMain runs the tests inside Ebitengine's game loop so they may draw
// and read pixels back. Run them under a display: xvfb-run -a go test.
func TestMain(m *testing.M) { ebitest.Main(m) }
