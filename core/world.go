package core

import (
	"fmt"
	"slices"
	"time"
)

// World describes a world at time zero: the coordinator's settings, every
// actor, the network and the actions scheduled on it. It is the one
// configuration type of the lab. A named scenario (Scenario.World), a
// sandbox setup or preset (sandbox.Config.World), an explore target
// (Target.World) and a lesson (lessons.Lesson.World) each produce a World,
// and Build is the only way a description becomes a Sim.
//
// ContentionConfig and ShardsConfig are shorthands that write a World of
// alike contenders or shard workers; a world they cannot say (two locks,
// an ACL, workers beside contenders) lists its actors here directly.
type World struct {
	Seed        uint64
	Coordinator CoordinatorSpec
	// RedisNodes independent Redis servers (Redlock's), redis-1... .
	RedisNodes int
	// Resources are the protected stores, in the order they are added.
	Resources []Resource
	// Workers are added before Processes, each in order: where two start
	// at the same instant, the first added campaigns first.
	Workers   []ShardConfig
	Processes []ProcessConfig
	// Net is every link's default (nil: DefaultLink); Links override
	// single directions.
	Net   *Link
	Links []DirectedLink
	// Script is scheduled last: the world's own actions (a preset's
	// story, a sandbox's drawn pauses).
	Script ActionLog
}

// CoordinatorSpec is what a world sets on its coordinator.
type CoordinatorSpec struct {
	// System: ZooKeeper and Consul make the server theirs (sessions,
	// zxids, lock-delay). Kubernetes' API server and Redlock's clients
	// keep the etcd-modelled coordinator, and need nothing set here.
	System      System
	TokenSource TokenSource
	// LockDelay blocks re-acquisition after an invalidated holder.
	LockDelay time.Duration
	ACL       []ACLRule
	// FirstTokens give named locks the first generation token their
	// first holder gets (the seed's examples start at 1, 7 and 41).
	FirstTokens []FirstToken
	// Members makes the coordinator a cluster of that many members
	// (cluster.go): 0 or 1 is one server, as before; 3 or 5 are the
	// usual clusters (etcd, ZooKeeper, Consul, Kubernetes' etcd). DiskSync is each member's fsync time (0: the
	// default, DefaultDiskSync).
	Members  int
	DiskSync time.Duration
}

// MaxFirstToken is the largest first token a world may give: far above
// any token a lesson shows (the curriculum's start at 1, 7 and 41), and far
// enough below the largest int64 that no run, however many acquisitions
// its event budget allows, can wrap a token round to a negative one.
const MaxFirstToken int64 = 1_000_000_000_000

// FirstToken is the generation token the first holder of Lock gets.
type FirstToken struct {
	Lock  string
	Token int64
}

// ResourceKind says which store a Resource is.
type ResourceKind uint8

const (
	// ResourceRegister is a register; Guard checks fencing tokens.
	ResourceRegister ResourceKind = iota + 1
	// ResourceQueue is a job queue; Guard checks idempotency keys.
	ResourceQueue
	// ResourceOffsets is a shard offset store of Shards shards; Guard
	// checks each shard's lease token.
	ResourceOffsets
)

// Resource is one protected store.
type Resource struct {
	Kind   ResourceKind
	Name   string
	Guard  bool
	Shards int
}

// RegisterResource, QueueResource and OffsetsResource write the three
// kinds of Resource: a register.
func RegisterResource(name string, fencing bool) Resource {
	return Resource{Kind: ResourceRegister, Name: name, Guard: fencing}
}

// QueueResource is a job queue.
func QueueResource(name string, idempotency bool) Resource {
	return Resource{Kind: ResourceQueue, Name: name, Guard: idempotency}
}

// OffsetsResource is a shard offset store.
func OffsetsResource(name string, shards int, fencing bool) Resource {
	return Resource{Kind: ResourceOffsets, Name: name, Guard: fencing, Shards: shards}
}

// DirectedLink overrides the link From -> To.
type DirectedLink struct {
	From, To string
	Link
}

// BothWays returns the overrides of a -> b and b -> a.
func BothWays(a, b string, l Link) []DirectedLink {
	return []DirectedLink{{From: a, To: b, Link: l}, {From: b, To: a, Link: l}}
}

// Names lists the world's process and worker names, workers first.
func (w World) Names() []string {
	out := make([]string, 0, len(w.Workers)+len(w.Processes))
	for _, c := range w.Workers {
		out = append(out, c.Name)
	}
	for _, c := range w.Processes {
		out = append(out, c.Name)
	}
	return out
}

// actorNames lists every actor of the world but the network.
func (w World) actorNames() []string {
	out := []string{CoordinatorName}
	if w.Coordinator.Members > 1 {
		for i := 1; i <= w.Coordinator.Members; i++ {
			out = append(out, MemberName(i))
		}
	}
	for i := 1; i <= w.RedisNodes; i++ {
		out = append(out, RedisNodeName(i))
	}
	for _, r := range w.Resources {
		out = append(out, r.Name)
	}
	return append(out, w.Names()...)
}

// Validate refuses a world Build could not make: a name used twice, a
// resource of no known kind, a link or a process's work aimed at no actor,
// an invalid scripted action.
func (w World) Validate() error {
	if w.RedisNodes < 0 || w.RedisNodes > MaxRedisNodes {
		return fmt.Errorf("world: 0 to %d Redis nodes, got %d", MaxRedisNodes, w.RedisNodes)
	}
	if err := w.Coordinator.validateMembers(); err != nil {
		return err
	}
	for _, f := range w.Coordinator.FirstTokens {
		if f.Token < 0 || f.Token > MaxFirstToken {
			return fmt.Errorf("world: the first token of %s must be 0 to %d, got %d", f.Lock, MaxFirstToken, f.Token)
		}
	}
	names := w.actorNames()
	for i, n := range names {
		if n == "" {
			return fmt.Errorf("world: an actor has no name")
		}
		if slices.Contains(names[:i], n) {
			return fmt.Errorf("world: the name %q is used twice", n)
		}
		if n == "net" || n == "learner" {
			return fmt.Errorf("world: the name %q is the trace's own (the network's, the learner's)", n)
		}
	}
	kinds := map[string]ResourceKind{}
	for _, r := range w.Resources {
		if r.Kind < ResourceRegister || r.Kind > ResourceOffsets {
			return fmt.Errorf("world: resource %q has no known kind", r.Name)
		}
		if r.Kind == ResourceOffsets && r.Shards < 1 {
			return fmt.Errorf("world: offset store %q needs at least one shard", r.Name)
		}
		kinds[r.Name] = r.Kind
	}
	for _, p := range w.Processes {
		if k, ok := kinds[p.Target]; p.Target != "" && (!ok || k == ResourceOffsets) {
			return fmt.Errorf("world: process %s works on %q, which is no register or queue of this world", p.Name, p.Target)
		}
	}
	for _, c := range w.Workers {
		if k, ok := kinds[c.offsets()]; !ok || k != ResourceOffsets {
			return fmt.Errorf("world: worker %s commits to %q, which is no offset store of this world", c.Name, c.offsets())
		}
	}
	for _, l := range w.Links {
		if !slices.Contains(names, l.From) || !slices.Contains(names, l.To) || l.From == l.To {
			return fmt.Errorf("world: link %s -> %s: both ends must be actors of this world", l.From, l.To)
		}
	}
	for i, a := range w.Script {
		if err := a.Validate(); err != nil {
			return fmt.Errorf("world: script action %d: %w", i+1, err)
		}
	}
	return nil
}

// Build makes the world: the coordinator, then the Redis nodes, the
// resources, the workers and the processes in their order, the network,
// and the script scheduled. An invalid world is refused, never built.
func (w World) Build() (*Sim, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	s := NewSim(w.Seed)
	if k := w.fleetKeys(); k > 0 {
		// A fleet makes a key for each shard and worker, and a lock for
		// each shard, as it runs: room for them now spares the tables'
		// growth in every run.
		s.Coord.kv, s.Coord.locks = make(map[string]*KeyValue, k), make(map[string]*lockState, k)
	}
	c := w.Coordinator
	s.Coord.TokenSource = c.TokenSource
	s.Coord.LockDelay = c.LockDelay
	s.Coord.rules = c.System.rules() // the system, chosen once
	s.Coord.rules.configure(s.Coord, c)
	s.Coord.ACL = c.ACL
	if c.Members > 1 {
		s.Coord.cl = newCluster(c.Members, c.DiskSync)
		s.Coord.memberTrace(0, KindLeader, I(FTerm, s.Coord.cl.term), I(FRev, s.Coord.Rev))
	}
	for _, f := range c.FirstTokens {
		s.Coord.SetGeneration(f.Lock, f.Token-1)
	}
	s.AddRedisNodes(w.RedisNodes)
	for _, r := range w.Resources {
		switch r.Kind {
		case ResourceRegister:
			s.AddRegister(r.Name, r.Guard)
		case ResourceQueue:
			s.AddJobQueue(r.Name, r.Guard)
		case ResourceOffsets:
			s.AddOffsetStore(r.Name, r.Shards, r.Guard)
		}
	}
	for _, c := range w.Workers {
		s.AddShardWorker(c)
	}
	for _, c := range w.Processes {
		s.AddProcess(c)
	}
	if w.Net != nil {
		s.Net.Default = *w.Net
	}
	for _, l := range w.Links {
		*s.Net.Link(l.From, l.To) = l.Link
	}
	s.Schedule(w.Script)
	return s, nil
}

// fleetKeys is how many keys a world's shard workers make: one a shard
// and one a worker.
func (w World) fleetKeys() int {
	k := 0
	for _, c := range w.Workers {
		k = max(k, c.Shards)
	}
	if k > 0 {
		k += len(w.Workers)
	}
	return k
}

// BuildWorld builds the world a writer returned, or passes its error on:
// s, err := core.BuildWorld(cfg.World(seed)).
func BuildWorld(w World, err error) (*Sim, error) {
	if err != nil {
		return nil, err
	}
	return w.Build()
}

// validateMembers refuses a cluster the model cannot run: too many
// members, a negative disk sync, or a system whose cluster is not modelled.
func (c CoordinatorSpec) validateMembers() error {
	switch {
	case c.Members < 0 || c.Members > MaxMembers:
		return fmt.Errorf("world: a coordinator of 1 to %d members, got %d", MaxMembers, c.Members)
	case c.DiskSync < 0 || c.DiskSync > time.Minute:
		return fmt.Errorf("world: a disk sync of 0 to 1m0s, got %s", c.DiskSync)
	case c.Members > 1 && !c.System.rules().clustered():
		return fmt.Errorf("world: %s has no coordinator cluster to give members to: its Redis nodes are independent (set Redis nodes instead of members)", c.System.Title())
	}
	return nil
}
