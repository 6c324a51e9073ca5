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
// What is copied: the clock, the queue (with each pending timer remapped),
// the random source's state, the network's links, the coordinator's keys,
// leases, locks and watches, every process and worker (their timers and
// queued work), and the resources. What is shared: values never mutated
// after creation (messages in flight, queued actions, process configs'
// batches, watch records, trace events) and the trace's prefix, whose
// slice is clipped so that either side's next event reallocates.
func (s *Sim) Clone() *Sim {
	c := &cloner{timers: map[*timer]*timer{}, sets: map[*shardSet]*shardSet{}}
	pcg := *s.pcg
	n := &Sim{
		now: s.now, seq: s.seq, seed: s.seed, msgCount: s.msgCount,
		pcg:       &pcg,
		Trace:     &Trace{Events: slices.Clip(s.Trace.Events), Quiet: s.Trace.Quiet, only: s.Trace.only, fields: slices.Clip(s.Trace.fields)},
		actors:    make(map[string]actor, len(s.actors)),
		actionErr: slices.Clip(s.actionErr),
	}
	n.rng = rand.New(n.pcg)
	n.queue = slices.Clone(s.queue)
	n.free = slices.Clone(s.free)
	n.tasks = make([]task, len(s.tasks))
	for i, t := range s.tasks {
		t.tm = c.timer(t.tm)
		n.tasks[i] = t
	}
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
			p.renewT, p.deadlineT, p.workT, p.retryT = c.timer(a.renewT), c.timer(a.deadlineT), c.timer(a.workT), c.timer(a.retryT)
			cp = &p
			n.procs = append(n.procs, &p)
		case *ShardWorker:
			w := *a
			w.own = deepMap(a.own, nil)
			w.renewT, w.scanT, w.commitT, w.checkT = c.timer(a.renewT), c.timer(a.scanT), c.timer(a.commitT), c.timer(a.checkT)
			cp = &w
			n.workers = append(n.workers, &w)
		default:
			panic("core: Clone: a world with a test hook client cannot be cloned")
		}
		b := cp.base()
		b.sim, b.self = n, cp
		b.pending = make([]task, len(b.pending))
		for j, t := range cl.base().pending {
			t.tm = c.timer(t.tm)
			b.pending[j] = t
		}
		n.clients[i] = cp
		n.actors[b.id] = cp
	}
	return n
}

// cloner maps shared mutable objects to their copies, so two references to
// one timer (the queue's and the process's) stay one timer in the clone.
type cloner struct {
	timers map[*timer]*timer
	sets   map[*shardSet]*shardSet
}

func (c *cloner) timer(t *timer) *timer {
	return memo(c.timers, t, func() *timer { return &timer{dead: t.dead} })
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
