package lab

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// menuOf is the action menu of process name in lb's world now.
func menuOf(t *testing.T, lb *Lab, name string, token int64) []Choice {
	t.Helper()
	v := lb.World()
	for i, p := range v.Procs {
		if p.Name == name {
			return ChoicesFor(lb.Lesson, v, Actor{Name: name, Proc: i, Worker: -1}, token)
		}
	}
	require.Failf(t, "no such process", "%s", name)
	return nil
}

func ids(cs []Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func TestTheMenuOffersTheLessonsControlsInTheActorsState(t *testing.T) {
	lb := fenced(t)
	lb.Advance(time.Second)
	// Fenced writes allows pause, crash, partition, expire and delay (the
	// fencing switch is on the store, not on a process).
	assert.Equal(t, []string{"pause", "crash", "partition", "delay", "expire"}, ids(menuOf(t, lb, "A", 3)))
	pause := menuOf(t, lb, "A", 3)[0]
	assert.Equal(t, "Pause 20 s (Z)", pause.Label, "the pause lasts the lesson's PauseFor")
	assert.Equal(t, core.Pause("A", lb.Lesson.PauseFor), pause.Action)
	assert.Equal(t, ui.IntentPauseProc, pause.Key)

	require.NoError(t, pauseA(lb))
	assert.Equal(t, "resume", menuOf(t, lb, "A", 3)[0].ID, "a paused process is resumed, not paused again")

	require.NoError(t, lb.Do(core.Crash("B")))
	assert.Equal(t, []string{"restart", "partition", "expire"}, ids(menuOf(t, lb, "B", 3)),
		"a crashed process is restarted, not paused or delayed; the coordinator still holds its lease")
}

func TestWritesCarryTheChosenTokenAndALatePausedOneIsMarked(t *testing.T) {
	l, err := lessons.Find("hands-on-lab")
	require.NoError(t, err)
	lb, err := New(l, 1)
	require.NoError(t, err)
	lb.Advance(time.Second)
	m := menuOf(t, lb, "A", 7)
	assert.Equal(t, []string{"pause", "write", "write-token", "token-next"}, ids(m))
	assert.Equal(t, int64(0), m[1].Action.Token, "own token")
	assert.Equal(t, int64(7), m[2].Action.Token)
	assert.Equal(t, "Write with token 7 (V)", m[2].Label)
	assert.True(t, m[3].NextToken, "picking a token is the menu's own step, not an action")
	assert.Equal(t, int64(8), NextToken(7))
	assert.Equal(t, int64(1), NextToken(9), "tokens go round 1 to 9")

	require.NoError(t, pauseA(lb))
	m = menuOf(t, lb, "A", 7)
	assert.Equal(t, "late", m[1].Action.Label)
	assert.Equal(t, "late A", m[1].Action.Value)
}

func TestDeletableKeysAreOtherHoldersOnly(t *testing.T) {
	v := WorldView{
		Groups:  []LockGroup{{Lock: core.LockInfo{Name: "a/leader", Key: "a/leader/1", Holder: "A"}}, {Lock: core.LockInfo{Name: "b/leader", Key: "b/leader/2", Holder: "B"}}},
		Workers: []WorkerView{{Name: "w0"}, {Name: "w1"}},
		Shards:  []int{-1, 1, 0},
	}
	assert.Equal(t, []string{"b/leader/2", "stream/shard-001"}, Deletable(v, "A"))
	assert.Equal(t, []string{"a/leader/1", "b/leader/2", "stream/shard-002"}, Deletable(v, "w1"))
	assert.Equal(t, "a/status", StatusKey(v), "the status key sits next to the first lock")
	assert.Equal(t, "", StatusKey(WorldView{}))
}

func TestDurationsAreWrittenOneWayEach(t *testing.T) {
	assert.Equal(t, "20 s", core.Seconds(20*time.Second))
	assert.Equal(t, "5.5 s", core.Seconds(5500*time.Millisecond))
	assert.Equal(t, "4.419 s", core.Seconds(4419200*time.Microsecond), "to the millisecond")
	assert.Equal(t, "t = 12.500 s", ClockTime(12500*time.Millisecond))
}

// A Redlock client talks to every Redis node and to no coordinator: its
// menu cuts and heals each node's link, and a cut one really drops what
// the client sends that node.
func TestARedlockClientsMenuCutsEachRedisNode(t *testing.T) {
	p, err := sandbox.FindPreset("redlock")
	require.NoError(t, err)
	lb, err := NewSandbox("redlock", p.Config)
	require.NoError(t, err)
	lb.Advance(time.Second)
	menu := ids(menuOf(t, lb, "A", 0))
	assert.NotContains(t, menu, "partition", "no coordinator link to cut")
	assert.Subset(t, menu, []string{"partition:redis-1", "partition:redis-2", "partition:redis-3"})
	first := menuOf(t, lb, "A", 0)
	for _, c := range first {
		if c.ID == "partition:redis-1" {
			assert.Equal(t, ui.IntentCutLink, c.Key, "the cut key cuts the first node")
			require.NoError(t, lb.Do(c.Action))
		}
	}
	assert.Contains(t, ids(menuOf(t, lb, "A", 0)), "heal:redis-1")
	assert.Contains(t, ids(menuOf(t, lb, "A", 0)), "partition:redis-2")
	lb.Advance(30 * time.Second)
	dropped := 0
	for _, e := range lb.Sim().Trace.Filter(core.KindDrop) {
		if e.Actor == "A" && e.To() == "redis-1" {
			dropped++
		}
	}
	assert.Positive(t, dropped, "what A sends redis-1 is lost while the link is cut")
}

// Lesson 1's pause button freezes for the lesson's own pause (its pause
// slider), never "Pause 0 s", and follows the slider.
func TestLeasesPauseButtonFollowsThePauseSlider(t *testing.T) {
	l, err := lessons.Find("leases")
	require.NoError(t, err)
	lb, err := New(l, 1)
	require.NoError(t, err)
	pause := func() Choice {
		v := lb.World()
		for _, c := range ChoicesFor(l, v, Actor{Name: "A", Proc: 0, Worker: -1}, 1) {
			if c.ID == "pause" {
				return c
			}
		}
		t.Fatal("no pause choice")
		return Choice{}
	}
	assert.Equal(t, "Pause 4 s (Z)", pause().Label)
	assert.Equal(t, core.Pause("A", 4*time.Second), pause().Action)
	require.NoError(t, lb.SetKnob("pause", 9))
	assert.Equal(t, "Pause 9 s (Z)", pause().Label)
	for _, l := range lessons.All() {
		if !slices.Contains(l.Controls, lessons.CtlPause) {
			continue
		}
		lb, err := New(l, 1)
		require.NoError(t, err)
		assert.Positive(t, lb.World().PauseFor, "%s: a pause lasts a while", l.ID)
	}
}

// Lesson 1's policy verdict follows its goal: the first goal asks for
// sliders that break the rule, so a failing rule is what was asked
// (drawn as done, not a red "Not OK"), before and after the goal is met;
// a rule that holds is said to hold.
func TestLeasesPolicyVerdictFollowsTheGoal(t *testing.T) {
	l, err := lessons.Find("leases")
	require.NoError(t, err)
	lb, err := New(l, 1)
	require.NoError(t, err)
	v, has := lb.KnobVerdict()
	require.True(t, has)
	assert.True(t, v.OK, "the defaults keep the rule: %+v", v)
	assert.Equal(t, "Rule holds", v.Word)

	for id, x := range l.SolutionKnobs {
		require.NoError(t, lb.SetKnob(id, x))
	}
	v, _ = lb.KnobVerdict()
	assert.False(t, v.OK)
	assert.True(t, v.Good(), "breaking the rule is what the first goal asks")
	assert.Equal(t, "Rule fails, as the goal asks: play to see what it costs", v.Word)

	lb.Advance(30 * time.Second)
	require.True(t, lb.Goals()[0].Met, "precondition: the false failover happened")
	v, _ = lb.KnobVerdict()
	assert.True(t, v.Good())
	assert.Equal(t, "Rule fails, as the goal asked (met)", v.Word)
	assert.NotContains(t, v.Word, "Not OK")
}

func TestTheTroubleshootingMenuOffersEachFixUntilItIsDeployed(t *testing.T) {
	lb := open(t, "troubleshooting")
	lb.Advance(45 * time.Second)
	menu := ids(menuOf(t, lb, "compact-2", 1))
	for _, f := range core.Fixes {
		assert.Contains(t, menu, "fix:"+string(f), "every client offers every fix: the menu does not tell which bug it has")
	}
	i := slices.Index(menu, "fix:relist")
	require.NoError(t, lb.Do(menuOf(t, lb, "compact-2", 1)[i].Action))
	lb.Advance(3 * time.Second) // past its reconnect at 46.3 s
	assert.NotContains(t, ids(menuOf(t, lb, "compact-2", 1)), "fix:relist", "a deployed fix leaves the menu")
	assert.Equal(t, core.Leader, lb.Sim().Process("compact-2").State(), "the re-listed waiter leads")
}
