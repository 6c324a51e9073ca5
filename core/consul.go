package core

import (
	"fmt"
	"time"
)

// Consul as itself, the server side (Consul 1.22's agent/consul; every
// rule below is checked against those sources, with the lines cited, in
// consul_test.go). What differs from etcd:
//
//   - A session has a TTL of 10 s to 24 h; anything else is refused. The
//     server arms the session's timer at 2 x TTL (SessionTTLMultiplier), so
//     a session lives up to twice its TTL without a renewal.
//   - A lock is one key, acquired by writing it with ?acquire=<session>: it
//     succeeds only if no session holds the key and no lock-delay is in
//     effect. Each acquisition by a new session bumps the key's LockIndex
//     (the usable fencing token); the key itself stays when released.
//   - When a session is destroyed or invalidated while it holds a key, the
//     key is released and the key's lock-delay (15 s by default) starts: no
//     one may acquire it until the delay is over. A clean Unlock releases
//     the key first, so no delay follows.
//   - Readers block on the key (a blocking query with the index they last
//     saw): every change of the key answers every one of them at once.
//
// Not modelled: a blocking query's wait time (15 s for api.Lock's waiters)
// answers with unchanged data and changes no decision; health checks
// invalidating a session. A cut link behaves as etcd's connection does
// here (requests wait and go out once it is back); over HTTP a request
// fails instead, and api.Lock's monitor, with no retries configured, then
// gives the lock up at once.

// Consul's session TTL limits and its lock-delay default.
const (
	ConsulMinTTL           = 10 * time.Second
	ConsulMaxTTL           = 24 * time.Hour
	ConsulTTLMultiplier    = 2
	ConsulDefaultLockDelay = 15 * time.Second
)

// CheckConsulTTL refuses a session TTL Consul's server would refuse.
func CheckConsulTTL(ttl time.Duration) error {
	if ttl < ConsulMinTTL || ttl > ConsulMaxTTL {
		return fmt.Errorf("a session TTL of %s is refused by Consul: it must be between %s and 24 h", Seconds(ttl), Seconds(ConsulMinTTL))
	}
	return nil
}

// Consul client-server messages (HTTP requests in the real thing).
type (
	consulSessionCreate struct {
		noToken
		TTL time.Duration
	}
	consulSessionResp struct {
		noToken
		Session LeaseID
		TTL     time.Duration
		Err     string
	}
	consulRenew struct {
		noToken
		Session LeaseID
	}
	consulRenewResp struct {
		noToken
		OK bool // false: the session is gone
	}
	// consulGet reads the lock key; Index > 0 blocks until the key's
	// index passes it.
	consulGet struct {
		noToken
		Key   string
		Index int64
	}
	consulGetResp struct {
		Key       string
		Index     int64
		Session   LeaseID // holder's session, 0 if free
		LockIndex int64
	}
	consulAcquire struct {
		noToken
		Key     string
		Session LeaseID
		Owner   string
	}
	consulAcquireResp struct {
		OK        bool
		LockIndex int64
		Index     int64
		Why       string
	}
	// consulRelease releases the key; Destroy then ends the session.
	consulRelease struct {
		noToken
		Key     string
		Session LeaseID
		Destroy bool
	}
)

func (consulSessionCreate) Kind() string { return "SessionCreate" }
func (consulSessionResp) Kind() string   { return "SessionCreateResponse" }
func (consulRenew) Kind() string         { return "SessionRenew" }
func (consulRenewResp) Kind() string     { return "SessionRenewResponse" }
func (consulGet) Kind() string           { return "KVGet" }
func (consulGetResp) Kind() string       { return "KVGetResponse" }
func (m consulGetResp) token() int64     { return m.LockIndex }
func (consulAcquire) Kind() string       { return "KVAcquire" }
func (consulAcquireResp) Kind() string   { return "KVAcquireResponse" }
func (m consulAcquireResp) token() int64 { return m.LockIndex }
func (consulRelease) Kind() string       { return "KVRelease" }

// consulSystem is Consul's server (this file) and api.Lock
// (consul_client.go): what it does not override is etcd's.
type consulSystem struct {
	etcdServer
	libraryConfig
}

func (consulSystem) newClient() clientRules { return &consulClient{} }

// configure turns a fresh coordinator into a Consul server.
func (consulSystem) configure(c *Coordinator, spec CoordinatorSpec) {
	c.System = SystemConsul
	c.MinTTL = 0 // refused, not raised: see CheckConsulTTL
	c.LockDelay = spec.LockDelay
	c.TokenSource = TokenGeneration // LockIndex counts acquisitions
}

// expiry: the server arms a session's timer at 2 x TTL.
func (consulSystem) expiry(c *Coordinator, ttl time.Duration) time.Duration {
	return c.sim.now + ConsulTTLMultiplier*ttl
}

// promoted: a new leader resets every session's TTL timer.
func (s consulSystem) promoted(c *Coordinator, l *Lease) time.Duration {
	return s.expiry(c, l.TTL)
}

func (consulSystem) rearmWhy() string {
	return "a new leader starts every session's TTL timer again, at twice the TTL"
}

// quorumless: a server holds an RPC for a leader up to rpc_hold_timeout,
// 7 s by default, then fails it (structs.ErrNoLeader).
func (consulSystem) quorumless(Message) string { return "No cluster leader" }

// clustered: Consul's servers (cluster.go).
func (consulSystem) clustered() bool { return true }

// ownSetting: api.Lock's one key per lock, its LockIndex and its session
// renewal are Consul's own; its lock-delay is the world's.
func (consulSystem) ownSetting(id SettingID) string {
	switch id {
	case SettingRecipe:
		return "One key per lock: each change wakes every waiter, and they race."
	case SettingFirstToken:
		return "The token is the lock key's LockIndex."
	case SettingRenew:
		return "api.Lock renews its session every TTL/2 on its own."
	}
	return libraryConfig{}.ownSetting(id)
}

// sessionWrites: a session's destroy is a raft write of its own.
func (consulSystem) sessionWrites() bool { return true }

// nextSweep: Consul has a timer per session, so the sweep goes off at
// the first expiry.
func (consulSystem) nextSweep(c *Coordinator) time.Duration {
	return max(c.firstExpiry, c.sim.now)
}

func (consulSystem) receive(c *Coordinator, from string, m Message) bool {
	switch m := m.(type) {
	case consulSessionCreate:
		if err := CheckConsulTTL(m.TTL); err != nil {
			c.reply(from, consulSessionResp{Err: err.Error()})
			return true
		}
		l := c.Grant(from, m.TTL)
		c.Rev++ // a raft write
		if c.sweepOrder != 0 && c.sweepAt > l.Expiry {
			c.sweepOrder = 0
			c.armSweep()
		}
		c.reply(from, consulSessionResp{Session: l.ID, TTL: l.TTL})
	case consulRenew:
		l := c.leases[m.Session]
		if l == nil || l.Expiry <= c.sim.now {
			c.reply(from, consulRenewResp{})
			return true
		}
		l.Expiry = c.rules.expiry(c, l.TTL)
		c.Renewals++
		if c.sim.Trace.on(KindLeaseRenew) {
			c.trace(KindLeaseRenew, S(FLease, l.ID.String()), S(FOwner, l.Owner), D(FExpiry, l.Expiry))
		}
		l.lastEv = c.sim.Trace.cause
		c.reply(from, consulRenewResp{OK: true})
	case consulGet:
		kv := c.kv[m.Key]
		if m.Index > 0 && (kv == nil || kv.ModRev <= m.Index) {
			c.watchKey(from, m.Key, false) // answered by the key's next change
			return true
		}
		c.reply(from, c.consulRead(m.Key))
	case consulAcquire:
		c.reply(from, c.consulAcquire(from, m))
	case consulRelease:
		ls := c.locks[m.Key]
		if ls != nil && ls.consulSession == m.Session && m.Session != 0 {
			c.consulFree(ls, "released by its holder")
		}
		if m.Destroy {
			c.Revoke(m.Session, false, "destroyed by its owner")
			c.reply(from, revokeResp{Lease: m.Session})
		}
	default:
		return false
	}
	return true
}

func (c *Coordinator) consulRead(key string) consulGetResp {
	r := consulGetResp{Key: key, Index: c.Rev}
	if kv := c.kv[key]; kv != nil {
		r.Index = kv.ModRev
		r.LockIndex = kv.Token
		if ls := c.locks[key]; ls != nil {
			r.Session = ls.consulSession
		}
	}
	return r
}

// consulAcquire is the KV write with ?acquire: it fails, without an error,
// while another session holds the key or its lock-delay runs.
func (c *Coordinator) consulAcquire(from string, m consulAcquire) consulAcquireResp {
	ls := c.queueLock(m.Key)
	switch {
	case c.leases[m.Session] == nil:
		return consulAcquireResp{Why: fmt.Sprintf("invalid session %q", m.Session.String())}
	case ls.consulSession == m.Session:
		return consulAcquireResp{OK: true, LockIndex: ls.token, Index: c.kv[m.Key].ModRev}
	case ls.consulSession != 0:
		return consulAcquireResp{Why: "held by another session"}
	case c.sim.now < ls.delayUntil:
		why := fmt.Sprintf("lock-delay until %s", FormatTime(ls.delayUntil))
		if c.sim.Trace.on(KindNote) {
			c.trace(KindNote, S(FText, "acquire of "+m.Key+" by "+from+" refused: "+why))
		}
		return consulAcquireResp{Why: why}
	}
	ls.gen++ // LockIndex: one more acquisition by a new session
	ls.token, ls.consulSession, ls.holder, ls.owner = ls.gen, m.Session, m.Key, m.Owner
	kv := c.consulWrite(m.Key, m.Owner)
	kv.Token = ls.token
	c.trace(KindHolder, S(FLock, ls.name), S(FOwner, m.Owner), S(FKey, m.Key), I(FToken, ls.token), I(FCreateRev, kv.CreateRev))
	return consulAcquireResp{OK: true, LockIndex: ls.token, Index: kv.ModRev}
}

// consulFree releases a held key (its session cleared, the key kept).
func (c *Coordinator) consulFree(ls *lockState, why string) {
	owner := ls.owner
	ls.consulSession, ls.holder, ls.owner = 0, "", ""
	c.consulWrite(ls.name, "")
	c.trace(KindFree, S(FLock, ls.name), S(FWas, owner), I(FToken, ls.token), S(FWhy, why))
}

// consulWrite is one raft write of key: its ModifyIndex moves on and
// every blocking query on it is answered.
func (c *Coordinator) consulWrite(key, value string) *KeyValue {
	c.Rev++
	kv := c.kv[key]
	if kv == nil {
		kv = c.newKey(key)
	}
	kv.Value, kv.ModRev = value, c.Rev
	kv.Version++
	c.trace(KindPut, S(FKey, key), S(FValue, value), I(FRev, c.Rev), I(FCreateRev, kv.CreateRev), I(FVersion, kv.Version))
	kept := c.watches[:0]
	var woken []string
	for _, w := range c.watches {
		if w.key == key {
			woken = append(woken, w.watcher)
			continue
		}
		kept = append(kept, w)
	}
	clear(c.watches[len(kept):])
	c.watches = kept
	r := c.consulRead(key)
	for _, who := range woken {
		c.trace(KindWatchFire, S(FKey, key), S(FWatcher, who), S(FType, "put"), S(FWatched, key))
		c.reply(who, r)
	}
	return kv
}

// consulSessionEnded releases what the ended session held and arms the
// key's lock-delay: Consul does so on any destroy of a session that still
// holds a key, and an expiry is one.
func (consulSystem) ended(c *Coordinator, l *Lease, kind Kind) {
	for _, name := range c.lockNames() {
		ls := c.locks[name]
		if ls.consulSession != l.ID {
			continue
		}
		why := "its session was destroyed"
		if kind == KindLeaseExpire {
			why = fmt.Sprintf("its session was invalidated: no renewal for %s (2 x TTL)", secs(ConsulTTLMultiplier*l.TTL))
		}
		c.consulFree(ls, why)
		if c.LockDelay > 0 {
			ls.delayUntil = c.sim.now + c.LockDelay
			c.trace(KindLockDelay, S(FLock, ls.name), D(FUntil, ls.delayUntil))
		}
	}
}

// lockNames lists the coordinator's locks in a stable order.
func (c *Coordinator) lockNames() []string {
	var out []string
	for _, k := range c.keys() {
		if c.locks[k] != nil {
			out = append(out, k)
		}
	}
	return out
}

// The configuration's rules: a TTL of 10 s to 24 h, renewed every TTL/2
// against the server's 2 x TTL; api.Lock's lock-delay; LockIndex tokens.

func (consulSystem) checkContention(c ContentionConfig) error { return CheckConsulTTL(c.TTL) }

func (consulSystem) contention(c *ContentionConfig, w *World) {
	serverOfItsOwn(c, w, SystemConsul, RecipeHerd, TokenGeneration)
}

func (consulSystem) check(c SystemSettings, _ bool) []SettingError {
	own := ownRecipe(c, RecipeHerd)
	if err := CheckConsulTTL(c.TTL); err != nil {
		own = append(own, SettingError{Setting: SettingTTL, Msg: err.Error()})
	}
	return libraryChecks(c, true, own...)
}

// onSystem: api.Lock's 15 s lock-delay where the world had none.
func (consulSystem) onSystem(c *SystemSettings) {
	c.FirstToken, c.Recipe, c.RenewEvery = 0, RecipeEtcd, 0
	if c.LockDelay == 0 {
		c.LockDelay = ConsulDefaultLockDelay
	}
}

func (consulSystem) notes(c SystemSettings) []string {
	if c.RenewEvery > 0 {
		return []string{fmt.Sprintf("Consul's api.Lock renews its session every TTL/2 (%s), not every %s.", Seconds(c.TTL/2), Seconds(c.RenewEvery))}
	}
	return nil
}

// policy: the server's 2 x TTL against api.Lock's renewal every TTL/2.
func (consulSystem) policy(c SystemSettings) LeasePolicy {
	return LeasePolicy{TTL: ConsulTTLMultiplier * c.TTL, RenewEvery: c.TTL / 2, PauseBudget: c.PauseBudget, SessionTTL: c.TTL}
}
