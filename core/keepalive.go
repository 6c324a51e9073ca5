package core

import "time"

// How etcd's Go client (client/v3 lease.go, v3.7.3) keeps a session lease
// alive, which a Process with RenewEvery zero follows:
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
func (p *Process) startKeepAlive() {
	now := p.sim.now
	if p.loopStart < 0 {
		p.loopStart = now
	}
	p.nextKA = now
	p.deadline = now + etcdFirstDeadline
	if now == p.loopStart {
		// The loop's first pass: the keepalive leaves at once.
		p.arm(tmRenew, now, fnRenew)
		return
	}
	p.arm(tmRenew, p.tickAfter(now, etcdSendLoop), fnRenew)
}

// tickAfter returns the first tick of a loop that started at p.loopStart
// and wakes every period, strictly after t: the moment such a loop first
// sees that t is in the past.
func (p *Process) tickAfter(t, period time.Duration) time.Duration {
	if t < p.loopStart {
		return p.loopStart
	}
	return p.loopStart + ((t-p.loopStart)/period+1)*period
}
