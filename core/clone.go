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
// What is copied: the clock, the queue and the timers (plain values),
// the random source's state, the network's links, the coordinator's keys,
// leases, locks and watches, every process and worker (their timers and
// queued work), and the resources. What is shared: values never mutated
// after creation (messages in flight, queued actions, process configs'
// batches, watch records, trace events) and the trace's prefix, whose
// slice is clipped so that either side's next event reallocates.
func (s *Sim) Clone() *Sim {
	c := &cloner{sets: map[*shardSet]*shardSet{}}
	pcg := *s.pcg
	n := &Sim{
		now: s.now, seq: s.seq, seed: s.seed, msgCount: s.msgCount,
		pcg:       &pcg,
		Trace:     &Trace{Events: slices.Clip(s.Trace.Events), Quiet: s.Trace.Quiet, only: s.Trace.only, fields: slices.Clip(s.Trace.fields)},
		actors:    make(map[string]actor, len(s.actors)),
		actionErr: slices.Clip(s.actionErr),
	}
	n.rng = rand.New(n.pcg)
	// The copy keeps only the task slots in use, renumbered in queue
	// order (the heap's keys, and so its shape, are unchanged), with a
	// little room to grow: a clone usually runs on.
	n.queue = make(eventQueue, len(s.queue), len(s.queue)+cloneSlack)
	n.tasks = make([]task, len(s.queue), len(s.queue)+cloneSlack)
	for i, e := range s.queue {
		n.tasks[i] = s.tasks[e.slot]
		e.slot = int32(i)
		n.queue[i] = e
	}
	n.free = make([]int32, 0, cloneSlack)
	n.Net = &Network{sim: n, links: make(map[[2]string]*Link, len(s.Net.links)), Default: s.Net.Default}
	for k, l := range s.Net.links {
		cp := *l
		n.Net.links[k] = &cp
	}
	n.Coord = s.Coord.clone(n, c)
	// Actors other than clients, mapped so Register/Queue/Offsets point at
	// the copies.
	for name, a := range s.actors {
		switch a := a.(type) {
		case *Coordinator:
			n.actors[name] = n.Coord
		case *FencedRegister:
			cp := *a
			cp.sim = n
			n.actors[name] = &cp
		case *JobQueue:
			cp := *a
			cp.sim, cp.seen, cp.Jobs = n, maps.Clone(a.seen), slices.Clip(a.Jobs)
			n.actors[name] = &cp
		case *OffsetStore:
			cp := *a
			cp.sim, cp.Offset, cp.Highest = n, slices.Clone(a.Offset), slices.Clone(a.Highest)
			n.actors[name] = &cp
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
	n.clients = make([]client, len(s.clients))
	for i, cl := range s.clients {
		var cp client
		switch a := cl.(type) {
		case *Process:
			p := *a
			cp = &p
			n.procs = append(n.procs, &p)
		case *ShardWorker:
			w := *a
			w.own = deepMap(a.own, nil)
			cp = &w
			n.workers = append(n.workers, &w)
		default:
			panic("core: Clone: a world with a test hook client cannot be cloned")
		}
		b := cp.base()
		b.sim, b.self = n, cp
		b.pending = slices.Clone(b.pending)
		n.clients[i] = cp
		n.actors[b.id] = cp
	}
	return n
}

// cloneSlack is the spare capacity a clone's queue and task slots get.
const cloneSlack = 8

// cloner maps shared mutable objects to their copies, so two locks that
// share a shard set still share one in the clone.
type cloner struct {
	sets map[*shardSet]*shardSet
}

func (c *cloner) set(s *shardSet) *shardSet {
	return memo(c.sets, s, func() *shardSet {
		return &shardSet{prefix: s.prefix, keys: s.keys, owned: s.owned, count: maps.Clone(s.count)}
	})
}

// deepMap copies a map of pointers and the values they point to; fix, if
// set, then deepens each copied value.
func deepMap[K comparable, V any](m map[K]*V, fix func(*V)) map[K]*V {
	out := make(map[K]*V, len(m))
	for k, p := range m {
		v := *p
		if fix != nil {
			fix(&v)
		}
		out[k] = &v
	}
	return out
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

func (co *Coordinator) clone(n *Sim, c *cloner) *Coordinator {
	cp := *co
	cp.sim = n
	cp.kv = deepMap(co.kv, nil)
	cp.sorted = slices.Clone(co.sorted)
	cp.leases = deepMap(co.leases, func(l *Lease) { l.keys = slices.Clone(l.keys) })
	cp.leaseOrder = slices.Clone(co.leaseOrder)
	cp.locks = deepMap(co.locks, func(ls *lockState) {
		ls.members = slices.Clone(ls.members)
		ls.set = c.set(ls.set)
	})
	cp.watches = slices.Clone(co.watches)
	cp.buckets = slices.Clip(co.buckets) // finished windows: append-only
	return &cp
}
