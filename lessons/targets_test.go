package lessons

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/explore"
)

// A target that names a lesson searches that lesson's own world: its log
// replays in the lesson player. Same seed, no action: the same trace.
func TestATargetOnALessonSearchesThatLessonsWorld(t *testing.T) {
	named := 0
	for _, tg := range Targets() {
		if tg.Lesson == "" {
			continue
		}
		named++
		l, err := Find(tg.Lesson)
		require.NoError(t, err, tg.Name)
		w, err := l.Start(3, nil)
		require.NoError(t, err, tg.Name)
		s, err := tg.Build(3)
		require.NoError(t, err, tg.Name)
		w.Sim.RunUntil(40 * time.Second)
		s.RunUntil(40 * time.Second)
		assert.Equal(t, w.Sim.Trace.Hash(), s.Trace.Hash(), "%s: the target's world is the %s lesson's", tg.Name, tg.Lesson)
	}
	assert.Equal(t, 2, named, "fenced-writes and scheduler search their lessons' worlds")
}

// Every declared target, searched on a coarse grid: with its protection
// off the explorer finds a schedule that breaks the invariant; with it on
// the same grid holds, except for an invariant about belief, which the
// protection defuses but cannot keep.
func TestEveryTargetBreaksOnlyWithoutItsProtection(t *testing.T) {
	for _, tg := range Targets() {
		t.Run(tg.Name, func(t *testing.T) {
			b := tg.Bounds
			b.Step, b.LenStep, b.MinLen = 2*time.Second, 2*time.Second, 2*time.Second
			for _, off := range []bool{true, false} {
				x, err := explore.New(tg.Problem(1, off, b), time.Now)
				require.NoError(t, err)
				r, err := x.Run()
				require.NoError(t, err)
				require.True(t, r.Complete, "%s, protection off %v: %s", tg.Name, off, r.Summary())
				assert.Equal(t, off || tg.Belief(), r.Found, "%s, protection off %v: %s", tg.Name, off, r.Summary())
			}
		})
	}
}

func TestFindTargetNamesTheKnownOnes(t *testing.T) {
	tg, err := FindTarget("consul-pause")
	require.NoError(t, err)
	assert.Equal(t, core.VerbFencing, tg.Protects)
	_, err = FindTarget("nope")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "known: fenced-writes, scheduler, shards, shard-owners, zookeeper-pause, consul-pause")
}
