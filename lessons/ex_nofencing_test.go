package lessons

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// delayedWrite holds everything A sends for 15 s from 4 s: A's writes,
// decided while it still led, land after B has taken over and written.
var delayedWrite = core.ActionLog{core.At(4*time.Second, core.Delay("A", 15*time.Second))}

// TestNoFencingAcceptsTheDelayedWrite: the delayed write of the curriculum's
// fenced-writes example breaks the system too, so it is a valid answer
// (defect 5), and the simulator's goals agree with the checker.
func TestNoFencingAcceptsTheDelayedWrite(t *testing.T) {
	a := exNoFencing.Reference.Clone()
	a.Schedule = delayedWrite
	a.Chain = modelChain(t, exNoFencing, delayedWrite)
	r, err := exNoFencing.Check(a)
	require.NoError(t, err)
	assert.True(t, r.Pass, r.Text())
	w, err := noFencingLab.EvaluateWith(1, Knobs{"fencing": 0}, delayedWrite)
	require.NoError(t, err)
	assert.True(t, w.Lesson.Goals[0].Met(w), "the simulator's 'broken' goal")
}

// TestNoFencingNamesWhatTheRunShowed: a schedule that breaks nothing is
// told what its own run did, never to do what it already did (finding 9:
// a 12 s pause was told to freeze the leader "for longer than its 10 s
// lease").
func TestNoFencingNamesWhatTheRunShowed(t *testing.T) {
	for _, d := range []time.Duration{10500 * time.Millisecond, 11 * time.Second, 12 * time.Second} {
		a := exNoFencing.Reference.Clone()
		a.Schedule = pauseAt(4*time.Second, d, "A")
		r, err := exNoFencing.Check(a)
		require.NoError(t, err)
		f := r.Parts[0]
		require.False(t, f.OK, "a %s pause breaks nothing", d)
		assert.NotContains(t, f.Why, "longer than its 10 s lease", "the pause was longer than the lease")
		assert.Contains(t, f.Why, "B took the lock at 14 s with token 34")
		assert.Contains(t, f.Why, "B's first write at 16.032 s, so it overwrote nothing", d)
		checkExplanation(t, exNoFencing, d.String(), f)
	}
	a := exNoFencing.Reference.Clone()
	a.Schedule = pauseAt(4*time.Second, 12*time.Second, "A")
	r, err := exNoFencing.Check(a)
	require.NoError(t, err)
	assert.Contains(t, r.Parts[0].Why, "A's write with token 33 landed at 16.005 s, before B's first write at 16.032 s")

	a.Schedule = pauseAt(4*time.Second, 5*time.Second, "A")
	r, err = exNoFencing.Check(a)
	require.NoError(t, err)
	assert.Contains(t, r.Parts[0].Why, "the lock never changed hands", "a pause shorter than the lease")

	// A pause to the run's very end: the late write would come after it.
	a.Schedule = pauseAt(4*time.Second, 56*time.Second, "A")
	r, err = exNoFencing.Check(a)
	require.NoError(t, err)
	require.False(t, r.Parts[0].OK)
	assert.Contains(t, r.Parts[0].Why, "A's stall from 4 s lasts until 60 s, and the run ends at 60 s: its late write would arrive only after the run")
	checkExplanation(t, exNoFencing, "56s", r.Parts[0])
}

// heldToStorage is the network-delay form of the scenario, as the brief
// tells it: A's writes to storage are held for 20 s from 3 s, and its
// keepalives to the coordinator for 15 s, so its lease runs out, B takes
// over and writes, and then A's held write lands.
var heldToStorage = core.ActionLog{
	core.At(3*time.Second, core.Action{Do: core.VerbDelay, Proc: "A", Peer: "storage", For: core.Duration(20 * time.Second)}),
	core.At(3*time.Second, core.Action{Do: core.VerbDelay, Proc: "A", Peer: core.CoordinatorName, For: core.Duration(15 * time.Second)}),
}

// TestNoFencingHoldsMessagesToAndFromStorage (issue 31): storage is an
// actor of the run, so the network may hold what goes to it or comes from
// it. Holding A's write to storage used to be refused ("not a process",
// exit 2), so the network-delay form of the scenario could not be
// answered. Storage still cannot be paused or crashed, and an actor the
// run does not have is still refused.
func TestNoFencingHoldsMessagesToAndFromStorage(t *testing.T) {
	a := exNoFencing.Reference.Clone()
	a.Schedule = heldToStorage
	a.Chain = modelChain(t, exNoFencing, heldToStorage)
	require.NoError(t, exNoFencing.Validate(a))
	r, err := exNoFencing.Check(a)
	require.NoError(t, err)
	assert.True(t, r.Pass, r.Text())
	assert.Contains(t, part(r, "Schedule, fencing off then on").Why, "storage accepted A's write with token 33 at 23.005 s")

	// Holding only storage's messages leaves the keepalives flowing, and
	// the feedback says so.
	for _, log := range []core.ActionLog{heldToStorage[:1], {core.At(3*time.Second, core.Action{Do: core.VerbDelay, Proc: "storage", Peer: "A", For: core.Duration(20 * time.Second)})}} {
		b := exNoFencing.Reference.Clone()
		b.Schedule = log
		r, err := exNoFencing.Check(b)
		require.NoError(t, err)
		assert.Contains(t, part(r, "Schedule, fencing off then on").Why, "keepalives still reached the coordinator, so its lease never ran out")
	}
	for _, ok := range []core.Action{
		{Do: core.VerbDelay, Proc: "A", Peer: "storage", For: core.Duration(20 * time.Second)},
		{Do: core.VerbDelay, Proc: "storage", Peer: "A", For: core.Duration(20 * time.Second)},
		{Do: core.VerbDelay, Proc: "storage", For: core.Duration(20 * time.Second)},
		core.Partition("A", "storage"),
		core.Heal("storage", "A"),
	} {
		b := exNoFencing.Reference.Clone()
		b.Schedule = core.ActionLog{core.At(3*time.Second, ok)}
		assert.NoError(t, exNoFencing.Validate(b), ok.String())
		_, err := exNoFencing.Check(b)
		assert.NoError(t, err, "%s runs", ok.String())
	}
	for _, c := range []struct {
		act  core.Action
		says string
	}{
		{core.Pause("storage", 20*time.Second), `"storage" is a resource of this exercise`},
		{core.Crash("storage"), "cannot crash"},
		{core.Action{Do: core.VerbDelay, Proc: "A", Peer: "C", For: core.Duration(time.Second)}, `"C" is not an actor of this exercise`},
		{core.Pause("coordinator", time.Second), `"coordinator" is not a process of this exercise (want one of A, B)`},
	} {
		b := exNoFencing.Reference.Clone()
		b.Schedule = core.ActionLog{core.At(3*time.Second, c.act)}
		err := exNoFencing.Validate(b)
		require.Error(t, err, c.act.String())
		assert.Contains(t, err.Error(), c.says)
	}
}
