package core

import "time"

// node is what every client actor shares: the stop-the-world pause and
// crash conditions, and timers that respect them. While paused, timers and
// arriving messages queue up and run, late and in order, on resume; a crash
// kills every timer and reply of the old life (epoch).
type node struct {
	sim     *Sim
	id      string
	paused  bool
	crashed bool
	epoch   int
	pauses  int // numbers pauses, so an early resume cancels the old auto-resume
	pending []func()
}

type timer struct{ dead bool }

func (t *timer) stop() {
	if t != nil {
		t.dead = true
	}
}

func (n *node) name() string { return n.id }

func (n *node) trace(kind string, f ...Field) { n.sim.Trace.add(n.sim.now, n.id, kind, f...) }

func (n *node) send(to string, m Message) bool { return n.sim.Net.send(n.id, to, m) }

// run executes fn now, queues it while paused, drops it when crashed.
func (n *node) run(fn func()) {
	if n.crashed {
		return
	}
	if n.paused {
		n.pending = append(n.pending, fn)
		return
	}
	fn()
}

// at arms a timer for absolute time t that fires through run.
func (n *node) at(t time.Duration, fn func()) *timer {
	tm := &timer{}
	epoch := n.epoch
	n.sim.at(t, func() {
		if tm.dead || epoch != n.epoch {
			return
		}
		n.run(func() {
			if !tm.dead && epoch == n.epoch {
				fn()
			}
		})
	})
	return tm
}

func (n *node) after(d time.Duration, fn func()) *timer { return n.at(n.sim.now+d, fn) }

// deliver hands a message to handle through run, unless the node crashed
// (or crashed and restarted) meanwhile.
func (n *node) deliver(env *Envelope, handle func(Message)) {
	epoch := n.epoch
	n.run(func() {
		if epoch == n.epoch {
			handle(env.Msg)
		}
	})
}

// Paused reports a stop-the-world pause in progress.
func (n *node) Paused() bool { return n.paused }

// Crashed reports a crashed node.
func (n *node) Crashed() bool { return n.crashed }

func (n *node) pause(d time.Duration) {
	if n.crashed || n.paused {
		return
	}
	n.paused = true
	n.pauses++
	n.trace(KindPause, D("for_ms", d))
	epoch, id := n.epoch, n.pauses
	n.sim.after(d, func() {
		if epoch == n.epoch && id == n.pauses {
			n.resume()
		}
	})
}

func (n *node) resume() {
	if !n.paused {
		return
	}
	n.paused = false
	due := n.pending
	n.pending = nil
	n.trace(KindResume, I("overdue", int64(len(due))))
	for _, fn := range due {
		n.run(fn)
	}
}

// die marks the node crashed and kills its timers; the caller resets its
// own state.
func (n *node) die() bool {
	if n.crashed {
		return false
	}
	n.epoch++
	n.paused, n.pending = false, nil
	n.trace(KindCrash)
	n.crashed = true
	return true
}

// revive clears the crash; the caller starts its life again.
func (n *node) revive() bool {
	if !n.crashed {
		return false
	}
	n.crashed = false
	n.epoch++
	n.trace(KindRestart)
	return true
}
