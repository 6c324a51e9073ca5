package core

import "time"

// How etcd's Go client (client/v3 lease.go, v3.7.3) keeps a session lease
// alive, which an etcd client with RenewEvery zero follows:
//
//   - KeepAlive registers the lease with nextKeepAlive = now and a first
//     deadline of now + 5 s (firstKeepAliveTimeout: the TTL is not known
//     yet). The first registration of a client starts two loops.
//   - sendKeepAliveLoop sends a keepalive for every lease whose
//     nextKeepAlive is before now, then sleeps 500 ms (retryConnWait). Its
//     first pass runs at once, so the first keepalive leaves immediately.
//   - recvKeepAlive, on each response, sets nextKeepAlive = now + TTL/3 and
//     deadline = now + TTL: the cadence follows *responses*, so with TTL
//     5 s the keepalives go out every 2 s (1.667 s rounded up to the loop).
//     A response with TTL <= 0 (lease gone) closes the session at once.
//   - deadlineLoop wakes every 1 s and closes every keepalive whose
//     deadline is before now: Session.Done() fires up to a second after
//     the client's own deadline, often after the server has already
//     handed the lock to someone else.
//
// The conformance suite (conform/) runs these against a real etcd.
const (
	etcdSendLoop      = 500 * time.Millisecond
	etcdDeadlineCheck = time.Second
	etcdFirstDeadline = 5 * time.Second
)

// startKeepAlive registers the new session's lease with etcd's KeepAlive
// loops, starting them if this is the client's first lease.
func (e *etcdClient) startKeepAlive(p *Process) {
	now := p.sim.now
	if e.loopStart < 0 {
		e.loopStart = now
	}
	e.nextKA = now
	p.deadline = now + etcdFirstDeadline
	if now == e.loopStart {
		// The loop's first pass: the keepalive leaves at once.
		p.arm(tmRenew, now, fnRenew)
		return
	}
	p.arm(tmRenew, e.tickAfter(now, etcdSendLoop), fnRenew)
}

// tickAfter returns the first tick of a loop that started at e.loopStart
// and wakes every period, strictly after t: the moment such a loop first
// sees that t is in the past.
func (e *etcdClient) tickAfter(t, period time.Duration) time.Duration {
	if t < e.loopStart {
		return e.loopStart
	}
	return e.loopStart + ((t-e.loopStart)/period+1)*period
}

// The session's renewals: the loop that sends them (on its own timer, or
// behind the work on the work loop), the answers, and its own deadline.

// renew sends one keepalive and arms the next: the loop runs on its own
// timer, independent of the work a leader does unless RenewOnWorkLoop
// puts it behind that work. With a fixed period the
// next one is due a period from now; etcd's KeepAlive loop instead wakes
// every 500 ms and sends again while no response has moved its due time.
func (e *etcdClient) renew(p *Process) {
	if p.lease == 0 {
		return
	}
	if e.keepLease != p.lease {
		// Made once a session: every keepalive of it is the same message,
		// and a message is never changed once sent.
		e.keepLease, e.keepMsg = p.lease, keepAliveReq{Leases: []LeaseID{p.lease}}
	}
	if p.cfg.StaleWatch {
		e.noteConnection(p)
	}
	if e.renewEvery == 0 {
		if e.nextKA < p.sim.now || p.sim.now == e.loopStart {
			if e.behindWork(p, e.nextKA) {
				return
			}
			e.sendRenewal(p, e.nextKA)
		}
		p.arm(tmRenew, e.tickAfter(max(e.nextKA, p.sim.now), etcdSendLoop), fnRenew)
		return
	}
	if e.behindWork(p, p.sim.now) {
		return
	}
	e.sendRenewal(p, p.sim.now)
	p.rearm(tmRenew, e.renewEvery, fnRenew)
}

// behindWork holds a renewal that fell due at due while the work loop it
// runs on is busy (RenewOnWorkLoop): the renewal runs when the unit ends.
func (e *etcdClient) behindWork(p *Process, due time.Duration) bool {
	if !p.cfg.RenewOnWorkLoop || p.sim.now >= p.busyUntil {
		return false
	}
	if e.renewDue < 0 {
		e.renewDue = min(due, p.sim.now)
	}
	p.arm(tmRenew, p.busyUntil, fnRenew)
	return true
}

// sendRenewal sends the session's keepalive, due at due (or earlier, if it
// waited behind work); a process that does work traces how late it left.
func (e *etcdClient) sendRenewal(p *Process, due time.Duration) {
	if e.renewDue >= 0 {
		due, e.renewDue = e.renewDue, -1
	}
	p.send(CoordinatorName, e.keepMsg)
	e.traceRenewal(p, due, RenewalSent)
}

// Renewal results (KindRenewal's "result").
const (
	RenewalSent  = "sent"
	RenewalNever = "never sent: the lease was lost while it waited"
)

// traceRenewal records, for a process that does work, a renewal that fell
// due at due and was sent now, or was still waiting when its session
// ended.
func (e *etcdClient) traceRenewal(p *Process, due time.Duration, result string) {
	if p.cfg.WorkTakes > 0 && p.sim.Trace.on(KindRenewal) {
		p.trace(KindRenewal, S(FLease, p.lease.String()), D(FLate, max(0, p.sim.now-due)), S(FResult, result))
	}
}

func (e *etcdClient) onRenewal(p *Process, r keepAliveResult) {
	if r.TTL == 0 {
		p.loseLease("coordinator: " + ErrLeaseNotFound.Error())
		return
	}
	p.deadline = p.sim.now + r.TTL
	if p.sim.Trace.on(KindLeaseRenewed) {
		p.trace(KindLeaseRenewed, S(FLease, r.Lease.String()), D(FDeadline, p.deadline), S(FHow, "keepalive"))
	}
	if e.renewEvery == 0 {
		e.nextKA = p.sim.now + r.TTL/3
		p.arm(tmRenew, e.tickAfter(e.nextKA, etcdSendLoop), fnRenew)
	}
	e.armDeadline(p)
}

// armDeadline arms the local deadline check. A client with its own timer
// checks at the deadline; etcd's KeepAlive client finds a passed deadline
// on its next once-a-second look.
func (e *etcdClient) armDeadline(p *Process) {
	at := p.deadline
	if e.renewEvery == 0 && p.cfg.DeadlineCheck > 0 {
		at = e.tickAfter(p.deadline, p.cfg.DeadlineCheck)
	}
	p.arm(tmDeadline, at, fnDeadline)
}
