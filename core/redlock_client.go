package core

import (
	"fmt"
	"time"
)

// A redsync Mutex as a Process with System Redlock runs it (the nodes and
// the protocol: redlock.go), and the configuration's rules for Redlock.

// redlockSystem is Redlock: the coordinator takes no part (its server is
// etcd's, idle); the Redis nodes above and the client below are all of it.
type redlockSystem struct {
	etcdServer
	libraryConfig
}

func (redlockSystem) newClient() clientRules { return &redlockClient{} }

// redlockClient is one redsync Mutex inside a Process.
type redlockClient struct {
	sharedClient // no session to revoke, nothing a crash forgets
	value        string
	try          int    // tries made in this Lock call
	seq          uint64 // round number: late answers of an earlier round are dropped
	op           redisOp
	start        time.Duration
	replies      int
	oks          int
	until        time.Duration
	holding      bool
	unlocking    bool // the round in flight is an Unlock: nothing follows it
}

func (r *redlockClient) clone() clientRules { c := *r; return &c }

func (r *redlockClient) nodes(p *Process) int { return max(p.cfg.RedisNodes, 1) }

func (r *redlockClient) quorum(p *Process) int { return RedlockQuorum(r.nodes(p)) }

// campaign is a Lock call: a fresh random value, then rounds.
func (r *redlockClient) campaign(p *Process) {
	if p.state != Follower {
		return
	}
	*r = redlockClient{seq: r.seq, value: fmt.Sprintf("%s:%08x", p.cfg.Name, p.sim.rng.Uint32())}
	p.setState(Candidate, "Lock "+p.cfg.Lock)
	r.round(p, redisSetNX)
}

// round sends one script to every node and arms the round's timeout.
func (r *redlockClient) round(p *Process, op redisOp) {
	r.seq++
	r.op, r.start, r.replies, r.oks = op, p.sim.now, 0, 0
	if op == redisSetNX {
		r.try++
	}
	m := redisReq{Op: op, Seq: r.seq, Key: p.cfg.Lock, Value: r.value, TTL: p.cfg.TTL}
	for i := 1; i <= r.nodes(p); i++ {
		p.send(RedisNodeName(i), m)
	}
	// Lock's rounds (SET and the release after a failed one) run under
	// a context of expiry x timeoutFactor; Extend and Unlock have none,
	// so a silent node costs go-redis' read timeout.
	wait := time.Duration(int64(float64(p.cfg.TTL) * RedlockTimeoutFactor))
	if r.unlocking || op == redisTouch {
		wait = redisReadTimeout
	}
	p.rearm(tmRetry, wait, fnGrantTimeout)
}

func (r *redlockClient) handle(p *Process, msg Message) bool {
	m, ok := msg.(redisResp)
	if !ok {
		return false
	}
	if m.Seq != r.seq || r.op == 0 {
		return true
	}
	r.replies++
	if m.OK {
		r.oks++
	}
	if r.replies == r.nodes(p) {
		r.roundDone(p)
	}
	return true
}

// roundDone decides a round: every node answered or the timeout came.
func (r *redlockClient) roundDone(p *Process) {
	op := r.op
	r.op = 0
	p.stop(tmRetry)
	now := p.sim.now
	switch op {
	case redisSetNX:
		until := RedlockValidity(p.cfg.TTL, r.start, now)
		if r.oks >= r.quorum(p) && now < until {
			r.until, r.holding = until, true
			p.token = 0
			p.deadline = until
			p.arm(tmDeadline, until, fnDeadline)
			p.setState(Leader, fmt.Sprintf("Lock %s: %d of %d nodes, valid until %s (no fencing token)", p.cfg.Lock, r.oks, r.nodes(p), FormatTime(until)))
			p.batchPos = 0
			if p.cfg.WorkEvery > 0 {
				p.rearm(tmWork, p.cfg.WorkEvery, fnWork)
			}
			if p.cfg.RenewEvery > 0 {
				p.rearm(tmRenew, p.cfg.RenewEvery, fnRenew)
			}
			return
		}
		if r.oks > 0 && p.sim.Trace.on(KindNote) {
			p.trace(KindNote, S(FText, fmt.Sprintf("try %d: %d of %d nodes, %d needed: giving them back", r.try, r.oks, r.nodes(p), r.quorum(p))))
		}
		r.round(p, redisDel) // give back what this round got
	case redisDel:
		if r.unlocking || p.state != Candidate {
			return // an Unlock: nothing follows it
		}
		if r.try >= RedlockTries {
			p.setState(Follower, fmt.Sprintf("Lock failed after %d tries (ErrFailed)", r.try))
			p.retry()
			return
		}
		delay := redlockMinDelay + time.Duration(p.sim.rng.Int64N(int64(redlockMaxDelay-redlockMinDelay)))
		p.rearm(tmRetry, delay, fnRecheck)
	case redisTouch:
		if p.state != Leader {
			return
		}
		until := RedlockValidity(p.cfg.TTL, r.start, now)
		if r.oks >= r.quorum(p) && now < until {
			r.until, p.deadline = until, until
			p.arm(tmDeadline, until, fnDeadline)
			if p.sim.Trace.on(KindLeaseRenewed) {
				p.trace(KindLeaseRenewed, S(FLease, r.value), D(FDeadline, until), S(FHow, "extend"))
			}
			p.rearm(tmRenew, p.cfg.RenewEvery, fnRenew)
			return
		}
		r.stop(p, fmt.Sprintf("Extend failed: %d of %d nodes", r.oks, r.nodes(p)))
	}
}

// stop ends the holder's belief and unlocks (value-checked, so it
// deletes nothing another client set).
func (r *redlockClient) stop(p *Process, why string) {
	p.stop(tmDeadline)
	p.stop(tmRenew)
	r.holding, r.unlocking = false, true
	r.round(p, redisDel)
	p.stepDown(why)
}

// release is Unlock, for a holder.
func (r *redlockClient) release(p *Process) bool {
	if p.state != Leader {
		return false
	}
	r.stop(p, "released (Unlock)")
	return true
}

// exec runs a Redlock process's tasks; false for shared ones.
func (r *redlockClient) exec(p *Process, t task) bool {
	switch t.fn {
	case fnCampaign:
		r.campaign(p)
	case fnGrantTimeout:
		if r.op != 0 {
			r.roundDone(p)
		}
	case fnRecheck:
		if p.state == Candidate {
			r.round(p, redisSetNX)
		}
	case fnRenew:
		if p.state == Leader {
			r.round(p, redisTouch)
		}
	case fnDeadline:
		if p.state == Leader && p.sim.now >= r.until {
			r.stop(p, "validity passed")
		}
	default:
		return false
	}
	return true
}

// RedlockUntil returns the validity the process computed (0: none, or
// not a Redlock client).
func (p *Process) RedlockUntil() time.Duration {
	r, ok := p.rules.(*redlockClient)
	if !ok || p.state != Leader {
		return 0
	}
	return r.until
}

// The configuration's rules: 1 to MaxRedisNodes nodes, an Extend period
// shorter than the expiry.

func (redlockSystem) checkContention(c ContentionConfig) error {
	if c.RedisNodes < 1 || c.RedisNodes > MaxRedisNodes {
		return fmt.Errorf("redlock needs 1 to %d independent Redis nodes, got %d", MaxRedisNodes, c.RedisNodes)
	}
	return nil
}

func (redlockSystem) contention(c *ContentionConfig, w *World) { w.RedisNodes = c.RedisNodes }

// issuesTokens: every Redlock write carries 0.
func (redlockSystem) issuesTokens() bool { return false }

// ownSetting: redsync tries SET NX on every node and issues no token; its
// nodes are independent, not members of one coordinator.
func (redlockSystem) ownSetting(id SettingID) string {
	switch id {
	case SettingRecipe:
		return "No queue: each client tries SET NX on every Redis node."
	case SettingFirstToken:
		return "Redlock issues no fencing token at all: every write carries 0."
	case SettingLockDelay:
		return noLockDelay(SystemRedlock)
	case SettingMembers:
		return "Redlock has independent Redis nodes, not members."
	case SettingRedisNodes:
		return ""
	}
	return libraryConfig{}.ownSetting(id)
}

func (redlockSystem) check(c SystemSettings, ttlOK bool) []SettingError {
	var errs []SettingError
	if n := c.redisNodes(); n < 1 || n > MaxRedisNodes {
		errs = append(errs, SettingError{Setting: SettingSystem, Msg: fmt.Sprintf("redlock needs 1 to %d independent Redis nodes, got %d", MaxRedisNodes, n)})
	}
	if c.RenewEvery > 0 && ttlOK && c.RenewEvery >= c.TTL {
		errs = append(errs, SettingError{Setting: SettingRenew, Msg: fmt.Sprintf("extending every %s lets a %s lock lapse first", Seconds(c.RenewEvery), Seconds(c.TTL))})
	}
	return libraryChecks(c, false, errs...)
}

// budgetRenewal: a client that does not hold the lock is the expensive
// one: a Lock call is up to 32 tries 50-250 ms apart, each a round to
// every node and one to give back what it won (about three keepalives'
// worth of events), then the application waits retry before calling Lock
// again.
func (redlockSystem) budgetRenewal(retry time.Duration) (time.Duration, bool) {
	lockCall := RedlockTries*(redlockMinDelay+redlockMaxDelay)/2 + retry
	return max(lockCall/(3*RedlockTries), time.Millisecond), true
}
