package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runHash runs w for d and returns its trace hash.
func runHash(t *testing.T, w World, d time.Duration) string {
	t.Helper()
	s, err := w.Build()
	require.NoError(t, err)
	s.RunUntil(d)
	return s.Trace.Hash()
}

// The shorthand and the world it stands for are one world: listing the
// same coordinator, register and contenders by hand runs the same trace.
func TestAContentionConfigIsShorthandForTheWorldItWrites(t *testing.T) {
	short, err := ContentionConfig{
		Names: []string{"A", "B"}, FirstToken: 7, TTL: 10 * time.Second,
		Stagger: 500 * time.Millisecond, Fencing: true, WorkEvery: 2 * time.Second,
	}.World(3)
	require.NoError(t, err)
	byHand := World{
		Seed:        3,
		Coordinator: CoordinatorSpec{FirstTokens: []FirstToken{{Lock: "locks/leader", Token: 7}}},
		Resources:   []Resource{RegisterResource("storage", true)},
		Processes: []ProcessConfig{
			{Name: "A", Lock: "locks/leader", TTL: 10 * time.Second, WorkEvery: 2 * time.Second, Target: "storage"},
			{Name: "B", Lock: "locks/leader", TTL: 10 * time.Second, WorkEvery: 2 * time.Second, Target: "storage", StartAt: 500 * time.Millisecond},
		},
	}
	assert.Equal(t, byHand, short)
	assert.Equal(t, runHash(t, byHand, time.Minute), runHash(t, short, time.Minute))

	s, err := byHand.Build()
	require.NoError(t, err)
	s.RunUntil(time.Minute)
	first := s.Trace.Filter(KindHolder)
	require.NotEmpty(t, first)
	assert.EqualValues(t, 7, first[0].Token(), "the first holder gets the world's first token")
}

// Build makes what the world lists, in its order: workers before
// processes, the script scheduled, the network's default and overrides set.
func TestBuildMakesEveryActorTheWorldLists(t *testing.T) {
	lossy := Link{Delay: 30 * time.Millisecond, Drop: 0.5}
	w := World{
		Seed:       1,
		RedisNodes: 2,
		Resources:  []Resource{OffsetsResource("offsets", 2, true), QueueResource("queue", false)},
		Workers:    []ShardConfig{{Name: "worker-00", Shards: 2, TTL: 10 * time.Second}},
		Processes:  []ProcessConfig{{Name: "A", Lock: "locks/x", TTL: 10 * time.Second, Target: "queue"}},
		Net:        &Link{Delay: 20 * time.Millisecond},
		Links:      []DirectedLink{{From: "A", To: CoordinatorName, Link: lossy}},
		Script:     ActionLog{At(time.Second, Crash("A"))},
	}
	s, err := w.Build()
	require.NoError(t, err)
	assert.Equal(t, []string{"worker-00", "A"}, w.Names())
	require.NotNil(t, s.Process("A"))
	require.NotNil(t, s.RedisNode("redis-2"))
	require.NotNil(t, s.Offsets)
	require.NotNil(t, s.Queue)
	assert.Nil(t, s.Register, "no register was listed")
	assert.Equal(t, 20*time.Millisecond, s.Net.Default.Delay)
	assert.Equal(t, lossy, *s.Net.Link("A", CoordinatorName))
	assert.Equal(t, 20*time.Millisecond, s.Net.Link(CoordinatorName, "A").Delay, "an override is one direction")
	s.RunUntil(2 * time.Second)
	assert.NotEmpty(t, s.Trace.Filter(KindCrash), "the script ran")
}

// Every world Build cannot make is refused with what is wrong, and nothing
// is built.
func TestValidateRefusesAWorldItCannotBuild(t *testing.T) {
	ok := func() World {
		return World{
			Resources: []Resource{RegisterResource("storage", true)},
			Processes: []ProcessConfig{{Name: "A", Lock: "l", TTL: 10 * time.Second, Target: "storage"}},
		}
	}
	require.NoError(t, ok().Validate())
	for name, tc := range map[string]struct {
		change func(w *World)
		want   string
	}{
		"a name used twice":       {func(w *World) { w.Processes = append(w.Processes, w.Processes[0]) }, `"A" is used twice`},
		"a process named storage": {func(w *World) { w.Processes[0].Name = "storage" }, `"storage" is used twice`},
		"a process without name":  {func(w *World) { w.Processes[0].Name = "" }, "no name"},
		"a process named learner": {func(w *World) { w.Processes[0].Name = "learner" }, "the trace's own"},
		"work aimed at nothing":   {func(w *World) { w.Processes[0].Target = "queue" }, `works on "queue"`},
		"an unknown resource":     {func(w *World) { w.Resources[0].Kind = 0 }, "no known kind"},
		"an empty offset store":   {func(w *World) { w.Resources = append(w.Resources, OffsetsResource("offsets", 0, true)) }, "at least one shard"},
		"a worker without store": {func(w *World) {
			w.Workers = []ShardConfig{{Name: "worker-00", Shards: 1, TTL: 10 * time.Second}}
		}, `commits to "offsets"`},
		"a link to nobody":     {func(w *World) { w.Links = BothWays("A", "Z", Link{}) }, "link A -> Z"},
		"too many Redis nodes": {func(w *World) { w.RedisNodes = MaxRedisNodes + 1 }, "Redis nodes"},
		"a bad script action":  {func(w *World) { w.Script = ActionLog{At(0, Action{Do: "fly"})} }, "script action 1"},
	} {
		t.Run(name, func(t *testing.T) {
			w := ok()
			tc.change(&w)
			err := w.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			s, err := w.Build()
			assert.Error(t, err)
			assert.Nil(t, s)
		})
	}
}
