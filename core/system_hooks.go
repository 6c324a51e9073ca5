package core

import "time"

// The coordinator and the processes call these where a system other than
// etcd behaves differently; each hands over to the file named after the
// system. A hook answers false when the system leaves that step to the
// shared (etcd) code.

// receiveSystem answers a request the way the coordinator's system does.
func (c *Coordinator) receiveSystem(from string, m Message) bool {
	switch c.System {
	case SystemZooKeeper:
		return c.zkReceive(from, m)
	case SystemConsul:
		return c.consulReceive(from, m)
	}
	return false
}

// sessionEnded runs after a session (lease) ended and its attached keys
// were deleted: kind says how (expired or revoked).
func (c *Coordinator) sessionEnded(l *Lease, kind Kind) {
	switch c.System {
	case SystemZooKeeper:
		c.zkSessionEnded(l, kind)
	case SystemConsul:
		c.consulSessionEnded(l, kind)
	}
}

// sessionExpiry is when a session granted or renewed now with this TTL
// expires on the server.
func (c *Coordinator) sessionExpiry(ttl time.Duration) time.Duration {
	switch c.System {
	case SystemZooKeeper:
		return zkBucket(c.sim.now + ttl)
	case SystemConsul:
		return c.sim.now + ConsulTTLMultiplier*ttl
	}
	return c.sim.now + ttl
}

// campaignSystem opens a session the system's own way (the process is
// already a candidate).
func (p *Process) campaignSystem() {
	switch p.cfg.System {
	case SystemZooKeeper:
		p.zkCampaign()
	case SystemConsul:
		p.consulCampaign()
	}
}

// openSession sends a system's session request; a lost answer must not
// strand the candidate (the same guard as etcd's grant).
func (p *Process) openSession(req Message) {
	p.awaiting = true
	p.send(CoordinatorName, req)
	p.rearm(tmRetry, p.sim.jitter(p.cfg.RetryBase+p.cfg.TTL/3, p.cfg.RetryJitter), fnGrantTimeout)
}

func (p *Process) execSystem(t task) bool {
	switch p.cfg.System {
	case SystemZooKeeper:
		return p.zkExec(t)
	case SystemConsul:
		return p.consulExec(t)
	case SystemKubernetes:
		return p.execKube(t)
	case SystemRedlock:
		return p.execRedlock(t)
	}
	return false
}

func (p *Process) handleSystem(m Message) bool {
	switch p.cfg.System {
	case SystemZooKeeper:
		return p.zkHandle(m)
	case SystemConsul:
		return p.consulHandle(m)
	}
	return false
}
