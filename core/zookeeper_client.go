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

// zkClient is a Process's ZooKeeper connection.
type zkClient struct {
	state       zkConnState
	timeout     time.Duration // negotiated session timeout
	readTimeout time.Duration
	lastRecv    time.Duration
	guid        string
	creating    bool // the lock node's create has not been answered
}

func (p *Process) zkTrace(state, curator, why string) {
	p.trace(KindClientState, S(FState, state), S(FCurator, curator), S(FSession, p.lease.String()), S(FWhy, why))
}

func (p *Process) zkCampaign() {
	if p.lease != 0 && p.zk.state == zkConnected {
		// Released earlier, the session lives on: go-zookeeper's Lock
		// creates a new node on the connection it has.
		p.zk.guid = fmt.Sprintf("%016x%016x", p.sim.rng.Uint64(), p.sim.rng.Uint64())
		p.zkCreate()
		return
	}
	p.zk = zkClient{}
	p.openSession(zkConnectReq{Timeout: p.cfg.TTL})
}

// zkRelease is go-zookeeper's Lock.Unlock: delete the lock node and
// nothing else. The session, its pings and its other nodes stay (only a
// session's end deletes its ephemerals), so the next campaign needs no
// new connection.
func (p *Process) zkRelease() {
	p.send(CoordinatorName, deleteReq{Key: p.key})
	p.key, p.watching, p.zombie = "", "", false
	p.zk.creating = false
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
}

func (p *Process) zkExec(t task) bool {
	switch t.fn {
	case fnRenew:
		if p.zk.state == zkConnected {
			p.send(CoordinatorName, zkPing{Session: p.lease})
			p.rearm(tmRenew, p.zk.readTimeout/2, fnRenew)
		}
	case fnDeadline:
		if p.zk.state != zkConnected {
			return true
		}
		if quiet := p.sim.now - p.zk.lastRecv; quiet >= p.zk.readTimeout {
			p.zkDisconnect(fmt.Sprintf("nothing from the server for %s (read timeout: 2/3 of the %s session timeout)", secs(quiet.Round(time.Millisecond)), secs(p.zk.timeout)))
		} else {
			p.zkArmReadTimeout()
		}
	case fnCuratorLost:
		if p.zk.state == zkDisconnected {
			p.zkTrace("disconnected", "LOST", fmt.Sprintf("the %s session timeout has passed while SUSPENDED: Curator now treats the session as expired and reports LOST, though the ZooKeeper client itself is still trying to reconnect", secs(p.zk.timeout)))
		}
	case fnZKReconnect:
		if p.zk.state == zkDisconnected && p.lease != 0 {
			p.send(CoordinatorName, zkConnectReq{Session: p.lease, Timeout: p.zk.timeout})
			p.rearm(tmRetry, zkReconnectEvery, fnZKReconnect)
		}
	default:
		return false
	}
	return true
}

func (p *Process) zkHandle(m Message) bool {
	switch m := m.(type) {
	case zkConnectResp:
		p.zkOnConnect(m)
	case zkPingResp:
		if p.zk.state == zkConnected {
			p.zkHeard()
		}
	case zkClosed:
		if m.Session == p.lease && p.zk.state == zkConnected {
			p.zkDisconnect("the server closed the connection")
		}
	case lockStatus, watchEvent:
		if p.zk.state != zkConnected {
			return true // it came on a connection the client has given up
		}
		p.zkHeard()
		if _, ok := m.(lockStatus); ok {
			p.zk.creating = false
		}
		return false // the recipe's steps are the shared ones
	default:
		return false
	}
	return true
}

// zkHeard notes an answer from the server: the read timeout starts again.
func (p *Process) zkHeard() {
	p.zk.lastRecv = p.sim.now
	if p.sim.Trace.on(KindLeaseRenewed) {
		p.trace(KindLeaseRenewed, S(FLease, p.lease.String()), D(FDeadline, p.sim.now+p.zk.readTimeout), S(FHow, "server answered"))
	}
}

func (p *Process) zkArmReadTimeout() {
	p.deadline = p.zk.lastRecv + p.zk.readTimeout
	p.arm(tmDeadline, p.deadline, fnDeadline)
}

func (p *Process) zkOnConnect(m zkConnectResp) {
	switch {
	case p.awaiting && p.lease == 0 && p.state == Candidate && m.Timeout > 0:
		p.awaiting = false
		p.stop(tmRetry)
		p.lease, p.ttl = m.Session, m.Timeout
		p.zk.timeout, p.zk.readTimeout = m.Timeout, m.Timeout*2/3
		why := fmt.Sprintf("session timeout %s: pings every %s, read timeout %s", secs(m.Timeout), secs((p.zk.readTimeout / 2).Round(time.Millisecond)), secs(p.zk.readTimeout.Round(time.Millisecond)))
		if m.Asked != m.Timeout {
			why = fmt.Sprintf("asked for %s, the server granted %s; ", secs(m.Asked), secs(m.Timeout)) + why
		}
		p.zkUp("connected", "CONNECTED", why)
		p.zk.guid = fmt.Sprintf("%016x%016x", p.sim.rng.Uint64(), p.sim.rng.Uint64())
		p.zkCreate()
	case m.Session == p.lease && p.lease != 0 && p.zk.state == zkDisconnected:
		if m.Timeout == 0 {
			p.zk.state = zkIdle
			p.zkTrace("expired", "LOST", "reconnected, and the server says the session has expired")
			p.loseLease("session expired (learned on reconnecting)")
			return
		}
		p.zkUp("connected", "RECONNECTED", "reconnected within the session timeout: the session and its nodes are intact")
		switch {
		case p.zk.creating:
			p.zkCreate() // same GUID: finds the node if the first create went through
		case p.key != "":
			if p.sim.Trace.on(KindNote) {
				p.trace(KindNote, S(FText, "watches re-registered; checks its place in the lock again"))
			}
			p.send(CoordinatorName, checkReq{Lock: p.cfg.Lock, Key: p.key, Rev: p.myRev, Recipe: p.cfg.Recipe})
		}
	}
}

func (p *Process) zkCreate() {
	p.zk.creating = true
	p.send(CoordinatorName, zkCreateReq{Lock: p.cfg.Lock, Session: p.lease, Owner: p.cfg.Name, GUID: p.zk.guid})
}

// zkUp starts (or restarts) the connection's ping and read-timeout clocks.
func (p *Process) zkUp(state, curator, why string) {
	p.zk.state, p.zk.lastRecv = zkConnected, p.sim.now
	p.stop(tmRetry)
	p.zkTrace(state, curator, why)
	p.keepAlive = true
	p.rearm(tmRenew, p.zk.readTimeout/2, fnRenew)
	p.zkArmReadTimeout()
}

// zkDisconnect gives the connection up: SUSPENDED. A leader stops work.
func (p *Process) zkDisconnect(why string) {
	p.zk.state = zkDisconnected
	p.stop(tmRenew)
	p.stop(tmDeadline)
	p.zkTrace("disconnected", "SUSPENDED", why)
	if p.state == Leader {
		p.stop(tmWork)
		p.setState(Candidate, "SUSPENDED: cannot be certain it still holds the lock, stops work until it reconnects")
	}
	p.rearm(tmRetry, zkReconnectEvery, fnZKReconnect)
	// Curator does not wait for the server's word: a session timeout
	// after SUSPENDED it reports LOST (reconnecting re-arms this slot).
	p.arm(tmDeadline, p.sim.now+p.zk.timeout, fnCuratorLost)
}

// ZKConnected reports whether a ZooKeeper client's connection is up.
func (p *Process) ZKConnected() bool { return p.zk.state == zkConnected }
