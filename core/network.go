package core

import (
	"slices"
	"time"
)

// Link describes the path from one actor to another. Links are directional:
// a one-way partition cuts A->B and leaves B->A working.
type Link struct {
	Delay  time.Duration // base one-way delay
	Jitter float64       // extra delay, uniform in [0, Jitter*Delay]
	Drop   float64       // probability a message is lost
	Cut    bool          // partitioned: every message is lost
}

// DefaultLink is used where no link was configured: 5 ms, 20 % jitter, no loss.
var DefaultLink = Link{Delay: 5 * time.Millisecond, Jitter: 0.2}

// RoundTrip is the slowest round trip over this link both ways: twice the
// delay with all its jitter (the lease-policy rule keeps more than this to
// spare).
func (l Link) RoundTrip() time.Duration {
	return 2 * (l.Delay + time.Duration(l.Jitter*float64(l.Delay)))
}

// Network delivers messages between actors with per-link delay, jitter, loss
// and partitions. A message that is in flight when its link is cut is lost;
// a message to a paused process is delivered to its inbox and handled when
// the process resumes, as a real kernel would buffer it.
type Network struct {
	sim     *Sim
	links   map[[2]string]*Link
	stalls  []stall
	Default Link

	longestHold, holdsEnd time.Duration
	// conns are the client connections to the coordinator that are down
	// (see conn.go).
	conns map[string]*conn
	// dst remembers actors messages were delivered to, by a hash of their
	// name (see recipient): a world's actors never change once added, and
	// a clone builds its Network anew.
	dst [16]recipient
}

// recipient is an actor and its name.
type recipient struct {
	name string
	a    actor
}

// stall holds back what from sends (to to, if set) until until: a path
// that has stopped moving, whose packets queue and then arrive late
// instead of being lost.
type stall struct {
	from, to string
	until    time.Duration
}

// Hold delays everything from sends to to ("": to anyone) for d from now:
// a message sent meanwhile leaves when the hold ends and arrives the
// link's delay after that, in the order it was sent.
func (n *Network) Hold(from, to string, d time.Duration) {
	now := n.sim.now
	n.stalls = slices.DeleteFunc(n.stalls, func(h stall) bool { return h.until <= now })
	n.stalls = append(n.stalls, stall{from: from, to: to, until: now + d})
	n.longestHold, n.holdsEnd = max(n.longestHold, d), max(n.holdsEnd, now+d)
	n.sim.Trace.add(now, "net", KindHold, S(FFrom, from), S(FTo, to), D(FUntil, now+d))
}

// Holding returns until when anything from sends is held, or 0 if
// nothing of it is held now.
func (n *Network) Holding(from string) time.Duration { return n.heldUntil(from, "") }

// LongestHold is the longest hold so far and HoldsEnd when the last one
// ends: a held message flies at most the longest hold plus its link's
// delay, and none is in flight once the last hold is a delay past (views
// look back that far for messages in flight, and only while it matters).
func (n *Network) LongestHold() time.Duration { return n.longestHold }

// HoldsEnd is when the last hold applied ends (0: none yet).
func (n *Network) HoldsEnd() time.Duration { return n.holdsEnd }

// heldUntil returns when a message from -> to sent now may leave (0: at
// once); to "" asks about holds on any destination.
func (n *Network) heldUntil(from, to string) time.Duration {
	var until time.Duration
	for _, h := range n.stalls {
		if h.from == from && (to == "" || h.to == "" || h.to == to) && h.until > n.sim.now {
			until = max(until, h.until)
		}
	}
	return until
}

func newNetwork(s *Sim) *Network {
	return &Network{sim: s, links: map[[2]string]*Link{}, Default: DefaultLink}
}

// Link returns the link from a to b, creating it from the default.
func (n *Network) Link(a, b string) *Link {
	k := [2]string{a, b}
	l := n.links[k]
	if l == nil {
		c := n.Default
		l = &c
		n.links[k] = l
	}
	return l
}

// SetDelay sets the delay and jitter of both directions between a and b.
func (n *Network) SetDelay(a, b string, d time.Duration, jitter float64) {
	for _, l := range []*Link{n.Link(a, b), n.Link(b, a)} {
		l.Delay, l.Jitter = d, jitter
	}
}

// Partition cuts a->b, and b->a too unless oneWay.
func (n *Network) Partition(a, b string, oneWay bool) {
	n.Link(a, b).Cut = true
	if !oneWay {
		n.Link(b, a).Cut = true
	}
	if c := n.connClient(a, b); c != "" {
		n.connDown(c)
	}
	dir := "both"
	if oneWay {
		dir = "one-way"
	}
	n.sim.Trace.add(n.sim.now, "net", KindPartition, S(FA, a), S(FB, b), S(FDir, dir))
}

// Heal restores both directions between a and b.
func (n *Network) Heal(a, b string) {
	n.Link(a, b).Cut = false
	n.Link(b, a).Cut = false
	n.sim.Trace.add(n.sim.now, "net", KindHeal, S(FA, a), S(FB, b))
	if c := n.connClient(a, b); c != "" {
		n.connHealed(c)
	}
}

// Cut reports whether a->b is partitioned.
func (n *Network) Cut(a, b string) bool {
	if len(n.links) > 0 {
		if l := n.links[[2]string{a, b}]; l != nil {
			return l.Cut
		}
	}
	return n.Default.Cut
}

// Envelope is a message in flight.
type Envelope struct {
	ID       uint64
	From, To string
	SentAt   time.Duration
	ArriveAt time.Duration
	Msg      Message
}

// send puts m on the wire from -> to. It returns false if the message was
// lost at once (partition or loss).
func (n *Network) send(from, to string, m Message) bool {
	s := n.sim
	s.msgCount++
	id := s.msgCount
	l := &n.Default
	if len(n.links) > 0 { // most worlds configure no link: skip the hashing
		if c := n.links[[2]string{from, to}]; c != nil {
			l = c
		}
	}
	if len(n.conns) > 0 {
		if c := n.connClient(from, to); c != "" && n.wait(c, from, to, m, id) {
			return true
		}
	}
	if l.Cut {
		s.Trace.aside(s.now, from, KindDrop, I(FID, int64(id)), S(FTo, to), S(FMsg, m.Kind()), S(FWhy, "partitioned"))
		return false
	}
	if l.Drop > 0 && s.rng.Float64() < l.Drop {
		s.Trace.aside(s.now, from, KindDrop, I(FID, int64(id)), S(FTo, to), S(FMsg, m.Kind()), S(FWhy, "lost"))
		return false
	}
	d := s.jitter(l.Delay, l.Jitter)
	leave := s.now
	if len(n.stalls) > 0 {
		if until := n.heldUntil(from, to); until > leave {
			// Held messages leave together and arrive in the order they
			// were sent (one instant, sequence order), as a stalled
			// connection delivers them: the link's delay without jitter.
			leave, d = until, l.Delay
		}
	}
	env := Envelope{ID: id, From: from, To: to, SentAt: s.now, ArriveAt: leave + d, Msg: m}
	cause := s.Trace.cause
	if !s.Trace.Quiet {
		// Room for every field a send may have, so adding the token
		// and the hold does not move them to the heap.
		var room [6]Field
		fs := append(room[:0], I(FID, int64(id)), S(FTo, to), S(FMsg, m.Kind()), D(FArrive, env.ArriveAt))
		if tok := m.token(); tok != 0 {
			fs = append(fs, I(FToken, tok))
		}
		if leave > s.now {
			fs = append(fs, D(FHeld, leave-s.now))
		}
		if id := s.Trace.aside(s.now, from, KindSend, fs...); id != 0 {
			s.Trace.cause = id // the arrival is caused by the send
		}
	}
	s.at(env.ArriveAt, task{kind: evDeliver, env: env})
	s.Trace.cause = cause
	return true
}

func (n *Network) deliver(env Envelope) {
	s := n.sim
	if len(n.conns) > 0 {
		if c := n.connClient(env.From, env.To); c != "" && n.wait(c, env.From, env.To, env.Msg, env.ID) {
			return
		}
	}
	if n.Cut(env.From, env.To) {
		s.Trace.aside(s.now, env.From, KindDrop, I(FID, int64(env.ID)), S(FTo, env.To), S(FMsg, env.Msg.Kind()), S(FWhy, "partitioned in flight"))
		return
	}
	var a actor = s.Coord // half of all messages go to it: no lookup by name
	if env.To != CoordinatorName {
		if a = n.recipient(env.To); a == nil {
			return
		}
	}
	a.receive(env)
}

// recipient returns the actor called name (nil: none), looking in dst
// before the world's map: a few names (the offset store, the workers the
// coordinator answers) receive most messages.
func (n *Network) recipient(name string) actor {
	if name == "" {
		return n.sim.actors[name]
	}
	d := &n.dst[(uint(len(name))+7*uint(name[len(name)-1])+uint(name[len(name)/2]))%uint(len(n.dst))]
	if d.a != nil && d.name == name {
		return d.a
	}
	a := n.sim.actors[name]
	if a != nil {
		*d = recipient{name: name, a: a}
	}
	return a
}
