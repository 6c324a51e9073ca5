package core

import "time"

// Message is anything sent over the network. Kind names it in the trace;
// token is the fencing token it carries (0 if none), drawn on its arrow.
type Message interface {
	Kind() string
	token() int64
}

type noToken struct{}

func (noToken) token() int64 { return 0 }

// Lease messages.
type (
	grantReq struct {
		noToken
		TTL time.Duration
		// Seconds: the client speaks etcd's API, whose LeaseGrant takes a
		// TTL in whole seconds.
		Seconds bool
	}
	grantResp struct {
		noToken
		Lease LeaseID
		TTL   time.Duration
	}
	keepAliveReq struct {
		noToken
		Leases []LeaseID
	}
	keepAliveResp struct {
		noToken
		Results []keepAliveResult
	}
	keepAliveResult struct {
		Lease LeaseID
		TTL   time.Duration // 0: the lease is gone
	}
	revokeReq struct {
		noToken
		Lease LeaseID
	}
	revokeResp struct {
		noToken
		Lease LeaseID
	}
)

func (grantReq) Kind() string      { return "LeaseGrant" }
func (grantResp) Kind() string     { return "LeaseGrantResponse" }
func (keepAliveReq) Kind() string  { return "LeaseKeepAlive" }
func (keepAliveResp) Kind() string { return "LeaseKeepAliveResponse" }
func (revokeReq) Kind() string     { return "LeaseRevoke" }
func (revokeResp) Kind() string    { return "LeaseRevokeResponse" }

// Lock recipe messages. The coordinator runs each recipe step as one
// transaction and registers the waiter's watch in the same step, as etcd's
// watch-from-revision does, so no wake-up can fall between read and watch.
type (
	acquireReq struct {
		noToken
		Lock   string
		Lease  LeaseID
		Owner  string
		Recipe Recipe
	}
	checkReq struct {
		noToken
		Lock   string
		Key    string
		Rev    int64 // the contender key's create revision
		Recipe Recipe
		// Reread: the etcd recipe's last step, a read of the client's
		// own key once no older key is left.
		Reread bool
	}
	// lockStatus answers acquireReq and checkReq.
	lockStatus struct {
		Lock       string
		Key        string // the contender's own key ("" if gone)
		CreateRev  int64
		Holder     bool
		Token      int64
		Watching   string        // key (or prefix) the contender now waits on
		Reread     bool          // etcd recipe: nothing older is left; read your own key
		RetryAfter time.Duration // lock-delay: ask again after this long
		Gone       bool          // the contender's key vanished: session expired
		Err        string
	}
	watchEvent struct {
		noToken
		Key  string
		Type string // "put" or "delete"
		Rev  int64
	}
	putReq struct {
		noToken
		Key   string
		Value string
		Lease LeaseID
	}
	deleteReq struct {
		noToken
		Key string
	}
	opResp struct {
		noToken
		Op  string
		Key string
		Rev int64
		Err string
	}
)

func (acquireReq) Kind() string   { return "Acquire" }
func (checkReq) Kind() string     { return "CheckLock" }
func (m lockStatus) Kind() string { return "LockStatus" }
func (m lockStatus) token() int64 { return m.Token }
func (watchEvent) Kind() string   { return "WatchEvent" }
func (putReq) Kind() string       { return "Put" }
func (deleteReq) Kind() string    { return "Delete" }
func (opResp) Kind() string       { return "OpResponse" }

// Shard messages.
type (
	listShardsReq struct {
		noToken
		Prefix string
		Count  int
	}
	listShardsResp struct {
		noToken
		Free   []int    // unowned shards
		Live   []string // live workers, sorted
		Counts []int    // shards each live worker holds, per the coordinator
	}
	claimShardsReq struct {
		noToken
		Prefix  string
		Shards  []int
		Session LeaseID // attach to this lease; 0 = grant one lease per shard
		TTL     time.Duration
	}
	claimShardsResp struct {
		noToken
		Results []shardClaim
	}
	shardClaim struct {
		Shard int
		OK    bool
		Token int64
		Lease LeaseID
	}
	releaseShardsReq struct {
		noToken
		Prefix string
		Shards []int
	}
)

func (listShardsReq) Kind() string    { return "ListShards" }
func (listShardsResp) Kind() string   { return "ListShardsResponse" }
func (claimShardsReq) Kind() string   { return "ClaimShards" }
func (claimShardsResp) Kind() string  { return "ClaimShardsResponse" }
func (releaseShardsReq) Kind() string { return "ReleaseShards" }

// Resource messages.
type (
	writeReq struct {
		Token int64
		Value string
		Label string
	}
	writeResp struct {
		noToken
		Result string
	}
	enqueueReq struct {
		Token int64
		Key   string // idempotency key, e.g. invoice:customer:date
	}
	// offsetCommitReq commits one offset per entry of Base: the entry's
	// own, moved on by Advance records (see entry). A worker commits the
	// same shards with the same tokens time after time, each commit a fixed
	// number of records past the last, so its commits share one Base until
	// its shards change and differ only in Advance: a commit costs no copy
	// of its entries. Workers send it as a pointer (see slab).
	offsetCommitReq struct {
		Base    []offsetEntry
		Advance int64
	}
	offsetEntry struct {
		Shard  int
		Offset int64
		Token  int64
	}
	// offsetFetchReq reads a new owner's shards. Tokens (one per shard)
	// tell the store who owns them now: a commit from an older owner
	// that arrives after the read is stale, even before the new owner's
	// first commit (a read fenced like a write).
	offsetFetchReq struct {
		noToken
		Shards []int
		Tokens []int64
	}
	offsetFetchResp struct {
		noToken
		Shards  []int
		Offsets []int64
	}
)

func (writeReq) Kind() string        { return "Write" }
func (m writeReq) token() int64      { return m.Token }
func (writeResp) Kind() string       { return "WriteResponse" }
func (enqueueReq) Kind() string      { return "Enqueue" }
func (m enqueueReq) token() int64    { return m.Token }
func (offsetCommitReq) Kind() string { return "CommitOffsets" }
func (offsetFetchReq) Kind() string  { return "FetchOffsets" }
func (offsetFetchResp) Kind() string { return "FetchOffsetsResponse" }
func (m offsetCommitReq) token() int64 {
	if len(m.Base) == 1 {
		return m.Base[0].Token
	}
	return 0
}

// entry returns the commit's entry i.
func (m *offsetCommitReq) entry(i int) offsetEntry {
	e := m.Base[i]
	e.Offset += m.Advance
	return e
}
