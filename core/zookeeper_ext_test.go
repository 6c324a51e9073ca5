package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zkWorld is the preset's world without its scripted pause: three
// contenders on ZooKeeper with a 20 s session, and the given actions.
func zkWorld(t *testing.T, ttl time.Duration, actions ...core.Timed) *core.Sim {
	t.Helper()
	c := sandbox.Default()
	c.System, c.TTL, c.Actions = core.SystemZooKeeper, ttl, actions
	s, err := c.Build()
	require.NoError(t, err)
	return s
}

func TestZooKeeperClampsTheSessionTimeoutAndSaysSo(t *testing.T) {
	got, note := core.ZKSessionTimeout(60 * time.Second)
	assert.Equal(t, 40*time.Second, got, "at most 20 ticks of 2 s")
	assert.Contains(t, note, "60 s to 40 s")
	got, note = core.ZKSessionTimeout(time.Second)
	assert.Equal(t, 4*time.Second, got, "at least 2 ticks")
	assert.Contains(t, note, "at least 2 ticks")
	got, note = core.ZKSessionTimeout(20 * time.Second)
	assert.Equal(t, 20*time.Second, got)
	assert.Empty(t, note, "a timeout inside the range is granted as asked")

	c := sandbox.Default()
	c.System, c.TTL = core.SystemZooKeeper, time.Minute
	assert.Empty(t, c.Validate(), "a clamped timeout is not an error")
	require.Len(t, c.Notes(), 1)
	assert.Contains(t, c.Notes()[0], "60 s to 40 s")

	s := zkWorld(t, time.Minute)
	s.RunUntil(5 * time.Second)
	grants := s.Trace.Filter(core.KindLeaseGrant)
	require.NotEmpty(t, grants)
	assert.EqualValues(t, 40000, grants[0].Num(core.FTTL), "the server grants 40 s")
	a := clientStates(s.Trace, "A")
	require.NotEmpty(t, a)
	assert.Contains(t, a[0].Why(), "asked for 60s, the server granted 40s", "the client is told what it got")
}

func TestZooKeeperClientIsDisconnectedBeforeItLearnsExpired(t *testing.T) {
	// A holds the lock; its link to the server is cut at 30 s for 30 s
	// (session 20 s). It goes Disconnected (SUSPENDED) on its own read
	// timeout and stops working; the server expires the session and B
	// leads; A learns Expired only when it reconnects after the
	// heal. etcd's client knows none of these states.
	s := zkWorld(t, 20*time.Second,
		core.At(30*time.Second, core.Partition("A", core.CoordinatorName)),
		core.At(60*time.Second, core.Heal("A", core.CoordinatorName)))
	s.RunUntil(90 * time.Second)

	states := clientStates(s.Trace, "A")
	var names []string
	for _, e := range states {
		names = append(names, e.State()+"/"+e.Curator())
	}
	require.Equal(t, []string{"connected/CONNECTED", "disconnected/SUSPENDED", "disconnected/LOST", "expired/LOST", "connected/CONNECTED"}, names)
	disc, curatorLost, lost := states[1], states[2], states[3]
	// Curator does not wait for the heal: a session timeout after
	// SUSPENDED it reports LOST on its own clock (Curator 5,
	// ConnectionStateManager.checkSessionExpiration), while the ZooKeeper
	// client is still disconnected and still trying.
	assert.Equal(t, disc.At+20*time.Second, curatorLost.At, "LOST a session timeout after SUSPENDED")
	assert.Less(t, curatorLost.At, lost.At, "before the client reconnects and hears it from the server")

	var expiry core.Event
	for _, e := range s.Trace.Filter(core.KindLeaseExpire) {
		if e.Owner() == "A" {
			expiry = e
		}
	}
	require.NotZero(t, expiry.At)
	assert.Less(t, disc.At, expiry.At, "Disconnected comes first, from the client's own clock")
	assert.InDelta(t, float64(30*time.Second+20*time.Second*2/3), float64(disc.At), float64(20*time.Second/3),
		"read timeout 2/3 of the session timeout after the last answer (which came at most a ping interval before the cut)")
	assert.Greater(t, lost.At, 60*time.Second, "Expired only after the heal, on reconnecting")
	assert.Less(t, lost.At, 62*time.Second, "reconnection is tried every second")

	var leaderB time.Duration
	for _, e := range core.Holders(s.Trace) {
		if e.Owner() == "B" {
			leaderB = e.At
			break
		}
	}
	assert.Equal(t, expiry.At, leaderB, "B holds the moment A's session (and node) is gone")
	stopped := false
	for _, e := range s.Trace.Filter(core.KindState) {
		if e.Actor != "A" || e.At < disc.At {
			continue
		}
		if e.At == disc.At {
			stopped = e.From() == "leader"
		}
		assert.NotEqual(t, "leader", e.To(), "A never leads again in this run (at %s)", core.FormatTime(e.At))
	}
	assert.True(t, stopped, "the holder stops leading at SUSPENDED")

	// The etcd world with the same cut has no such states.
	c := sandbox.Default()
	c.Actions = core.ActionLog{core.At(30*time.Second, core.Partition("A", core.CoordinatorName)), core.At(60*time.Second, core.Heal("A", core.CoordinatorName))}
	es, _, err := c.Run()
	require.NoError(t, err)
	assert.Empty(t, es.Trace.Filter(core.KindClientState))
}

func TestZooKeeperWorldsAreDeterministic(t *testing.T) {
	run := func() string {
		p, err := sandbox.FindPreset("zookeeper")
		require.NoError(t, err)
		c := p.Config
		c.Duration = 2 * time.Minute
		s, _, err := c.Run()
		require.NoError(t, err)
		return s.Trace.Hash()
	}
	assert.Equal(t, run(), run())
}

func TestZooKeeperExpiresSessionsOnTickBoundaries(t *testing.T) {
	// A crashes at 30 s: its session was last touched by a ping before
	// then, and dies at the end of the 2 s bucket its timeout falls in.
	s := zkWorld(t, 20*time.Second, core.At(30*time.Second, core.Crash("A")))
	s.RunUntil(time.Minute)
	var lastTouch time.Duration
	for _, e := range s.Trace.Filter(core.KindLeaseRenew) {
		if e.Owner() == "A" && e.At < 30*time.Second {
			lastTouch = e.At
		}
	}
	require.NotZero(t, lastTouch)
	var expired *core.Event
	for _, e := range s.Trace.Filter(core.KindLeaseExpire) {
		if e.Owner() == "A" {
			expired = &e
			break
		}
	}
	require.NotNil(t, expired, "A's session expires")
	assert.Zero(t, expired.At%core.ZKTickTime, "expiry falls on a tick, not on a 500 ms sweep: %s", core.FormatTime(expired.At))
	assert.Greater(t, expired.At, lastTouch+20*time.Second, "never before the timeout")
	assert.LessOrEqual(t, expired.At, lastTouch+20*time.Second+core.ZKTickTime, "at most a tick after it")
	assert.Equal(t, core.ZKBucket(lastTouch+20*time.Second), expired.At)
}

// Cut off for a minute, a Curator client reports LOST a session timeout
// after SUSPENDED, long before it could hear it from the server; the
// ZooKeeper client underneath learns Expired only once it reconnects.
func TestCuratorReportsLostASessionTimeoutAfterSuspended(t *testing.T) {
	s := zkWorld(t, 20*time.Second,
		core.At(30*time.Second, core.Partition("A", core.CoordinatorName)),
		core.At(90*time.Second, core.Heal("A", core.CoordinatorName)))
	s.RunUntil(100 * time.Second)
	states := clientStates(s.Trace, "A")
	require.GreaterOrEqual(t, len(states), 4)
	susp, lost, expired := states[1], states[2], states[3]
	require.Equal(t, "SUSPENDED", susp.Curator())
	assert.Equal(t, "disconnected", lost.State(), "the ZooKeeper client is still disconnected")
	assert.Equal(t, "LOST", lost.Curator())
	assert.Equal(t, susp.At+20*time.Second, lost.At)
	assert.Less(t, lost.At, 90*time.Second, "while the link is still cut")
	assert.Equal(t, "expired", expired.State())
	assert.Greater(t, expired.At, 90*time.Second, "the server's word comes only after the heal")
}

func TestZooKeeperReconnectWithinTheTimeoutKeepsTheLock(t *testing.T) {
	// A cut of 16 s: longer than the read timeout (13.3 s), shorter than
	// the session. A is SUSPENDED, then RECONNECTED with its node intact:
	// it leads again with the same czxid and nobody else held the lock.
	s := zkWorld(t, 20*time.Second,
		core.At(30*time.Second, core.Partition("A", core.CoordinatorName)),
		core.At(46*time.Second, core.Heal("A", core.CoordinatorName)))
	s.RunUntil(70 * time.Second)
	var names []string
	for _, e := range clientStates(s.Trace, "A") {
		names = append(names, e.Curator())
	}
	assert.Equal(t, []string{"CONNECTED", "SUSPENDED", "RECONNECTED"}, names)
	require.Len(t, core.Holders(s.Trace), 1, "the lock never moved")
	assert.True(t, s.Process("A").BelievesLeader())
	assert.Equal(t, core.Holders(s.Trace)[0].Token(), s.Process("A").Token(), "same node, same czxid")
}

func TestZooKeeperLockNodesAreProtectedSequentialsWithCzxidTokens(t *testing.T) {
	s := zkWorld(t, 20*time.Second)
	s.RunUntil(5 * time.Second)
	keys := s.Coord.Range("locks/leader/")
	require.Len(t, keys, 3)
	name := regexp.MustCompile(`^locks/leader/_c_[0-9a-f]{32}-lock-(\d{10})$`)
	for _, kv := range keys {
		assert.Regexp(t, name, kv.Key, "_c_<GUID>-lock-<10 digits>")
	}
	// Sequence numbers come from the parent's cversion, from 0.
	seqs := map[int64]string{}
	for _, kv := range keys {
		seqs[core.ZKSequence(kv.Key)] = kv.Value
	}
	assert.Equal(t, map[int64]string{0: "A", 1: "B", 2: "C"}, seqs)
	// zxids: A's session 1, the create refused for want of a parent 2,
	// the parents 3 and 4, A's node 5; B's session 6, node 7; C's 8, 9.
	h := core.Holders(s.Trace)
	require.Len(t, h, 1)
	assert.EqualValues(t, 5, h[0].Token(), "the holder's token is its node's czxid")
	for _, kv := range keys {
		want := map[string]int64{"A": 5, "B": 7, "C": 9}[kv.Value]
		assert.Equal(t, want, kv.CreateRev, kv.Key)
	}
	// Each waiter watches only its predecessor.
	assert.Equal(t, 1, s.Coord.Watchers(keysOf(keys)[0]))
	assert.Equal(t, 1, s.Coord.Watchers(keysOf(keys)[1]))
}

func TestZooKeeperRecoversItsNodeWhenTheCreateAnswerIsLost(t *testing.T) {
	// The answer to A's create is lost in flight (one-way cut from the
	// server to A). A times out, reconnects and retries the create with
	// the same GUID: the server hands back the node it made. Without the
	// GUID the retry would make a second node and the first, an orphan
	// of a live session, would hold the lock for ever.
	s := zkWorld(t, 20*time.Second)
	var createAt time.Duration
	for createAt == 0 && s.Step() {
		for _, e := range s.Trace.Filter(core.KindSend) {
			if e.Actor == "A" && e.Msg() == "Create" {
				createAt = e.Arrive()
			}
		}
	}
	require.NotZero(t, createAt)
	s.RunUntil(createAt + time.Millisecond) // the server made the node and answered
	require.Len(t, s.Coord.Range("locks/leader/"), 1)
	s.Net.Partition(core.CoordinatorName, "A", true)
	s.RunUntil(createAt + 16*time.Second)
	s.Net.Heal(core.CoordinatorName, "A")
	s.RunUntil(createAt + 20*time.Second)

	var mine []string
	for _, kv := range s.Coord.Range("locks/leader/") {
		if kv.Value == "A" {
			mine = append(mine, kv.Key)
		}
	}
	assert.Len(t, mine, 1, "one node for A, no orphan")
	assert.True(t, s.Process("A").BelievesLeader(), "A found its node and holds the lock")
	found := false
	for _, e := range s.Trace.Filter(core.KindNote) {
		found = found || regexp.MustCompile(`found by its GUID`).MatchString(e.Words())
	}
	assert.True(t, found, "the server reports the retried create")
}

// Releasing the lock is go-zookeeper's Unlock: the node goes, the session
// stays. The next waiter takes the lock at once, and the releaser's next
// campaign creates a new node on the same session, with no new connection.
func TestZooKeeperReleaseDeletesTheNodeAndKeepsTheSession(t *testing.T) {
	s := zkWorld(t, 20*time.Second, core.At(5*time.Second, core.Release("A")))
	s.RunUntil(5 * time.Second)
	session := s.Process("A").LeaseID()
	require.NotZero(t, session)
	s.RunUntil(20 * time.Second)

	holders := core.Holders(s.Trace)
	require.Len(t, holders, 2)
	assert.Equal(t, "B", holders[1].Owner(), "the next waiter holds")
	assert.Equal(t, 5*time.Second, holders[1].At.Truncate(time.Second), "at once")
	var connects int
	for _, e := range clientStates(s.Trace, "A") {
		if e.Curator() == "CONNECTED" {
			connects++
		}
	}
	assert.Equal(t, 1, connects, "A never connects again")
	assert.Equal(t, session, s.Process("A").LeaseID(), "the same session")
	for _, e := range s.Trace.Filter(core.KindLeaseRevoke) {
		assert.NotEqual(t, "A", e.Owner(), "A's session is not closed")
	}
	var mine int
	for _, kv := range s.Coord.Range("locks/leader/") {
		if kv.Value == "A" {
			mine++
		}
	}
	assert.Equal(t, 1, mine, "A queues again with a new node of the same session")
	assert.Equal(t, core.Candidate, s.Process("A").State())
}

// clientStates lists who's client.state events as "state/CURATOR@time".
func clientStates(tr *core.Trace, who string) []core.Event {
	var out []core.Event
	for _, e := range tr.Filter(core.KindClientState) {
		if e.Actor == who {
			out = append(out, e)
		}
	}
	return out
}

func keysOf(kvs []*core.KeyValue) []string {
	out := make([]string, len(kvs))
	for i, kv := range kvs {
		out[i] = kv.Key
	}
	return out
}
