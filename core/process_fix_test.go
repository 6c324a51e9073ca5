package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outageWorld is one etcd client with a 12 s session cut off from the
// coordinator from 5 s to 25 s: its session expires meanwhile.
func outageWorld(t *testing.T, cfg ProcessConfig) *Sim {
	t.Helper()
	s, err := World{Seed: 1, Processes: []ProcessConfig{cfg}}.Build()
	require.NoError(t, err)
	s.Schedule(ActionLog{
		At(5*time.Second, Partition(cfg.Name, CoordinatorName)),
		At(25*time.Second, Heal(cfg.Name, CoordinatorName)),
	})
	return s
}

func grantsAfter(s *Sim, proc string, t time.Duration) int {
	n := 0
	for e := range s.Trace.All() {
		if e.At > t && e.Actor == proc && e.Kind == KindLeaseRenewed && e.How() == "granted" {
			n++
		}
	}
	return n
}

func TestAClientThatReusesItsExpiredSessionLeadsAgainOnceFixedToMakeANewOne(t *testing.T) {
	cfg := ProcessConfig{Name: "A", Lock: "locks/x", TTL: 12 * time.Second, ReuseSession: true}
	buggy := outageWorld(t, cfg)
	buggy.RunUntil(60 * time.Second)
	assert.Zero(t, grantsAfter(buggy, "A", 25*time.Second), "with the bug, no new session is ever granted")
	assert.NotEqual(t, Leader, buggy.Process("A").State())

	fixed := outageWorld(t, cfg)
	fixed.ScheduleAction(40*time.Second, Fix("A", FixNewSession))
	fixed.RunUntil(60 * time.Second)
	assert.Equal(t, 1, grantsAfter(fixed, "A", 40*time.Second), "the fixed client makes one new session")
	assert.Equal(t, Leader, fixed.Process("A").State())
	assert.True(t, fixed.Process("A").Deployed(FixNewSession))
	assert.False(t, fixed.Process("A").Deployed(FixRelist))
}

func TestAWaiterWithAStaleWatchNeverLearnsItsTurnCameUntilItReListsTheContenders(t *testing.T) {
	world := func() *Sim {
		s, err := World{Seed: 1, Processes: []ProcessConfig{
			{Name: "A", Lock: "locks/x", TTL: 12 * time.Second},
			{Name: "B", Lock: "locks/x", TTL: 60 * time.Second, StartAt: 300 * time.Millisecond, StaleWatch: true},
		}}.Build()
		require.NoError(t, err)
		// Both cut off: A's session expires, B's survives and its turn comes.
		for _, n := range []string{"A", "B"} {
			s.Schedule(ActionLog{At(5*time.Second, Partition(n, CoordinatorName)), At(25*time.Second, Heal(n, CoordinatorName))})
		}
		return s
	}
	buggy := world()
	buggy.RunUntil(60 * time.Second)
	require.Equal(t, "B", buggy.Coord.LockInfo("locks/x").Holder, "the coordinator says B holds the lock")
	assert.Equal(t, Candidate, buggy.Process("B").State(), "but B never learns it")

	fixed := world()
	fixed.ScheduleAction(40*time.Second, Fix("B", FixRelist))
	fixed.RunUntil(41 * time.Second)
	assert.Equal(t, Leader, fixed.Process("B").State(), "re-listing finds B first in line")
}

func TestAFixIsAnActionLikeAnyOther(t *testing.T) {
	a := Fix("compact-1", FixNewSession)
	assert.Equal(t, "fix compact-1: make a new session when the old one ends", a.String())
	err := Action{Do: VerbFix, Proc: "A", Value: "reboot"}.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown fix "reboot" (want one of new-session, relist, jitter, own-task)`)

	s, err := World{Seed: 1, Processes: []ProcessConfig{{Name: "A", Lock: "locks/x", TTL: 12 * time.Second}}}.Build()
	require.NoError(t, err)
	assert.EqualError(t, s.Apply(Fix("nobody", FixJitter)), `fix: no process or worker named "nobody"`)
}
