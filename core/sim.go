// Package core is LeaseLab's deterministic simulator of coordinators, leases,
// paused processes and fenced resources.
//
// Everything runs on one goroutine in virtual time. Events sit in a min-heap
// ordered by (time, sequence number), and every random choice (jitter, drops,
// sampled pauses, lease IDs) comes from one seeded math/rand/v2 source. So the
// same seed and the same action log always produce the same trace, byte for
// byte, on every platform: that is the property the lessons, the explorer and
// the permalinks all stand on.
//
// A world is described by one type, World (world.go): the coordinator's
// settings, every actor, the network and a script of actions. Scenarios
// and sandbox setups (core/sandbox), explore targets (core/explore) and
// lessons all write a World, and World.Build is the one way a description
// becomes a Sim.
//
// What a run did is its Trace (trace.go): every kind of event and the
// fields it carries are declared once, in schema.go, and read through
// typed accessors (e.Owner(), e.Token(), e.Until()); an event's fields sit
// in shared chunks, two bytes a value, not in maps or slices of their
// own, and the trace records each event in 16 pointer-free bytes
// (trace_store.go), building the Event a reader gets (tr.At(i), tr.All(),
// tr.Span(from, to)) on first read.
//
// The five coordination systems sit behind one seam, system_rules.go: the
// engine (coordinator, processes, the sweep, a cluster's promotion) calls
// serverRules, clientRules and configRules and names no system. A
// system's rules live in its own files: etcd.go (the default server the
// others embed, on top of coordinator.go, lease.go and lock.go) and its
// client in etcd_client.go, etcd_keepalive.go and etcd_fix.go,
// zookeeper.go and zookeeper_client.go, consul.go and consul_client.go,
// kubernetes.go and kubernetes_client.go, redlock.go and redlock_client.go.
// Each client, etcd's too, keeps its state in its own struct (Process holds
// only the session every system shares); the table systems picks
// the implementation once, when the world and each process are built.
// What a system refuses or changes in a free-play world's settings is its
// configRules, over SystemSettings (system_settings.go), which core/sandbox
// writes from its configuration.
package core

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Sim is one simulated world: a clock, an event queue, a network, a
// coordinator, processes and protected resources. A Sim is not safe for use
// by more than one goroutine; it never starts any.
type Sim struct {
	now   time.Duration
	seq   uint64
	queue eventQueue
	tasks []task  // payloads of queued events, by slot
	free  []int32 // empty slots of tasks
	pcg   *rand.PCG
	rng   *rand.Rand
	seed  uint64

	// Trace records every observable event in order.
	Trace *Trace
	// Net carries every message between actors.
	Net *Network
	// Coord is the coordination service (etcd/ZooKeeper style).
	Coord *Coordinator

	actors    map[string]actor
	clients   []client // processes and workers, in creation order
	procs     []*Process
	workers   []*ShardWorker
	Register  *FencedRegister
	Queue     *JobQueue
	Offsets   *OffsetStore
	msgCount  uint64
	actionErr []error
	// stepped is set by the first Step; inStart while a start task runs
	// (task.start). applying holds the slots of tasks an action scheduled
	// before it recorded anything, to be caused by the action's event.
	stepped, inStart bool
	applying         *[]int32
}

// actor is anything that receives messages.
type actor interface {
	name() string
	receive(m Envelope)
}

// event is one entry of the queue: a task due at a time. Events are plain
// data (no closures), so a running world can be cloned (clone.go). The
// heap holds only the ordering key and a slot in Sim.tasks, so sifting
// moves 24 pointer-free bytes, not the task.
type event struct {
	at time.Duration
	// order is late<<63 | seq. Late events (learner actions) fire after
	// every ordinary event due at the same instant, including ones
	// scheduled meanwhile. So an action applied live, after the clock has
	// reached t, and the same action replayed from a log fire in the same
	// order: replays are exact.
	order uint64
	slot  int32
}

const lateBit = 1 << 63

// evKind says who handles an event when it fires.
type evKind uint8

const (
	evTimer     evKind = iota // a node's timer: run its task unless stopped or of an earlier life
	evStart                   // a node's first step (campaign, join), through run
	evResume                  // a pause ends (unless resumed early or crashed meanwhile)
	evAction                  // a learner action
	evDeliver                 // a message arrives
	evLockDelay               // a lock-delay ends: recompute the holder
	evReconnect               // a client's connection to the coordinator comes back
	evRedisPX                 // a Redis node's key reaches its PX expiry (redlock.go)
	evCluster                 // a task of the coordinator's cluster (cluster.go)
)

// taskFn names what a node does when a task runs.
type taskFn uint8

const (
	fnNone taskFn = iota
	fnHandle
	fnDelete
	fnPut
	// Process
	fnCampaign
	fnGrantTimeout
	fnRenew
	fnDeadline
	fnSteppedDown
	fnRecheck
	fnWork
	fnSendWrite
	fnWrite
	fnRelease
	// ShardWorker
	fnJoin
	fnJoinRetry
	fnScan
	fnCommit
	fnCheck
	// ZooKeeper and Consul clients (zookeeper_client.go, consul_client.go)
	fnZKReconnect
	fnCuratorLost
	fnConsulRetry
)

// task is something to do later: the payload of an event, or a node's
// queued work while it is paused. Pointers in it refer only to immutable
// values (actions, messages), shared freely between clones. A message in
// flight is held by value (env), so sending one allocates no envelope.
type task struct {
	kind    evKind
	fn      taskFn
	guarded bool // drop unless epoch is the node's and its timer (if any) is live
	node    int32
	epoch   int
	n       int      // pause number (evResume)
	timer   timerID  // evTimer: the named timer it belongs to, if any
	tseq    uint64   // evTimer: its event's sequence number
	env     Envelope // evDeliver, fnHandle; fnSendWrite: Msg only
	act     *Action
	str     string // lock name (evLockDelay)
	// cause is the trace's chain when the task was scheduled (Trace.cause):
	// what it does is caused by that.
	cause int32
	// start marks a task the world's start set going (scheduled while
	// the world was built, or by such a task before it recorded
	// anything): its events may have no cause.
	start bool
}

// eventQueue is a binary min-heap on (at, late, seq). Keys are unique, so
// the pop order is the same as with any other correct heap.
type eventQueue []event

func (q eventQueue) less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].order < q[j].order
}

func (q *eventQueue) push(e event) {
	*q = append(*q, e)
	q.up(len(*q) - 1)
}

// up restores the heap after entry j moved earlier.
func (q eventQueue) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !q.less(j, i) {
			break
		}
		q[i], q[j] = q[j], q[i]
		j = i
	}
}

// pop removes the earliest event. It moves the hole at the root down to
// a leaf along the earlier child of each pair (one comparison a level),
// then puts the last event in the hole and moves it up: the last event
// is a late one, so it seldom moves far, and this costs about half the
// comparisons of sifting it down from the root.
func (q *eventQueue) pop() event {
	h := *q
	n := len(h) - 1
	e := h[0]
	last := h[n]
	h[n] = event{}
	h = h[:n]
	if n > 0 {
		i := 0
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			if r := l + 1; r < n && h.less(r, l) {
				l = r
			}
			h[i] = h[l]
			i = l
		}
		h[i] = last
		h.up(i)
	}
	*q = h
	return e
}

// NewSim returns an empty world at time zero whose randomness comes only
// from seed. It has a coordinator and a network; add processes and resources
// with the Add methods or use a scenario builder.
func NewSim(seed uint64) *Sim {
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	s := &Sim{
		pcg:    pcg,
		rng:    rand.New(pcg),
		seed:   seed,
		Trace:  &Trace{},
		actors: map[string]actor{},
	}
	s.Net = newNetwork(s)
	s.Coord = newCoordinator(s)
	s.actors[s.Coord.name()] = s.Coord
	return s
}

// Seed returns the seed the world was created with.
func (s *Sim) Seed() uint64 { return s.seed }

// Now returns the current virtual time.
func (s *Sim) Now() time.Duration { return s.now }

// at schedules task tk at absolute virtual time t (never in the past).
func (s *Sim) at(t time.Duration, tk task) { s.atSeq(t, s.nextSeq(), &tk) }

// nextSeq takes the next sequence number.
func (s *Sim) nextSeq() uint64 {
	s.seq++
	return s.seq
}

// atSeq schedules tk at t with sequence number seq (from nextSeq). It
// copies tk: a task is 144 bytes, passed by pointer down to its slot.
func (s *Sim) atSeq(t time.Duration, seq uint64, tk *task) {
	if t < s.now {
		t = s.now
	}
	s.queue.push(event{at: t, order: seq, slot: s.parkCaused(tk)})
}

// parkCaused parks tk with the trace's current chain as its cause.
func (s *Sim) parkCaused(tk *task) int32 {
	tk.cause = s.Trace.cause
	if !s.stepped && s.applying == nil {
		// What the world's building records (a store's setting) is no
		// cause of what its start sets going.
		tk.cause = 0
	}
	tk.start = tk.cause == 0 && (!s.stepped || s.inStart)
	slot := s.park(tk)
	if tk.cause == 0 && s.applying != nil {
		*s.applying = append(*s.applying, slot)
	}
	return slot
}

// atLate schedules tk at t after every ordinary event due then.
func (s *Sim) atLate(t time.Duration, tk task) {
	if t < s.now {
		t = s.now
	}
	s.seq++
	s.queue.push(event{at: t, order: lateBit | s.seq, slot: s.parkCaused(&tk)})
}

// park stores a copy of a task until its event fires and returns its slot.
func (s *Sim) park(tk *task) int32 {
	if n := len(s.free); n > 0 {
		i := s.free[n-1]
		s.free = s.free[:n-1]
		s.tasks[i] = *tk
		return i
	}
	s.tasks = append(s.tasks, *tk)
	return int32(len(s.tasks) - 1)
}

// Step fires the next event and reports whether there was one.
func (s *Sim) Step() bool {
	if s.Trace.Len() >= traceBudget {
		return false // see Exhausted
	}
	if c := s.Coord; c.sweepOrder != 0 && (len(s.queue) == 0 || c.sweepFirst(&s.queue[0])) {
		s.now = c.sweepAt
		s.stepped, s.inStart = true, false
		s.Trace.cause, s.Trace.also = 0, 0 // the coordinator's own clock
		s.Trace.caused = true
		c.sweep()
		return true
	}
	if len(s.queue) == 0 {
		return false
	}
	e := s.queue.pop()
	s.now = e.at
	// The task is read in its slot, not copied out (144 bytes), and the
	// slot is freed once it has run: what it schedules meanwhile goes to
	// other slots. (If s.tasks grows meanwhile, tk still points at the
	// old array, which nothing writes any more.) The slot keeps its task
	// until it is reused (soon: the free list is a stack): clearing it
	// would cost a write barrier whenever the collector runs, for a
	// message the next task overwrites anyway.
	tk := &s.tasks[e.slot]
	s.stepped, s.inStart = true, tk.start
	s.Trace.cause, s.Trace.also = tk.cause, 0
	s.Trace.caused = !tk.start && tk.kind != evAction
	s.fire(tk)
	s.free = append(s.free, e.slot)
	return true
}

// fire dispatches one due event.
func (s *Sim) fire(t *task) {
	switch t.kind {
	case evTimer:
		n := s.clients[t.node].base()
		if t.epoch != n.epoch || t.timer != noTimer && !n.timerDue(t) {
			return
		}
		n.run(t)
	case evStart:
		s.clients[t.node].base().run(t)
	case evResume:
		n := s.clients[t.node].base()
		if t.epoch == n.epoch && t.n == n.pauses {
			n.resume()
		}
	case evAction:
		s.Apply(*t.act)
	case evDeliver:
		s.Net.deliver(t.env)
	case evLockDelay:
		ls := s.Coord.locks[t.str]
		ls.delayArmed = false
		s.Coord.recompute(ls)
	case evReconnect:
		s.Net.reconnect(t.str, t.n)
	case evRedisPX:
		s.fireRedisExpire(t.str)
	case evCluster:
		s.Coord.fireCluster(*t)
	}
}

// addClient registers a process or worker so its events can find it, and
// schedules its first step at start.
func (s *Sim) addClient(c client, start time.Duration, first taskFn) {
	n := c.base()
	n.self, n.idx = c, int32(len(s.clients))
	s.clients = append(s.clients, c)
	s.addActor(c)
	s.at(start, task{kind: evStart, node: n.idx, fn: first})
}

// NextEventAt returns the time of the next pending event, or false if the
// queue is empty.
func (s *Sim) NextEventAt() (time.Duration, bool) {
	at, ok := time.Duration(0), false
	if s.Trace.Len() >= traceBudget {
		return at, false // see Exhausted
	}
	if len(s.queue) > 0 {
		at, ok = s.queue[0].at, true
	}
	if c := s.Coord; c.sweepOrder != 0 && (!ok || c.sweepAt < at) {
		at, ok = c.sweepAt, true
	}
	return at, ok
}

// RunUntil fires every event scheduled at or before t, then sets the clock
// to t. It returns the number of events fired. A world that is Exhausted
// fires nothing more, but its clock still moves, so no caller waiting for
// a time waits for ever.
func (s *Sim) RunUntil(t time.Duration) int {
	n := 0
	for {
		at, ok := s.NextEventAt()
		if !ok || at > t {
			break
		}
		s.Step()
		n++
	}
	if t > s.now {
		s.now = t
	}
	return n
}

// jitter returns d scaled by a uniform factor in [1, 1+frac].
func (s *Sim) jitter(d time.Duration, frac float64) time.Duration {
	if frac <= 0 || d <= 0 {
		return d
	}
	return d + time.Duration(s.rng.Float64()*frac*float64(d))
}

// Rand exposes the world's single random source to scenario code that must
// sample (pause lengths, for instance) without breaking determinism.
func (s *Sim) Rand() *rand.Rand { return s.rng }

func (s *Sim) addActor(a actor) {
	if _, dup := s.actors[a.name()]; dup {
		panic(fmt.Sprintf("core: duplicate actor name %q", a.name()))
	}
	s.actors[a.name()] = a
}

// Process returns the process with the given name, or nil.
func (s *Sim) Process(name string) *Process {
	for _, p := range s.procs {
		if p.cfg.Name == name {
			return p
		}
	}
	return nil
}

// Processes returns the lock-contending processes in creation order.
func (s *Sim) Processes() []*Process { return s.procs }

// Workers returns the shard workers in creation order.
func (s *Sim) Workers() []*ShardWorker { return s.workers }

// ActionErrors lists the learner actions that could not be applied (an
// unknown process name, for example). They are also in the trace.
func (s *Sim) ActionErrors() []error { return s.actionErr }
