package core

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// shardSet is a family of one-key locks, "<prefix>000" to "<prefix>N-1".
type shardSet struct {
	prefix string
	keys   []string
	owned  int
	count  map[string]int // shards held per owner
	// counts caches count for the live workers listed in countsFor (the
	// coordinator's live list it was made for); nil once count changes.
	// Replies share it: it is never changed once made.
	counts    []int
	countsFor []string
	// reply is the last answer to a scan, made for replyFor; nil once a
	// key, a holder or a count of the set changes. untracked: some of the
	// set's keys are locks of another set (or no set), whose changes would
	// not clear reply or present, so no answer is kept and keys are looked
	// up. present says, by shard, whether its key exists (nil: untracked).
	reply     Message
	replyFor  listKey
	untracked bool
	present   []bool
}

// listKey is what a scan's answer depends on beside the set: how many
// shards it asked about and the live workers it saw.
type listKey struct {
	count   int
	liveGen uint64
}

func (c *Coordinator) shards(prefix string, count int) *shardSet {
	if set := c.lastSet; set != nil && set.prefix == prefix && len(set.keys) >= count {
		return set // every scan, claim and release asks for the same set
	}
	ls := c.locks[prefix+"#set"]
	if ls != nil && ls.set != nil && len(ls.set.keys) >= count {
		c.lastSet = ls.set
		return ls.set
	}
	set := &shardSet{prefix: prefix, count: map[string]int{}, keys: shardKeys(prefix, count)}
	states := make([]lockState, count)
	set.present = make([]bool, count)
	for i, k := range set.keys {
		if c.locks[k] == nil {
			states[i] = lockState{name: k, single: true, set: set, shard: i}
			c.locks[k] = &states[i]
		} else {
			set.untracked = true
		}
		set.present[i] = c.kv[k] != nil
	}
	if set.untracked {
		set.present = nil
	}
	c.locks[prefix+"#set"] = &lockState{name: prefix + "#set", set: set}
	c.lastSet = set
	return set
}

// shardKeys returns prefix + "000" ... (at least three digits, as "%03d"
// writes them) for count shards, all cut from one string.
func shardKeys(prefix string, count int) []string {
	var b []byte
	ends := make([]int, count)
	for i := range count {
		b = append(b, prefix...)
		for z := 100; z > 1 && i < z; z /= 10 { // pad to three digits
			b = append(b, '0')
		}
		b = strconv.AppendInt(b, int64(i), 10)
		ends[i] = len(b)
	}
	all := string(b)
	keys := make([]string, count)
	start := 0
	for i, end := range ends {
		keys[i], start = all[start:end], end
	}
	return keys
}

// WorkerPrefix holds one key per live shard worker, attached to its session.
const WorkerPrefix = "workers/"

// listShards answers a scan. Between two changes of the set's keys, holders
// or live workers every scan gets the same answer, so that answer is made
// once and shared (a message is never changed once sent).
func (c *Coordinator) listShards(m listShardsReq) Message {
	set := c.shards(m.Prefix, m.Count)
	key := listKey{count: m.Count, liveGen: c.liveGen}
	if set.reply != nil && set.replyFor == key {
		return set.reply
	}
	var resp listShardsResp
	switch {
	case set.owned >= m.Count:
	case set.present != nil:
		free := 0
		for _, p := range set.present[:m.Count] {
			if !p {
				free++
			}
		}
		if free > 0 {
			resp.Free = make([]int, 0, free)
		}
		for i, p := range set.present[:m.Count] {
			if !p {
				resp.Free = append(resp.Free, i)
			}
		}
	default:
		for i := 0; i < m.Count; i++ {
			if c.kv[set.keys[i]] == nil {
				resp.Free = append(resp.Free, i)
			}
		}
	}
	if c.live == nil {
		c.live = []string{}
		i, _ := slices.BinarySearch(c.sorted, WorkerPrefix)
		for ; i < len(c.sorted) && strings.HasPrefix(c.sorted[i], WorkerPrefix); i++ {
			c.live = append(c.live, c.kv[c.sorted[i]].Value)
		}
	}
	if len(c.live) > 0 {
		if set.counts == nil || len(set.countsFor) != len(c.live) || &set.countsFor[0] != &c.live[0] {
			set.counts, set.countsFor = make([]int, len(c.live)), c.live
			for i, w := range c.live {
				set.counts[i] = set.count[w]
			}
		}
		resp.Live, resp.Counts = c.live, set.counts
	}
	if set.untracked {
		return resp
	}
	set.reply, set.replyFor = resp, key
	return set.reply
}

func (c *Coordinator) claimShards(from string, m claimShardsReq) claimShardsResp {
	set := c.shards(m.Prefix, 0)
	res := claimShardsResp{Results: make([]shardClaim, 0, len(m.Shards))}
	for _, sh := range m.Shards {
		r := shardClaim{Shard: sh}
		if sh < 0 || sh >= len(set.keys) {
			res.Results = append(res.Results, r)
			continue
		}
		key := set.keys[sh]
		ls := c.locks[key]
		if c.kv[key] != nil || c.sim.now < ls.delayUntil {
			res.Results = append(res.Results, r)
			continue
		}
		lease := m.Session
		if lease == 0 {
			lease = c.Grant(from, m.TTL).ID
		}
		cmp := []Compare{{Key: key, Target: "create_revision", Int: 0}}
		if ok, err := c.Txn(from, cmp, []TxnOp{{Put: true, Key: key, Value: from, Lease: lease}}, nil); ok && err == nil {
			r.OK, r.Token, r.Lease = true, c.kv[key].Token, lease
		} else if m.Session == 0 {
			c.Revoke(lease, false, "claim failed")
		}
		res.Results = append(res.Results, r)
	}
	return res
}

func (c *Coordinator) releaseShards(from string, m releaseShardsReq) {
	set := c.shards(m.Prefix, 0)
	for _, sh := range m.Shards {
		if sh < 0 || sh >= len(set.keys) {
			continue
		}
		kv := c.kv[set.keys[sh]]
		if kv == nil || kv.Value != from {
			continue
		}
		if l := c.leases[kv.Lease]; l != nil && len(l.keys) == 1 && l.Owner == from {
			c.Revoke(l.ID, false, "shard released")
		} else {
			c.Delete(from, kv.Key)
		}
	}
}
