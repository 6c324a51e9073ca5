package core

import (
	"maps"
	"math/rand/v2"
	"slices"
)

// Clone returns an independent copy of the world as it is now: running
// both on gives the same traces, and changing one never changes the other.
// The explorer snapshots a run with it so thousands of fault schedules can
// share the simulation of their common prefix.
//
// What is copied: the clock, the queue and the timers (plain values), the
// random source's state, the network's links, the coordinator's keys,
// leases, locks and watches, every process and worker (their queued work),
// and the resources. What is shared: values never mutated after creation
// (messages in flight, queued actions, process configs' batches, watch
// records, trace events) and the trace's prefix, whose slice is clipped so
// that either side's next event reallocates.
func (s *Sim) Clone() *Sim { return s.CloneInto(nil) }

// cloneSlack is the spare capacity a clone's queue and task slots get.
const cloneSlack = 8

// CloneInto is Clone into dst, a world that will never be used again (nil:
// a new one). Its storage is reused: slices, maps, and the structs of its
// network, coordinator, leases, locks, processes and resources. The
// explorer clones once per schedule and drops each world once its verdict
// is in, so recycling them makes a schedule cost next to no allocation.
// Nothing may point into dst afterwards except through the returned world.
func (s *Sim) CloneInto(dst *Sim) *Sim {
	if dst == s {
		panic("core: CloneInto: a world cannot be cloned into itself")
	}
	var old Sim
	if dst == nil {
		dst = &Sim{}
	} else {
		old = *dst
	}
	n := dst
	n.copyClock(s, &old)
	n.copyNetwork(s, &old)
	var c cloner
	n.Coord = s.Coord.cloneInto(n, old.Coord, &c)
	n.copyResources(s, &old)
	n.copyClients(s, &old)
	return n
}

// copyClock makes n s's clock, random source, trace and queue of timers,
// in old's storage (old is what n was).
func (n *Sim) copyClock(s, old *Sim) {
	pcg, rng, tr := old.pcg, old.rng, old.Trace
	if pcg == nil || rng == nil {
		pcg = new(rand.PCG)
		rng = rand.New(pcg)
	}
	*pcg = *s.pcg
	if tr == nil {
		tr = &Trace{}
	}
	*tr = s.Trace.clone()
	*n = Sim{
		now: s.now, seq: s.seq, seed: s.seed, msgCount: s.msgCount,
		pcg: pcg, rng: rng, Trace: tr,
		actionErr: slices.Clip(s.actionErr),
	}
	// Only the task slots in use are copied, renumbered in queue order
	// (the heap's keys, and so its shape, are unchanged), with a little
	// room to grow: a clone usually runs on.
	k := len(s.queue)
	n.queue = slices.Grow(old.queue[:0], k+cloneSlack)[:k]
	n.tasks = slices.Grow(old.tasks[:0], k+cloneSlack)[:k]
	for i, e := range s.queue {
		n.tasks[i] = s.tasks[e.slot]
		e.slot = int32(i)
		n.queue[i] = e
	}
	n.free = slices.Grow(old.free[:0], cloneSlack)
}

// copyNetwork makes n's network a copy of s's: its links, stalls, holds
// and connections.
func (n *Sim) copyNetwork(s, old *Sim) {
	net := old.Net
	if net == nil {
		net = &Network{}
	}
	links, stalls := net.links, net.stalls[:0]
	*net = Network{sim: n, Default: s.Net.Default, stalls: append(stalls, s.Net.stalls...), longestHold: s.Net.longestHold, holdsEnd: s.Net.holdsEnd, conns: cloneConns(s.Net.conns)}
	net.links = deepMapInto(links, s.Net.links, func(to, from *Link) { *to = *from })
	n.Net = net
}

// copyResources copies the actors other than clients (the coordinator
// is n.Coord already), and points Register, Queue and Offsets at the
// copies; a name's old object in old is reused.
func (n *Sim) copyResources(s, old *Sim) {
	n.actors = old.actors
	if n.actors == nil {
		n.actors = make(map[string]actor, len(s.actors))
	} else {
		for name := range n.actors {
			if _, ok := s.actors[name]; !ok {
				delete(n.actors, name)
			}
		}
	}
	for name, a := range s.actors {
		if _, ok := a.(*Coordinator); ok {
			n.actors[name] = n.Coord
		} else if cp := n.cloneResource(a, n.actors[name]); cp != nil {
			n.actors[name] = cp
		}
	}
	if s.Register != nil {
		n.Register = n.actors[s.Register.Name].(*FencedRegister)
	}
	if s.Queue != nil {
		n.Queue = n.actors[s.Queue.Name].(*JobQueue)
	}
	if s.Offsets != nil {
		n.Offsets = n.actors[s.Offsets.Name].(*OffsetStore)
	}
}

// cloneResource copies resource a into n, in prev's object if it is one
// of a's type (nil: a is no resource, a client copied by copyClients).
func (n *Sim) cloneResource(a, prev actor) actor {
	switch a := a.(type) {
	case *FencedRegister:
		r := reuse[FencedRegister](prev)
		*r = *a
		r.sim = n
		return r
	case *JobQueue:
		q := reuse[JobQueue](prev)
		seen := q.seen
		*q = *a
		q.sim, q.Jobs = n, slices.Clip(a.Jobs)
		if seen == nil {
			q.seen = maps.Clone(a.seen)
		} else {
			clear(seen)
			maps.Copy(seen, a.seen)
			q.seen = seen
		}
		return q
	case *OffsetStore:
		o := reuse[OffsetStore](prev)
		off, hi := o.Offset[:0], o.Highest[:0]
		*o = *a
		o.sim, o.Offset, o.Highest = n, append(off, a.Offset...), append(hi, a.Highest...)
		return o
	case *RedisNode:
		r := reuse[RedisNode](prev)
		*r = *a
		r.sim, r.keys, r.truth = n, maps.Clone(a.keys), maps.Clone(a.truth)
		return r
	}
	return nil
}

// copyClients copies every process and shard worker with its queued
// work, in old's objects where they are of the same kind.
func (n *Sim) copyClients(s, old *Sim) {
	n.clients = slices.Grow(old.clients[:0], len(s.clients))[:len(s.clients)]
	n.procs, n.workers = old.procs[:0], old.workers[:0]
	for i, cl := range s.clients {
		var prev client
		if i < len(old.clients) {
			prev = old.clients[i] // read before n.clients[i] (same array) is set
		}
		cp, pending := n.cloneClient(cl, prev)
		b := cp.base()
		b.sim, b.self = n, cp
		b.pending = append(pending, cl.base().pending...)
		n.clients[i] = cp
		n.actors[b.id] = cp
	}
}

// cloneClient copies a process or worker into prev's object if it is one
// of its kind, and returns the copy with the storage its queued work is
// to reuse.
func (n *Sim) cloneClient(cl, prev client) (client, []task) {
	switch a := cl.(type) {
	case *Process:
		p := reuse[Process](prev)
		pending := p.pending[:0]
		*p = *a
		p.rules = a.rules.clone() // the client's own state, not shared
		n.procs = append(n.procs, p)
		return p, pending
	case *ShardWorker:
		w := reuse[ShardWorker](prev)
		own := w.own
		pending := w.pending[:0]
		*w = *a
		w.own = a.own.cloneInto(own)
		// The source's slabs' spare room is its own.
		w.commits, w.entries, w.beliefs = slab[offsetCommitReq]{}, slab[offsetEntry]{}, slab[owned]{}
		n.workers = append(n.workers, w)
		return w, pending
	}
	panic("core: Clone: a world with a test hook client cannot be cloned")
}

// reuse returns a's object if it is a *T, or a new T.
func reuse[T any](a any) *T {
	if p, ok := a.(*T); ok && p != nil {
		return p
	}
	return new(T)
}

// cloner maps shared mutable objects to their copies, so two locks that
// share a shard set still share one in the clone.
type cloner struct {
	sets map[*shardSet]*shardSet
}

func (c *cloner) set(s *shardSet) *shardSet {
	if s == nil {
		return nil
	}
	if c.sets == nil {
		c.sets = map[*shardSet]*shardSet{}
	}
	return memo(c.sets, s, func() *shardSet {
		return &shardSet{prefix: s.prefix, keys: s.keys, owned: s.owned, count: maps.Clone(s.count), untracked: s.untracked, present: slices.Clone(s.present)}
	})
}

// deepMapInto copies src, a map of pointers, into dst (nil: a new map)
// with set copying each pointed-to value. dst's entries whose keys src
// still has keep their objects, overwritten; the rest are dropped.
func deepMapInto[K comparable, V any](dst, src map[K]*V, set func(to, from *V)) map[K]*V {
	if dst == nil {
		dst = make(map[K]*V, len(src))
	} else {
		for k := range dst {
			if _, ok := src[k]; !ok {
				delete(dst, k)
			}
		}
	}
	for k, p := range src {
		q := dst[k]
		if q == nil {
			q = new(V)
			dst[k] = q
		}
		set(q, p)
	}
	return dst
}

// memo returns the copy of p made so far, or makes it (nil stays nil).
func memo[T any](seen map[*T]*T, p *T, fresh func() *T) *T {
	if p == nil {
		return nil
	}
	if cp, ok := seen[p]; ok {
		return cp
	}
	cp := fresh()
	seen[p] = cp
	return cp
}

// cloneInto copies the coordinator into d (nil: a new one) for world n,
// reusing d's maps, slices and the objects its maps point to.
func (co *Coordinator) cloneInto(n *Sim, d *Coordinator, c *cloner) *Coordinator {
	var kv map[string]*KeyValue
	var leases map[LeaseID]*Lease
	var locks map[string]*lockState
	var sorted []string
	var leaseOrder []LeaseID
	var watches []*watch
	if d == nil {
		d = new(Coordinator)
	} else {
		kv, leases, locks = d.kv, d.leases, d.locks
		sorted, leaseOrder, watches = d.sorted[:0], d.leaseOrder[:0], d.watches[:0]
	}
	*d = *co
	d.sim = n
	d.kv = deepMapInto(kv, co.kv, func(to, from *KeyValue) { *to = *from })
	d.sorted = append(sorted, co.sorted...)
	d.leases = deepMapInto(leases, co.leases, func(to, from *Lease) {
		keys := to.keys[:0]
		*to = *from
		to.keys = append(keys, from.keys...)
	})
	d.leaseOrder = append(leaseOrder, co.leaseOrder...)
	d.locks = deepMapInto(locks, co.locks, func(to, from *lockState) {
		members := to.members[:0]
		*to = *from
		to.members = append(members, from.members...)
		to.set = c.set(from.set)
	})
	d.watches = append(watches, co.watches...)
	d.buckets = slices.Clip(co.buckets) // finished windows: append-only
	// Answers already made are shared; the slabs' spare room and the map
	// of last answers are the source's own.
	d.renewals, d.results, d.lastRenewal, d.leaseRefs = slab[keepAliveResp]{}, slab[keepAliveResult]{}, nil, slab[*Lease]{}
	d.leaseSlab, d.keySlab = slab[Lease]{}, slab[KeyValue]{}
	d.lastSet = c.set(co.lastSet)
	d.cl = co.cl.clone()
	return d
}
