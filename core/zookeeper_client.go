package core

import (
	"fmt"
	"time"
)

// A ZooKeeper client as a Process with System ZooKeeper follows it: the
// timings are go-zookeeper's Conn and Lock (the conformance suite runs
// them); the Java client's states are the same, though it pings only
// when its connection has been idle that long; the SUSPENDED/LOST names
// and the holder that stops work at SUSPENDED are Curator's.
//
//   - It connects asking for its TTL as the session timeout and takes the
//     timeout the server negotiated. Its read timeout is 2/3 of that and it
//     pings every read timeout / 2 (go-zookeeper setTimeouts: recvTimeout =
//     sessionTimeout * 2/3, pingInterval = recvTimeout / 2).
//   - When nothing has come from the server for a read timeout, or the
//     server closed the connection, the client is Disconnected (Curator:
//     SUSPENDED). It cannot know whether its session is alive, so a leader
//     stops working ("cannot be certain it still holds the lock") but keeps
//     its node. It retries the connection every second (go-zookeeper sleeps
//     1 s before each attempt once it has tried every server).
//   - Curator does not wait that long: once a negotiated session timeout
//     has passed while SUSPENDED it reports LOST and treats the session as
//     expired, reconnected or not (ConnectionStateManager.processEvents and
//     checkSessionExpiration, Curator 5: "Session timeout has elapsed while
//     SUSPENDED. Injecting a session expiration", with the default
//     sessionExpirationPercent of 100). The lab traces that moment with
//     curator LOST while the ZooKeeper client stays disconnected.
//   - Only on reconnecting does it learn the truth: the session is still
//     alive (RECONNECTED: watches are re-registered and a holder whose node
//     is still lowest resumes with the same czxid) or the server expired it
//     (Expired, Curator: LOST): its node is gone and it starts again with a
//     new session.
//   - The lock recipe: create "<lock>/_c_<guid>-lock-" ephemeral and
//     sequential; list the children; the lowest sequence holds; otherwise
//     watch the next lower one. A create whose answer was lost is retried
//     with the same GUID and the client finds its node by it.

// zkReconnectEvery is the wait before each reconnection attempt.
const zkReconnectEvery = time.Second

type zkConnState uint8

const (
	zkIdle zkConnState = iota
	zkConnected
	zkDisconnected
)

// zkClient is a Process's ZooKeeper connection and lock recipe (its
// session's lease, key and token are the Process's own).
type zkClient struct {
	sharedClient // a session ends as etcd's does (revoked), a crash forgets all below
	state        zkConnState
	timeout      time.Duration // negotiated session timeout
	readTimeout  time.Duration
	lastRecv     time.Duration
	guid         string
	creating     bool // the lock node's create has not been answered
}

func (z *zkClient) clone() clientRules { c := *z; return &c }

func (z *zkClient) crashed() { *z = zkClient{} }

func (z *zkClient) trace(p *Process, state, curator, why string) {
	p.trace(KindClientState, S(FState, state), S(FCurator, curator), S(FSession, p.lease.String()), S(FWhy, why))
}

func (z *zkClient) campaign(p *Process) {
	if !p.beginCampaign() {
		return
	}
	if p.lease != 0 && z.state == zkConnected {
		// Released earlier, the session lives on: go-zookeeper's Lock
		// creates a new node on the connection it has.
		z.guid = fmt.Sprintf("%016x%016x", p.sim.rng.Uint64(), p.sim.rng.Uint64())
		z.create(p)
		return
	}
	*z = zkClient{}
	p.openSession(zkConnectReq{Timeout: p.cfg.TTL})
}

// release is go-zookeeper's Lock.Unlock: delete the lock node and
// nothing else. The session, its pings and its other nodes stay (only a
// session's end deletes its ephemerals), so the next campaign needs no
// new connection. Without a node or a connection it is the shared
// release.
func (z *zkClient) release(p *Process) bool {
	if p.key == "" || z.state != zkConnected || (p.state != Leader && p.state != Candidate) {
		return false
	}
	p.send(CoordinatorName, deleteReq{Key: p.key})
	p.key, p.watching, p.zombie = "", "", false
	z.creating = false
	p.stop(tmWork)
	if p.sim.Trace.on(KindNote) {
		p.trace(KindNote, S(FText, "released: its lock node deleted, its session kept"))
	}
	switch p.state {
	case Leader:
		p.setState(SteppingDown, "released")
		p.after(p.cfg.StepDownFor, fnSteppedDown)
	case Candidate:
		p.setState(Follower, "released")
		p.retry()
	}
	return true
}

func (z *zkClient) exec(p *Process, t task) bool {
	switch t.fn {
	case fnRenew:
		if z.state == zkConnected {
			p.send(CoordinatorName, zkPing{Session: p.lease})
			p.rearm(tmRenew, z.readTimeout/2, fnRenew)
		}
	case fnDeadline:
		if z.state != zkConnected {
			return true
		}
		if quiet := p.sim.now - z.lastRecv; quiet >= z.readTimeout {
			z.disconnect(p, fmt.Sprintf("nothing from the server for %s (read timeout: 2/3 of the %s session timeout)", secs(quiet.Round(time.Millisecond)), secs(z.timeout)))
		} else {
			z.armReadTimeout(p)
		}
	case fnCuratorLost:
		if z.state == zkDisconnected {
			z.trace(p, "disconnected", "LOST", fmt.Sprintf("the %s session timeout has passed while SUSPENDED: Curator now treats the session as expired and reports LOST, though the ZooKeeper client itself is still trying to reconnect", secs(z.timeout)))
		}
	case fnZKReconnect:
		if z.state == zkDisconnected && p.lease != 0 {
			p.send(CoordinatorName, zkConnectReq{Session: p.lease, Timeout: z.timeout})
			p.rearm(tmRetry, zkReconnectEvery, fnZKReconnect)
		}
	default:
		return false
	}
	return true
}

func (z *zkClient) handle(p *Process, m Message) bool {
	switch m := m.(type) {
	case zkConnectResp:
		z.onConnect(p, m)
	case zkPingResp:
		if z.state == zkConnected {
			z.heard(p)
		}
	case zkClosed:
		if m.Session == p.lease && z.state == zkConnected {
			z.disconnect(p, "the server closed the connection")
		}
	case lockStatus, watchEvent:
		if z.state != zkConnected {
			return true // it came on a connection the client has given up
		}
		z.heard(p)
		if _, ok := m.(lockStatus); ok {
			z.creating = false
		}
		return false // the recipe's steps are the shared ones
	default:
		return false
	}
	return true
}

// zkHeard notes an answer from the server: the read timeout starts again.
func (z *zkClient) heard(p *Process) {
	z.lastRecv = p.sim.now
	if p.sim.Trace.on(KindLeaseRenewed) {
		p.trace(KindLeaseRenewed, S(FLease, p.lease.String()), D(FDeadline, p.sim.now+z.readTimeout), S(FHow, "server answered"))
	}
}

func (z *zkClient) armReadTimeout(p *Process) {
	p.deadline = z.lastRecv + z.readTimeout
	p.arm(tmDeadline, p.deadline, fnDeadline)
}

func (z *zkClient) onConnect(p *Process, m zkConnectResp) {
	switch {
	case p.awaiting && p.lease == 0 && p.state == Candidate && m.Timeout > 0:
		p.awaiting = false
		p.stop(tmRetry)
		p.lease, p.ttl = m.Session, m.Timeout
		z.timeout, z.readTimeout = m.Timeout, m.Timeout*2/3
		why := fmt.Sprintf("session timeout %s: pings every %s, read timeout %s", secs(m.Timeout), secs((z.readTimeout / 2).Round(time.Millisecond)), secs(z.readTimeout.Round(time.Millisecond)))
		if m.Asked != m.Timeout {
			why = fmt.Sprintf("asked for %s, the server granted %s; ", secs(m.Asked), secs(m.Timeout)) + why
		}
		z.up(p, "connected", "CONNECTED", why)
		z.guid = fmt.Sprintf("%016x%016x", p.sim.rng.Uint64(), p.sim.rng.Uint64())
		z.create(p)
	case m.Session == p.lease && p.lease != 0 && z.state == zkDisconnected:
		if m.Timeout == 0 {
			z.state = zkIdle
			z.trace(p, "expired", "LOST", "reconnected, and the server says the session has expired")
			p.loseLease("session expired (learned on reconnecting)")
			return
		}
		z.up(p, "connected", "RECONNECTED", "reconnected within the session timeout: the session and its nodes are intact")
		switch {
		case z.creating:
			z.create(p) // same GUID: finds the node if the first create went through
		case p.key != "":
			if p.sim.Trace.on(KindNote) {
				p.trace(KindNote, S(FText, "watches re-registered; checks its place in the lock again"))
			}
			p.send(CoordinatorName, checkReq{Lock: p.cfg.Lock, Key: p.key, Rev: p.myRev, Recipe: p.cfg.Recipe})
		}
	}
}

func (z *zkClient) create(p *Process) {
	z.creating = true
	p.send(CoordinatorName, zkCreateReq{Lock: p.cfg.Lock, Session: p.lease, Owner: p.cfg.Name, GUID: z.guid})
}

// zkUp starts (or restarts) the connection's ping and read-timeout clocks.
func (z *zkClient) up(p *Process, state, curator, why string) {
	z.state, z.lastRecv = zkConnected, p.sim.now
	p.stop(tmRetry)
	z.trace(p, state, curator, why)
	p.rearm(tmRenew, z.readTimeout/2, fnRenew)
	z.armReadTimeout(p)
}

// zkDisconnect gives the connection up: SUSPENDED. A leader stops work.
func (z *zkClient) disconnect(p *Process, why string) {
	z.state = zkDisconnected
	p.stop(tmRenew)
	p.stop(tmDeadline)
	z.trace(p, "disconnected", "SUSPENDED", why)
	if p.state == Leader {
		p.stop(tmWork)
		p.setState(Candidate, "SUSPENDED: cannot be certain it still holds the lock, stops work until it reconnects")
	}
	p.rearm(tmRetry, zkReconnectEvery, fnZKReconnect)
	// Curator does not wait for the server's word: a session timeout
	// after SUSPENDED it reports LOST (reconnecting re-arms this slot).
	p.arm(tmDeadline, p.sim.now+z.timeout, fnCuratorLost)
}

// ZKConnected reports whether a ZooKeeper client's connection is up.
func (p *Process) ZKConnected() bool {
	z, ok := p.rules.(*zkClient)
	return ok && z.state == zkConnected
}
