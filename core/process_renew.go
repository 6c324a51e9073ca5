package core

import "time"

// A process's renewals: the loop that sends them (on its own timer, or
// behind the work on the work loop), the answers, and its own deadline.

// renew sends one keepalive and arms the next: the loop runs on its own
// timer, independent of the work a leader does unless RenewOnWorkLoop
// puts it behind that work. With a fixed period the
// next one is due a period from now; etcd's KeepAlive loop instead wakes
// every 500 ms and sends again while no response has moved its due time.
func (p *Process) renew() {
	if p.lease == 0 {
		return
	}
	if p.keepLease != p.lease {
		// Made once a session: every keepalive of it is the same message,
		// and a message is never changed once sent.
		p.keepLease, p.keepMsg = p.lease, keepAliveReq{Leases: []LeaseID{p.lease}}
	}
	if p.cfg.StaleWatch {
		p.noteConnection()
	}
	if p.renewEvery == 0 {
		if p.nextKA < p.sim.now || p.sim.now == p.loopStart {
			if p.behindWork(p.nextKA) {
				return
			}
			p.sendRenewal(p.nextKA)
		}
		p.arm(tmRenew, p.tickAfter(max(p.nextKA, p.sim.now), etcdSendLoop), fnRenew)
		return
	}
	if p.behindWork(p.sim.now) {
		return
	}
	p.sendRenewal(p.sim.now)
	p.rearm(tmRenew, p.renewEvery, fnRenew)
}

// behindWork holds a renewal that fell due at due while the work loop it
// runs on is busy (RenewOnWorkLoop): the renewal runs when the unit ends.
func (p *Process) behindWork(due time.Duration) bool {
	if !p.cfg.RenewOnWorkLoop || p.sim.now >= p.busyUntil {
		return false
	}
	if p.renewDue < 0 {
		p.renewDue = min(due, p.sim.now)
	}
	p.arm(tmRenew, p.busyUntil, fnRenew)
	return true
}

// sendRenewal sends the session's keepalive, due at due (or earlier, if it
// waited behind work); a process that does work traces how late it left.
func (p *Process) sendRenewal(due time.Duration) {
	if p.renewDue >= 0 {
		due, p.renewDue = p.renewDue, -1
	}
	p.send(CoordinatorName, p.keepMsg)
	p.traceRenewal(due, RenewalSent)
}

// Renewal results (KindRenewal's "result").
const (
	RenewalSent  = "sent"
	RenewalNever = "never sent: the lease was lost while it waited"
)

// traceRenewal records, for a process that does work, a renewal that fell
// due at due and was sent now, or was still waiting when its session
// ended.
func (p *Process) traceRenewal(due time.Duration, result string) {
	if p.cfg.WorkTakes > 0 && p.sim.Trace.on(KindRenewal) {
		p.trace(KindRenewal, S(FLease, p.lease.String()), D(FLate, max(0, p.sim.now-due)), S(FResult, result))
	}
}

func (p *Process) onRenewal(r keepAliveResult) {
	if r.TTL == 0 {
		p.loseLease("coordinator: " + ErrLeaseNotFound.Error())
		return
	}
	p.deadline = p.sim.now + r.TTL
	if p.sim.Trace.on(KindLeaseRenewed) {
		p.trace(KindLeaseRenewed, S(FLease, r.Lease.String()), D(FDeadline, p.deadline), S(FHow, "keepalive"))
	}
	if p.renewEvery == 0 {
		p.nextKA = p.sim.now + r.TTL/3
		p.arm(tmRenew, p.tickAfter(p.nextKA, etcdSendLoop), fnRenew)
	}
	p.armDeadline()
}

// armDeadline arms the local deadline check. A client with its own timer
// checks at the deadline; etcd's KeepAlive client finds a passed deadline
// on its next once-a-second look.
func (p *Process) armDeadline() {
	at := p.deadline
	if p.renewEvery == 0 && p.cfg.DeadlineCheck > 0 {
		at = p.tickAfter(p.deadline, p.cfg.DeadlineCheck)
	}
	p.arm(tmDeadline, at, fnDeadline)
}
