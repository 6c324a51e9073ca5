package core

import "time"

// node is what every client actor shares: the stop-the-world pause and
// crash conditions, and timers that respect them. While paused, timers and
// arriving messages queue up and run, late and in order, on resume; a crash
// kills every timer and reply of the old life (epoch).
//
// Everything a node will do later is a task (data, not a closure), so a
// world can be cloned mid-run: see clone.go.
type node struct {
	sim     *Sim
	self    client
	idx     int32 // position in sim.clients
	id      string
	paused  bool
	crashed bool
	epoch   int
	pauses  int // numbers pauses, so an early resume cancels the old auto-resume
	pending []task
	// timers holds, for each named timer, the sequence number of the
	// event it last armed (0: stopped). A timer event runs only while it
	// is still its timer's latest and unstopped: so stopping or re-arming
	// one is a store, and a world's timers copy with the node.
	timers [numTimers]uint64
}

// timerID names one of a node's restartable timers.
type timerID uint8

const (
	noTimer timerID = iota // a one-shot task nobody stops (only a crash kills it)
	tmRenew
	tmDeadline // Process
	tmWork     // Process
	tmRetry    // Process
	tmScan     // ShardWorker
	tmCommit   // ShardWorker
	tmCheck    // ShardWorker
	numTimers
)

// client is a node-owning actor (a Process or a ShardWorker) that runs tasks.
type client interface {
	actor
	base() *node
	exec(t task)
	handle(m Message)
}

func (n *node) base() *node { return n }

// stop disarms timer id; its pending event, if any, will do nothing.
func (n *node) stop(id timerID) { n.timers[id] = 0 }

// live reports whether t, if it is a named timer's task, is still armed.
func (n *node) live(t *task) bool { return t.timer == noTimer || n.timers[t.timer] == t.tseq }

func (n *node) name() string { return n.id }

func (n *node) trace(kind string, f ...Field) { n.sim.Trace.add(n.sim.now, n.id, kind, f...) }

func (n *node) send(to string, m Message) bool { return n.sim.Net.send(n.id, to, m) }

// run executes t now, queues it while paused, drops it when crashed.
func (n *node) run(t task) {
	if n.crashed {
		return
	}
	if n.paused {
		n.pending = append(n.pending, t)
		return
	}
	if t.guarded && (t.epoch != n.epoch || !n.live(&t)) {
		return // a timer stopped, or a message or timer of an earlier life
	}
	switch t.fn {
	case fnHandle:
		n.self.handle(t.msg)
	case fnDelete:
		n.send(CoordinatorName, deleteReq{Key: t.act.Key})
	case fnPut:
		n.send(CoordinatorName, putReq{Key: t.act.Key, Value: t.act.Value})
	default:
		n.self.exec(t)
	}
}

// arm (re)arms timer id to run fn through run at absolute time t. The
// event it armed before, if still pending, will do nothing.
func (n *node) arm(id timerID, t time.Duration, fn taskFn) {
	n.armTask(id, t, task{fn: fn})
}

// armTask arms timer id (or, with noTimer, a one-shot) to run tk (its fn
// and payload) at t.
func (n *node) armTask(id timerID, t time.Duration, tk task) {
	tk.kind, tk.node, tk.guarded, tk.epoch, tk.timer = evTimer, n.idx, true, n.epoch, id
	tk.tseq = n.sim.nextSeq()
	if id != noTimer {
		n.timers[id] = tk.tseq
	}
	n.sim.atSeq(t, tk.tseq, tk)
}

// rearm arms timer id d from now.
func (n *node) rearm(id timerID, d time.Duration, fn taskFn) { n.arm(id, n.sim.now+d, fn) }

// after runs fn d from now, once; only a crash cancels it.
func (n *node) after(d time.Duration, fn taskFn) { n.arm(noTimer, n.sim.now+d, fn) }

// deliver hands a message to the actor's handler through run, unless the
// node crashed (or crashed and restarted) meanwhile.
func (n *node) deliver(env Envelope) {
	n.run(task{fn: fnHandle, msg: env.Msg, guarded: true, epoch: n.epoch})
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
	n.sim.at(n.sim.now+d, task{kind: evResume, node: n.idx, epoch: n.epoch, n: n.pauses})
}

func (n *node) resume() {
	if !n.paused {
		return
	}
	n.paused = false
	due := n.pending
	n.pending = nil
	n.trace(KindResume, I("overdue", int64(len(due))))
	for _, t := range due {
		n.run(t)
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
	n.timers = [numTimers]uint64{}
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
