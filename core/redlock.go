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
