package core

import (
	"fmt"
	"time"
)

// The cluster's Raft: elections, the leader's step-down without a quorum,
// and what a new leader does to the leases (see cluster.go for the rules
// and their sources).

// electionWait draws a follower's election timeout: 10 to 19 ticks after
// the last heartbeat it heard, which was up to one tick ago.
func (c *Coordinator) electionWait() time.Duration {
	ticks := 10 + c.sim.rng.IntN(10)
	since := time.Duration(c.sim.rng.Int64N(int64(HeartbeatEvery)))
	return time.Duration(ticks)*HeartbeatEvery - since
}

// clusterChanged runs after anything that changes who can reach whom: it
// arms the leader's step-down, the followers' elections, and lets waiting
// requests through.
func (c *Coordinator) clusterChanged() {
	cl := c.cl
	if l := cl.leader; l >= 0 && cl.live(l) && !c.quorumOf(l) {
		if !cl.stepArmed {
			cl.stepArmed = true
			cl.stepGen++
			c.sim.at(c.sim.now+ElectionTimeout, task{kind: evCluster, fn: fnStepDown, n: cl.stepGen})
		}
	} else if cl.stepArmed {
		cl.stepArmed = false
		cl.stepGen++
	}
	for i := range cl.members {
		m := &cl.members[i]
		f := c.serves(i)
		if m.following && !f {
			m.applied, m.lostAt = c.Rev, c.sim.now
			if c.rules.dropsClients() && cl.live(i) {
				c.breakClients(i)
			}
		}
		m.following = f
		hears := cl.leader >= 0 && cl.leader != i && c.reach(i, cl.leader)
		switch {
		case !cl.live(i) || hears || i == cl.leader && c.quorumOf(i):
			if m.electArmed {
				m.electArmed = false
				m.electGen++
			}
		case !m.electArmed:
			m.electArmed = true
			m.electGen++
			c.sim.at(c.sim.now+c.electionWait(), task{kind: evCluster, fn: fnElect, node: int32(i), n: m.electGen})
		}
	}
	c.serveWaiting()
}

// fireCluster runs one of the cluster's tasks.
func (c *Coordinator) fireCluster(t task) {
	cl := c.cl
	switch t.fn {
	case fnElect:
		m := &cl.members[t.node]
		if t.n != m.electGen || !m.electArmed {
			return
		}
		m.electArmed = false
		c.campaign(int(t.node))
	case fnStepDown:
		if t.n != cl.stepGen || !cl.stepArmed {
			return
		}
		cl.stepArmed = false
		l := cl.leader
		cl.leader = -1
		cl.noLeader = true
		c.memberTrace(l, KindNoLeader, I(FTerm, cl.term), S(FWhy, "the leader cannot reach a majority of members: it steps down, and no lease expires until a new leader is elected"))
		c.clusterChanged()
	case fnMemberResume:
		m := &cl.members[t.node]
		if t.n == m.pauseGen && m.paused {
			c.resumeMember(int(t.node))
		}
	case fnServe:
		c.serve(t.n, t.env, t.tseq)
	case fnGiveUp:
		c.giveUp(t.n)
	case fnMoveOff:
		delete(cl.clientOf, t.str)
	}
}

// campaign is member i's election: it wins with a majority of votes.
func (c *Coordinator) campaign(i int) {
	cl := c.cl
	if !cl.live(i) {
		return
	}
	if l := cl.leader; l >= 0 && l != i && c.reach(i, l) {
		return // it hears the leader again
	}
	votes := 0
	for j := range cl.members {
		if !c.reach(i, j) {
			continue
		}
		// Pre-vote: a member that hears a leader refuses; so does one
		// whose log is ahead of the candidate's.
		if j != i && cl.leader >= 0 && (j == cl.leader || c.reach(j, cl.leader)) && c.quorumOf(cl.leader) {
			continue
		}
		if c.appliedBy(j) > c.appliedBy(i) {
			continue
		}
		votes++
	}
	if votes <= len(cl.members)/2 {
		if !cl.noLeader && c.activeLeader() < 0 {
			cl.noLeader = true
			c.memberTrace(i, KindNoLeader, I(FTerm, cl.term), S(FWhy, fmt.Sprintf("%s hears no leader and cannot win an election: %d of %d members can vote for it", cl.members[i].name, votes, len(cl.members))))
		}
		m := &cl.members[i]
		m.electArmed = true
		m.electGen++
		c.sim.at(c.sim.now+c.electionWait(), task{kind: evCluster, fn: fnElect, node: int32(i), n: m.electGen})
		return
	}
	cl.term++
	cl.leader = i
	cl.noLeader = false
	c.memberTrace(i, KindLeader, I(FTerm, cl.term), I(FRev, c.Rev))
	c.promote()
	c.clusterChanged()
	if len(c.leases) > 0 {
		c.armSweep()
	}
}

// promote is etcd's lessor.Promote: every lease lives one election timeout
// plus its whole TTL from now, however much of it was left (a system
// whose server re-arms its sessions otherwise says so: serverRules.promoted).
func (c *Coordinator) promote() {
	why := c.rules.rearmWhy()
	for _, id := range c.leaseOrder {
		l := c.leases[id]
		l.Expiry = c.rules.promoted(c, l) // each system its own way
		cause := c.sim.Trace.cause
		c.trace(KindLeaseRearm, S(FLease, l.idText()), S(FOwner, l.Owner), D(FExpiry, l.Expiry), S(FWhy, why))
		l.lastEv = c.sim.Trace.cause
		c.sim.Trace.cause = cause
	}
	c.firstExpiry = c.sim.now + ElectionTimeout
}

// canExpire reports whether the coordinator may expire leases now: with a
// cluster, only a leader that reaches its quorum does.
func (c *Coordinator) canExpire() bool { return c.cl == nil || c.activeLeader() >= 0 }
