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
	// timers are the node's named timers (see arm).
	timers [numTimers]timerState
}

// timerID names one of a node's restartable timers. A Process and a
// ShardWorker give the four slots their own names.
type timerID uint8

const (
	noTimer timerID = iota // a one-shot task nobody stops (only a crash kills it)
	tmRenew
	tmDeadline // Process
	tmWork     // Process
	tmRetry    // Process
	numTimers

	tmScan   = tmDeadline // ShardWorker
	tmCommit = tmWork     // ShardWorker
	tmCheck  = tmRetry    // ShardWorker
)

// timerState is one named timer. Arming takes a sequence number and, at
// most, queues an event: re-arming a timer for later while its event is
// still queued (a lease deadline pushed back by each renewal) queues
// nothing, and that event, when it fires, moves itself on to the latest
// arming's time and sequence number (timerDue). Events keep the exact
// (time, sequence) order they would have had, so runs are unchanged; the
// queue just holds one event per timer instead of one per arming.
type timerState struct {
	seq      uint64        // the latest arming (0: stopped)
	at       time.Duration // when it is due
	fn       taskFn        // what it runs
	queued   uint64        // sequence number of its event in the queue (0: none)
	queuedAt time.Duration // when that event is due
}

// client is a node-owning actor (a Process or a ShardWorker) that runs tasks.
type client interface {
	actor
	base() *node
	exec(t task)
	handle(m Message)
}

func (n *node) base() *node { return n }

// stop disarms timer id; its queued event, if any, will do nothing.
func (n *node) stop(id timerID) { n.timers[id].seq = 0 }

// live reports whether t, if it is a named timer's task, is still armed.
func (n *node) live(t *task) bool { return t.timer == noTimer || n.timers[t.timer].seq == t.tseq }

// timerDue is called as t, a named timer's event, fires: it reports
// whether t is the timer's latest arming. If it is not, and it was the
// timer's queued event while the timer was re-armed for later, it queues
// the latest arming in its exact place (see timerState).
func (n *node) timerDue(t *task) bool {
	st := &n.timers[t.timer]
	carrier := st.queued == t.tseq
	if carrier {
		st.queued = 0
	}
	if st.seq == t.tseq {
		return true
	}
	if carrier && st.seq != 0 {
		st.queued, st.queuedAt = st.seq, st.at
		n.sim.atSeq(st.at, st.seq, &task{kind: evTimer, fn: st.fn, guarded: true, node: n.idx, epoch: n.epoch, timer: t.timer, tseq: st.seq})
	}
	return false
}

func (n *node) name() string { return n.id }

func (n *node) trace(kind Kind, f ...Field) { n.sim.Trace.add(n.sim.now, n.id, kind, f...) }

func (n *node) send(to string, m Message) bool { return n.sim.Net.send(n.id, to, m) }

// run executes t now, queues a copy while paused, drops it when crashed.
func (n *node) run(t *task) {
	if n.crashed {
		return
	}
	if n.paused {
		n.pending = append(n.pending, *t)
		n.pending[len(n.pending)-1].cause = n.sim.Trace.cause // what it does will be caused by this
		return
	}
	if t.guarded && (t.epoch != n.epoch || !n.live(t)) {
		return // a timer stopped, or a message or timer of an earlier life
	}
	switch t.fn {
	case fnHandle:
		n.self.handle(t.env.Msg)
	case fnDelete:
		n.send(CoordinatorName, deleteReq{Key: t.act.Key})
	case fnPut:
		n.send(CoordinatorName, putReq{Key: t.act.Key, Value: t.act.Value})
	default:
		n.self.exec(*t)
	}
}

// arm (re)arms timer id to run fn through run at absolute time t (never
// in the past). The arming it replaces, if still pending, does nothing.
func (n *node) arm(id timerID, t time.Duration, fn taskFn) {
	seq := n.sim.nextSeq()
	t = max(t, n.sim.now)
	st := &n.timers[id]
	st.seq, st.at, st.fn = seq, t, fn
	if st.queued != 0 && st.queuedAt <= t {
		return // the queued event fires first and moves itself on to t
	}
	st.queued, st.queuedAt = seq, t
	n.sim.atSeq(t, seq, &task{kind: evTimer, fn: fn, guarded: true, node: n.idx, epoch: n.epoch, timer: id, tseq: seq})
}

// rearm arms timer id d from now.
func (n *node) rearm(id timerID, d time.Duration, fn taskFn) { n.arm(id, n.sim.now+d, fn) }

// once runs tk (its fn and payload) through run at t; only a crash
// cancels it.
func (n *node) once(t time.Duration, tk task) {
	tk.kind, tk.node, tk.guarded, tk.epoch, tk.timer = evTimer, n.idx, true, n.epoch, noTimer
	n.sim.at(t, tk)
}

// after runs fn d from now, once; only a crash cancels it.
func (n *node) after(d time.Duration, fn taskFn) { n.once(n.sim.now+d, task{fn: fn}) }

// deliver hands a message to the actor's handler through run, unless the
// node crashed (or crashed and restarted) meanwhile.
func (n *node) deliver(env Envelope) {
	n.run(&task{fn: fnHandle, env: env, guarded: true, epoch: n.epoch})
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
	n.trace(KindPause, D(FFor, d))
	n.sim.at(n.sim.now+d, task{kind: evResume, node: n.idx, epoch: n.epoch, n: n.pauses})
}

func (n *node) resume() {
	if !n.paused {
		return
	}
	n.paused = false
	due := n.pending
	n.pending = nil
	n.trace(KindResume, I(FOverdue, int64(len(due))))
	woke := n.sim.Trace.cause
	for i := range due {
		t := &due[i]
		// Each waiting task is caused by the resume that let it run now
		// (the pause that held it back) and by what scheduled it.
		n.sim.Trace.cause, n.sim.Trace.also = woke, t.cause
		n.run(t)
	}
	n.sim.Trace.cause, n.sim.Trace.also = woke, 0
}

// die marks the node crashed and kills its timers; the caller resets its
// own state.
func (n *node) die() bool {
	if n.crashed {
		return false
	}
	n.epoch++
	n.paused, n.pending = false, nil
	n.timers = [numTimers]timerState{}
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
