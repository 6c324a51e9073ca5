package conform

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"
)

// RunEtcd runs sc against the etcd cluster at endpoints, under a key
// prefix of its own that it deletes afterwards, and returns what it
// observed. Each client talks to etcd through its own Proxy, so a step can
// stall or cut one client's connection.
func RunEtcd(ctx context.Context, sc *Scenario, endpoints []string) (*Run, error) {
	r := &etcdRun{sc: sc, prefix: fmt.Sprintf("/leaselab-conform/%s-%d/", sc.Name, time.Now().UnixNano()), owners: map[string]string{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	admin, err := dial(ctx, endpoints)
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	r.admin = admin
	defer r.cleanup()
	resp, err := admin.Get(ctx, r.prefix+"\x00")
	if err != nil {
		return nil, fmt.Errorf("etcd at %v: %w", endpoints, err)
	}
	r.base = resp.Header.Revision
	r.reg = &register{}

	// Server-side events (deletes, puts) come from a watch on the prefix,
	// from the revision after the base.
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	watching := make(chan struct{})
	go r.observe(wctx, watching)

	for _, name := range sc.Clients {
		c, err := r.newClient(ctx, name, endpoints)
		if err != nil {
			return nil, err
		}
		defer c.close()
	}
	if sc.Kind == "election" {
		go r.observeLeader(wctx)
	}
	r.t0 = time.Now()
	slip := watchSlip(wctx)
	for i, name := range sc.Clients {
		c := r.clients[name]
		r.after(time.Duration(i)*sc.Stagger, func() { c.post(c.campaign) })
	}
	leases := map[string]clientv3.LeaseID{}
	var lmu sync.Mutex
	// Steps due at one instant run in their order, one after another.
	for i := 0; i < len(sc.Steps); {
		j := i
		for j < len(sc.Steps) && sc.Steps[j].At == sc.Steps[i].At {
			j++
		}
		group := sc.Steps[i:j]
		r.after(group[0].At, func() {
			for _, st := range group {
				r.step(ctx, st, leases, &lmu)
			}
		})
		i = j
	}
	select {
	case <-time.After(time.Until(r.t0.Add(sc.Until))):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return nil, r.err
	}
	run := &Run{Side: "etcd", Base: r.base, Obs: append([]Obs(nil), r.obs...), Slip: slip()}
	run.sort()
	return run, nil
}

func dial(ctx context.Context, endpoints []string) (*clientv3.Client, error) {
	cli, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second, Context: ctx, Logger: zap.NewNop()})
	if err != nil {
		return nil, fmt.Errorf("connect to etcd at %v: %w", endpoints, err)
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := cli.Status(sctx, endpoints[0]); err != nil {
		cli.Close()
		return nil, fmt.Errorf("etcd at %v does not answer (is it running?): %w", endpoints, err)
	}
	return cli, nil
}

type etcdRun struct {
	sc      *Scenario
	prefix  string
	admin   *clientv3.Client
	base    int64
	reg     *register
	t0      time.Time
	clients map[string]*client

	mu     sync.Mutex
	obs    []Obs
	owners map[string]string // key -> client, from the lease it was put with
	err    error
}

func (r *etcdRun) now() time.Duration { return time.Since(r.t0) }

func (r *etcdRun) record(o Obs) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.obs = append(r.obs, o)
}

func (r *etcdRun) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// after runs f d after the scenario's start.
func (r *etcdRun) after(d time.Duration, f func()) { time.AfterFunc(time.Until(r.t0.Add(d)), f) }

// lockPrefix is the Mutex's and Election's prefix; both add a "/".
func (r *etcdRun) lockPrefix() string { return r.prefix + lockName }

func (r *etcdRun) owner(key string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if o := r.owners[key]; o != "" {
		return o
	}
	return key
}

// observe records the server's deletes (grouped by revision) and, for
// leases scenarios, its puts.
func (r *etcdRun) observe(ctx context.Context, started chan struct{}) {
	close(started)
	for wr := range r.admin.Watch(ctx, r.prefix, clientv3.WithPrefix(), clientv3.WithRev(r.base+1)) {
		at := r.now()
		var del *Obs
		for _, ev := range wr.Events {
			key := string(ev.Kv.Key)
			switch ev.Type {
			case mvccpb.PUT:
				if r.sc.Kind == "leases" {
					r.record(Obs{At: at, Who: key[len(r.prefix):], What: "put", Token: ev.Kv.ModRevision})
				}
			case mvccpb.DELETE:
				if del != nil && del.Token != ev.Kv.ModRevision {
					r.record(*del)
					del = nil
				}
				if del == nil {
					who := r.owner(key)
					if r.sc.Kind == "leases" {
						who = "store"
					}
					del = &Obs{At: at, Who: who, What: "deleted", Token: ev.Kv.ModRevision}
				}
				del.N++
			}
		}
		if del != nil {
			r.record(*del)
		}
	}
}

// observeLeader records each leader value an election observer sees.
func (r *etcdRun) observeLeader(ctx context.Context) {
	s, err := concurrency.NewSession(r.admin, concurrency.WithTTL(60))
	if err != nil {
		r.fail(err)
		return
	}
	defer s.Orphan()
	e := concurrency.NewElection(s, r.lockPrefix())
	for resp := range e.Observe(ctx) {
		if len(resp.Kvs) == 0 {
			continue
		}
		kv := resp.Kvs[0]
		r.record(Obs{At: r.now(), Who: r.owner(string(kv.Key)), What: "leader", Token: kv.ModRevision, Note: string(kv.Value)})
	}
}

// step does one scenario step at its time.
func (r *etcdRun) step(ctx context.Context, st Step, leases map[string]clientv3.LeaseID, lmu *sync.Mutex) {
	c := r.clients[st.Proc]
	switch st.Do {
	case "pause":
		c.pause(st.For)
	case "stall":
		c.proxy.Freeze(st.For)
	case "cut":
		c.proxy.Cut(st.For)
	case "release", "resign":
		c.post(c.release)
	case "write":
		c.post(c.write)
	case "proclaim":
		c.post(func() { c.proclaim(st.Value) })
	case "revoke":
		if r.sc.Kind == "leases" {
			lmu.Lock()
			id := leases[st.Lease]
			lmu.Unlock()
			if _, err := r.admin.Revoke(ctx, id); err != nil {
				r.fail(err)
			}
			return
		}
		// Another client (an operator) revokes the lease the client holds.
		if _, err := r.admin.Revoke(ctx, c.currentLease()); err != nil {
			r.fail(fmt.Errorf("revoke %s's lease: %w", st.Proc, err))
		}
	case "grant":
		resp, err := r.admin.Grant(ctx, int64(st.TTL))
		if err != nil {
			r.fail(err)
			return
		}
		lmu.Lock()
		leases[st.Lease] = resp.ID
		lmu.Unlock()
		r.record(Obs{At: r.now(), Who: "admin", What: "granted", N: resp.TTL})
	case "put":
		lmu.Lock()
		id := leases[st.Lease]
		lmu.Unlock()
		if _, err := r.admin.Put(ctx, r.prefix+st.Key, "", clientv3.WithLease(id)); err != nil {
			r.fail(err)
		}
	default:
		r.fail(fmt.Errorf("scenario %s: unknown step %q", r.sc.Name, st.Do))
	}
}

// cleanup deletes the scenario's keys (a shared cluster keeps nothing).
func (r *etcdRun) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r.admin.Delete(ctx, r.prefix, clientv3.WithPrefix())
}

// register is the fenced store the leaders write to: it accepts a token
// at least as high as the highest it has seen, as core.FencedRegister does.
type register struct {
	mu      sync.Mutex
	highest int64
}

func (g *register) write(token int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if token < g.highest {
		return false
	}
	g.highest = token
	return true
}

// errNotLeader is an election step by a client that does not lead.
var errNotLeader = errors.New("not leader")

// Ping checks that an etcd answers at endpoints, within a few seconds.
func Ping(ctx context.Context, endpoints []string) error {
	cli, err := dial(ctx, endpoints)
	if err != nil {
		return err
	}
	return cli.Close()
}

// watchSlip measures, until ctx ends, how late a 20 ms timer fires at
// worst; the function it returns reads the figure so far.
func watchSlip(ctx context.Context) func() time.Duration {
	var mu sync.Mutex
	var worst time.Duration
	go func() {
		const every = 20 * time.Millisecond
		t := time.NewTicker(every)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				if d := now.Sub(last) - every; d > 0 {
					mu.Lock()
					worst = max(worst, d)
					mu.Unlock()
				}
				last = now
			}
		}
	}()
	return func() time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return worst
	}
}
