package conform

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"
)

// client is one real etcd client running the loop core.Process runs: open
// a session, campaign, lead until the session ends, step down for 200 ms,
// wait 1 s, campaign again. Its application runs on one goroutine that
// takes events from a queue, so a pause can stop it the way a
// stop-the-world pause stops a process: events queue up and are handled,
// in order, when it wakes.
type client struct {
	r      *etcdRun
	name   string
	proxy  proxies
	cli    *clientv3.Client
	ctx    context.Context
	cancel context.CancelFunc

	qmu         sync.Mutex
	qcond       *sync.Cond
	queue       []func()
	pausedUntil time.Time
	closed      bool

	leaseMu sync.Mutex
	lease   clientv3.LeaseID

	// Application state, touched only on the loop goroutine.
	state      string // follower, candidate, leader, stepping_down
	gen        int    // numbers campaigns: an answer to an older one is ignored
	session    *concurrency.Session
	kaCancel   context.CancelFunc
	stale      *concurrency.Session // ReuseSession: the session it keeps using
	election   *concurrency.Election
	token      int64
	lockCancel context.CancelFunc
}

// proxies are a client's proxies, one per endpoint.
type proxies []*Proxy

func (ps proxies) Freeze(d time.Duration) {
	for _, p := range ps {
		p.Freeze(d)
	}
}

func (ps proxies) Cut(d time.Duration) {
	for _, p := range ps {
		p.Cut(d)
	}
}

func (r *etcdRun) newClient(ctx context.Context, name string, endpoints []string) (*client, error) {
	c := &client{r: r, name: name, state: "follower"}
	c.qcond = sync.NewCond(&c.qmu)
	var addrs []string
	for _, ep := range endpoints {
		p, err := NewProxy(ep)
		if err != nil {
			c.proxy.close()
			return nil, err
		}
		p.Delay = r.sc.delay(name)
		c.proxy = append(c.proxy, p)
		addrs = append(addrs, p.Addr())
	}
	c.ctx, c.cancel = context.WithCancel(ctx)
	cli, err := clientv3.New(clientv3.Config{Endpoints: addrs, DialTimeout: 5 * time.Second, Context: c.ctx, Logger: zap.NewNop()})
	if err != nil {
		c.proxy.close()
		return nil, err
	}
	c.cli = cli
	// Connect before the scenario's clock starts: a new connection costs
	// a handshake round trip that no scenario is about.
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	_, err = cli.Get(wctx, r.prefix+"warm-up")
	wcancel()
	if err != nil {
		cli.Close()
		c.proxy.close()
		return nil, fmt.Errorf("client %s: %w", name, err)
	}
	if r.clients == nil {
		r.clients = map[string]*client{}
	}
	r.clients[name] = c
	go c.loop()
	return c, nil
}

func (ps proxies) close() {
	for _, p := range ps {
		p.Close()
	}
}

func (c *client) close() {
	c.qmu.Lock()
	c.closed = true
	c.qcond.Signal()
	c.qmu.Unlock()
	c.cancel()
	c.cli.Close()
	c.proxy.close()
}

// post queues f for the application goroutine.
func (c *client) post(f func()) {
	c.qmu.Lock()
	c.queue = append(c.queue, f)
	c.qcond.Signal()
	c.qmu.Unlock()
}

func (c *client) loop() {
	for {
		c.qmu.Lock()
		for len(c.queue) == 0 && !c.closed {
			c.qcond.Wait()
		}
		if c.closed {
			c.qmu.Unlock()
			return
		}
		f := c.queue[0]
		c.queue = c.queue[1:]
		until := c.pausedUntil
		c.qmu.Unlock()
		time.Sleep(time.Until(until))
		f()
	}
}

// pause stops the client's world for d: its connection holds every byte
// and its application handles nothing until d has passed.
func (c *client) pause(d time.Duration) {
	c.proxy.Freeze(d)
	c.qmu.Lock()
	c.pausedUntil = time.Now().Add(d)
	c.qmu.Unlock()
}

func (c *client) setLease(id clientv3.LeaseID) {
	c.leaseMu.Lock()
	c.lease = id
	c.leaseMu.Unlock()
}

func (c *client) currentLease() clientv3.LeaseID {
	c.leaseMu.Lock()
	defer c.leaseMu.Unlock()
	return c.lease
}

func (c *client) record(what string, token int64, note string) {
	c.r.record(Obs{At: c.r.now(), Who: c.name, What: what, Token: token, Note: note})
}

// after posts f d from now.
func (c *client) after(d time.Duration, f func()) { time.AfterFunc(d, func() { c.post(f) }) }

// campaign opens a session (or, with the ReuseSession bug, keeps the old
// one) and queues for the lock.
func (c *client) campaign() {
	if c.state != "follower" {
		return
	}
	c.state = "candidate"
	c.gen++
	g := c.gen
	if c.r.sc.ReuseSession && c.stale != nil {
		c.session = c.stale
		c.startLock(g)
		return
	}
	ttl := c.r.sc.TTL
	go func() {
		resp, err := c.cli.Grant(c.ctx, int64(ttl))
		if err != nil {
			c.post(func() {
				if g == c.gen {
					c.retry()
				}
			})
			return
		}
		c.r.record(Obs{At: c.r.now(), Who: c.name, What: "granted", N: resp.TTL})
		// Our own keepalive channel on the session's lease, to see each
		// response; it lives exactly as long as the session's.
		kctx, kcancel := context.WithCancel(c.ctx)
		kach, err := c.cli.KeepAlive(kctx, resp.ID)
		if err != nil {
			kcancel()
			c.r.fail(err)
			return
		}
		go func() {
			for range kach {
				c.r.record(Obs{At: c.r.now(), Who: c.name, What: "keepalive"})
			}
		}()
		s, err := concurrency.NewSession(c.cli, concurrency.WithLease(resp.ID), concurrency.WithTTL(ttl), concurrency.WithContext(c.ctx))
		if err != nil {
			kcancel()
			c.r.fail(err)
			return
		}
		c.post(func() {
			if g != c.gen {
				kcancel()
				s.Orphan()
				return
			}
			c.session, c.kaCancel = s, kcancel
			c.setLease(resp.ID)
			go func() {
				<-s.Done()
				c.post(func() { c.onDone(s) })
			}()
			c.startLock(g)
		})
	}()
}

// startLock runs Mutex.Lock (or Election.Campaign) in the background.
func (c *client) startLock(g int) {
	s := c.session
	key := fmt.Sprintf("%s/%x", c.r.lockPrefix(), s.Lease())
	c.r.mu.Lock()
	c.r.owners[key] = c.name
	c.r.mu.Unlock()
	lctx, cancel := context.WithCancel(c.ctx)
	c.lockCancel = cancel
	if c.r.sc.Kind == "election" {
		e := concurrency.NewElection(s, c.r.lockPrefix())
		go func() {
			err := e.Campaign(lctx, c.name)
			c.post(func() { c.onLocked(g, s, err, e.Rev(), e) })
		}()
		return
	}
	m := concurrency.NewMutex(s, c.r.lockPrefix())
	go func() {
		err := m.Lock(lctx)
		// The fencing token is the lock key's create revision, which the
		// Mutex keeps in its ownership check (IsOwner).
		owner := m.IsOwner()
		tok := owner.GetCompare().GetCreateRevision()
		c.post(func() { c.onLocked(g, s, err, tok, nil) })
	}()
}

func (c *client) onLocked(g int, s *concurrency.Session, err error, token int64, e *concurrency.Election) {
	if g != c.gen || c.state != "candidate" {
		return
	}
	switch {
	case err == nil:
		c.state, c.token, c.election = "leader", token, e
		c.record("acquired", token, "")
	case errors.Is(err, context.Canceled):
	case errors.Is(err, concurrency.ErrSessionExpired):
		c.record("session-expired", 0, "")
		c.endSession(s)
		c.retry()
	default:
		c.record("refused", 0, err.Error())
		c.endSession(s)
		c.retry()
	}
}

// onDone: the session ended (Session.Done), as the application sees it.
func (c *client) onDone(s *concurrency.Session) {
	if c.session != s {
		return // ended on purpose (release) or already handled
	}
	c.record("lost", 0, "")
	c.endSession(s)
	switch c.state {
	case "leader":
		c.stepDown()
	case "candidate":
		c.retry()
	}
}

func (c *client) endSession(s *concurrency.Session) {
	if c.session != s {
		return
	}
	if c.r.sc.ReuseSession {
		c.stale = s
	}
	c.session = nil
	if c.kaCancel != nil {
		c.kaCancel()
		c.kaCancel = nil
	}
	if c.lockCancel != nil {
		c.lockCancel()
		c.lockCancel = nil
	}
}

// stepDown: work stops, 200 ms stepping down, then a new campaign 1 s
// later (core.Process's StepDownFor and RetryBase defaults).
func (c *client) stepDown() {
	c.state, c.token = "stepping_down", 0
	c.after(200*time.Millisecond, func() {
		c.state = "follower"
		c.after(time.Second, c.campaign)
	})
}

func (c *client) retry() {
	c.state = "follower"
	c.after(time.Second, c.campaign)
}

// release closes the session: its lease is revoked and the key goes with it.
func (c *client) release() {
	if c.state != "leader" && c.state != "candidate" {
		return
	}
	s := c.session
	c.endSession(s)
	if s != nil && s != c.stale {
		go s.Close()
	}
	if c.state == "leader" {
		c.stepDown()
	} else {
		c.retry()
	}
}

func (c *client) write() {
	if c.state != "leader" {
		c.record("write-refused", 0, "")
		return
	}
	tok := c.token
	time.AfterFunc(storeDelay, func() {
		what := "write-rejected"
		if c.r.reg.write(tok) {
			what = "write-accepted"
		}
		c.record(what, tok, "")
	})
}

func (c *client) proclaim(v string) {
	if c.state != "leader" || c.election == nil {
		c.r.fail(fmt.Errorf("proclaim by %s: %w", c.name, errNotLeader))
		return
	}
	e := c.election
	go func() {
		if err := e.Proclaim(c.ctx, v); err != nil {
			c.r.fail(fmt.Errorf("proclaim by %s: %w", c.name, err))
		}
	}()
}
