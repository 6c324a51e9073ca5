package conform

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredislib "github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// redisInstall is what a machine without redis-server needs.
const redisInstall = "apt-get update && apt-get install -y redis-server"

// startRedis starts n independent redis-server processes on 127.0.0.1,
// each on a free port with its own temporary directory and no
// persistence (no RDB, no AOF), stopped when the test ends.
func startRedis(t *testing.T, n int) []*goredislib.Client {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server is not installed (%v); install it with: %s", err, redisInstall)
	}
	var clients []*goredislib.Client
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		port := l.Addr().(*net.TCPAddr).Port
		require.NoError(t, l.Close())
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", t.TempDir(),
			"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
		require.NoError(t, cmd.Start())
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
		c := goredislib.NewClient(&goredislib.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port)})
		t.Cleanup(func() { c.Close() })
		deadline := time.Now().Add(10 * time.Second)
		for c.Ping(context.Background()).Err() != nil {
			require.True(t, time.Now().Before(deadline), "redis-server on port %d did not start", port)
			time.Sleep(20 * time.Millisecond)
		}
		clients = append(clients, c)
	}
	return clients
}

// The scenario both sides run: a 2 s lock on three nodes; A locks at
// once and then stops for 3 s without extending (a pause past its
// validity); B calls Lock at 0.5 s with redsync's default 32 tries.
const (
	rlExpiry = 2 * time.Second
	rlBStart = 500 * time.Millisecond
	rlPause  = 3 * time.Second
)

// RedlockRun is what one run showed, times from the run's start.
type RedlockRun struct {
	AStart, AEnd time.Duration // A's Lock call
	AUntil       time.Duration // the validity redsync gave A
	BAcquired    time.Duration // B's Lock returned
	AWoke        time.Duration // A's pause ended, still believing it held the lock
	PTTL         time.Duration // the key's PX on a node right after A's Lock
	AExtendOK    bool          // A's Extend after waking
}

func runRealRedlock(t *testing.T) RedlockRun {
	clients := startRedis(t, 3)
	var pools []redsyncredis.Pool
	for _, c := range clients {
		pools = append(pools, goredis.NewPool(c))
	}
	rs := redsync.New(pools...)
	start := time.Now()
	since := func() time.Duration { return time.Since(start) }
	var run RedlockRun

	a := rs.NewMutex("locks/leader", redsync.WithExpiry(rlExpiry), redsync.WithTries(1))
	run.AStart = since()
	require.NoError(t, a.Lock())
	run.AEnd = since()
	run.AUntil = a.Until().Sub(start)
	pttl, err := clients[0].PTTL(context.Background(), "locks/leader").Result()
	require.NoError(t, err)
	run.PTTL = pttl

	bDone := make(chan error, 1)
	go func() {
		time.Sleep(rlBStart - since())
		b := rs.NewMutex("locks/leader", redsync.WithExpiry(rlExpiry))
		err := b.Lock()
		run.BAcquired = since()
		bDone <- err
	}()
	time.Sleep(rlPause) // A is paused: it neither extends nor looks at its validity
	run.AWoke = since()
	require.NoError(t, <-bDone, "B acquired the lock")
	ok, _ := a.Extend()
	run.AExtendOK = ok
	return run
}

func runSimRedlock(t *testing.T, seed uint64) RedlockRun {
	s, err := core.BuildWorld(core.ContentionConfig{
		Names: []string{"A", "B"}, System: core.SystemRedlock, RedisNodes: 3,
		TTL: rlExpiry, RetryBase: time.Second, Stagger: rlBStart,
	}.World(seed))
	require.NoError(t, err)
	s.Schedule(core.ActionLog{core.At(50*time.Millisecond, core.Action{Do: "pause", Proc: "A", For: core.Duration(rlPause)})})
	s.RunUntil(50 * time.Millisecond)
	var run RedlockRun
	run.AUntil = s.Process("A").RedlockUntil()
	s.RunUntil(rlPause + time.Second)
	for e := range s.Trace.All() {
		switch {
		case e.Kind == core.KindState && e.Actor == "A" && e.To() == "leader":
			run.AEnd = e.At
		case e.Kind == core.KindState && e.Actor == "B" && e.To() == "leader" && run.BAcquired == 0:
			run.BAcquired = e.At
		case e.Kind == core.KindResume && e.Actor == "A":
			run.AWoke = e.At
		case e.Kind == core.KindRedisSet && e.Actor == core.RedisNodeName(1) && run.PTTL == 0:
			run.PTTL = e.PX()
		}
	}
	return run
}

// checkRedlockRun holds a run to what redsync's algorithm allows:
//
//   - Lock's validity is start + expiry - expiry x 0.01 (mutex.go:
//     until = now + expiry - (now - start) - drift, which is that), where
//     redsync's start lies between our clock reads around the Lock call:
//     so AUntil lies in [AStart, AEnd] + 1.98 s. redsync's old "+ 2 ms"
//     would put it above whenever the Lock call took under 2 ms.
//   - A's key expires on each node expiry after its SET (between AStart
//     and AEnd); B's next try comes at most 250 ms (the longest retry
//     delay) plus one round later, and not before.
//   - B holds before A wakes: two clients believe they hold the lock.
func checkRedlockRun(t checker, who string, r RedlockRun, slack time.Duration) {
	t.Helper()
	drift := time.Duration(float64(rlExpiry) * 0.01)
	assert.GreaterOrEqual(t, r.AUntil, r.AStart+rlExpiry-drift, "%s: validity is expiry - 1 %% from the round's start", who)
	assert.LessOrEqual(t, r.AUntil, r.AEnd+rlExpiry-drift, "%s: and no constant is added to it", who)
	assert.Equal(t, rlExpiry, r.PTTL.Round(100*time.Millisecond), "%s: the key is set with PX = expiry", who)
	assert.GreaterOrEqual(t, r.BAcquired, r.AStart+rlExpiry, "%s: B cannot win before A's keys expire", who)
	assert.LessOrEqual(t, r.BAcquired, r.AEnd+rlExpiry+250*time.Millisecond+slack, "%s: B wins on its first try after they expire", who)
	assert.Less(t, r.BAcquired, r.AWoke, "%s: B holds the lock while A, paused, still believes it does", who)
}

// Real redsync on three real Redis servers and the simulator, in the
// same scenario, obey the same bounds: A's validity, B's takeover after
// A's keys expire, two holders. Nothing either side returned is a token.
func TestRedlockConformsToRedsyncOnRealRedis(t *testing.T) {
	real := runRealRedlock(t)
	if !passes(func(c checker) { checkRedlockRun(c, "redsync", real, 5*time.Millisecond) }) {
		t.Logf("redsync outside the bounds once (a starved machine?): %+v; running it again", real)
		real = runRealRedlock(t)
	}
	t.Logf("redsync: A locked %s-%s, valid until %s (%s after its start), PTTL %s; B acquired %s; A woke %s; A's Extend ok=%v",
		real.AStart, real.AEnd, real.AUntil, real.AUntil-real.AStart, real.PTTL, real.BAcquired, real.AWoke, real.AExtendOK)
	checkRedlockRun(t, "redsync", real, 5*time.Millisecond)
	assert.False(t, real.AExtendOK, "A learns it lost the lock only when it asks")
	for seed := uint64(1); seed <= 5; seed++ {
		sim := runSimRedlock(t, seed)
		t.Logf("simulator seed %d: A locked by %s, valid until %s; B acquired %s; A woke %s", seed, sim.AEnd, sim.AUntil, sim.BAcquired, sim.AWoke)
		checkRedlockRun(t, "simulator", sim, 30*time.Millisecond)
	}
}

// The bounds can fail: validity with redsync's old "+ 2 ms", or a second
// holder that never appears, breaks them.
func TestRedlockBoundsCatchAWrongModel(t *testing.T) {
	good := RedlockRun{AEnd: time.Millisecond, AUntil: rlExpiry - 20*time.Millisecond, PTTL: rlExpiry, BAcquired: rlExpiry + 100*time.Millisecond, AWoke: rlPause}
	ft := &failures{}
	checkRedlockRun(ft, "good", good, 5*time.Millisecond)
	require.Zero(t, ft.n)
	plus2 := good
	plus2.AUntil += 2 * time.Millisecond
	noSecond := good
	noSecond.BAcquired = rlPause + time.Second
	for name, bad := range map[string]RedlockRun{"+2 ms": plus2, "no second holder": noSecond} {
		ft := &failures{}
		checkRedlockRun(ft, name, bad, 5*time.Millisecond)
		assert.NotZero(t, ft.n, "%s passed", name)
	}
}
