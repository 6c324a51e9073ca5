package core

import (
	"fmt"
	"slices"
	"time"
)

// Recipe is the lock/election algorithm contenders follow.
type Recipe int

const (
	// RecipeEtcd is etcd's Mutex/Election: create "<lock>/<lease id>" if
	// absent, attached to the session lease; the key with the smallest
	// create revision holds; each waiter watches only the key with the next
	// lower create revision (a fair queue, no herd).
	RecipeEtcd Recipe = iota
	// RecipeZooKeeper is ZooKeeper's lock/election recipe: an ephemeral
	// sequential node "<lock>/lock-0000000042"; the lowest sequence holds;
	// each contender watches only its predecessor.
	RecipeZooKeeper
	// RecipeHerd is the naive variant: every waiter watches the whole lock,
	// so every change wakes every waiter (the herd effect).
	RecipeHerd
)

var recipeNames = []string{"etcd", "zookeeper", "herd"}

func (r Recipe) String() string {
	if int(r) < len(recipeNames) {
		return recipeNames[r]
	}
	return fmt.Sprintf("recipe(%d)", int(r))
}

// ParseRecipe turns "etcd", "zookeeper" or "herd" into a Recipe.
func ParseRecipe(s string) (Recipe, error) {
	if i := slices.Index(recipeNames, s); i >= 0 {
		return Recipe(i), nil
	}
	return 0, fmt.Errorf("unknown recipe %q (want etcd, zookeeper or herd)", s)
}

// lockState is the coordinator's view of one lock: its members in create
// order and the current holder. Holder and token are derived from the keys,
// never set by clients.
type lockState struct {
	name       string
	single     bool     // a one-key lock (a shard): the key itself is held
	members    []string // queue locks: contender keys in create order
	seq        int64    // ZooKeeper per-parent sequence counter
	gen        int64    // generation counter (last token issued)
	holder     string   // holding key, "" if free
	owner      string
	token      int64
	delayUntil time.Duration
	delayArmed bool
	set        *shardSet
	shard      int // a shard lock's number in set
	// zkParents: ZooKeeper has created the lock's parent nodes.
	zkParents bool
	// consulSession holds a Consul lock key (0: none).
	consulSession LeaseID
}

// LockInfo is the coordinator's truth about one lock.
type LockInfo struct {
	Name       string
	Holder     string // owner identity of the holder, "" if free
	Key        string
	Token      int64
	Waiters    []string // owners queued behind the holder, in order
	DelayUntil time.Duration
}

// LockInfo reports who holds name now, per the coordinator.
func (c *Coordinator) LockInfo(name string) LockInfo {
	if info, ok := c.systemLockInfo(name); ok {
		return info
	}
	ls := c.locks[name]
	if ls == nil {
		return LockInfo{Name: name}
	}
	info := LockInfo{Name: name, Holder: ls.owner, Key: ls.holder, Token: ls.token, DelayUntil: ls.delayUntil}
	for _, k := range ls.members {
		if k != ls.holder {
			info.Waiters = append(info.Waiters, c.kv[k].Value)
		}
	}
	return info
}

// SetGeneration makes the next holder of lock name get token n+1 (with the
// generation token source). Scenarios use it to start from the seed's
// numbers (7 then 8, 41 then 42).
func (c *Coordinator) SetGeneration(name string, n int64) { c.queueLock(name).gen = n }

func (c *Coordinator) queueLock(name string) *lockState {
	ls := c.locks[name]
	if ls == nil {
		ls = &lockState{name: name}
		c.locks[name] = ls
	}
	return ls
}

func parentOf(key string) string {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '/' {
			return key[:i]
		}
	}
	return ""
}

// keyChanged keeps lock membership and holders in step with the keys:
// key was just written (exists) or deleted.
func (c *Coordinator) keyChanged(key string, exists bool) {
	if ls := c.locks[key]; ls != nil && ls.single {
		if set := ls.set; set != nil {
			set.reply = nil // the key came or went: the free list changed
			if set.present != nil {
				set.present[ls.shard] = exists
			}
		}
		c.recompute(ls)
		return
	}
	ls := c.locks[parentOf(key)]
	if ls == nil || ls.single {
		return
	}
	i := slices.Index(ls.members, key)
	switch {
	case exists && i < 0:
		ls.members = append(ls.members, key) // create order = create revision order
	case !exists && i >= 0:
		ls.members = slices.Delete(ls.members, i, i+1)
	default:
		return
	}
	c.recompute(ls)
}

// recompute derives the holder of ls from its keys and issues a fencing
// token to a new holder.
func (c *Coordinator) recompute(ls *lockState) {
	next := ""
	switch {
	case ls.single:
		if c.kv[ls.name] != nil {
			next = ls.name
		}
	case len(ls.members) > 0:
		next = ls.members[0]
	}
	if next != "" && next != ls.holder && c.sim.now < ls.delayUntil {
		// Lock-delay: nobody new may hold the lock yet.
		if !ls.delayArmed {
			ls.delayArmed = true
			c.sim.at(ls.delayUntil, task{kind: evLockDelay, str: ls.name})
		}
		next = ""
	}
	if next == ls.holder {
		return
	}
	if ls.holder != "" {
		if ls.set != nil {
			ls.set.owned--
			ls.set.count[ls.owner]--
			ls.set.counts, ls.set.reply = nil, nil
		}
		if next == "" {
			c.trace(KindFree, S(FLock, ls.name), S(FWas, ls.owner), I(FToken, ls.token))
		}
	}
	ls.holder, ls.owner = next, ""
	if next == "" {
		return
	}
	kv := c.kv[next]
	if c.TokenSource == TokenRevision {
		ls.token = kv.CreateRev
	} else {
		ls.gen++
		ls.token = ls.gen
	}
	kv.Token, ls.owner = ls.token, kv.Value
	if ls.set != nil {
		ls.set.owned++
		ls.set.count[ls.owner]++
		ls.set.counts, ls.set.reply = nil, nil
	}
	c.trace(KindHolder, S(FLock, ls.name), S(FOwner, kv.Value), S(FKey, next), I(FToken, ls.token), I(FCreateRev, kv.CreateRev))
}

// armLockDelay starts the lock-delay of the lock key is holding, if any.
func (c *Coordinator) armLockDelay(key string) {
	if c.LockDelay <= 0 {
		return
	}
	ls := c.locks[key]
	if ls == nil || !ls.single {
		ls = c.locks[parentOf(key)]
	}
	if ls == nil || ls.holder != key {
		return
	}
	ls.delayUntil = c.sim.now + c.LockDelay
	c.trace(KindLockDelay, S(FLock, ls.name), D(FUntil, ls.delayUntil))
}

// acquire runs one contender's first step: create its key if absent (one
// transaction), then report whether it holds the lock and, if not, whom it
// now waits on.
func (c *Coordinator) acquire(from string, m acquireReq) lockStatus {
	ls := c.queueLock(m.Lock)
	if c.leases[m.Lease] == nil {
		return lockStatus{Lock: m.Lock, Gone: true, Err: ErrLeaseNotFound.Error()}
	}
	var key string
	if m.Recipe == RecipeEtcd {
		key = m.Lock + "/" + m.Lease.String()
	} else {
		ls.seq++
		key = fmt.Sprintf("%s/lock-%010d", m.Lock, ls.seq)
	}
	cmp := []Compare{{Key: key, Target: "create_revision", Int: 0}}
	if _, err := c.Txn(from, cmp, []TxnOp{{Put: true, Key: key, Value: m.Owner, Lease: m.Lease}}, nil); err != nil {
		return lockStatus{Lock: m.Lock, Err: err.Error()}
	}
	return c.status(ls, key, c.kv[key].CreateRev, from, m.Recipe, stepAcquire)
}

// lockStep is the request a lock status answers.
type lockStep uint8

const (
	stepAcquire lockStep = iota
	stepWoken
	stepReread
)

func (c *Coordinator) check(from string, m checkReq) lockStatus {
	ls := c.locks[m.Lock]
	if ls == nil {
		return lockStatus{Lock: m.Lock, Gone: true, Err: ErrSessionExpired.Error()}
	}
	step := stepWoken
	if m.Reread {
		step = stepReread
	}
	return c.status(ls, m.Key, m.Rev, from, m.Recipe, step)
}

// status re-reads the contender's key: gone means its session expired
// while it waited; lowest means it holds; otherwise it watches its
// predecessor (or, for the herd recipe, the whole lock).
//
// etcd's Mutex (concurrency/mutex.go and key.go, waitDeletes) does those
// steps in another order: it first waits until every key created before
// its own (rev) is gone, watching the newest of them each time, and only
// then re-reads its own key, in a request of its own (reread). So a waiter
// whose session ended while queued learns "session is expired" when the
// queue ahead of it has drained, not at once, and a woken waiter needs two
// round trips, not one, to know it holds.
//
// step says which request this answers: the acquiring transaction (whose
// answer already names the oldest key), a check after a wake-up, or the
// final re-read.
func (c *Coordinator) status(ls *lockState, key string, rev int64, watcher string, r Recipe, step lockStep) lockStatus {
	if r == RecipeEtcd && rev > 0 && step != stepReread {
		c.dropWatches(watcher)
		pred := ""
		var predRev int64
		for _, k := range ls.members {
			if kv := c.kv[k]; kv.CreateRev < rev && kv.CreateRev > predRev {
				pred, predRev = k, kv.CreateRev
			}
		}
		if pred != "" {
			c.watchKey(watcher, pred, false)
			return lockStatus{Lock: ls.name, Key: key, CreateRev: rev, Watching: pred}
		}
		if step == stepWoken || c.kv[key] == nil || ls.holder != key {
			// Nothing older is left: the client now gets its own key.
			return lockStatus{Lock: ls.name, Key: key, CreateRev: rev, Reread: true}
		}
	}
	return c.reread(ls, key, watcher, r)
}

func (c *Coordinator) reread(ls *lockState, key, watcher string, r Recipe) lockStatus {
	// Each answer replaces whatever the contender waited on before. Without
	// this, a watch left by an earlier life of the same process (it crashed
	// or lost its session while queued) fires into its new life: a spurious
	// wake-up that then registers a second watch on its new predecessor. In
	// etcd and ZooKeeper a client's watches die with its connection/session.
	c.dropWatches(watcher)
	kv := c.kv[key]
	if kv == nil {
		return lockStatus{Lock: ls.name, Gone: true, Err: ErrSessionExpired.Error()}
	}
	st := lockStatus{Lock: ls.name, Key: key, CreateRev: kv.CreateRev}
	if ls.holder == key {
		st.Holder, st.Token = true, kv.Token
		return st
	}
	i := slices.Index(ls.members, key)
	if i == 0 {
		st.RetryAfter = ls.delayUntil - c.sim.now
		return st
	}
	if r == RecipeHerd {
		st.Watching = ls.name + "/"
		c.watchKey(watcher, st.Watching, true)
		return st
	}
	st.Watching = ls.members[i-1]
	c.watchKey(watcher, st.Watching, false)
	return st
}
