package player

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/tick"
	"leaselab/game/ui"
)

// Pressing play after the lab sat paused (asleep, on the desktop: the
// last tick was long ago) starts with one nominal tick, not a jump; ticks
// while playing advance by their real length.
func TestPlayStartsWithOneNominalTick(t *testing.T) {
	r := newRig(t)
	clock := r.p.Clock.(*testClock)
	r.st.Elapsed = tick.MaxStep
	r.key(ui.IntentPlayPause)
	require.True(t, r.p.Playing())
	assert.Equal(t, tick.Nominal, clock.now, "the press plays one nominal tick")
	r.st.Elapsed = 100 * time.Millisecond
	r.tick(ui.Input{})
	assert.Equal(t, tick.Nominal+100*time.Millisecond, clock.now, "then the real time of each tick")
}
