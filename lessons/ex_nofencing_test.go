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
	r, err := exNoFencing.Check(a)
	require.NoError(t, err)
	assert.True(t, r.Pass, r.Text())
	w, err := noFencingLab.EvaluateWith(1, Knobs{"fencing": 0}, delayedWrite)
	require.NoError(t, err)
	assert.True(t, w.Lesson.Goals[0].Met(w), "the simulator's 'broken' goal")
}

// TestNoFencingReorderReasonFitsTheRun: the reason given against "the
// network reordered the writes" is true of the learner's own run: a
// delayed write was reordered, a paused leader's was not.
func TestNoFencingReorderReasonFitsTheRun(t *testing.T) {
	for _, c := range []struct {
		name string
		log  core.ActionLog
		says string
	}{
		{"delayed write", delayedWrite, "did reorder them"},
		{"paused leader", noFencingLab.Solution, "in the order they were sent"},
	} {
		a := Answer{Choices: map[string][]string{"cause": {"reorder"}}, Schedule: c.log}
		r, err := exNoFencing.Check(a)
		require.NoError(t, err)
		f := part(r, "Cause")
		assert.False(t, f.OK)
		assert.Contains(t, f.Why, c.says, c.name)
		for _, cl := range f.Claims {
			assert.True(t, cl.Holds(), "%s: %s", c.name, f.Why)
		}
	}
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
