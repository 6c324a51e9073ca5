// Package core is LeaseLab's deterministic simulator of coordinators, leases,
// paused processes and fenced resources.
//
// Everything runs on one goroutine in virtual time. Events sit in a min-heap
// ordered by (time, sequence number), and every random choice (jitter, drops,
// sampled pauses, lease IDs) comes from one seeded math/rand/v2 source. So the
// same seed and the same action log always produce the same trace, byte for
// byte, on every platform: that is the property the lessons, the explorer and
// the permalinks all stand on.
package core

import (
	"container/heap"
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
	rng   *rand.Rand
	seed  uint64

	// Trace records every observable event in order.
	Trace *Trace
	// Net carries every message between actors.
	Net *Network
	// Coord is the coordination service (etcd/ZooKeeper style).
	Coord *Coordinator

	actors    map[string]actor
	procs     []*Process
	workers   []*ShardWorker
	Register  *FencedRegister
	Queue     *JobQueue
	Offsets   *OffsetStore
	msgCount  uint64
	actionErr []error
}

// actor is anything that receives messages.
type actor interface {
	name() string
	receive(m *Envelope)
}

type event struct {
	at time.Duration
	// late events (learner actions) fire after every ordinary event due at
	// the same instant, including ones scheduled meanwhile. So an action
	// applied live, after the clock has reached t, and the same action
	// replayed from a log fire in the same order: replays are exact.
	late bool
	seq  uint64
	fire func()
}

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	if q[i].late != q[j].late {
		return !q[i].late
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	*q = old[:n-1]
	return e
}

// NewSim returns an empty world at time zero whose randomness comes only
// from seed. It has a coordinator and a network; add processes and resources
// with the Add methods or use a scenario builder.
func NewSim(seed uint64) *Sim {
	s := &Sim{
		rng:    rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
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

// at schedules fire at absolute virtual time t (never in the past).
func (s *Sim) at(t time.Duration, fire func()) {
	if t < s.now {
		t = s.now
	}
	s.seq++
	heap.Push(&s.queue, &event{at: t, seq: s.seq, fire: fire})
}

// atLate schedules fire at t after every ordinary event due then.
func (s *Sim) atLate(t time.Duration, fire func()) {
	if t < s.now {
		t = s.now
	}
	s.seq++
	heap.Push(&s.queue, &event{at: t, late: true, seq: s.seq, fire: fire})
}

// after schedules fire d from now.
func (s *Sim) after(d time.Duration, fire func()) { s.at(s.now+d, fire) }

// Step fires the next event and reports whether there was one.
func (s *Sim) Step() bool {
	if len(s.queue) == 0 {
		return false
	}
	e := heap.Pop(&s.queue).(*event)
	s.now = e.at
	e.fire()
	return true
}

// NextEventAt returns the time of the next pending event, or false if the
// queue is empty.
func (s *Sim) NextEventAt() (time.Duration, bool) {
	if len(s.queue) == 0 {
		return 0, false
	}
	return s.queue[0].at, true
}

// RunUntil fires every event scheduled at or before t, then sets the clock
// to t. It returns the number of events fired.
func (s *Sim) RunUntil(t time.Duration) int {
	n := 0
	for len(s.queue) > 0 && s.queue[0].at <= t {
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
