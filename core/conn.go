package core

import "time"

// A client's link to the coordinator is a connection (gRPC over TCP for
// etcd), not a lossy datagram path. When it is cut, nothing is lost for
// good: etcd's client waits for the connection to come back before it
// sends a request (WaitForReady), re-opens its keepalive stream and sends
// what is due, and resumes every watch from the revision it had reached,
// so a change made meanwhile is still delivered (measured against etcd
// 3.7.3 in conform/: a waiter whose watch was cut for 4 s acquires the lock
// after the link heals). What the connection loses is *time*: the client
// only notices the path is back on its next reconnect attempt, which gRPC
// spaces out by exponential backoff.
//
// So while a client's connection is down, everything either end sends to
// the other waits in the connection, in order, and leaves when the client
// reconnects. A keepalive already waiting is not queued twice: the new
// stream sends one. A crash of the client ends the connection and what
// waited in it, but a restarted client reconnects when the path is back.

// gRPC's reconnect backoff (grpc-go backoff.DefaultConfig): the first
// attempt at once, then 1 s, growing by 1.6 each time up to 120 s.
const (
	reconnectBase = time.Second
	reconnectMax  = 120 * time.Second
)

// conn is a client connection that is down.
type conn struct {
	cutAt time.Duration
	gen   int // numbers reconnect events, so a later cut cancels an earlier one
	// healedAt is when the path came back (0: still cut); the client
	// reconnects on its first attempt at or after it.
	healedAt time.Duration
	waiting  []waitingMsg
}

type waitingMsg struct {
	from, to string
	msg      Message
	epoch    int // the client's life it was sent in
}

// connClient returns the client end of a client-coordinator link, or "".
func (n *Network) connClient(from, to string) string {
	if n.sim.Coord.rules.pathConnection() {
		return "" // the connection dies with the path (ZooKeeper's)
	}
	switch {
	case from == CoordinatorName && n.isClient(to):
		return to
	case to == CoordinatorName && n.isClient(from):
		return from
	}
	return ""
}

func (n *Network) isClient(name string) bool {
	_, ok := n.sim.actors[name].(client)
	return ok
}

// connDown goes down between the coordinator and client (a cut).
func (n *Network) connDown(name string) {
	if n.conns == nil {
		n.conns = map[string]*conn{}
	}
	c := n.conns[name]
	if c == nil {
		c = &conn{cutAt: n.sim.now}
		n.conns[name] = c
	}
	c.healedAt = 0
	c.gen++
}

// connHealed schedules the reconnect: the first backoff attempt, counted
// from the cut, at or after now.
func (n *Network) connHealed(client string) {
	c := n.conns[client]
	if c == nil {
		return
	}
	c.healedAt = n.sim.now
	at, wait := c.cutAt, reconnectBase
	for at < n.sim.now {
		at += wait
		wait = min(wait*16/10, reconnectMax)
	}
	c.gen++
	n.sim.at(at, task{kind: evReconnect, str: client, n: c.gen})
}

// wait parks m in client's connection; it reports false when the
// connection is up.
func (n *Network) wait(name, from, to string, m Message, id uint64) bool {
	c := n.conns[name]
	if c == nil {
		return false
	}
	if m.Kind() == (keepAliveReq{}).Kind() {
		for _, w := range c.waiting {
			if w.from == from && w.msg.Kind() == m.Kind() {
				return true // the new stream sends one keepalive, not a backlog
			}
		}
	}
	c.waiting = append(c.waiting, waitingMsg{from: from, to: to, msg: m, epoch: n.sim.actors[name].(client).base().epoch})
	if !n.sim.Trace.Quiet {
		n.sim.Trace.aside(n.sim.now, from, KindWait, I(FID, int64(id)), S(FTo, to), S(FMsg, m.Kind()), S(FWhy, "connection down: sent when "+name+" reconnects"))
	}
	return true
}

// reconnect brings client's connection up and sends what waited in it.
func (n *Network) reconnect(name string, gen int) {
	c := n.conns[name]
	if c == nil || c.gen != gen || c.healedAt == 0 {
		return
	}
	delete(n.conns, name)
	node := n.sim.actors[name].(client).base()
	if node.crashed {
		return // a crashed client has no connection to bring back
	}
	// What an earlier life sent, or was sent, died with that life's
	// connection.
	live := c.waiting[:0:0]
	for _, w := range c.waiting {
		if w.epoch == node.epoch {
			live = append(live, w)
		}
	}
	n.sim.Trace.add(n.sim.now, name, KindReconnect, I(FWaited, int64(len(live))), D(FDown, n.sim.now-c.cutAt))
	for _, w := range live {
		n.send(w.from, w.to, w.msg)
	}
}

// Connection reports whether client's connection to the coordinator is
// down (cut, or healed but not yet reconnected) and how many messages
// wait in it.
func (n *Network) Connection(client string) (down bool, waiting int) {
	c := n.conns[client]
	if c == nil {
		return false, 0
	}
	return true, len(c.waiting)
}

// cloneConns copies the down connections of a world being cloned.
func cloneConns(src map[string]*conn) map[string]*conn {
	if len(src) == 0 {
		return nil
	}
	out := make(map[string]*conn, len(src))
	for k, c := range src {
		cc := *c
		cc.waiting = append([]waitingMsg(nil), c.waiting...)
		out[k] = &cc
	}
	return out
}
