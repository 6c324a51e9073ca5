package conform

// The steps the three-member etcd tests of cluster_test.go share:
// starting the members and their clients, timing a request, watching a
// key's delete, and following a client's keepalives.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// startCluster starts three members for one test; they stop with it.
func startCluster(t *testing.T) *Cluster {
	t.Helper()
	c, err := StartCluster(3)
	require.NoError(t, err, "a three-member embedded etcd did not start; it needs go.etcd.io/etcd/server/v3 v3.7.3 (cd conform && go mod download) and free ports on 127.0.0.1")
	t.Cleanup(c.Close)
	return c
}

// clusterClient connects to the given members (all when none are given)
// without waiting for any of them to answer.
func clusterClient(t *testing.T, c *Cluster, members ...int) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints(members...), DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	require.NoError(t, err)
	t.Cleanup(func() { cli.Close() })
	return cli
}

// others are the members other than the given ones.
func (c *Cluster) others(not ...int) []int {
	var o []int
	for i := range c.Members {
		if !slices.Contains(not, i) {
			o = append(o, i)
		}
	}
	return o
}

// waitDeleted waits for the delete of a key on a watch and returns when
// it arrived.
func waitDeleted(t *testing.T, wch clientv3.WatchChan, within time.Duration) time.Time {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case wr, ok := <-wch:
			require.True(t, ok, "the watch ended before the key was deleted")
			require.NoError(t, wr.Err())
			for _, ev := range wr.Events {
				if ev.Type == mvccpb.DELETE {
					return time.Now()
				}
			}
		case <-deadline:
			require.FailNow(t, "the key was not deleted", "within %v", within)
		}
	}
}

func secsSince(t0, t time.Time) float64 { return t.Sub(t0).Seconds() }

// attempt is what a client saw of one request: its error (nil when it
// succeeded) and how long it took.
type attempt struct {
	err  error
	took time.Duration
}

func (a attempt) String() string {
	if a.err == nil {
		return fmt.Sprintf("succeeded after %.2f s", a.took.Seconds())
	}
	return fmt.Sprintf("failed after %.2f s: %v", a.took.Seconds(), a.err)
}

// try runs f with a deadline of d and reports what it saw.
func try(ctx context.Context, d time.Duration, f func(context.Context) error) attempt {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	err := f(ctx)
	return attempt{err, time.Since(start)}
}

// streamMember is the member whose client connection carries traffic
// during window while the client does nothing but keep a lease alive (a
// keepalive every TTL/3): the member serving the keepalive stream. It is
// -1 unless exactly one member's connection was busy in one of up to
// four windows (a member's idle connection being opened again after a
// restart is traffic too).
func (c *Cluster) streamMember(window time.Duration) int {
	for range 4 {
		if m := c.busyMember(window); m >= 0 {
			return m
		}
	}
	return -1
}

func (c *Cluster) busyMember(window time.Duration) int {
	before := make([]int64, len(c.Members))
	for i, m := range c.Members {
		before[i] = m.client.Bytes()
	}
	time.Sleep(window)
	busy := -1
	for i, m := range c.Members {
		if m.client.Bytes() > before[i] {
			if busy >= 0 {
				return -1
			}
			busy = i
		}
	}
	return busy
}

// answers records when a KeepAlive channel delivered each answer.
type answers struct {
	mu     sync.Mutex
	at     []time.Time
	closed bool
}

func (a *answers) follow(ch <-chan *clientv3.LeaseKeepAliveResponse) {
	for range ch {
		a.mu.Lock()
		a.at = append(a.at, time.Now())
		a.mu.Unlock()
	}
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
}

// around is the last answer before t and the first after it (zero while
// there is none).
func (a *answers) around(t time.Time) (last, next time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, at := range a.at {
		if at.Before(t) {
			last = at
		} else if next.IsZero() {
			next = at
		}
	}
	return last, next
}

// firstAfter waits up to within for the first answer after from and
// returns when it came; the test fails with msg if none came.
func (a *answers) firstAfter(t *testing.T, from time.Time, within time.Duration, msg string) time.Time {
	t.Helper()
	var next time.Time
	require.Eventually(t, func() bool {
		_, next = a.around(from)
		return !next.IsZero()
	}, within, 5*time.Millisecond, msg)
	return next
}

// isClosed says whether the KeepAlive channel has closed.
func (a *answers) isClosed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.closed
}

// makeLeaderOrNot makes member m the leader (lead true) or a follower
// (lead false), moving the leadership in-process from the leader now, as
// etcdctl move-leader does, and returns the leader then.
func (c *Cluster) makeLeaderOrNot(ctx context.Context, t *testing.T, m, now int, lead bool) int {
	t.Helper()
	to := m
	if !lead {
		to = c.others(m, now)[0]
	}
	srv := c.Members[now].etcd.Server
	require.NoError(t, srv.MoveLeader(ctx, srv.Lead(), uint64(c.Members[to].etcd.Server.MemberID())))
	leader, _, err := c.WaitLeader(ctx)
	require.NoError(t, err)
	return leader
}

// keptAlive follows a KeepAlive channel: when it last delivered an answer
// and when it closed; done is closed then, and only then are the times
// final.
type keptAlive struct {
	lastAnswer, gaveUp time.Time
	done               chan struct{}
}

func followKeepAlive(ch <-chan *clientv3.LeaseKeepAliveResponse) *keptAlive {
	k := &keptAlive{done: make(chan struct{})}
	go func() {
		defer close(k.done)
		for range ch {
			k.lastAnswer = time.Now()
		}
		k.gaveUp = time.Now()
	}()
	return k
}

// writeAndKeepAlive tries, at the same time and each with a 10 s deadline,
// a write of key and a KeepAliveOnce of lease id through cli; the channel
// gets what each saw, the write first.
func writeAndKeepAlive(ctx context.Context, cli *clientv3.Client, key string, id clientv3.LeaseID) <-chan [2]attempt {
	results := make(chan [2]attempt)
	go func() {
		var r [2]attempt
		done := make(chan struct{})
		go func() {
			r[0] = try(ctx, 10*time.Second, func(ctx context.Context) error {
				_, err := cli.Put(ctx, key, "x")
				return err
			})
			close(done)
		}()
		r[1] = try(ctx, 10*time.Second, func(ctx context.Context) error {
			_, err := cli.KeepAliveOnce(ctx, id)
			return err
		})
		<-done
		results <- r
	}()
	return results
}

// namesNoLeader polls member m until it names no leader, for up to within
// after since, and returns when it first named none (zero if it always
// named one).
func (c *Cluster) namesNoLeader(m int, since time.Time, within time.Duration) time.Time {
	for time.Since(since) < within {
		if c.Members[m].Leader() < 0 {
			return time.Now()
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Time{}
}

// readsSerializable says whether a serializable read of key through cli
// answers want.
func readsSerializable(ctx context.Context, cli *clientv3.Client, key, want string) bool {
	r, err := cli.Get(ctx, key, clientv3.WithSerializable())
	return err == nil && len(r.Kvs) == 1 && string(r.Kvs[0].Value) == want
}

// linearizableReads reads key linearizably from member m, each with a 9 s
// deadline and at the same time: through the member's own server, asked
// in-process (no client retries), and through its client cli.
func (c *Cluster) linearizableReads(ctx context.Context, m int, cli *clientv3.Client, key string) (srv, lin attempt) {
	srvDone := make(chan attempt)
	go func() {
		srvDone <- try(ctx, 9*time.Second, func(ctx context.Context) error {
			_, err := c.Members[m].etcd.Server.Range(ctx, &pb.RangeRequest{Key: []byte(key)})
			return err
		})
	}()
	lin = try(ctx, 9*time.Second, func(ctx context.Context) error {
		_, err := cli.Get(ctx, key)
		return err
	})
	return <-srvDone, lin
}
