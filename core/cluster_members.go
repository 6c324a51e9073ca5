package core

import "fmt"

// What a learner does to members and asks of them: crash, restart, pause,
// cut off, a slow disk, and a read of who holds a lock from one member's
// own state (see cluster.go).

// record keeps a committed change for members that fall behind.
func (c *Coordinator) record(ch kvChange) {
	if c.cl != nil {
		c.cl.history = append(c.cl.history, ch)
	}
}

// ownerAt returns the owner of lock as the state at revision rev has it:
// the value of the lock's oldest key (etcd's recipe: the key with the
// lowest create revision under the lock's prefix holds it).
func (c *Coordinator) ownerAt(lock string, rev int64) string {
	prefix := lock + "/"
	type kv struct {
		value     string
		createRev int64
	}
	live := map[string]kv{}
	for _, ch := range c.cl.history {
		if ch.rev > rev {
			break
		}
		if len(ch.key) <= len(prefix) || ch.key[:len(prefix)] != prefix {
			continue
		}
		if ch.deleted {
			delete(live, ch.key)
		} else {
			live[ch.key] = kv{ch.value, ch.createRev}
		}
	}
	owner, first := "", int64(0)
	for _, v := range live {
		if first == 0 || v.createRev < first {
			owner, first = v.value, v.createRev
		}
	}
	return owner
}

// readReq is a learner's read of a lock's owner at a member.
type readReq struct {
	noToken
	Lock string
}

func (readReq) Kind() string { return "Read" }

// answerRead traces member i's answer to a read of lock's owner.
func (c *Coordinator) answerRead(i int, r readReq, how string) {
	rev := c.appliedBy(i)
	owner := c.ownerAt(r.Lock, rev)
	result := "current"
	if rev < c.Rev && c.ownerAt(r.Lock, c.Rev) != owner {
		result = "stale"
	}
	if owner == "" {
		owner = "nobody"
	}
	c.memberTrace(i, KindRead, S(FLock, r.Lock), S(FOwner, owner), I(FRev, rev), S(FHow, how), S(FResult, result))
}

// memberAct applies an action to member i.
func (c *Coordinator) memberAct(i int, a Action) error {
	cl := c.cl
	m := &cl.members[i]
	switch a.Do {
	case VerbCrash:
		if m.crashed {
			return fmt.Errorf("crash: %s is already down", m.name)
		}
		m.crashed, m.paused = true, false
		c.memberTrace(i, KindMember, S(FState, "crashed"))
		c.breakClients(i)
	case VerbRestart:
		if !m.crashed {
			return fmt.Errorf("restart: %s is not down", m.name)
		}
		m.crashed = false
		if cl.leader == i {
			cl.leader = -1 // it comes back a follower
		}
		c.memberTrace(i, KindMember, S(FState, "restarted"))
	case VerbPause:
		if m.crashed {
			return fmt.Errorf("pause: %s is down", m.name)
		}
		m.paused = true
		m.pauseGen++
		c.memberTrace(i, KindMember, S(FState, "paused"), D(FFor, a.For.D()))
		c.sim.at(c.sim.now+a.For.D(), task{kind: evCluster, fn: fnMemberResume, node: int32(i), n: m.pauseGen})
	case VerbResume:
		if !m.paused {
			return fmt.Errorf("resume: %s is not paused", m.name)
		}
		c.resumeMember(i)
		return nil
	case VerbSlowDisk:
		m.disk = a.For.D()
		c.memberTrace(i, KindSetting, S(FName, "disk sync"), D(FMs, m.disk))
	case VerbRead:
		r := readReq{Lock: a.Key}
		if !a.On {
			c.answerRead(i, r, "serializable")
			return nil
		}
		if m.crashed {
			return fmt.Errorf("read: %s is down", m.name)
		}
		c.admit(i, Envelope{From: "learner", To: CoordinatorName, SentAt: c.sim.now, Msg: r}, c.sim.now+RequestTimeout)
		return nil
	case VerbPartition, VerbHeal:
		return c.memberCut(i, a)
	default:
		return fmt.Errorf("%s: %s is a coordinator member: it can be crashed, restarted, paused, cut off, given a slow disk or read from", a.Do, m.name)
	}
	c.clusterChanged()
	return nil
}

// resumeMember wakes a paused member.
func (c *Coordinator) resumeMember(i int) {
	c.cl.members[i].paused = false
	c.cl.members[i].pauseGen++
	c.memberTrace(i, KindMember, S(FState, "resumed"))
	c.clusterChanged()
}

// memberCut cuts member i off from (or heals it with) its peers, its
// clients, or one peer.
func (c *Coordinator) memberCut(i int, a Action) error {
	cl := c.cl
	m := &cl.members[i]
	cut := a.Do == VerbPartition
	switch a.Peer {
	case ClientsOf:
		m.cutClients = cut
		state := "cut off from its clients"
		if !cut {
			state = "reachable by clients again"
		}
		c.memberTrace(i, KindMember, S(FState, state))
		if cut {
			c.breakClients(i)
		}
	case PeersOf:
		for j := range cl.members {
			if j != i {
				c.memberLink(i, j, cut, a.OneWay)
			}
		}
	default:
		j := c.memberIndex(a.Peer)
		if j < 0 || j == i {
			return fmt.Errorf("%s: %s can be cut off from %s, from %s or from another member, not from %q", a.Do, m.name, PeersOf, ClientsOf, a.Peer)
		}
		c.memberLink(i, j, cut, a.OneWay)
	}
	c.clusterChanged()
	return nil
}

func (c *Coordinator) memberLink(i, j int, cut, oneWay bool) {
	a, b := c.cl.members[i].name, c.cl.members[j].name
	if cut {
		c.sim.Net.Partition(a, b, oneWay)
	} else {
		c.sim.Net.Heal(a, b)
	}
}
