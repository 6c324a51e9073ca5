package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// No Consul server can run in these tests, so each one follows Consul's
// source, cited by file and line: the Go API module
// github.com/hashicorp/consul/api v1.34.0 (api/...) and the server,
// github.com/hashicorp/consul v1.22.0 (agent/...).

// consulWorld is n contenders on Consul with api.Lock's defaults: session
// TTL 15 s, lock-delay 15 s, and the given actions.
func consulWorld(t *testing.T, n int, actions ...core.Timed) *core.Sim {
	t.Helper()
	c := sandbox.Default()
	c.System, c.Procs, c.TTL, c.LockDelay, c.Actions = core.SystemConsul, n, 15*time.Second, core.ConsulDefaultLockDelay, actions
	s, err := c.Build()
	require.NoError(t, err)
	return s
}

// agent/consul/session_endpoint.go:119-121 refuses a TTL outside
// [SessionTTLMin, SessionTTLMax] ("Invalid Session TTL"), with
// SessionTTLMin 10 s (agent/consul/config.go:545) and SessionTTLMax 24 h
// (agent/structs/structs.go:2870).
func TestConsulRefusesSessionTTLsOutside10sTo24h(t *testing.T) {
	c := sandbox.Default()
	c.System, c.TTL = core.SystemConsul, 5*time.Second
	errs := c.Validate()
	require.Len(t, errs, 1)
	assert.Equal(t, sandbox.FieldTTL, errs[0].Field)
	assert.Contains(t, errs[0].Msg, "a session TTL of 5 s is refused by Consul: it must be between 10 s and 24 h")
	_, err := c.Build()
	require.ErrorIs(t, err, sandbox.ErrInvalid)

	c.TTL = 10 * time.Second
	assert.Empty(t, c.Validate(), "10 s is the minimum, allowed")
	assert.NoError(t, core.CheckConsulTTL(24*time.Hour))
	assert.Error(t, core.CheckConsulTTL(24*time.Hour+time.Second))
}

// agent/consul/session_ttl.go:96 arms the session timer at
// ttl * structs.SessionTTLMultiplier, which is 2
// (agent/structs/structs.go:2871); a renewal resets it
// (agent/consul/session_endpoint.go:315). api/session.go:178 and 199
// renew every TTL/2.
func TestConsulRenewsEveryHalfTTLAndInvalidatesAtTwiceTTL(t *testing.T) {
	s := consulWorld(t, 1, core.At(40*time.Second, core.Crash("A")))
	s.RunUntil(2 * time.Minute)
	var renewals []time.Duration
	for _, e := range s.Trace.Filter(core.KindLeaseRenew) {
		renewals = append(renewals, e.At)
	}
	require.GreaterOrEqual(t, len(renewals), 4)
	for i := 1; i < len(renewals); i++ {
		assert.InDelta(t, float64(7500*time.Millisecond), float64(renewals[i]-renewals[i-1]), float64(time.Millisecond), "TTL/2")
	}
	last := renewals[len(renewals)-1]
	exp := s.Trace.Filter(core.KindLeaseExpire)
	require.Len(t, exp, 1)
	assert.Equal(t, last+30*time.Second, exp[0].At, "invalidated exactly 2 x TTL after the last renewal (a timer, not a sweep)")
}

// agent/consul/state/session.go:378-392: destroying a session that holds
// a key releases it (Session cleared) and, with a LockDelay, sets the
// key's lock-delay; agent/session_endpoint.go:32 defaults LockDelay to
// 15 s. agent/consul/kvs_endpoint.go:87-95 refuses an acquire while the
// delay runs ("Rejecting lock of key due to lock-delay"), returning false
// without an error. api/lock.go:230-247: a failed acquire reads the key
// again; free (a lock-delay) means sleep DefaultLockRetryTime, 5 s
// (api/lock.go:29), then WAIT again.
func TestConsulLockDelayHoldsTheLockFreeAfterAnInvalidatedHolder(t *testing.T) {
	s := consulWorld(t, 3, core.At(20*time.Second, core.Crash("A")))
	s.RunUntil(2 * time.Minute)
	h := core.Holders(s.Trace)
	require.Len(t, h, 2)
	assert.Equal(t, "A", h[0].Owner())
	exp := s.Trace.Filter(core.KindLeaseExpire)
	require.NotEmpty(t, exp)
	invalidated := exp[0].At
	delays := s.Trace.Filter(core.KindLockDelay)
	require.Len(t, delays, 1)
	assert.InDelta(t, float64(invalidated+15*time.Second), float64(delays[0].Until()), float64(time.Millisecond))

	next := h[1]
	assert.GreaterOrEqual(t, next.At, invalidated+15*time.Second, "nobody holds during the lock-delay")
	assert.Less(t, next.At, invalidated+15*time.Second+core.ConsulLockRetry+time.Second, "the next 5 s retry after it ends wins")
	refused := 0
	for _, e := range s.Trace.Filter(core.KindNote) {
		if e.At > invalidated && e.At < invalidated+15*time.Second && e.Actor == core.CoordinatorName {
			refused++
		}
	}
	assert.GreaterOrEqual(t, refused, 2*2, "both waiters' acquires are refused, again every 5 s")
	// agent/consul/state/kvs.go:455-459: a new session's acquire bumps
	// LockIndex, the token.
	assert.EqualValues(t, 1, h[0].Token())
	assert.EqualValues(t, 2, next.Token())

	// etcd's Mutex has no lock-delay: its next holder takes over at once.
	c := sandbox.Default()
	c.Actions = core.ActionLog{core.At(20*time.Second, core.Crash("A"))}
	es, _, err := c.Run()
	require.NoError(t, err)
	eh := core.Holders(es.Trace)
	require.Len(t, eh, 2)
	assert.Equal(t, es.Trace.Filter(core.KindLeaseExpire)[0].At, eh[1].At, "etcd hands the lock on at the expiry itself")
}

// api/lock.go:268-302 (Unlock) releases the key (297) and only then
// stops the renewal loop (284), which destroys the session
// (api/session.go:202-205); so state/session.go:378-392 finds no key to
// delay, and a clean release hands the lock on at once.
func TestConsulCleanReleaseArmsNoLockDelay(t *testing.T) {
	s := consulWorld(t, 2, core.At(20*time.Second, core.Release("A")))
	s.RunUntil(time.Minute)
	assert.Empty(t, s.Trace.Filter(core.KindLockDelay))
	h := core.Holders(s.Trace)
	require.GreaterOrEqual(t, len(h), 2)
	assert.Equal(t, "B", h[1].Owner())
	assert.Less(t, h[1].At, 20*time.Second+100*time.Millisecond, "B acquires within a few round trips")
}

// api/lock.go:205-218: every waiter blocks on the one key
// (kv.Get with WaitIndex); a blocking query answers on any change of
// the key. So a release wakes every waiter and they race to acquire
// (api/lock.go:224); one wins, the others' acquires fail, they read the
// key again (api/lock.go:232-241), see it held and block once more. etcd's
// waiters each watch one key and only the next in line wakes.
func TestConsulWakesEveryWaiterOnEachChange(t *testing.T) {
	s := consulWorld(t, 5, core.At(20*time.Second, core.Release("A")))
	s.RunUntil(21 * time.Second) // before A campaigns again
	woken := map[string]int{}
	for _, e := range s.Trace.Filter(core.KindWatchFire) {
		if e.At >= 20*time.Second && e.Watcher() != "A" { // A's own monitor sees its release too
			woken[e.Watcher()]++
		}
	}
	assert.Equal(t, map[string]int{"B": 1, "C": 1, "D": 1, "E": 1}, woken, "all four waiters woke at the release")
	h := core.Holders(s.Trace)
	require.Len(t, h, 2)
	failed := map[string]bool{}
	for _, e := range s.Trace.Filter(core.KindNote) {
		if e.At >= 20*time.Second && e.Words() == "acquire failed (held by another session): reads the key to see why" {
			failed[e.Actor] = true
		}
	}
	assert.Len(t, failed, 3, "they raced: every loser tried to acquire")
	assert.NotContains(t, failed, h[1].Owner())
	assert.Equal(t, 3, s.Coord.Watchers("locks/leader")-1, "the losers block on the key again, beside the winner's monitor")
	wakeups := 0
	for _, p := range s.Processes() {
		wakeups += p.Wakeups
	}
	assert.Equal(t, 4, wakeups, "one release answered every waiter")

	c := sandbox.Default()
	c.Procs, c.Actions = 5, core.ActionLog{core.At(20*time.Second, core.Release("A"))}
	es, err := c.Build()
	require.NoError(t, err)
	es.RunUntil(25 * time.Second)
	fired := 0
	for _, e := range es.Trace.Filter(core.KindWatchFire) {
		if e.At >= 20*time.Second && e.At < 20*time.Second+100*time.Millisecond {
			fired++
		}
	}
	assert.Equal(t, 1, fired, "etcd wakes only the next in line")
}

// api/lock.go:383-411 (monitorLock): the holder learns it lost the lock
// when a blocking read of the key no longer shows its session; the
// renewals (api/session.go:193-195) only stop. The holder keeps no
// deadline of its own: a holder paused past 2 x TTL learns of its loss
// when it runs again and reads the monitor's answer.
func TestConsulHolderLearnsOfLossFromItsMonitorQuery(t *testing.T) {
	s := consulWorld(t, 2, core.At(20*time.Second, core.Pause("A", 40*time.Second)))
	s.RunUntil(90 * time.Second)
	lost := []core.Event{}
	for _, e := range s.Trace.Filter(core.KindLeaseLost) {
		if e.Actor == "A" {
			lost = append(lost, e)
		}
	}
	require.Len(t, lost, 1)
	assert.Contains(t, lost[0].Why(), "monitor query")
	assert.Equal(t, 60*time.Second, lost[0].At, "on resuming, from the answer waiting for it")
	assert.Zero(t, s.Process("A").LocalDeadline(), "no local deadline")

	// A 20 s pause is shorter than 2 x 15 s: Consul does not depose A,
	// where etcd with a 15 s TTL would.
	short := consulWorld(t, 2, core.At(20*time.Second, core.Pause("A", 20*time.Second)))
	short.RunUntil(90 * time.Second)
	assert.Len(t, core.Holders(short.Trace), 1)
}

// A holder cut off from Consul by a silent partition (packets dropped, no
// reset) learns nothing until the path is back, because nothing in the Go
// API client gives up on its own (Consul API 1.34):
//   - api.go:803-806 NewHttpClient builds an http.Client with no Timeout,
//     so a request on a dead path waits on TCP, and the blocking query
//     that monitors the lock simply waits;
//   - lock.go:383-410 monitorLock ends (the lock is lost) only when a read
//     fails or the key no longer names its session; nothing failed here;
//   - session.go:170-213 RenewPeriodic's Renew call waits too, so it
//     never reaches its "more than a TTL since the last renewal" exit.
//
// Meanwhile the server invalidates the session at twice its TTL and the
// lock passes on after the lock-delay. When the path heals, the waiting
// query answers with the changed key: only then does A let go, after B
// already holds. (A partition that resets connections instead would make
// the read fail and end the lock at once: MonitorRetries is 0 by default.)
func TestConsulHolderCutOffLearnsOfLossOnlyWhenThePathHeals(t *testing.T) {
	s := consulWorld(t, 2,
		core.At(20*time.Second, core.Partition("A", core.CoordinatorName)),
		core.At(80*time.Second, core.Heal("A", core.CoordinatorName)))
	s.RunUntil(100 * time.Second)
	var bHolds, aLost time.Duration
	for _, e := range core.Holders(s.Trace) {
		if e.Owner() == "B" && bHolds == 0 {
			bHolds = e.At
		}
	}
	for _, e := range s.Trace.Filter(core.KindLeaseLost) {
		if e.Actor == "A" && aLost == 0 {
			aLost = e.At
		}
	}
	require.NotZero(t, bHolds, "B takes the lock while A is cut off")
	require.NotZero(t, aLost, "A learns it lost the lock")
	assert.Less(t, bHolds, 80*time.Second, "the server invalidated A's session during the cut")
	assert.GreaterOrEqual(t, aLost, 80*time.Second, "A hears nothing until the path heals")
	for _, e := range s.Trace.Filter(core.KindState) {
		assert.False(t, e.Actor == "A" && e.At > 20*time.Second && e.At < 80*time.Second,
			"A's state does not change while it is cut off: it still believes it leads (%s: %s)", core.FormatTime(e.At), e.To())
	}
}

func TestConsulWorldsAreDeterministic(t *testing.T) {
	run := func() string {
		p, err := sandbox.FindPreset("consul")
		require.NoError(t, err)
		c := p.Config
		c.Duration = 2 * time.Minute
		c.Actions = append(c.Actions, core.At(90*time.Second, core.Crash("B")))
		s, _, err := c.Run()
		require.NoError(t, err)
		return s.Trace.Hash()
	}
	assert.Equal(t, run(), run())
}
