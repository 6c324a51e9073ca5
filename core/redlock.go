package core

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Redlock as go-redsync/redsync (v4) implements it.
//
// N independent Redis nodes, none of which knows the others. A Lock call
// makes a random value and, up to Tries times, sends SET key value NX PX
// expiry to every node at once, waiting for all answers or expiry x 0.05
// (timeoutFactor), whichever comes first. It has the lock when a majority
// (N/2 + 1) said OK and the validity is still ahead:
//
//	until = now + expiry - (now - start) - expiry x 0.01   (driftFactor)
//
// (redsync subtracts no further constant: the "+ 2 ms" of the Redlock
// write-up was in redsync once, with the wrong sign, and was dropped in
// 2019.) A failed round deletes its value from every node with a
// value-checked script, then waits rand[50, 250) ms. Extend runs a
// value-checked PEXPIRE on every node and needs a majority again; Unlock
// a value-checked DEL. Nothing in any of it is a number that grows: the
// lock hands out no fencing token, so a store cannot tell the holder from
// a client whose validity ran out while it was paused.
//
// A node that restarts without persistence comes back empty, so a second
// client can get a majority while the first is still within its validity.

// redsync's defaults (redsync.go, NewMutex): expiry 8 s, 32 tries,
// retry delay rand[50, 250) ms, drift factor 0.01, timeout factor 0.05.
const (
	RedlockExpiry        = 8 * time.Second
	RedlockTries         = 32
	RedlockDriftFactor   = 0.01
	RedlockTimeoutFactor = 0.05
	redlockMinDelay      = 50 * time.Millisecond
	redlockMaxDelay      = 250 * time.Millisecond
	// redisReadTimeout is go-redis' default ReadTimeout (3 s): how long an
	// Extend or Unlock waits for a node that does not answer.
	redisReadTimeout = 3 * time.Second
	// MaxRedisNodes bounds a world's Redis nodes.
	MaxRedisNodes = 7
)

// RedisNodeName names the i-th (1-based) Redis node.
func RedisNodeName(i int) string { return fmt.Sprintf("redis-%d", i) }

// RedlockValidity is the validity redsync computes for a round that began
// at start and ended at end.
func RedlockValidity(expiry, start, end time.Duration) time.Duration {
	return end + expiry - (end - start) - time.Duration(int64(float64(expiry)*RedlockDriftFactor))
}

// Redis messages: a script on one node.
type (
	redisReq struct {
		noToken
		Op    redisOp
		Seq   uint64
		Key   string
		Value string
		TTL   time.Duration
	}
	redisResp struct {
		noToken
		Op  redisOp
		Seq uint64
		OK  bool
		Err string
	}
)

type redisOp uint8

const (
	redisSetNX redisOp = iota + 1
	redisDel
	redisTouch
)

var redisOpNames = [...]string{"", "SET NX PX", "EVAL delete", "EVAL touch"}

func (m redisReq) Kind() string  { return redisOpNames[m.Op] }
func (m redisResp) Kind() string { return redisOpNames[m.Op] + " reply" }

type redisEntry struct {
	value   string
	expires time.Duration
}

// RedisNode is one independent Redis server holding the lock key with a
// PX expiry. Node 1 also keeps the truth the trace shows: which value, if
// any, a majority of nodes hold now.
type RedisNode struct {
	sim   *Sim
	Name  string
	index int // 1-based
	of    int
	keys  map[string]redisEntry
	down  bool
	truth map[string]string // node 1: lock -> value a majority holds
}

// AddRedisNodes adds n independent Redis nodes, redis-1 to redis-n.
func (s *Sim) AddRedisNodes(n int) {
	for i := 1; i <= n; i++ {
		r := &RedisNode{sim: s, Name: RedisNodeName(i), index: i, of: n, keys: map[string]redisEntry{}}
		if i == 1 {
			r.truth = map[string]string{}
		}
		s.addActor(r)
	}
}

// RedisNode returns the named node, or nil.
func (s *Sim) RedisNode(name string) *RedisNode {
	r, _ := s.actors[name].(*RedisNode)
	return r
}

func (r *RedisNode) name() string { return r.Name }

func (r *RedisNode) trace(kind Kind, f ...Field) { r.sim.Trace.add(r.sim.now, r.Name, kind, f...) }

// Value returns the live value of key on this node ("" if none).
func (r *RedisNode) Value(key string) string {
	v, _ := r.Entry(key)
	return v
}

// Entry returns the live value of key on this node and when its PX ends
// ("" and 0 if the node holds none). A clock jump on the node brings the
// end nearer.
func (r *RedisNode) Entry(key string) (value string, expires time.Duration) {
	e, ok := r.keys[key]
	if !ok || e.expires <= r.sim.now {
		return "", 0
	}
	return e.value, e.expires
}

// RedisNodes returns the world's Redis nodes, redis-1 first (none outside
// a Redlock world).
func (s *Sim) RedisNodes() []*RedisNode {
	var out []*RedisNode
	for i := 1; ; i++ {
		r := s.RedisNode(RedisNodeName(i))
		if r == nil {
			return out
		}
		out = append(out, r)
	}
}

// RedlockQuorum is how many of n nodes a client must win: a majority.
func RedlockQuorum(n int) int { return n/2 + 1 }

// Down reports a node that is stopped.
func (r *RedisNode) Down() bool { return r.down }

func (r *RedisNode) receive(env Envelope) {
	m, ok := env.Msg.(redisReq)
	if !ok {
		return
	}
	resp := redisResp{Op: m.Op, Seq: m.Seq}
	if r.down {
		resp.Err = "dial tcp " + r.Name + ": connect: connection refused"
		r.sim.Net.send(r.Name, env.From, resp)
		return
	}
	cur := r.Value(m.Key)
	switch m.Op {
	case redisSetNX:
		if cur == "" {
			r.keys[m.Key] = redisEntry{value: m.Value, expires: r.sim.now + m.TTL}
			r.sim.at(r.sim.now+m.TTL, task{kind: evRedisPX, str: r.Name + "\x00" + m.Key})
			r.trace(KindRedisSet, S(FKey, m.Key), S(FValue, m.Value), D(FPX, m.TTL))
			resp.OK = true
		}
	case redisTouch:
		if cur == m.Value {
			r.keys[m.Key] = redisEntry{value: m.Value, expires: r.sim.now + m.TTL}
			r.sim.at(r.sim.now+m.TTL, task{kind: evRedisPX, str: r.Name + "\x00" + m.Key})
			r.trace(KindRedisSet, S(FKey, m.Key), S(FValue, m.Value), D(FPX, m.TTL), S(FHow, "PEXPIRE"))
			resp.OK = true
		}
	case redisDel:
		if cur == m.Value && cur != "" {
			delete(r.keys, m.Key)
			r.trace(KindRedisDel, S(FKey, m.Key), S(FValue, m.Value))
			resp.OK = true
		}
	}
	r.sim.redlockTruth(m.Key)
	r.sim.Net.send(r.Name, env.From, resp)
}

// expire removes key if its PX has passed (an earlier PX event of a key
// set again or extended finds it still live and does nothing).
func (r *RedisNode) expire(key string) {
	e, ok := r.keys[key]
	if !ok || e.expires > r.sim.now {
		return
	}
	delete(r.keys, key)
	r.trace(KindRedisExpire, S(FKey, key), S(FValue, e.value))
	r.sim.redlockTruth(key)
}

// act applies a learner's crash, restart or clock jump to the node.
func (r *RedisNode) act(a Action) error {
	switch a.Do {
	case "crash":
		return r.stop()
	case "restart":
		return r.start()
	}
	return r.jump(time.Duration(a.For))
}

// jump moves the node's wall clock d ahead. Redis keeps a key's expiry as
// an absolute wall-clock time and compares it with its clock, so every
// key's end comes d sooner: those already past go now.
func (r *RedisNode) jump(d time.Duration) error {
	if r.down {
		return fmt.Errorf("clock-jump: %s is down", r.Name)
	}
	r.trace(KindRedisJump, D(FAhead, d))
	keys := make([]string, 0, len(r.keys))
	for k := range r.keys {
		keys = append(keys, k)
	}
	slices.Sort(keys) // map order must not decide the trace's
	for _, k := range keys {
		e := r.keys[k]
		e.expires -= d
		r.keys[k] = e
		if e.expires > r.sim.now {
			r.sim.at(e.expires, task{kind: evRedisPX, str: r.Name + "\x00" + k})
		}
		r.expire(k)
	}
	return nil
}

// stop is a crash of the node: no persistence, so every key is gone.
func (r *RedisNode) stop() error {
	if r.down {
		return fmt.Errorf("crash: %s is already down", r.Name)
	}
	r.down = true
	clear(r.keys)
	r.trace(KindRedisDown, S(FWhy, "stopped; no persistence, every key forgotten"))
	for k := range r.sim.RedisNode(RedisNodeName(1)).truth {
		r.sim.redlockTruth(k)
	}
	return nil
}

func (r *RedisNode) start() error {
	if !r.down {
		return fmt.Errorf("restart: %s is not down", r.Name)
	}
	r.down = false
	r.trace(KindRedisUp, S(FKeyList, "none"))
	return nil
}

// fireRedisExpire handles an evRedisPX event ("node\x00key").
func (s *Sim) fireRedisExpire(str string) {
	name, key, _ := strings.Cut(str, "\x00")
	if r := s.RedisNode(name); r != nil {
		r.expire(key)
	}
}

// redlockTruth recomputes which value a majority of nodes hold for key
// and traces a change: that majority is the only thing a Redlock "holder"
// can mean, and no node knows it.
func (s *Sim) redlockTruth(key string) {
	first := s.RedisNode(RedisNodeName(1))
	if first == nil {
		return
	}
	count := map[string]int{}
	holder := ""
	for i := 1; i <= first.of; i++ {
		if v := s.RedisNode(RedisNodeName(i)).Value(key); v != "" {
			count[v]++
			if count[v] >= RedlockQuorum(first.of) {
				holder = v
			}
		}
	}
	was := first.truth[key]
	if holder == was {
		return
	}
	first.truth[key] = holder
	if was != "" {
		s.Trace.add(s.now, "redlock", KindFree, S(FLock, key), S(FWas, RedlockOwner(was)), S(FValue, was))
	}
	if holder != "" {
		// No token field: Redlock issues none.
		s.Trace.add(s.now, "redlock", KindHolder, S(FLock, key), S(FOwner, RedlockOwner(holder)), S(FKey, "value "+holder), I(FNodes, int64(count[holder])))
	}
}

// RedlockOwner is the client a lock value belongs to (values are
// "<client>:<random>").
func RedlockOwner(v string) string {
	o, _, _ := strings.Cut(v, ":")
	return o
}

// redlockSystem is Redlock: the coordinator takes no part (its server is
// etcd's, idle); the Redis nodes above and the client below are all of it.
type redlockSystem struct {
	etcdServer
	libraryConfig
}

func (redlockSystem) newClient() clientRules { return &redlockClient{} }

// redlockClient is one redsync Mutex inside a Process.
type redlockClient struct {
	etcdClient // no session to revoke, nothing a crash forgets
	value      string
	try        int    // tries made in this Lock call
	seq        uint64 // round number: late answers of an earlier round are dropped
	op         redisOp
	start      time.Duration
	replies    int
	oks        int
	until      time.Duration
	holding    bool
	unlocking  bool // the round in flight is an Unlock: nothing follows it
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

func (redlockSystem) validateSandbox(c SandboxConfig, ttlOK bool) []FieldError {
	var errs []FieldError
	if n := c.redisNodes(); n < 1 || n > MaxRedisNodes {
		errs = append(errs, FieldError{Field: FieldSystem, Msg: fmt.Sprintf("redlock needs 1 to %d independent Redis nodes, got %d", MaxRedisNodes, n)})
	}
	if c.RenewEvery > 0 && ttlOK && c.RenewEvery >= c.TTL {
		errs = append(errs, FieldError{Field: FieldRenew, Msg: fmt.Sprintf("extending every %s lets a %s lock lapse first", Seconds(c.RenewEvery), Seconds(c.TTL))})
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
