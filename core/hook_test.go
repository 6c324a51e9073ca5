package core

import "time"

// hook is a test-only client whose tasks run closures: tests use it to arm
// timers on a bare node and to do things to the world at a given time.
// Production code never schedules closures, so worlds stay cloneable.
type hook struct {
	node
	fns []func()
}

const fnHook taskFn = 255

func newHook(s *Sim, name string) *hook {
	h := &hook{node: node{sim: s, id: name}}
	h.self, h.idx = h, int32(len(s.clients))
	s.clients = append(s.clients, h)
	return h
}

func (h *hook) exec(t task) {
	if t.fn == fnHook {
		h.fns[t.n]()
	}
}
func (h *hook) handle(Message)   {}
func (h *hook) receive(Envelope) {}

// timer arms a node timer (pause- and crash-aware) that runs f at t.
func (h *hook) timer(t time.Duration, f func()) {
	h.fns = append(h.fns, f)
	h.once(t, task{fn: fnHook, n: len(h.fns) - 1})
}

// do runs f at t (through run: use a hook that is never paused).
func (h *hook) do(t time.Duration, f func()) {
	h.fns = append(h.fns, f)
	h.sim.at(t, task{kind: evStart, node: h.idx, fn: fnHook, n: len(h.fns) - 1})
}
