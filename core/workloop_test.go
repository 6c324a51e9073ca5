package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workLoopWorld is a leader that renews a 5 s lease every 1.5 s and does a
// unit of work every 8 s that keeps its loop busy for 6 s; B waits.
func workLoopWorld(onLoop bool) *Sim {
	s := NewSim(1)
	s.AddRegister("storage", true)
	for i, n := range []string{"A", "B"} {
		s.AddProcess(ProcessConfig{
			Name: n, Lock: "locks/report", TTL: 5 * time.Second, RenewEvery: 1500 * time.Millisecond,
			StartAt: time.Duration(i) * 300 * time.Millisecond, Target: "storage",
			WorkEvery: 8 * time.Second, WorkTakes: 6 * time.Second, RenewOnWorkLoop: onLoop,
		})
	}
	s.RunUntil(60 * time.Second)
	return s
}

// worstLate is the longest a renewal waited before it went out, per process.
func worstLate(s *Sim) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, e := range s.Trace.Filter(KindRenewal) {
		out[e.Actor] = max(out[e.Actor], e.Late())
	}
	return out
}

// A renewal that runs on the same loop as the application's work waits
// behind each unit: it goes out late, the lease lapses although nobody
// paused or crashed, and leadership moves again and again (it flaps).
func TestARenewalBehindWorkIsLateAndTheLeaderFlaps(t *testing.T) {
	s := workLoopWorld(true)
	require.Empty(t, s.Trace.Filter(KindPause), "nobody pauses in this world")
	late := worstLate(s)
	assert.Greater(t, late["A"], 3*time.Second, "A's renewal waited behind a 6 s unit")
	assert.LessOrEqual(t, late["A"], 6*time.Second, "a renewal never waits longer than one unit")
	never := 0
	for _, e := range s.Trace.Filter(KindRenewal) {
		if e.Result() == RenewalNever {
			never++
			assert.Greater(t, e.Num(FLate), int64(0), "a renewal that never left had waited")
		}
	}
	assert.Positive(t, never, "some renewals were still waiting when their lease ran out")
	assert.GreaterOrEqual(t, len(s.Trace.Filter(KindLeaseExpire)), 3, "the leases lapse under load")
	holders := map[string]bool{}
	for _, e := range s.Trace.Filter(KindHolder) {
		holders[e.Owner()] = true
	}
	assert.Len(t, holders, 2, "leadership moves between A and B")
}

// The same work with renewals on a task of their own: every renewal leaves
// on time and the first leader keeps the lock for the whole run.
func TestARenewalOnItsOwnTaskIsOnTimeAndTheLeaderStays(t *testing.T) {
	s := workLoopWorld(false)
	sent := s.Trace.Filter(KindRenewal)
	require.NotEmpty(t, sent, "a process that does work traces its renewals")
	for _, e := range sent {
		assert.Zero(t, e.Num(FLate), "renewal at %s", FormatTime(e.At))
	}
	assert.Empty(t, s.Trace.Filter(KindLeaseExpire))
	assert.Len(t, s.Trace.Filter(KindHolder), 1, "one holder, never replaced")
	assert.NotEmpty(t, s.Trace.Filter(KindWorkBusy), "the leader did its work")
}

// A process without work units traces no renewals: worlds that do not use
// the work loop keep their traces (and golden hashes) unchanged.
func TestWithoutWorkUnitsNoRenewalIsTraced(t *testing.T) {
	s := NewSim(1)
	s.AddProcess(ProcessConfig{Name: "A", Lock: "l", TTL: 5 * time.Second, RenewEvery: time.Second, RenewOnWorkLoop: true})
	s.RunUntil(20 * time.Second)
	assert.Empty(t, s.Trace.Filter(KindRenewal))
	assert.Empty(t, s.Trace.Filter(KindLeaseExpire), "with no work the loop is never busy")
}

// A crash ends the unit in progress: the restarted process's renewals are
// not held behind work from its previous life.
func TestACrashEndsTheBusyUnit(t *testing.T) {
	s := NewSim(1)
	s.AddRegister("storage", true)
	s.AddProcess(ProcessConfig{Name: "A", Lock: "l", TTL: 5 * time.Second, RenewEvery: time.Second, Target: "storage",
		WorkEvery: time.Second, WorkTakes: 20 * time.Second, RenewOnWorkLoop: true})
	s.RunUntil(2 * time.Second)
	require.NotEmpty(t, s.Trace.Filter(KindWorkBusy), "A is busy with a 20 s unit")
	s.Apply(Crash("A"))
	s.RunUntil(2100 * time.Millisecond)
	s.Apply(Restart("A"))
	s.RunUntil(4 * time.Second)
	var after []Event
	for _, e := range s.Trace.Filter(KindRenewal) {
		if e.At > 2100*time.Millisecond {
			after = append(after, e)
		}
	}
	require.NotEmpty(t, after, "the new life renews")
	assert.Zero(t, after[0].Num(FLate))
}
