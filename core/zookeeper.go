package core

import (
	"fmt"
	"strings"
	"time"
)

// ZooKeeper 3.8 as itself, the server side. What differs from etcd:
//
//   - A session's timeout is negotiated: the server clamps what the client
//     asks for to [2, 20] x tickTime (its default minSessionTimeout and
//     maxSessionTimeout). With tickTime 2 s that is 4 to 40 s: asking for
//     60 s gets 40 s, and the client is told so in the connect response.
//   - Sessions are expired in tickTime buckets (ExpiryQueue): each touch
//     (any request, pings included) moves a session's expiry to now +
//     timeout rounded *up* to the next multiple of tickTime, and the
//     expirer wakes once per tick and closes every session of the bucket
//     that is due. So a session dies on a tick boundary, up to a tick
//     after its timeout, never on a 500 ms sweep.
//   - Every write is a transaction with its own zxid: creating or closing
//     a session, creating a node, and also a create that fails (it becomes
//     an error transaction). A node's czxid is the zxid of its create.
//   - Sequential children are named from the parent's cversion, printed
//     %010d: the first child of a new parent is 0000000000.
//   - When a session ends its ephemeral nodes go in that one closeSession
//     transaction, and the server closes the session's connection.
//
// The conformance suite (conform/) runs the same steps against a real
// ZooKeeper server and compares node names, czxids and timings.

// ZooKeeper's tick and the session limits derived from it (the sample
// zoo.cfg's tickTime=2000; the limits are the server's defaults).
const (
	ZKTickTime          = 2 * time.Second
	ZKMinSessionTimeout = 2 * ZKTickTime
	ZKMaxSessionTimeout = 20 * ZKTickTime
)

// ZKSessionTimeout is the timeout a ZooKeeper server grants for a request
// of asked, and a sentence for the learner when it is not what was asked.
func ZKSessionTimeout(asked time.Duration) (time.Duration, string) {
	granted := min(max(asked, ZKMinSessionTimeout), ZKMaxSessionTimeout)
	if granted == asked {
		return granted, ""
	}
	side := "at most 20"
	if asked < ZKMinSessionTimeout {
		side = "at least 2"
	}
	return granted, fmt.Sprintf("ZooKeeper clamps a session timeout of %s to %s: it allows %s ticks of %s (%s to %s)",
		Seconds(asked), Seconds(granted), side, Seconds(ZKTickTime), Seconds(ZKMinSessionTimeout), Seconds(ZKMaxSessionTimeout))
}

// zkBucket is the end of the expiry bucket a session touched now with
// this timeout falls in: now + timeout rounded up to the next tick
// (ExpiryQueue.roundToNextInterval).
func zkBucket(t time.Duration) time.Duration { return (t/ZKTickTime + 1) * ZKTickTime }

// ZooKeeper client-server messages.
type (
	// zkConnectReq opens a session (Session 0) or re-attaches a client to
	// its session after a disconnection.
	zkConnectReq struct {
		noToken
		Session LeaseID
		Timeout time.Duration
	}
	// zkConnectResp carries the negotiated timeout; 0 means the session
	// has expired (the client then learns Expired).
	zkConnectResp struct {
		noToken
		Session LeaseID
		Timeout time.Duration
		Asked   time.Duration
	}
	zkPing struct {
		noToken
		Session LeaseID
	}
	zkPingResp struct{ noToken }
	// zkClosed: the server closed the session's connection (it expired).
	zkClosed struct {
		noToken
		Session LeaseID
	}
	// zkCreateReq creates the lock recipe's ephemeral sequential child,
	// with the client's GUID in its name (the "protected" mode).
	zkCreateReq struct {
		noToken
		Lock    string
		Session LeaseID
		Owner   string
		GUID    string
	}
)

func (zkConnectReq) Kind() string  { return "ConnectRequest" }
func (zkConnectResp) Kind() string { return "ConnectResponse" }
func (zkPing) Kind() string        { return "Ping" }
func (zkPingResp) Kind() string    { return "PingResponse" }
func (zkClosed) Kind() string      { return "ConnectionClosed" }
func (zkCreateReq) Kind() string   { return "Create" }

// ErrZKSessionExpired is ZooKeeper's answer to a request on a dead session.
var ErrZKSessionExpired = fmt.Errorf("zk: session has been expired by the server")

// zooKeeperSystem is ZooKeeper's server (this file) and its client
// (zookeeper_client.go): what it does not override is etcd's.
type zooKeeperSystem struct {
	etcdServer
	libraryConfig
}

func (zooKeeperSystem) newClient() clientRules { return &zkClient{} }

// configure turns a fresh coordinator into a ZooKeeper server.
func (zooKeeperSystem) configure(c *Coordinator, _ CoordinatorSpec) {
	c.System = SystemZooKeeper
	c.Rev = 0 // a fresh server's last zxid: the first transaction is zxid 1
	c.SweepEvery = ZKTickTime
	c.MinTTL = 0 // the clamp replaces etcd's minimum
	c.TokenSource = TokenRevision
}

// expiry is the end of the tickTime bucket the session falls in.
func (zooKeeperSystem) expiry(c *Coordinator, ttl time.Duration) time.Duration {
	return zkBucket(c.sim.now + ttl)
}

// promoted: a new leader gives each session a fresh timeout, in its
// bucket.
func (z zooKeeperSystem) promoted(c *Coordinator, l *Lease) time.Duration {
	return z.expiry(c, l.TTL)
}

// sessionWrites: closeSession is a transaction, with or without nodes.
func (zooKeeperSystem) sessionWrites() bool { return true }

// pathConnection: a ZooKeeper client's TCP connection dies with the path:
// what was in flight is lost and the client reconnects by itself
// (zookeeper_client.go).
func (zooKeeperSystem) pathConnection() bool { return true }

func (zooKeeperSystem) rearmWhy() string {
	return "a new leader gives every session a fresh session timeout"
}

// dropsClients: a server that leaves its quorum closes every client
// connection (see cluster.go for the source lines).
func (zooKeeperSystem) dropsClients() bool { return true }

// clustered: an ensemble of servers (cluster.go).
func (zooKeeperSystem) clustered() bool { return true }

// ownSetting: ZooKeeper's lock recipe, its czxid tokens and its client's
// pings are its own (go-zookeeper's lock.go, which conform runs; the
// client's pings every third of the session timeout).
func (zooKeeperSystem) ownSetting(id SettingID) string {
	switch id {
	case SettingRecipe:
		return "ZooKeeper's own recipe: sequential nodes, each watching the one before."
	case SettingFirstToken:
		return "The token is the lock node's creation zxid (czxid)."
	case SettingRenew:
		return "The client pings every third of the session timeout on its own."
	case SettingLockDelay:
		return noLockDelay(SystemZooKeeper)
	}
	return libraryConfig{}.ownSetting(id)
}

func (zooKeeperSystem) receive(c *Coordinator, from string, m Message) bool {
	switch m := m.(type) {
	case zkConnectReq:
		c.reply(from, c.zkConnect(from, m))
	case zkPing:
		if l := c.zkTouch(m.Session); l != nil {
			c.Renewals++
			if c.sim.Trace.on(KindLeaseRenew) {
				c.trace(KindLeaseRenew, S(FLease, l.ID.String()), S(FOwner, l.Owner), D(FExpiry, l.Expiry))
			}
			l.lastEv = c.sim.Trace.cause
			c.reply(from, zkPingResp{})
		} else {
			c.reply(from, zkClosed{Session: m.Session})
		}
	case zkCreateReq:
		c.reply(from, c.zkCreate(from, m))
	default:
		return false
	}
	return true
}

// zkTouch moves a live session into the bucket its timeout from now
// falls in; nil if the session is gone.
func (c *Coordinator) zkTouch(id LeaseID) *Lease {
	l := c.leases[id]
	if l == nil || l.Expiry <= c.sim.now {
		return nil
	}
	l.Expiry = c.rules.expiry(c, l.TTL)
	l.lastEv = c.sim.Trace.cause
	return l
}

func (c *Coordinator) zkConnect(from string, m zkConnectReq) zkConnectResp {
	if m.Session != 0 {
		if l := c.zkTouch(m.Session); l != nil {
			return zkConnectResp{Session: l.ID, Timeout: l.TTL, Asked: m.Timeout}
		}
		return zkConnectResp{Session: m.Session, Asked: m.Timeout}
	}
	granted, note := ZKSessionTimeout(m.Timeout)
	l := c.Grant(from, granted)
	c.Rev++ // createSession is a transaction
	if note != "" {
		c.trace(KindNote, S(FText, note))
	}
	return zkConnectResp{Session: l.ID, Timeout: granted, Asked: m.Timeout}
}

// zkCreate runs the lock recipe's create: the parents first if the lock
// is new (after the create that failed for want of them), then
// "<lock>/_c_<guid>-lock-<cversion>". A retry whose GUID is already in a
// child's name gets that child back: the create had gone through and only
// its answer was lost.
func (c *Coordinator) zkCreate(from string, m zkCreateReq) lockStatus {
	ls := c.queueLock(m.Lock)
	if c.leases[m.Session] == nil {
		return lockStatus{Lock: m.Lock, Gone: true, Err: ErrZKSessionExpired.Error()}
	}
	if !ls.zkParents {
		// go-zookeeper's Lock: the create fails (NoNode, an error
		// transaction), then each missing parent is created.
		ls.zkParents = true
		c.Rev += 1 + int64(strings.Count(m.Lock, "/")+1)
	}
	marker := "/_c_" + m.GUID + "-"
	for _, k := range ls.members {
		if strings.Contains(k, marker) {
			if c.sim.Trace.on(KindNote) {
				c.trace(KindNote, S(FText, "create retried by "+from+": its node "+k+" exists (found by its GUID)"))
			}
			return c.status(ls, k, c.kv[k].CreateRev, from, RecipeZooKeeper, stepAcquire)
		}
	}
	key := fmt.Sprintf("%s/_c_%s-lock-%010d", m.Lock, m.GUID, ls.seq)
	ls.seq++ // the parent's cversion
	if _, err := c.Txn(from, nil, []TxnOp{{Put: true, Key: key, Value: m.Owner, Lease: m.Session}}, nil); err != nil {
		return lockStatus{Lock: m.Lock, Err: err.Error()}
	}
	return c.status(ls, key, c.kv[key].CreateRev, from, RecipeZooKeeper, stepAcquire)
}

// zkSessionEnded closes an ended session: its watches go with it (the
// server keeps a session's watches on its connection and drops them when
// the session closes: DataTree.killSession and WatchManager.removeWatcher
// in ZooKeeper 3.8, and a watcher the server dropped is never woken), and
// on expiry the connection is closed: the client, if it hears it, is
// Disconnected and learns Expired when it reconnects.
func (zooKeeperSystem) ended(c *Coordinator, l *Lease, kind Kind) {
	c.dropWatches(l.Owner)
	if kind == KindLeaseExpire {
		c.reply(l.Owner, zkClosed{Session: l.ID})
	}
}

// ZKSequence returns the sequence number of a ZooKeeper lock node's name
// (the digits after the last "lock-"), or -1.
func ZKSequence(key string) int64 {
	i := strings.LastIndex(key, "lock-")
	if i < 0 {
		return -1
	}
	var n int64
	if _, err := fmt.Sscanf(key[i+5:], "%d", &n); err != nil {
		return -1
	}
	return n
}

// The configuration's rules: the session timeout is negotiated, the
// client pings every third of it, the token is the czxid.

func (zooKeeperSystem) contention(c *ContentionConfig, w *World) {
	serverOfItsOwn(c, w, SystemZooKeeper, RecipeZooKeeper, TokenRevision)
}

func (zooKeeperSystem) check(c SystemSettings, _ bool) []SettingError {
	return libraryChecks(c, false, ownRecipe(c, RecipeZooKeeper)...)
}

func (zooKeeperSystem) notes(c SystemSettings) []string {
	var out []string
	granted, note := ZKSessionTimeout(c.TTL)
	if note != "" {
		out = append(out, note+".")
	}
	if c.RenewEvery > 0 {
		out = append(out, fmt.Sprintf("ZooKeeper's client pings every third of the session timeout (%s), not every %s.", Seconds((granted*2/3/2).Round(time.Millisecond)), Seconds(c.RenewEvery)))
	}
	return out
}

// policy: the negotiated timeout and the pings every third of it.
func (zooKeeperSystem) policy(c SystemSettings) LeasePolicy {
	ttl, _ := ZKSessionTimeout(c.TTL)
	return LeasePolicy{TTL: ttl, RenewEvery: (ttl * 2 / 3 / 2).Round(time.Millisecond), PauseBudget: c.PauseBudget}
}
