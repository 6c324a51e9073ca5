package core

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// CoordinatorName is the actor name of the coordination service.
const CoordinatorName = "coordinator"

// Errors the coordinator returns. Their text says what happened.
var (
	// ErrLeaseNotFound is etcd's answer to a keepalive, a revoke or a
	// put on a lease that has expired or been revoked.
	ErrLeaseNotFound    = errors.New("etcdserver: requested lease not found")
	ErrPermissionDenied = errors.New("permission denied")
	ErrSessionExpired   = errors.New("mutex: session is expired")
	ErrKeyExists        = errors.New("txn: key already exists")
)

// KeyValue is one key in the coordinator, with etcd's bookkeeping.
type KeyValue struct {
	Key       string
	Value     string
	CreateRev int64 // revision that created the key (a valid fencing token)
	ModRev    int64 // revision of the last change
	Version   int64 // number of changes since creation
	Lease     LeaseID
	Token     int64 // fencing token assigned when this key became a lock holder
	// pos is the key's place in the coordinator's list of keys (sorted).
	pos int
}

// TokenSource selects where fencing tokens come from.
type TokenSource int

const (
	// TokenGeneration is a per-lock counter bumped by one for each new
	// holder, like Chubby's generation number or Consul's LockIndex.
	TokenGeneration TokenSource = iota
	// TokenRevision is the holder key's create revision (etcd) or czxid
	// (ZooKeeper): monotonic across all keys, so not consecutive.
	TokenRevision
)

func (t TokenSource) String() string {
	if t == TokenRevision {
		return "revision"
	}
	return "generation"
}

// ACLRule reserves writes (create, put, delete) of every key under Prefix
// for the listed principals, as etcd roles or ZooKeeper ACLs would.
type ACLRule struct {
	Prefix     string
	Principals []string
}

// Coordinator is an etcd/ZooKeeper-style coordination service: keys with
// revisions, leases swept every SweepEvery, one-shot watches, a
// compare-and-put transaction, ACLs, and lock recipes on top. It decides
// lease expiry on its own clock: that decision is the truth that clients'
// beliefs can contradict.
type Coordinator struct {
	sim *Sim

	// System is the coordination system modelled (zero: etcd). ZooKeeper
	// and Consul answer their own requests (zookeeper.go, consul.go).
	System System
	// rules is the system's server (system_rules.go): the coordinator
	// calls it wherever a system may differ from etcd.
	rules serverRules
	// Rev is the global revision, bumped once per mutating request.
	Rev int64
	// TokenSource picks how lock holders' fencing tokens are numbered.
	TokenSource TokenSource
	// LockDelay blocks re-acquisition of a lock for this long after its
	// holder was invalidated (lease expired or forcibly revoked), as Consul
	// does; a clean release does not arm it. Zero disables it.
	LockDelay time.Duration
	// SweepEvery is how often expired leases are found (etcd: 500 ms).
	SweepEvery time.Duration
	// MinTTL silently raises smaller TTL requests (etcd: 2 s with defaults).
	MinTTL time.Duration
	// ACL lists write restrictions; keys under no rule are open.
	ACL []ACLRule
	// Renewals counts lease keepalives served (coordinator renewal load).
	Renewals int64
	// Requests counts every request received.
	Requests int64

	// memberPrefix, idBase and proposals number leases like one etcd
	// member's request-ID generator (see LeaseID): member ID << 48, a
	// timestamp << 8, and the requests proposed so far.
	memberPrefix, idBase, proposals int64

	kv map[string]*KeyValue
	// sorted lists every key (each KeyValue knows its place), in order
	// unless unsorted: a key created out of order, or one moved into the
	// place of a deleted one, leaves the list unsorted until a reader
	// asks for it in order (keys), so creating or deleting a key shifts
	// no other.
	sorted     []string
	unsorted   bool
	leases     map[LeaseID]*Lease
	leaseOrder []LeaseID
	locks      map[string]*lockState
	watches    []*watch
	// The sweep ticker (see armSweep): due time, sequence number (0: not
	// armed) and a lower bound of every lease's expiry.
	sweepAt     time.Duration
	sweepOrder  uint64
	firstExpiry time.Duration
	nextWatch   int
	buckets     []int32 // requests per finished 100 ms window of virtual time
	current     int32   // requests in window len(buckets)
	// noSeries stops buckets (only views read them): explorer worlds,
	// whose clones would each copy the series on their next request.
	noSeries bool
	// live caches the values of the keys under WorkerPrefix, sorted by
	// key, for listShards (nil: to be read again). It is never changed
	// once made, so replies and clones share it. liveGen counts the times
	// it was dropped, so a listShards reply made for it knows it is stale.
	live    []string
	liveGen uint64
	// renewals and results hold the answers to keepalives that renew
	// several leases, and leaseRefs the leases they looked up (see slab);
	// lastRenewal is the last such answer to each client, with the leases
	// of its request (see renewal).
	renewals    slab[keepAliveResp]
	results     slab[keepAliveResult]
	lastRenewal map[string]*renewal
	leaseRefs   slab[*Lease]
	// leaseSlab and keySlab hold the leases and keys made (see slab).
	leaseSlab slab[Lease]
	keySlab   slab[KeyValue]
	// cl is the coordinator's members (cluster.go); nil: one server.
	cl *cluster
	// lastSet is the shard set shards returned last (nil: none yet); the
	// lock named after its prefix + "#set" holds it too.
	lastSet *shardSet
}

// DefaultMinTTL is etcd's minimum lease TTL with default settings:
// ceil(1.5 x the 1 s election timeout) = 2 s; a shorter request is raised.
const DefaultMinTTL = 2 * time.Second

// FreshRevision is the revision of a new etcd store: the first key
// written gets create revision 2 (measured, etcd 3.7.3).
const FreshRevision = 1

func newCoordinator(s *Sim) *Coordinator {
	// A member ID and a start time drawn from the seed (not from the
	// world's random source, so they change nothing else), shaped like a
	// real member's lease IDs: 0x694d…, then milliseconds of a day in 2026.
	mix := splitmix(s.seed)
	member := int64(mix>>49) | 0x4000 // 15 bits: IDs stay positive
	ms := int64(1796000000000) + int64(mix%86_400_000)
	return &Coordinator{
		sim:          s,
		Rev:          FreshRevision,
		memberPrefix: member << 48,
		idBase:       ms << 8 & (1<<48 - 1),
		SweepEvery:   500 * time.Millisecond,
		MinTTL:       DefaultMinTTL,
		rules:        etcdSystem{},
		kv:           map[string]*KeyValue{},
		leases:       map[LeaseID]*Lease{},
		locks:        map[string]*lockState{},
	}
}

func (c *Coordinator) name() string { return CoordinatorName }

func (c *Coordinator) trace(kind Kind, f ...Field) {
	c.sim.Trace.add(c.sim.now, CoordinatorName, kind, f...)
}

// Get returns the key, or nil.
func (c *Coordinator) Get(key string) *KeyValue { return c.kv[key] }

// checkACL returns an error if principal may not write key.
func (c *Coordinator) checkACL(principal, op, key string) error {
	for _, r := range c.ACL {
		if !strings.HasPrefix(key, r.Prefix) {
			continue
		}
		for _, p := range r.Principals {
			if p == principal {
				return nil
			}
		}
		return fmt.Errorf("%w: %s may not %s %s (keys under %s are reserved for %s)",
			ErrPermissionDenied, principal, op, key, r.Prefix, strings.Join(r.Principals, ", "))
	}
	return nil
}

// Compare is one condition of a transaction.
type Compare struct {
	Key string
	// Target is "create_revision", "mod_revision", "version" or "value".
	Target string
	// Int is compared for revisions and version, Str for value.
	Int int64
	Str string
}

// TxnOp is one operation of a transaction branch.
type TxnOp struct {
	Put   bool // false: delete
	Key   string
	Value string
	Lease LeaseID
}

// Txn runs "if every compare holds then ops else elseOps" atomically as
// principal, in one revision if anything changes. It reports which branch
// ran. A lease that does not exist fails the whole transaction.
func (c *Coordinator) Txn(principal string, cmps []Compare, ops, elseOps []TxnOp) (bool, error) {
	ok := true
	for _, cmp := range cmps {
		kv := c.kv[cmp.Key]
		var got int64
		var gotS string
		if kv != nil {
			gotS = kv.Value
			switch cmp.Target {
			case "create_revision":
				got = kv.CreateRev
			case "mod_revision":
				got = kv.ModRev
			case "version":
				got = kv.Version
			}
		}
		if cmp.Target == "value" {
			ok = ok && gotS == cmp.Str
		} else {
			ok = ok && got == cmp.Int
		}
	}
	branch := ops
	if !ok {
		branch = elseOps
	}
	for _, op := range branch {
		verb := "delete"
		if op.Put {
			verb = "put"
		}
		if err := c.checkACL(principal, verb, op.Key); err != nil {
			c.trace(KindDenied, S(FWho, principal), S(FOp, verb), S(FKey, op.Key), S(FWhy, err.Error()))
			return ok, err
		}
		if op.Put && op.Lease != 0 && c.leases[op.Lease] == nil {
			return ok, ErrLeaseNotFound
		}
	}
	if len(branch) > 0 {
		c.Rev++
		c.proposals++
	}
	for _, op := range branch {
		if op.Put {
			c.put(op.Key, op.Value, op.Lease)
		} else {
			c.del(op.Key)
		}
	}
	return ok, nil
}

// Put writes a key as principal (one revision).
func (c *Coordinator) Put(principal, key, value string, lease LeaseID) error {
	_, err := c.Txn(principal, nil, []TxnOp{{Put: true, Key: key, Value: value, Lease: lease}}, nil)
	return err
}

// Delete removes a key as principal (one revision).
func (c *Coordinator) Delete(principal, key string) error {
	if c.kv[key] == nil {
		// Permission is checked before existence, as etcd does.
		if err := c.checkACL(principal, "delete", key); err != nil {
			c.trace(KindDenied, S(FWho, principal), S(FOp, "delete"), S(FKey, key), S(FWhy, err.Error()))
			return err
		}
		return nil
	}
	_, err := c.Txn(principal, nil, []TxnOp{{Key: key}}, nil)
	return err
}

// put applies a put at the current revision.
func (c *Coordinator) put(key, value string, lease LeaseID) {
	kv := c.kv[key]
	if kv == nil {
		kv = c.newKey(key)
	} else if kv.Lease != 0 && kv.Lease != lease {
		if l := c.leases[kv.Lease]; l != nil {
			l.detach(key)
		}
	}
	kv.Value, kv.ModRev, kv.Lease = value, c.Rev, lease
	kv.Version++
	if l := c.leases[lease]; l != nil {
		l.attach(key)
	}
	if strings.HasPrefix(key, WorkerPrefix) {
		c.live = nil
		c.liveGen++
	}
	c.record(kvChange{rev: c.Rev, createRev: kv.CreateRev, key: key, value: value})
	c.trace(KindPut, S(FKey, key), S(FValue, value), I(FRev, c.Rev), I(FCreateRev, kv.CreateRev), I(FVersion, kv.Version))
	c.notify(key, "put")
	c.keyChanged(key, true)
}

// newKey creates key at the current revision.
func (c *Coordinator) newKey(key string) *KeyValue {
	kv := c.keySlab.one()
	*kv = KeyValue{Key: key, CreateRev: c.Rev, pos: len(c.sorted)}
	c.kv[key] = kv
	if n := len(c.sorted); n > 0 && key < c.sorted[n-1] {
		c.unsorted = true
	}
	c.sorted = append(c.sorted, key)
	return kv
}

// del applies a delete at the current revision.
func (c *Coordinator) del(key string) {
	kv := c.kv[key]
	if kv == nil {
		return
	}
	if l := c.leases[kv.Lease]; l != nil {
		l.detach(key)
	}
	delete(c.kv, key)
	// The last key takes the deleted one's place.
	last := len(c.sorted) - 1
	if i := kv.pos; i != last {
		moved := c.sorted[last]
		c.sorted[i] = moved
		c.kv[moved].pos = i
		c.unsorted = true
	}
	c.sorted[last] = ""
	c.sorted = c.sorted[:last]
	if strings.HasPrefix(key, WorkerPrefix) {
		c.live = nil
		c.liveGen++
	}
	c.record(kvChange{rev: c.Rev, key: key, deleted: true})
	c.trace(KindDelete, S(FKey, key), I(FRev, c.Rev))
	c.notify(key, "delete")
	c.keyChanged(key, false)
}

// splitmix is SplitMix64's finaliser: a well-mixed value from a seed.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func (c *Coordinator) reply(to string, m Message) { c.sim.Net.send(CoordinatorName, to, m) }

func (c *Coordinator) receive(env Envelope) {
	if c.cl != nil && !c.cl.handling {
		c.route(env) // served once the cluster commits it (cluster.go)
		return
	}
	c.countRequest()
	from := env.From
	if c.rules.receive(c, from, env.Msg) {
		return
	}
	switch m := env.Msg.(type) {
	case grantReq:
		ttl := m.TTL
		if m.Seconds {
			ttl = WholeSeconds(ttl)
		}
		l := c.Grant(from, ttl)
		c.reply(from, grantResp{Lease: l.ID, TTL: l.TTL})
	case keepAliveReq:
		if len(m.Leases) == 1 {
			c.reply(from, c.keepAliveOne(m.Leases[0]))
		} else {
			c.reply(from, c.keepAliveMany(from, m.Leases))
		}
	case revokeReq:
		c.Revoke(m.Lease, false, "released by owner")
		c.reply(from, revokeResp{Lease: m.Lease})
	case acquireReq:
		c.reply(from, c.acquire(from, m))
	case checkReq:
		c.reply(from, c.check(from, m))
	case putReq:
		err := c.Put(from, m.Key, m.Value, m.Lease)
		c.reply(from, opResp{Op: "put", Key: m.Key, Rev: c.Rev, Err: errString(err)})
	case deleteReq:
		err := c.Delete(from, m.Key)
		c.reply(from, opResp{Op: "delete", Key: m.Key, Rev: c.Rev, Err: errString(err)})
	case listShardsReq:
		c.reply(from, c.listShards(m))
	case claimShardsReq:
		c.reply(from, c.claimShards(from, m))
	case releaseShardsReq:
		c.releaseShards(from, m)
	case servedRequest:
		c.reply(from, m.serve(c, from))
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
