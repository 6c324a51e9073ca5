package conform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"

	"leaselab/core"
)

// zkRecorder collects one real run's observations.
type zkRecorder struct {
	start time.Time
	mu    sync.Mutex
	obs   []Obs
	errs  []error
}

func (r *zkRecorder) add(who, what string, token, n int64, note ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.obs = append(r.obs, Obs{At: time.Since(r.start), Who: who, What: what, Token: token, N: n, Note: strings.Join(note, "")})
}

func (r *zkRecorder) fail(who string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Errorf("%s: %w", who, err))
}

// negotiatedTimeout reads the session timeout the server granted, which
// go-zookeeper keeps in an unexported field (it sets it before it reports
// StateHasSession).
func negotiatedTimeout(c *zk.Conn) int64 {
	return reflect.ValueOf(c).Elem().FieldByName("sessionTimeoutMs").Int()
}

// ZKConnect dials addr asking for timeout, with go-zookeeper's logging off.
func ZKConnect(addr string, timeout time.Duration) (*zk.Conn, <-chan zk.Event, error) {
	return zk.Connect([]string{addr}, timeout, zk.WithLogger(log.New(io.Discard, "", 0)))
}

// ZKNegotiate connects asking for timeout and returns what the server
// granted (ms).
func ZKNegotiate(addr string, timeout time.Duration) (int64, error) {
	c, ev, err := ZKConnect(addr, timeout)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := zkWaitSession(ev, 10*time.Second); err != nil {
		return 0, err
	}
	return negotiatedTimeout(c), nil
}

func zkWaitSession(ev <-chan zk.Event, d time.Duration) error {
	t := time.After(d)
	for {
		select {
		case e := <-ev:
			if e.State == zk.StateHasSession {
				return nil
			}
		case <-t:
			return errors.New("no session within " + d.String())
		}
	}
}

// zkClient is one real contender: its proxy, its connection and the
// path of its lock node.
type zkClient struct {
	name    string
	proxy   *Proxy
	release chan struct{}
}

// RunZooKeeper runs sc against the real server at addr: each client
// through its own proxy, running go-zookeeper's lock recipe step by step
// (the library's Lock, with each step recorded: its protected create, the
// children listing, the watch on the next lower node).
func RunZooKeeper(ctx context.Context, addr string, sc *ZKScenario) (*Run, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	// A first session warms the JVM up (its first connection takes a
	// fifth of a second); zxids are then counted from where it left them.
	if _, err := ZKNegotiate(addr, sc.Timeout); err != nil {
		return nil, err
	}
	base, err := ZKLastZxid(addr)
	if err != nil {
		return nil, err
	}
	rec := &zkRecorder{start: time.Now()}
	ctx, stop := context.WithCancel(ctx) // the run's end stops every client
	defer stop()
	clients := map[string]*zkClient{}
	var wg sync.WaitGroup
	for i, name := range sc.Clients {
		p, err := NewProxy(addr)
		if err != nil {
			return nil, err
		}
		p.Delay = zkLinkDelay
		c := &zkClient{name: name, proxy: p, release: make(chan struct{})}
		clients[name] = c
		wg.Add(1)
		go func(delay time.Duration) {
			defer wg.Done()
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return
			}
			c.run(ctx, rec, sc)
		}(time.Duration(i) * sc.Stagger)
	}
	for _, st := range sc.Steps {
		c := clients[st.Proc]
		if c == nil {
			return nil, fmt.Errorf("scenario %s: step %s names no client %q", sc.Name, st.Do, st.Proc)
		}
		time.AfterFunc(time.Until(rec.start.Add(st.At)), func() {
			switch st.Do {
			case "stall", "partition":
				// A silent partition drops every packet: to a TCP client
				// that is a path where nothing moves, which Freeze is
				// (the client gives the held connection up on its read
				// timeout, and its new ones get nowhere either).
				c.proxy.Freeze(st.For)
			case "release":
				close(c.release)
			}
		})
	}
	select {
	case <-time.After(time.Until(rec.start.Add(sc.Until))):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	stop()
	wg.Wait()
	for _, c := range clients {
		c.proxy.Close()
	}
	if len(rec.errs) > 0 {
		return nil, errors.Join(rec.errs...)
	}
	// What the clients' own closing caused (a node deleted, a waiter
	// woken) is after the run.
	var obs []Obs
	for _, o := range rec.obs {
		if o.At < sc.Until {
			obs = append(obs, o)
		}
	}
	return &Run{Side: ZKSide, Base: base, Obs: obs}, nil
}

// run connects and follows the lock recipe, recording each step.
func (c *zkClient) run(ctx context.Context, rec *zkRecorder, sc *ZKScenario) {
	conn, events, err := ZKConnect(c.proxy.Addr(), sc.Timeout)
	if err != nil {
		rec.fail(c.name, err)
		return
	}
	s := &zkSession{expired: make(chan struct{}), session: make(chan struct{}), reconnected: make(chan struct{}, 1)}
	defer func() {
		s.closing.Store(true) // the run's own Close is no disconnection
		conn.Close()
	}()
	go c.watchSession(conn, events, rec, s)
	select {
	case <-s.session:
	case <-time.After(10 * time.Second):
		rec.fail(c.name, errors.New("no session within 10 s"))
		return
	case <-ctx.Done():
		return
	}
	path, err := zkLockNode(conn)
	if err != nil {
		rec.fail(c.name, err)
		return
	}
	_, st, err := conn.Exists(path)
	if err != nil {
		rec.fail(c.name, err)
		return
	}
	node := zkNode{path: path, seq: core.ZKSequence(path), czxid: st.Czxid}
	rec.add(c.name, "created", node.czxid, node.seq, path[strings.LastIndex(path, "/")+1:])
	if c.acquire(ctx, rec, sc, conn, s, node) {
		c.hold(ctx, rec, conn, s, node)
	}
}

// zkSession is what a client's session watcher tells its run: the first
// session, a reconnection within it, and its expiry.
type zkSession struct {
	expired, session chan struct{}
	reconnected      chan struct{}
	closing          atomic.Bool
}

// zkNode is a client's lock node: its path, sequence number and czxid.
type zkNode struct {
	path  string
	seq   int64
	czxid int64
}

// watchSession records the session's events as the simulated client's
// (connected, disconnected, reconnected, expired) and tells the run.
func (c *zkClient) watchSession(conn *zk.Conn, events <-chan zk.Event, rec *zkRecorder, s *zkSession) {
	had, down := false, false
	for e := range events {
		if e.Type != zk.EventSession || s.closing.Load() {
			continue
		}
		switch e.State {
		case zk.StateHasSession:
			switch {
			case !had:
				rec.add(c.name, "connected", 0, negotiatedTimeout(conn))
				close(s.session)
			case down:
				rec.add(c.name, "reconnected", 0, 0)
				select {
				case s.reconnected <- struct{}{}:
				default:
				}
			}
			had, down = true, false
		case zk.StateDisconnected:
			if had && !down {
				rec.add(c.name, "disconnected", 0, 0)
				down = true
			}
		case zk.StateExpired:
			rec.add(c.name, "expired", 0, 0)
			close(s.expired)
			// The simulated client starts no new session within the
			// run; go-zookeeper would make one a second from now.
			go conn.Close()
			return
		}
	}
}

// acquire waits until the client's node is the lowest (go-zookeeper
// lock.go: list the children, the lowest sequence holds, else GetW the
// next lower one and wait for its event); false if the session or the
// run ended first.
func (c *zkClient) acquire(ctx context.Context, rec *zkRecorder, sc *ZKScenario, conn *zk.Conn, s *zkSession, node zkNode) bool {
	for {
		children, _, err := conn.Children(zkLock)
		if err != nil {
			if !closed(s.expired) && ctx.Err() == nil && !strings.Contains(err.Error(), "closing") {
				rec.fail(c.name, err)
			}
			return false
		}
		lowest, prev := node.seq, ""
		var prevSeq int64 = -1
		for _, ch := range children {
			seq := core.ZKSequence(ch)
			lowest = min(lowest, seq)
			if seq < node.seq && seq > prevSeq {
				prevSeq, prev = seq, ch
			}
		}
		if node.seq == lowest {
			rec.add(c.name, "acquired", node.czxid, 0)
			return true
		}
		_, _, wch, err := conn.GetW(zkLock + "/" + prev)
		if errors.Is(err, zk.ErrNoNode) {
			continue
		}
		if err != nil {
			rec.fail(c.name, err)
			return false
		}
		select {
		case ev := <-wch:
			if ev.Err != nil {
				// The session went (go-zookeeper fails its watchers as it
				// learns Expired): wait for that word before this client
				// closes, or its own Close would hide the Expired event.
				select {
				case <-s.expired:
				case <-ctx.Done():
				case <-time.After(2 * sc.Timeout):
				}
				return false
			}
			rec.add(c.name, "woken", 0, 0)
		case <-s.expired:
			return false
		}
	}
}

// hold keeps the lock until the run releases it, the session expires or
// the run ends; back within its session after a disconnection, the
// holder checks its node is still the lowest.
func (c *zkClient) hold(ctx context.Context, rec *zkRecorder, conn *zk.Conn, s *zkSession, node zkNode) {
	for {
		select {
		case <-c.release:
			if err := conn.Delete(node.path, -1); err != nil {
				rec.fail(c.name, err)
				return
			}
			rec.add(c.name, "released", 0, 0)
			return
		case <-s.reconnected:
			children, _, err := conn.Children(zkLock)
			if err != nil {
				rec.fail(c.name, err)
				return
			}
			lowest := node.seq
			for _, ch := range children {
				lowest = min(lowest, core.ZKSequence(ch))
			}
			if lowest == node.seq {
				rec.add(c.name, "acquired", node.czxid, 0)
			}
		case <-s.expired:
			return
		case <-ctx.Done():
			return
		}
	}
}

// zkLockNode is go-zookeeper's Lock (lock.go, LockWithData): a protected
// ephemeral sequential create of "<path>/lock-", creating the parents
// when the first try fails with ErrNoNode, at most three tries.
func zkLockNode(conn *zk.Conn) (string, error) {
	acl := zk.WorldACL(zk.PermAll)
	var path string
	var err error
	for i := 0; i < 3; i++ {
		path, err = conn.CreateProtectedEphemeralSequential(zkLock+"/lock-", []byte{}, acl)
		if !errors.Is(err, zk.ErrNoNode) {
			break
		}
		pth := ""
		for _, part := range strings.Split(zkLock, "/")[1:] {
			pth += "/" + part
			exists, _, err := conn.Exists(pth)
			if err != nil {
				return "", err
			}
			if !exists {
				if _, err := conn.Create(pth, []byte{}, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
					return "", err
				}
			}
		}
	}
	return path, err
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
