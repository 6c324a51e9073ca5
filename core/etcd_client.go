package core

import "time"

// etcd's client as a Process with System etcd runs it: client/v3's
// concurrency.Session (a lease kept alive by the KeepAlive loops of
// etcd_keepalive.go, or by an application's own timer) and its Mutex
// (the lock recipe's steps are the shared ones of process.go). The
// troubleshooting lesson's client bugs and their fixes are etcd's
// (etcd_fix.go).

// etcdClient is a Process's etcd session: its renewal loop, the bugs it
// reproduces and the fixes deployed to it. The session's lease, key,
// token and local deadline are the Process's own, as for every system.
type etcdClient struct {
	sharedClient

	renewEvery time.Duration // period of the current session (0: etcd's KeepAlive)
	keepAlive  bool          // the session's keepalives are live (responses count)
	nextKA     time.Duration // KeepAlive: when the next keepalive is due
	loopStart  time.Duration // KeepAlive: when its loops started this life (-1: not yet)
	keepLease  LeaseID       // the session keepMsg renews
	keepMsg    Message       // the session's keepalive (shared by every send)
	renewDue   time.Duration // RenewOnWorkLoop: when the waiting renewal fell due (-1: none waits)

	stale     LeaseID // ReuseSession: the dead session it keeps using
	watchLost bool    // StaleWatch: its watch ended with the connection
	deployed  uint8   // the fixes deployed to it (bit i: Fixes[i])
}

func newEtcdClient() *etcdClient { return &etcdClient{loopStart: -1, renewDue: -1} }

// etcd returns the process's etcd client (nil: another system's).
func (p *Process) etcd() *etcdClient {
	e, _ := p.rules.(*etcdClient)
	return e
}

func (e *etcdClient) clone() clientRules { c := *e; return &c }

// crashed: a new life is a new client, whose loops start afresh; it
// keeps no dead session and no lost watch (its fixes stay deployed).
func (e *etcdClient) crashed() {
	e.stale, e.watchLost, e.loopStart, e.renewDue = 0, false, -1, -1
}

// campaign grants a session (or, ReuseSession, keeps the dead one) and
// queues for the lock.
func (e *etcdClient) campaign(p *Process) {
	if !p.beginCampaign() {
		return
	}
	if p.cfg.ReuseSession && e.stale != 0 {
		// No new session: straight to Lock with the old one.
		p.lease = e.stale
		p.send(CoordinatorName, acquireReq{Lock: p.cfg.Lock, Lease: p.lease, Owner: p.cfg.Name, Recipe: p.cfg.Recipe})
		return
	}
	p.awaiting = true
	p.send(CoordinatorName, grantReq{TTL: p.cfg.TTL, Seconds: p.cfg.Recipe == RecipeEtcd})
	// A lost grant (partition, drop) must not strand the candidate.
	p.rearm(tmRetry, p.sim.jitter(p.cfg.RetryBase+p.cfg.TTL/3, p.cfg.RetryJitter), fnGrantTimeout)
}

// exec: the session's renewals are etcd's.
func (e *etcdClient) exec(p *Process, t task) bool {
	if t.fn != fnRenew {
		return false
	}
	e.renew(p)
	return true
}

// handle takes the session's grant and keepalive answers, and drops a
// wake-up a StaleWatch client no longer has a watch for.
func (e *etcdClient) handle(p *Process, m Message) bool {
	switch m := m.(type) {
	case grantResp:
		e.onGrant(p, m)
	case keepAliveResp:
		for _, r := range m.Results {
			if r.Lease == p.lease && e.keepAlive {
				e.onRenewal(p, r)
			}
		}
	case watchEvent:
		return p.state == Candidate && p.key != "" && e.unseen(p, m)
	default:
		return false
	}
	return true
}

func (e *etcdClient) onGrant(p *Process, m grantResp) {
	if !p.awaiting || p.state != Candidate {
		return // a grant for a campaign already abandoned: it will expire
	}
	p.awaiting = false
	p.stop(tmRetry)
	p.lease, p.ttl, e.keepAlive = m.Lease, m.TTL, true
	e.renewDue = -1 // a renewal that waited belonged to the old session
	// The renew period belongs to the session: a TTL changed meanwhile
	// applies from the next grant, with its own period.
	e.renewEvery = 0
	if p.cfg.RenewEvery > 0 {
		e.renewEvery = min(p.cfg.RenewEvery, m.TTL/3*2)
	}
	if e.renewEvery == 0 {
		e.startKeepAlive(p)
	} else {
		p.deadline = p.sim.now + m.TTL
		p.rearm(tmRenew, e.renewEvery, fnRenew)
	}
	if p.sim.Trace.on(KindLeaseRenewed) {
		p.trace(KindLeaseRenewed, S(FLease, m.Lease.String()), D(FDeadline, p.deadline), S(FHow, "granted"))
	}
	e.armDeadline(p)
	p.send(CoordinatorName, acquireReq{Lock: p.cfg.Lock, Lease: p.lease, Owner: p.cfg.Name, Recipe: p.cfg.Recipe})
}

// ended: the session's keepalives stop counting, a renewal still waiting
// behind work is never sent, and a ReuseSession client keeps the dead
// session to campaign with.
func (e *etcdClient) ended(p *Process) {
	if p.cfg.ReuseSession {
		e.stale = p.lease
	}
	e.keepAlive = false
	if e.renewDue >= 0 {
		e.traceRenewal(p, e.renewDue, RenewalNever)
		e.renewDue = -1
	}
	e.watchLost = false
}

// takesFixes reports a client the troubleshooting lesson's fixes apply
// to: etcd's (etcd_fix.go).
func (p *Process) takesFixes() bool { return p.etcd() != nil }

// RenewalWaiting returns how long a renewal has waited behind work so far
// (RenewOnWorkLoop, an etcd client's), and whether one waits.
func (p *Process) RenewalWaiting() (time.Duration, bool) {
	e := p.etcd()
	if e == nil || e.renewDue < 0 || p.crashed {
		return 0, false
	}
	return p.sim.now - e.renewDue, true
}
