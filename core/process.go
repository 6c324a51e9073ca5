package core

import (
	"fmt"
	"strconv"
	"time"
)

// ProcessConfig configures one contender.
type ProcessConfig struct {
	Name   string
	Lock   string
	Recipe Recipe
	// TTL is the session lease's time to live.
	TTL time.Duration
	// RenewEvery is the period of a client's own renewal timer, started
	// at the grant (a loop around etcd's KeepAliveOnce). Zero means etcd's
	// own KeepAlive client instead: the first keepalive goes out at once,
	// each next one is due TTL/3 after the previous *response* and is sent
	// by a loop that wakes every 500 ms (see etcd_keepalive.go).
	RenewEvery time.Duration
	// DeadlineCheck, for etcd's KeepAlive client, is how often it looks
	// at its local deadline (etcd: every 1 s, so a client learns of loss
	// up to a second after its deadline). Zero means that 1 s; a negative
	// value checks at the deadline itself, which etcd does not do (the
	// conformance suite uses it to show the difference is visible).
	DeadlineCheck time.Duration
	// RetryBase is how long a process waits before campaigning again after
	// losing its session; RetryJitter spreads it over [RetryBase,
	// RetryBase*(1+RetryJitter)] so contenders do not retry in lockstep.
	RetryBase   time.Duration
	RetryJitter float64
	// StartAt is when the process first campaigns.
	StartAt time.Duration
	// StepDownFor is how long stepping_down lasts (work stopped, lease being
	// released) before the process is a follower again. Zero means 200 ms.
	StepDownFor time.Duration
	// WorkEvery makes a leader do one unit of work this often (a register
	// write or, with Batch, one job). Zero: work only on Write actions.
	WorkEvery time.Duration
	// WorkTakes is how long one unit of a leader's work keeps the
	// process's loop busy (zero: work is instant). With RenewOnWorkLoop
	// the lease renewal runs on that same loop, so a renewal that falls
	// due while a unit runs waits until the unit ends: under load it goes
	// out late, and the lease lapses exactly as if the process had
	// paused. Without it, renewals run on a task of their own, as etcd's
	// KeepAlive goroutine does. A process with WorkTakes traces every
	// renewal (KindRenewal) with how late it went out, or that it never did.
	WorkTakes       time.Duration
	RenewOnWorkLoop bool
	// WriteLatency is the time between deciding to write (while believing
	// it leads) and the write leaving the process: a pause can fall into it.
	WriteLatency time.Duration
	// Target names the resource actor work goes to.
	Target string
	// Batch is a scheduler's job list: idempotency keys enqueued one per
	// WorkEvery by each new leader, from the start.
	Batch []string
	// IgnoreLeaseLoss reproduces the is_leader-boolean bug: the process
	// logs lease loss but keeps acting as leader.
	IgnoreLeaseLoss bool
	// System is the coordination system the process speaks to (zero:
	// etcd); each other system's client follows its own library (see the
	// file named after the system). Kubernetes reads RenewDeadline, with RetryBase as its
	// RetryPeriod (RenewEvery, if set, for the leader's renewals) and TTL
	// as its LeaseDuration; Redlock reads RedisNodes,
	// with TTL as the lock's expiry and RenewEvery as its Extend period.
	System        System
	RenewDeadline time.Duration
	RedisNodes    int
	// ReuseSession reproduces the expired-session bug: the client made
	// its session once and campaigns again with it after it expired, so
	// every Lock fails ("requested lease not found") and it never leads
	// again. A restart (a new life, a new session) cures it.
	ReuseSession bool
	// StaleWatch reproduces the stale-watch bug: the client's watch ends
	// when its connection drops and, once reconnected, it neither watches
	// again nor reads the contenders again, so a waiter whose turn came
	// during the cut never learns it holds the lock. FixRelist cures it.
	StaleWatch bool
}

func (c *ProcessConfig) fill() {
	if c.RenewEvery < 0 {
		c.RenewEvery = 0
	}
	if c.DeadlineCheck == 0 {
		c.DeadlineCheck = etcdDeadlineCheck
	}
	if c.RetryBase <= 0 {
		c.RetryBase = time.Second
	}
	if c.StepDownFor <= 0 {
		c.StepDownFor = 200 * time.Millisecond
	}
}

// Process is a lease-holding client: a session (lease + keepalive loop), a
// campaign for one lock, and the work a leader does. Its local lease
// deadline is the arrival time of the last renewal response plus the TTL:
// always later than the coordinator's expiry, which is the gap the lab
// exists to show.
type Process struct {
	node
	cfg ProcessConfig

	state    State
	zombie   bool // IgnoreLeaseLoss: lost the lease but still acts as leader
	awaiting bool // waiting for a lease grant

	// The session every system's client keeps.
	lease    LeaseID
	ttl      time.Duration
	deadline time.Duration // local belief: last renewal arrival + TTL
	token    int64
	key      string
	myRev    int64 // create revision of key
	watching string

	// The leader's work.
	batchPos  int
	writes    int
	busyUntil time.Duration // WorkTakes: the work loop is busy until then

	// rules is the client of the process's system (system_rules.go),
	// with that client's own state (etcd's: etcd_client.go).
	rules clientRules

	// Wakeups counts watch notifications this process received while
	// waiting for the lock (the herd effect shows here).
	Wakeups int
}

// AddProcess adds a contender that starts campaigning at cfg.StartAt.
func (s *Sim) AddProcess(cfg ProcessConfig) *Process {
	cfg.fill()
	p := &Process{node: node{sim: s, id: cfg.Name}, cfg: cfg, rules: cfg.System.rules().newClient()}
	s.addClient(p, cfg.StartAt, fnCampaign)
	s.procs = append(s.procs, p)
	return p
}

// Name returns the process name.
func (p *Process) Name() string { return p.cfg.Name }

// Config returns the process configuration.
func (p *Process) Config() ProcessConfig { return p.cfg }

// State returns the state machine's current state.
func (p *Process) State() State { return p.state }

// BelievesLeader reports whether the process would act as leader now.
func (p *Process) BelievesLeader() bool { return !p.crashed && p.state == Leader }

// Token returns the fencing token the process believes it holds (0: none).
func (p *Process) Token() int64 { return p.token }

// LocalDeadline returns the process's own idea of when its lease ends.
func (p *Process) LocalDeadline() time.Duration { return p.deadline }

// Busy returns how long the unit of work in progress keeps the process's
// loop busy from now (0: idle, or its work takes no time).
func (p *Process) Busy() time.Duration {
	if p.crashed {
		return 0
	}
	return max(0, p.busyUntil-p.sim.now)
}

// LeaseID returns the session lease (0: none).
func (p *Process) LeaseID() LeaseID { return p.lease }

func (p *Process) setState(to State, why string) {
	if p.state == to {
		return
	}
	from := p.state
	p.state = to
	p.trace(KindState, S(FFrom, from.String()), S(FTo, to.String()), S(FWhy, why), I(FToken, p.token))
}

func (p *Process) receive(env Envelope) { p.deliver(env) }

// exec runs one of the process's tasks (see node.run).
func (p *Process) exec(t task) {
	if p.rules.exec(p, t) {
		return
	}
	switch t.fn {
	case fnCampaign:
		p.campaign()
	case fnGrantTimeout:
		if p.awaiting {
			p.awaiting = false
			p.setState(Follower, "no answer from coordinator")
			p.retry()
		}
	case fnDeadline:
		if p.lease != 0 && p.sim.now >= p.deadline {
			p.loseLease("local lease deadline passed")
		}
	case fnSteppedDown:
		p.token = 0
		p.setState(Follower, "stepped down")
		p.retry()
	case fnRecheck:
		if p.state == Candidate && p.key != "" {
			p.send(CoordinatorName, checkReq{Lock: p.cfg.Lock, Key: p.key, Rev: p.myRev, Recipe: p.cfg.Recipe})
		}
	case fnWork:
		p.work()
	case fnSendWrite:
		p.send(p.cfg.Target, t.env.Msg)
	case fnWrite:
		p.write(t.act.Value, t.act.Label, t.act.Token)
	case fnRelease:
		p.Release()
	}
}

func (p *Process) handle(m Message) {
	if p.rules.handle(p, m) {
		return
	}
	switch m := m.(type) {
	case lockStatus:
		p.onLockStatus(m)
	case watchEvent:
		if p.state == Candidate && p.key != "" {
			p.Wakeups++
			p.send(CoordinatorName, checkReq{Lock: p.cfg.Lock, Key: p.key, Rev: p.myRev, Recipe: p.cfg.Recipe})
		}
	case opResp:
		switch {
		case !p.sim.Trace.on(KindNote):
		case m.Err != "":
			p.trace(KindNote, S(FText, m.Op+" "+m.Key+" refused: "+m.Err))
		default:
			p.trace(KindNote, S(FText, fmt.Sprintf("%s %s ok at revision %d", m.Op, m.Key, m.Rev)))
		}
	case writeResp, revokeResp:
	}
}

// campaign starts a campaign the way the process's system does.
func (p *Process) campaign() { p.rules.campaign(p) }

// beginCampaign makes a follower a candidate for its lock; false if it is
// not a follower (it leads, campaigns or steps down already).
func (p *Process) beginCampaign() bool {
	if p.state != Follower {
		return false
	}
	p.setState(Candidate, "campaign for "+p.cfg.Lock)
	return true
}

// openSession sends a system's session request; a lost answer must not
// strand the candidate (the same guard as etcd's grant).
func (p *Process) openSession(req Message) {
	p.awaiting = true
	p.send(CoordinatorName, req)
	p.rearm(tmRetry, p.sim.jitter(p.cfg.RetryBase+p.cfg.TTL/3, p.cfg.RetryJitter), fnGrantTimeout)
}

// loseLease ends the session: the process must stop acting at once.
func (p *Process) loseLease(why string) {
	if p.lease == 0 {
		return
	}
	if p.sim.Trace.on(KindLeaseLost) {
		p.trace(KindLeaseLost, S(FLease, p.lease.String()), S(FWhy, why))
	}
	p.endSession()
	if p.cfg.IgnoreLeaseLoss && p.state == Leader {
		p.zombie = true
		p.trace(KindNote, S(FText, "lease lost, but is_leader is still true: carrying on"))
		return
	}
	p.stepDown(why)
}

// endSession forgets the session, the client's part first.
func (p *Process) endSession() {
	p.rules.ended(p)
	p.stop(tmRenew)
	p.stop(tmDeadline)
	p.lease, p.key, p.watching = 0, "", ""
}

// stepDown leaves the leader or candidate state: work stops now, the lease
// is released if it still exists, and a new campaign is scheduled.
func (p *Process) stepDown(why string) {
	p.stop(tmWork)
	if p.lease != 0 {
		if !p.rules.unlock(p) {
			p.send(CoordinatorName, revokeReq{Lease: p.lease})
		}
		p.endSession()
	}
	switch p.state {
	case Leader:
		p.setState(SteppingDown, why)
		p.after(p.cfg.StepDownFor, fnSteppedDown)
	case Candidate:
		p.setState(Follower, why)
		p.retry()
	}
}

func (p *Process) retry() {
	p.rearm(tmRetry, p.sim.jitter(p.cfg.RetryBase, p.cfg.RetryJitter), fnCampaign)
}

func (p *Process) onLockStatus(st lockStatus) {
	if p.state != Candidate || p.lease == 0 {
		return
	}
	switch {
	case st.Gone:
		why := ErrSessionExpired.Error()
		if st.Err != "" {
			why = st.Err
		}
		p.trace(KindSessionLost, S(FLock, st.Lock), S(FWhy, why))
		p.loseLease(why)
	case st.Err != "":
		if p.sim.Trace.on(KindNote) {
			p.trace(KindNote, S(FText, "acquire failed: "+st.Err))
		}
		p.stepDown("acquire failed")
	case st.Holder:
		p.key, p.myRev, p.token, p.watching = st.Key, st.CreateRev, st.Token, ""
		p.becomeLeader()
	case st.Reread:
		p.key, p.myRev, p.watching = st.Key, st.CreateRev, ""
		p.send(CoordinatorName, checkReq{Lock: p.cfg.Lock, Key: p.key, Rev: p.myRev, Recipe: p.cfg.Recipe, Reread: true})
	case st.RetryAfter > 0:
		p.key, p.myRev = st.Key, st.CreateRev
		p.after(st.RetryAfter, fnRecheck)
	default:
		p.key, p.myRev, p.watching = st.Key, st.CreateRev, st.Watching
	}
}

func (p *Process) becomeLeader() {
	p.setState(Leader, fmt.Sprintf("acquired %s with token %d", p.cfg.Lock, p.token))
	p.batchPos = 0 // completion was never recorded: a new leader redoes the batch
	if p.cfg.WorkEvery > 0 {
		p.rearm(tmWork, p.cfg.WorkEvery, fnWork)
	}
}

// work does one unit of a leader's work and schedules the next.
func (p *Process) work() {
	if !p.BelievesLeader() {
		return
	}
	if len(p.cfg.Batch) > 0 {
		if p.batchPos >= len(p.cfg.Batch) {
			// The leader stays leader (the next run is another day); a
			// successor that took over mid-batch redoes it from the start.
			if p.sim.Trace.on(KindNote) {
				p.trace(KindNote, S(FText, fmt.Sprintf("batch complete: %d jobs enqueued", len(p.cfg.Batch))))
			}
			return
		}
		key := p.cfg.Batch[p.batchPos]
		p.batchPos++
		p.send(p.cfg.Target, enqueueReq{Token: p.token, Key: key})
	} else {
		p.writes++
		p.write(p.cfg.Name+"-"+strconv.Itoa(p.writes), "", 0)
	}
	if p.cfg.WorkTakes > 0 {
		p.busyUntil = p.sim.now + p.cfg.WorkTakes
		if p.sim.Trace.on(KindWorkBusy) {
			p.trace(KindWorkBusy, D(FFor, p.cfg.WorkTakes))
		}
	}
	p.rearm(tmWork, max(p.cfg.WorkEvery, p.cfg.WorkTakes), fnWork)
}

// write decides a write to the process's target while believing it leads,
// and sends it WriteLatency later. A process that does not believe it leads
// refuses: that check is all a correct client can do; the rest is fencing.
func (p *Process) write(value, label string, tokenOverride int64) {
	if !p.BelievesLeader() {
		if p.sim.Trace.on(KindNote) {
			p.trace(KindNote, S(FText, "write "+value+" refused: not leader ("+p.state.String()+")"))
		}
		return
	}
	tok := p.token
	if tokenOverride != 0 {
		tok = tokenOverride
	}
	m := writeReq{Token: tok, Value: value, Label: label}
	if p.cfg.WriteLatency <= 0 {
		p.send(p.cfg.Target, m)
		return
	}
	p.once(p.sim.now+p.cfg.WriteLatency, task{fn: fnSendWrite, env: Envelope{Msg: m}})
}

// Release gives the lock up cleanly (revoking the session deletes the key
// without arming any lock-delay).
func (p *Process) Release() {
	if p.rules.release(p) {
		return
	}
	if p.state == Leader || p.state == Candidate {
		p.zombie = false
		p.stepDown("released")
	}
}

func (p *Process) crash() {
	if !p.die() {
		return
	}
	p.lease, p.key, p.watching, p.awaiting, p.zombie = 0, "", "", false, false
	p.rules.crashed()
	p.busyUntil = 0
	p.setState(Follower, "crashed")
	p.token = 0
}

func (p *Process) restart() {
	if p.revive() {
		p.campaign()
	}
}
