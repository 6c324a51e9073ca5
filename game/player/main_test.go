package player

import (
	"testing"

	"leaselab/game/internal/ebitest"
)

// TestMain runs the tests inside Ebitengine's game loop so they may draw
// and read pixels back.
func TestMain(m *testing.M) { ebitest.Main(m) }
