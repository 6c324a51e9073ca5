package core

import (
	"slices"
	"time"
)

// A request's way through the cluster: the member its client talks to,
// the wait for a leader that can commit it, how long the commit takes, and
// giving up (see cluster.go for the rules and their sources).

// memberOf returns the member client talks to, choosing the next one that
// is up (and reachable by clients) when it has none.
func (c *Coordinator) memberOf(who string) int {
	cl := c.cl
	was := cl.clientOf[who]
	if j := was - 1; j >= 0 && !cl.members[j].crashed && !cl.members[j].cutClients {
		return j
	}
	if was < 0 {
		was = -was // its stream was ended there: it opens the next on another
	}
	for k := range cl.members {
		j := (cl.next + k) % len(cl.members)
		if c.rules.dropsClients() && !c.serves(j) && c.anyServes() {
			continue // the client's next try reaches a server that serves
		}
		if m := &cl.members[j]; !m.crashed && !m.cutClients {
			cl.next = j + 1
			cl.clientOf[who] = j + 1
			if _, ok := c.sim.actors[who].(client); ok && j+1 != was {
				c.sim.Trace.add(c.sim.now, who, KindClientMember, S(FMember, m.name))
			}
			return j
		}
	}
	return -1
}

// anyServes reports whether some member can serve a request now.
func (c *Coordinator) anyServes() bool {
	for i := range c.cl.members {
		if c.serves(i) {
			return true
		}
	}
	return false
}

// route is a request's arrival at the client's member.
func (c *Coordinator) route(env Envelope) {
	i := c.memberOf(env.From)
	if i < 0 {
		c.sim.Trace.aside(c.sim.now, env.From, KindDrop, I(FID, int64(env.ID)), S(FTo, CoordinatorName), S(FMsg, env.Msg.Kind()), S(FWhy, "no member of the coordinator is up"))
		return
	}
	c.admit(i, env, c.sim.now+RequestTimeout)
}

// admit serves the request at member i if a leader can commit it, and
// holds it until deadline otherwise.
func (c *Coordinator) admit(i int, env Envelope, deadline time.Duration) {
	cl := c.cl
	if c.rules.dropsClients() && !c.serves(i) && env.From != "learner" {
		// A ZooKeeper server that is not part of a quorum serves no
		// client: it closes the connection, and the client tries the
		// next server (ClientCnxn's reconnect loop).
		c.memberTrace(i, KindRefused, S(FWho, env.From), S(FMsg, env.Msg.Kind()), S(FWhy, "this server is not part of a quorum: it closes client connections"))
		c.closeZK(i, env.From)
		return
	}
	if c.serves(i) {
		c.sim.at(c.sim.now+c.latency(i, env.Msg), task{kind: evCluster, fn: fnServe, n: i, env: env, tseq: uint64(deadline)})
		return
	}
	if c.stream(env) {
		for _, w := range cl.waits {
			if w.env.From == env.From && w.member == i && c.stream(w.env) {
				return // one stream: the keepalive already waiting stands for it
			}
		}
		// A keepalive stream requires a leader: the member ends it once
		// it has had none for three election timeouts, checked every
		// election timeout (interceptor.go:315-351, monitorLeader), its
		// own election timeout after it lost the leader.
		deadline = max(c.sim.now, min(deadline, cl.members[i].lostAt+4*ElectionTimeout))
	}
	cl.nextWait++
	cl.waits = append(cl.waits, waiting{id: cl.nextWait, member: i, env: env, deadline: deadline})
	c.sim.at(deadline, task{kind: evCluster, fn: fnGiveUp, n: cl.nextWait})
}

// stream reports whether a request travels on a keepalive stream opened
// with WithRequireLeader, as etcd's KeepAlive client opens it (clientv3
// lease.go:210-211). A client on its own KeepAliveOnce timer (RenewEvery)
// sends each on a call of its own, which waits the whole RequestTimeout.
func (c *Coordinator) stream(env Envelope) bool {
	if _, ok := env.Msg.(keepAliveReq); !ok {
		return false
	}
	p := c.sim.Process(env.From)
	return p == nil || p.cfg.RenewEvery == 0
}

// proposal reports whether a request is a write Raft must commit.
func proposal(m Message) bool {
	switch m.(type) {
	case keepAliveReq, checkReq, listShardsReq, readReq, zkPing:
		return false
	}
	return true
}

// latency is how long a request at member i takes to be committed: the
// hop to the leader and back, then a round trip to the quorum (and, for
// a write, the disk syncs: the leader's own, each follower's before it
// acknowledges).
func (c *Coordinator) latency(i int, m Message) time.Duration {
	cl, net := c.cl, c.sim.Net
	l := c.activeLeader()
	name := func(j int) string { return cl.members[j].name }
	var fwd time.Duration
	if i != l {
		fwd = net.Link(name(i), name(l)).Delay + net.Link(name(l), name(i)).Delay
	}
	write := proposal(m)
	var acks []time.Duration
	for j := range cl.members {
		if j != l && c.reach(l, j) {
			d := net.Link(name(l), name(j)).Delay + net.Link(name(j), name(l)).Delay
			if write {
				d += cl.members[j].disk
			}
			acks = append(acks, d)
		}
	}
	slices.Sort(acks)
	var q time.Duration
	if need := len(cl.members) / 2; need > 0 && need <= len(acks) {
		q = acks[need-1]
	}
	if write {
		q = max(q, cl.members[l].disk)
	}
	return fwd + q
}

// serve runs a request at the leader once it is committed; if the leader
// was lost meanwhile, the request waits again.
func (c *Coordinator) serve(i int, env Envelope, deadline uint64) {
	if !c.serves(i) {
		c.admit(i, env, time.Duration(deadline))
		return
	}
	if r, ok := env.Msg.(readReq); ok {
		c.answerRead(i, r, "linearizable")
		return
	}
	c.cl.handling = true
	c.receive(env)
	c.cl.handling = false
}

// serveWaiting lets through every waiting request a leader can serve now.
func (c *Coordinator) serveWaiting() {
	cl := c.cl
	if len(cl.waits) == 0 {
		return
	}
	ready := cl.waits[:0:0]
	keep := cl.waits[:0]
	for _, w := range cl.waits {
		switch {
		case cl.members[w.member].crashed:
			// The member died with the request: its client's stream broke.
		case c.serves(w.member):
			ready = append(ready, w)
		default:
			keep = append(keep, w)
		}
	}
	cl.waits = keep
	for _, w := range ready {
		c.admit(w.member, w.env, w.deadline)
	}
}

// closeZK closes the ZooKeeper connection of client who at member i: the
// client is Disconnected and reconnects, with its session, to another.
func (c *Coordinator) closeZK(i int, who string) {
	if p := c.sim.Process(who); p != nil && p.lease != 0 {
		c.reply(who, zkClosed{Session: p.lease})
	}
	if c.cl.clientOf[who]-1 == i {
		c.cl.clientOf[who] = -(i + 1)
		c.cl.next = i + 1
	}
}

// giveUp ends a request that waited its whole RequestTimeout.
func (c *Coordinator) giveUp(id int) {
	cl := c.cl
	k := slices.IndexFunc(cl.waits, func(w waiting) bool { return w.id == id })
	if k < 0 {
		return
	}
	w := cl.waits[k]
	if cl.members[w.member].paused {
		// A paused member gives up only once it runs again.
		cl.waits[k].deadline = c.sim.now + RequestTimeout
		c.sim.at(cl.waits[k].deadline, task{kind: evCluster, fn: fnGiveUp, n: id})
		return
	}
	cl.waits = slices.Delete(cl.waits, k, k+1)
	why := c.rules.quorumless(w.env.Msg)
	c.memberTrace(w.member, KindRefused, S(FWho, w.env.From), S(FMsg, w.env.Msg.Kind()), S(FWhy, why))
	if c.stream(w.env) && cl.clientOf[w.env.From]-1 == w.member {
		// The client opens its stream again, on the next member.
		cl.clientOf[w.env.From] = -(w.member + 1)
		cl.next = w.member + 1
	}
	switch m := w.env.Msg.(type) {
	case acquireReq:
		c.reply(w.env.From, lockStatus{Lock: m.Lock, Err: why})
	case checkReq:
		c.reply(w.env.From, lockStatus{Lock: m.Lock, Key: m.Key, CreateRev: m.Rev, Err: why})
	case putReq:
		c.reply(w.env.From, opResp{Op: "put", Key: m.Key, Err: why})
	case deleteReq:
		c.reply(w.env.From, opResp{Op: "delete", Key: m.Key, Err: why})
	case readReq:
		c.memberTrace(w.member, KindRead, S(FLock, m.Lock), S(FHow, "linearizable"), S(FResult, why))
	}
	// A grant, a keepalive and the rest get no answer: the client's own
	// timers (its grant retry, its lease deadline) take it from there.
}

// breakClients ends the streams of every client talking to member i:
// each opens its stream again on another member ClientRetryWait later,
// and what it sends meanwhile waits in its connection.
func (c *Coordinator) breakClients(i int) {
	cl := c.cl
	var names []string
	for cli, j := range cl.clientOf {
		if j-1 == i {
			names = append(names, cli)
		}
	}
	slices.Sort(names)
	for _, cli := range names {
		if _, ok := c.sim.actors[cli].(client); !ok {
			continue
		}
		if c.rules.dropsClients() {
			c.closeZK(i, cli)
			continue
		}
		n := c.sim.Net
		n.connDown(cli)
		cc := n.conns[cli]
		cc.healedAt = c.sim.now
		c.sim.at(c.sim.now+ClientRetryWait, task{kind: evReconnect, str: cli, n: cc.gen})
	}
}
