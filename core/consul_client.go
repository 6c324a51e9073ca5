package core

import (
	"fmt"
	"time"
)

// Consul's api.Lock (Consul's Go API 1.34) as a Process with System Consul
// follows it:
//
//   - Lock creates a session with the TTL and renews it every TTL/2
//     (Session.RenewPeriodic). A renewal that finds the session gone stops
//     the renewals, nothing more: the client keeps no deadline of its own.
//   - WAIT: read the key. Held by another session: block on the key with
//     the index read, and start again when it changes. Free: acquire it.
//   - An acquire that fails: read the key again at once. Held: block as
//     above. Free (so a lock-delay is in effect): sleep 5 s
//     (DefaultLockRetryTime), then WAIT.
//   - Held: monitor the key with blocking reads; the lock is lost when the
//     key no longer names the session. That is the only way the holder
//     learns it: not from a local deadline, not from the renewals.
//
// Because every waiter blocks on the same key, each change of it (a
// release, an acquisition) answers them all: they wake together and race
// to acquire, and one wins. There is no queue.

// ConsulLockRetry is api.Lock's wait after a failed acquisition of a free
// key (a lock-delay in effect).
const ConsulLockRetry = 5 * time.Second

type consulPhase uint8

const (
	consulWaiting  consulPhase = iota // reading or blocking on the key
	consulChecking                    // reading the key after a failed acquire
	consulHeld                        // monitoring the key it holds
)

// consulClient is a Process's api.Lock state.
type consulClient struct {
	sharedClient // Release is the shared step-down (which unlocks below)
	phase        consulPhase
	gets         int  // reads sent and not answered
	blocking     bool // the read out is a blocking query (its answer is a wake-up)
}

func (c *consulClient) clone() clientRules { d := *c; return &d }

func (c *consulClient) crashed() { *c = consulClient{} }

func (c *consulClient) campaign(p *Process) {
	if !p.beginCampaign() {
		return
	}
	*c = consulClient{}
	p.openSession(consulSessionCreate{TTL: p.cfg.TTL})
}

func (c *consulClient) exec(p *Process, t task) bool {
	switch t.fn {
	case fnRenew:
		if p.lease != 0 {
			p.send(CoordinatorName, consulRenew{Session: p.lease})
			p.rearm(tmRenew, p.ttl/2, fnRenew)
		}
	case fnConsulRetry:
		if p.state == Candidate && p.lease != 0 {
			c.read(p, 0)
		}
	default:
		return false
	}
	return true
}

func (c *consulClient) read(p *Process, index int64) {
	c.gets++
	c.blocking = index > 0 && p.state == Candidate
	p.send(CoordinatorName, consulGet{Key: p.cfg.Lock, Index: index})
}

func (c *consulClient) handle(p *Process, m Message) bool {
	switch m := m.(type) {
	case consulSessionResp:
		if !p.awaiting || p.state != Candidate {
			return true
		}
		p.awaiting = false
		p.stop(tmRetry)
		if m.Err != "" {
			p.trace(KindNote, S(FText, "session refused: "+m.Err))
			p.setState(Follower, "session refused")
			p.retry()
			return true
		}
		p.lease, p.ttl, p.deadline = m.Session, m.TTL, 0
		if p.sim.Trace.on(KindLeaseRenewed) {
			p.trace(KindLeaseRenewed, S(FLease, m.Session.String()), S(FHow, "granted"))
		}
		p.rearm(tmRenew, m.TTL/2, fnRenew)
		c.phase = consulWaiting
		c.read(p, 0)
	case consulRenewResp:
		if !m.OK && p.lease != 0 {
			p.stop(tmRenew)
			if p.sim.Trace.on(KindNote) {
				p.trace(KindNote, S(FText, "renewal: session not found, renewals stop (only the lock's monitor can tell it lost the lock)"))
			}
		}
	case consulGetResp:
		if c.gets == 0 || p.lease == 0 {
			return true // a read of an earlier life or session
		}
		c.gets--
		if c.blocking && p.state == Candidate {
			p.Wakeups++ // every waiter is answered on each change: the herd
		}
		c.onRead(p, m)
	case consulAcquireResp:
		if p.state != Candidate || p.lease == 0 {
			return true
		}
		if m.OK {
			c.hold(p, m.LockIndex, m.Index)
			return true
		}
		if p.sim.Trace.on(KindNote) {
			p.trace(KindNote, S(FText, "acquire failed ("+m.Why+"): reads the key to see why"))
		}
		c.phase = consulChecking
		c.read(p, 0)
	default:
		return false
	}
	return true
}

func (c *consulClient) onRead(p *Process, m consulGetResp) {
	switch {
	case p.state == Leader && c.phase == consulHeld:
		if m.Session != p.lease {
			p.trace(KindNote, S(FText, fmt.Sprintf("monitor: %s no longer names this session (LockIndex %d): lock lost", m.Key, m.LockIndex)))
			p.loseLease("monitor query: the key is no longer held by this session")
			return
		}
		c.read(p, m.Index)
	case p.state != Candidate:
	case c.phase == consulChecking:
		if m.Session != 0 {
			c.phase = consulWaiting
			c.read(p, m.Index)
			return
		}
		if p.sim.Trace.on(KindNote) {
			p.trace(KindNote, S(FText, fmt.Sprintf("the key is free but the acquire failed: a lock-delay; tries again in %s", secs(ConsulLockRetry))))
		}
		c.phase = consulWaiting
		p.rearm(tmRetry, ConsulLockRetry, fnConsulRetry)
	case m.Session == p.lease:
		c.hold(p, m.LockIndex, m.Index)
	case m.Session != 0:
		c.read(p, m.Index)
	default:
		p.send(CoordinatorName, consulAcquire{Key: p.cfg.Lock, Session: p.lease, Owner: p.cfg.Name})
	}
}

// consulHold: the lock is held; the monitor starts.
func (c *consulClient) hold(p *Process, lockIndex, index int64) {
	c.phase = consulHeld
	p.key, p.token, p.watching = p.cfg.Lock, lockIndex, ""
	p.becomeLeader()
	c.read(p, index)
}

// unlock is a holder's clean Unlock: the key is released and then,
// once that is answered, the session destroyed (api/lock.go's Unlock and
// its renewal loop's Destroy), so no lock-delay follows. The two requests
// are sent as one, which keeps their order. It reports whether it sent
// it; a candidate's session is destroyed by the shared code.
func (c *consulClient) unlock(p *Process) bool {
	held := c.phase == consulHeld
	if held {
		p.send(CoordinatorName, consulRelease{Key: p.cfg.Lock, Session: p.lease, Destroy: true})
	}
	*c = consulClient{}
	return held
}
