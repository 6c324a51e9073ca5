package lessons

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

func init() {
	wrong["redlock-pause"] = []struct {
		name  string
		knobs Knobs
		log   core.ActionLog
		miss  string
	}{
		{"a pause shorter than the validity", nil, core.ActionLog{core.At(4*time.Second, core.Pause("A", 5*time.Second))}, "two-holders"},
		{"pause the waiting client instead", nil, core.ActionLog{core.At(4*time.Second, core.Pause("B", 20*time.Second))}, "two-holders"},
		{"the token check switched off first", nil, core.ActionLog{
			core.At(2*time.Second, core.Fencing(false)),
			core.At(4*time.Second, core.Pause("A", 20*time.Second)),
		}, "late-write"},
		{"a crash instead of a pause: A never writes again", nil, core.ActionLog{core.At(4*time.Second, core.Crash("A"))}, "late-write"},
	}
}

// The lesson's point, checked against the run: the same 20 s pause that
// the fenced-writes lesson's store refuses goes through here, because
// every write carries token 0.
func TestRedlockLessonLateWriteCarriesNoToken(t *testing.T) {
	w, err := redlockPause.EvaluateWith(1, nil, redlockPause.Solution)
	require.NoError(t, err)
	require.True(t, w.AllMet())
	for _, e := range w.Sim.Trace.Filter(core.KindWrite) {
		assert.EqualValues(t, 0, e.Token(), "no write has a token to carry")
		assert.Equal(t, core.Accepted, e.Result(), "so the check refuses none")
	}
	f, err := fencedWrites.EvaluateWith(1, nil, fencedWrites.Solution[:1])
	require.NoError(t, err)
	assert.True(t, write(f, "A", 7, core.RejectedStale), "with a token from the coordinator, the same pause is refused")
}

// What the lesson says of its servers is what its world does: two clocks
// jumped ahead end A's keys on a majority, and B wins while A still
// believes it holds the lock; two servers crashed leave no majority to
// win, so nobody else holds it.
func TestRedlockServerFaultsAsTheLessonTellsThem(t *testing.T) {
	on := func(do core.Verb) *World {
		t.Helper()
		var log core.ActionLog
		for _, n := range []string{"redis-1", "redis-2"} {
			a := core.Action{Do: do, Proc: n}
			if do == core.VerbClockJump {
				a.For = core.Duration(30 * time.Second)
			}
			log = append(log, core.At(5*time.Second, a))
		}
		w, err := redlockPause.EvaluateWith(1, nil, log)
		require.NoError(t, err)
		return w
	}
	assert.True(t, believedTogether(on(core.VerbClockJump), "A", "B"), "two clocks jumped: two holders")
	crashed := on(core.VerbCrash)
	assert.False(t, believedTogether(crashed, "A", "B"), "two servers down: no majority for B")
	for _, e := range crashed.Sim.Trace.Filter(core.KindHolder) {
		assert.NotEqual(t, "B", e.Owner(), "nobody else wins while two of three are down (%s)", core.FormatTime(e.At))
	}
}
