package lab

import (
	"fmt"
	"slices"
	"time"

	"leaselab/core"
)

// RedisView is one of a Redlock world's independent Redis nodes as the
// world view draws it: whose value it holds for the lock's key and how
// long that key's PX has left.
type RedisView struct {
	Name  string
	Down  bool
	Owner string        // the client whose value the node holds ("": none)
	Left  time.Duration // until the key's PX ends (0: no key)
	// PX is the expiry a client sets the key with: the scale of Left.
	PX time.Duration
}

// addRedis adds a Redlock world's Redis nodes, each as it holds the
// first lock's key now, and the majority a client must win.
func (lb *Lab) addRedis(v *WorldView, lock string) {
	s := lb.world.Sim
	nodes := s.RedisNodes()
	if len(nodes) == 0 {
		return
	}
	px := time.Duration(0)
	if ps := s.Processes(); len(ps) > 0 {
		px = ps[0].Config().TTL
	}
	v.Quorum = core.RedlockQuorum(len(nodes))
	for _, r := range nodes {
		rv := RedisView{Name: r.Name, Down: r.Down(), PX: px}
		if val, ends := r.Entry(lock); val != "" {
			rv.Owner, rv.Left = core.RedlockOwner(val), ends-v.Now
		}
		v.Redis = append(v.Redis, rv)
	}
	for i := range v.Procs {
		p := &v.Procs[i]
		if until := s.Process(p.Name).RedlockUntil(); until > 0 {
			p.BeliefLeft = max(0, until-v.Now)
		}
		p.TruthLeft = v.MajorityLeft(p.Name)
	}
}

// RedisHolds is how many Redis nodes hold owner's value now.
func (v WorldView) RedisHolds(owner string) int {
	n := 0
	for _, r := range v.Redis {
		if r.Owner == owner && owner != "" {
			n++
		}
	}
	return n
}

// MajorityLeft is how long owner's value stays on a majority of the
// Redis nodes if nobody extends it: the Quorum-th longest PX left among
// the nodes holding it (0 when it holds no majority now).
func (v WorldView) MajorityLeft(owner string) time.Duration {
	var left []time.Duration
	for _, r := range v.Redis {
		if r.Owner == owner && owner != "" {
			left = append(left, r.Left)
		}
	}
	if v.Quorum == 0 || len(left) < v.Quorum {
		return 0
	}
	slices.Sort(left)
	return left[len(left)-v.Quorum]
}

// RedisSummary says in a line who holds a majority of the Redis nodes:
// "A holds 4 of 5 (a majority is 3)", or that nobody does.
func (v WorldView) RedisSummary() string {
	n := len(v.Redis)
	if h := v.Lock.Holder; h != "" {
		return fmt.Sprintf("%s holds %d of %d (a majority is %d)", h, v.RedisHolds(h), n, v.Quorum)
	}
	return fmt.Sprintf("nobody holds %d of %d", v.Quorum, n)
}
