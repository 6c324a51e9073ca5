package conform

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// zkServer starts a real ZooKeeper for one test; it stops with the test.
// No server here fails the test with the install command.
func zkServer(t *testing.T) *ZKServer {
	t.Helper()
	srv, err := StartZooKeeper()
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// The server negotiates every session timeout into [2, 20] x tickTime,
// exactly as core.ZKSessionTimeout says (and the simulator grants).
func TestZooKeeperNegotiatesTimeoutsAsTheSimulatorDoes(t *testing.T) {
	srv := zkServer(t)
	for _, asked := range []time.Duration{time.Second, 4 * time.Second, 20 * time.Second, 60 * time.Second} {
		got, err := ZKNegotiate(srv.Addr, asked)
		require.NoError(t, err)
		want, _ := core.ZKSessionTimeout(asked)
		assert.Equal(t, want.Milliseconds(), got, "asked for %s", asked)
	}
}

// Sequential children are named from the parent's cversion, from
// 0000000000; a delete does not move the counter, and czxids come one
// per transaction from a fresh server's zxid 0.
func TestZooKeeperSequenceNumbersAndZxids(t *testing.T) {
	srv := zkServer(t)
	c, ev, err := ZKConnect(srv.Addr, 4*time.Second)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, zkWaitSession(ev, 10*time.Second)) // zxid 1: createSession
	acl := zk.WorldACL(zk.PermAll)
	_, err = c.Create("/p", nil, 0, acl) // 2
	require.NoError(t, err)
	var names []string
	for i := 0; i < 2; i++ {
		n, err := c.Create("/p/lock-", nil, zk.FlagEphemeral|zk.FlagSequence, acl) // 3, 4
		require.NoError(t, err)
		names = append(names, n)
	}
	require.NoError(t, c.Delete(names[0], -1))                                 // 5
	n, err := c.Create("/p/lock-", nil, zk.FlagEphemeral|zk.FlagSequence, acl) // 6
	require.NoError(t, err)
	names = append(names, n)
	assert.Equal(t, []string{"/p/lock-0000000000", "/p/lock-0000000001", "/p/lock-0000000002"}, names,
		"creates count, deletes do not (the simulator's rule)")
	_, st, err := c.Exists(n)
	require.NoError(t, err)
	assert.EqualValues(t, 6, st.Czxid, "one zxid per transaction, the session's create first")
	// A create that fails for want of a parent is a transaction too.
	_, err = c.Create("/missing/x", nil, 0, acl) // 7: an error transaction
	require.ErrorIs(t, err, zk.ErrNoNode)
	m, err := c.Create("/q", nil, 0, acl)
	require.NoError(t, err)
	_, st, err = c.Exists(m)
	require.NoError(t, err)
	assert.EqualValues(t, 8, st.Czxid, "the failed create took zxid 7")
}

// Sessions die on the server's tick grid: clients cut at different
// moments lose their ephemeral nodes at instants that share one phase
// modulo tickTime, never before their timeout.
func TestZooKeeperExpiresSessionsInTickBuckets(t *testing.T) {
	srv := zkServer(t)
	watcher, ev, err := ZKConnect(srv.Addr, 20*time.Second)
	require.NoError(t, err)
	defer watcher.Close()
	require.NoError(t, zkWaitSession(ev, 10*time.Second))
	start := time.Now()
	type victim struct {
		cutAt, goneAt time.Duration
	}
	offsets := []time.Duration{0, 300 * time.Millisecond, 700 * time.Millisecond, 1100 * time.Millisecond, 1600 * time.Millisecond}
	victims := make([]victim, len(offsets))
	done := make(chan int, len(offsets))
	for i, off := range offsets {
		p, err := NewProxy(srv.Addr)
		require.NoError(t, err)
		defer p.Close()
		c, cev, err := ZKConnect(p.Addr(), 4*time.Second)
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, zkWaitSession(cev, 10*time.Second))
		path, err := c.Create(fmt.Sprintf("/v%d", i), nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll))
		require.NoError(t, err)
		_, _, wch, err := watcher.ExistsW(path)
		require.NoError(t, err)
		go func(i int) {
			<-wch
			victims[i].goneAt = time.Since(start)
			done <- i
		}(i)
		time.AfterFunc(time.Until(start.Add(2*time.Second+off)), func() {
			victims[i].cutAt = time.Since(start)
			p.Freeze(time.Minute) // no byte of this session reaches the server again
		})
	}
	for range offsets {
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("a session outlived its timeout by far")
		}
	}
	phase := func(d time.Duration) float64 { return math.Mod(d.Seconds(), core.ZKTickTime.Seconds()) }
	p0 := phase(victims[0].goneAt)
	for i, v := range victims {
		t.Logf("session %d: cut at %.3f s, its node gone at %.3f s (phase %.3f s)", i, v.cutAt.Seconds(), v.goneAt.Seconds(), phase(v.goneAt))
		assert.GreaterOrEqual(t, v.goneAt, v.cutAt+4*time.Second-4*time.Second/3, "not before the timeout after the last ping")
		assert.LessOrEqual(t, v.goneAt, v.cutAt+4*time.Second+core.ZKTickTime+200*time.Millisecond, "at most a tick late")
		d := math.Abs(phase(v.goneAt) - p0)
		d = math.Min(d, core.ZKTickTime.Seconds()-d)
		assert.Less(t, d, 0.15, "session %d expired off the tick grid", i)
	}
}

// The lock recipe on a real server and in the simulator: the same nodes,
// the same czxids, the same waiter woken, Disconnected before Expired.
func TestZooKeeperLockConformsToTheSimulator(t *testing.T) {
	for _, sc := range ZKScenarios {
		t.Run(sc.Name, func(t *testing.T) {
			srv := zkServer(t) // a fresh one: the lock's parents and counter start anew
			ctx, cancel := context.WithTimeout(context.Background(), sc.Until+time.Minute)
			defer cancel()
			real, err := RunZooKeeper(ctx, srv.Addr, sc)
			require.NoError(t, err)
			res, err := CompareZooKeeper(sc, real, 1)
			require.NoError(t, err)
			t.Log("\n" + SideBySide(res.Scenario, res.Etcd, res.Sim))
			assert.Empty(t, res.Diffs, "the simulator differs from ZooKeeper:\n%s", SideBySide(res.Scenario, res.Etcd, res.Sim))

			// The comparison can fail: the same real run against a model
			// whose session is 2 s longer differs.
			wrong := *sc
			wrong.Timeout = sc.Timeout + 2*time.Second
			bad, err := CompareZooKeeper(&wrong, real, 1)
			require.NoError(t, err)
			assert.Contains(t, fmt.Sprint(bad.Diffs), "A connected", "a wrong model goes unnoticed:\n%s", bad.Diffs)

			// On each side: A is Disconnected on its own read timeout;
			// then either it is back within its session with its lock, or
			// the server expired it first and it learns Expired only once
			// the stall ends.
			for _, r := range []*Run{res.Etcd, res.Sim} {
				nodesAreProtectedSequentials(t, r, len(sc.Clients))
				switch sc.Name {
				case "zk-partitioned-waiter":
					expiredWaiterIsNeverWoken(t, r)
				case "zk-reconnect":
					reconnectedHolderKeepsTheLock(t, r)
				default:
					waiterIsWokenBeforeTheHolderLearnsExpired(t, r, sc.Timeout)
				}
			}
		})
	}
}

// zkAt is when who did what on r's side; the test fails if it never did.
func zkAt(t *testing.T, r *Run, who, what string) time.Duration {
	t.Helper()
	for _, o := range r.Obs {
		if o.Who == who && o.What == what {
			return o.At
		}
	}
	t.Fatalf("%s: no %s %s", r.Side, who, what)
	return 0
}

// nodesAreProtectedSequentials: node names are go-zookeeper's protected
// form on both sides, one per client, numbered by the parent's counter.
func nodesAreProtectedSequentials(t *testing.T, r *Run, clients int) {
	t.Helper()
	name := regexp.MustCompile(`^_c_[0-9a-f]{32}-lock-(\d{10})$`)
	n := 0
	for _, o := range r.Obs {
		if o.What == "created" {
			n++
			m := name.FindStringSubmatch(o.Note)
			if assert.NotNil(t, m, "%s: %s's node %q", r.Side, o.Who, o.Note) {
				assert.Equal(t, fmt.Sprintf("%010d", o.N), m[1])
			}
		}
	}
	assert.Equal(t, clients, n, "%s: one node per client", r.Side)
}

// expiredWaiterIsNeverWoken (zk-partitioned-waiter): the waiter's session
// expired while it was cut off, and its watch went with it: A's release
// wakes nobody, on the server and in the simulator alike.
func expiredWaiterIsNeverWoken(t *testing.T, r *Run) {
	t.Helper()
	assert.Less(t, zkAt(t, r, "B", "disconnected"), zkAt(t, r, "B", "expired"), r.Side)
	assert.Less(t, zkAt(t, r, "B", "expired"), zkAt(t, r, "A", "released"), r.Side)
	for _, o := range r.Obs {
		assert.NotEqual(t, "woken", o.What, "%s: an expired session's watch woke %s", r.Side, o.Who)
	}
}

// reconnectedHolderKeepsTheLock (zk-reconnect): A is Disconnected, comes
// back within its session and holds the lock again; it never moves.
func reconnectedHolderKeepsTheLock(t *testing.T, r *Run) {
	t.Helper()
	disc, back := zkAt(t, r, "A", "disconnected"), zkAt(t, r, "A", "reconnected")
	assert.Less(t, disc, back, r.Side)
	acquired := 0
	for _, o := range r.Obs {
		if o.What == "acquired" {
			assert.Equal(t, "A", o.Who, "%s: the lock never moved", r.Side)
			acquired++
		}
	}
	assert.Equal(t, 2, acquired, "%s: A holds, and holds again on reconnecting", r.Side)
}

// waiterIsWokenBeforeTheHolderLearnsExpired: A is Disconnected on its own
// read timeout (two thirds of the session timeout), its session expires
// and B is woken, and A learns Expired only once its stall is over.
func waiterIsWokenBeforeTheHolderLearnsExpired(t *testing.T, r *Run, timeout time.Duration) {
	t.Helper()
	disc, woken, exp := zkAt(t, r, "A", "disconnected"), zkAt(t, r, "B", "woken"), zkAt(t, r, "A", "expired")
	assert.Less(t, disc, woken, "%s: A Disconnected before its node goes", r.Side)
	assert.Less(t, woken, exp, "%s: B is woken before A learns Expired", r.Side)
	assert.Greater(t, exp, 11*time.Second, "%s: Expired only once the stall is over", r.Side)
	readTimeout := timeout * 2 / 3
	assert.InDelta(t, float64(3*time.Second+readTimeout), float64(disc), float64(readTimeout/2+200*time.Millisecond),
		"%s: Disconnected a read timeout after the last answer", r.Side)
}
