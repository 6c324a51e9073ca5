package core

import "time"

// What a search (core/explore) needs of a world beyond running it: which
// clients a fault can name, whether a learner action is still to come, and
// shortening a pause already under way, so one paused world can stand for
// every length of that pause (explore's doc says how).

// ClientNames returns the names of the world's processes and workers, in
// the order they joined: the names a fault can target.
func (s *Sim) ClientNames() []string {
	names := make([]string, len(s.clients))
	for i, c := range s.clients {
		names[i] = c.base().id
	}
	return names
}

// ActionQueued reports a learner action of kind do still waiting to be
// applied (a scheduled switch of fencing, say).
func (s *Sim) ActionQueued(do Verb) bool {
	for _, e := range s.queue {
		if tk := &s.tasks[e.slot]; tk.kind == evAction && tk.act.Do == do {
			return true
		}
	}
	return false
}

// Pauses returns how many times the named process or worker has been
// paused, and false if the world has no client of that name.
func (s *Sim) Pauses(name string) (int, bool) {
	if n := s.node(name); n != nil {
		return n.pauses, true
	}
	return 0, false
}

// MovePauseEnd moves the pending automatic resume of the named client's
// current pause to t (no earlier than now), and reports whether there was
// one to move. Everything else about a pause is the same whatever its
// length, so the world is then exactly as if it had been paused for the
// shorter length from the start — except the pause's own trace line,
// which still shows the length first asked for.
func (s *Sim) MovePauseEnd(name string, t time.Duration) bool {
	n := s.node(name)
	if n == nil {
		return false
	}
	for i := range s.queue {
		e := &s.queue[i]
		if tk := &s.tasks[e.slot]; tk.kind == evResume && tk.node == n.idx && tk.n == n.pauses && tk.epoch == n.epoch {
			if t < s.now {
				t = s.now
			}
			e.at = t
			s.queue.up(i)
			return true
		}
	}
	return false
}

// node returns the process's or worker's node, or nil.
func (s *Sim) node(name string) *node {
	for _, c := range s.clients {
		if n := c.base(); n.id == name {
			return n
		}
	}
	return nil
}
