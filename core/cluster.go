package core

import (
	"fmt"
	"slices"
	"time"
)

// This file makes the coordinator what a real one is: a replicated cluster
// of members that agree on its state with Raft (etcd's). A world of one
// member (every world that sets no Members) has no cluster and runs exactly
// as before; with three or five, the Coordinator's state machine is the
// state every member applies, and the cluster decides when a request can
// be served, how long it takes, and what a new leader does to the leases.
//
// The rules follow etcd v3.7.3 and were measured on three real members
// (conform/ETCD_CLUSTER.md, conform/cluster_test.go):
//   - One leader per term. A follower that hears no leader for its
//     randomised election timeout (10 to 20 ticks of 100 ms after the last
//     heartbeat) campaigns; it wins with the votes of a majority that hear
//     no leader either (pre-vote) and whose log is not ahead of its own.
//   - A leader that cannot reach a majority steps down an election timeout
//     later (CheckQuorum). Without a leader nothing is committed and no
//     lease expires: the lessor's Demote sets every expiry to forever
//     (lessor.go:534-549), and only the primary revokes (lessor.go:642-650).
//   - A new leader re-arms every lease to its promotion + one election
//     timeout + the lease's whole TTL (server.go:1961-1966 calls
//     lessor.Promote(ElectionTimeout); lease.go:84-89 refresh).
//   - A write is committed once a majority has it on disk: a round trip to
//     the quorum plus a disk sync. A keepalive is not a proposal, but the
//     leader confirms it still leads first (a ReadIndex round to the
//     quorum); a linearizable read too. A follower forwards to the leader.
//   - A request that cannot be served waits for a leader up to the
//     request timeout, 5 s + 2 election timeouts = 7 s (config.go:320-323),
//     then fails: "etcdserver: request timed out", or "etcdserver: no
//     leader" for a keepalive.
//   - A serializable read is answered by any member from what it has
//     applied, at once, however stale.
//   - A client talks to one member; when that member's connection breaks
//     it waits 500 ms (clientv3 lease.go retryConnWait) and talks to the
//     next member that is up.
//
// ZooKeeper and Consul share the shape (a leader elected by a quorum that
// alone commits and expires sessions) with their own rules, which no test
// here runs on real servers (a three-server ensemble and a Consul cluster
// are not started by the suite), so each cites the source it follows:
//   - a ZooKeeper server that leaves its quorum (a follower that lost its
//     leader, a leader that lost its followers) closes every client
//     connection (ZooKeeper release-3.8.6, Learner.java:886-888 and
//     Leader.java:816-834, self.closeAllConnections()); the client,
//     Disconnected, reconnects to another server with the same session;
//   - a new ZooKeeper leader tracks every session again with its whole
//     timeout (LeaderZooKeeperServer.java:173 createSessionTracker ->
//     LeaderSessionTracker.java:50 -> SessionTrackerImpl.java:110-117, which
//     calls trackSession for each loaded session -> updateSessionExpiry,
//     :196-198 -> ExpiryQueue.java:84-87, now + timeout rounded up to the
//     next tick);
//   - a new Consul leader restarts every session's TTL timer
//     (agent/consul/session_ttl.go: initializeSessionTimers ->
//     resetSessionTimer -> createSessionTimer, which waits ttl x
//     structs.SessionTTLMultiplier, 2), and a Consul server holds an RPC
//     for a leader up to its rpc_hold_timeout, 7 s by default, then fails
//     it with "No cluster leader". A Kubernetes Lease is an object in etcd that expires by the
// candidates' clocks: a new etcd leader re-arms nothing, and without a
// quorum no update commits, so the leader steps down at its renew
// deadline and no one takes over until the quorum is back.

// Cluster timings (etcd's defaults).
const (
	// HeartbeatEvery is etcd's --heartbeat-interval, one Raft tick.
	HeartbeatEvery = 100 * time.Millisecond
	// ElectionTimeout is etcd's --election-timeout: 10 ticks. A
	// follower's randomised timeout is 10 to 19 ticks; a new leader adds
	// one ElectionTimeout to every lease it re-arms.
	ElectionTimeout = time.Second
	// RequestTimeout is how long a member waits for a request to be
	// committed (or a keepalive for a leader) before it gives up.
	RequestTimeout = 5*time.Second + 2*ElectionTimeout
	// ClientRetryWait is how long etcd's client waits before it opens a
	// broken stream again, on the next member.
	ClientRetryWait = 500 * time.Millisecond
	// DefaultDiskSync is a member's fsync time unless the world sets one.
	DefaultDiskSync = 2 * time.Millisecond
	// MaxMembers is the largest cluster a world may have.
	MaxMembers = 7
)

// The texts a member answers with when it gives up (etcd's own).
const (
	errRequestTimedOut = "etcdserver: request timed out"
	errNoLeader        = "etcdserver: no leader"
)

// PeersOf and ClientsOf name the far end of a member's cut: "cut member-2
// off from its peers" is a partition of member-2 and "peers".
const (
	PeersOf   = "peers"
	ClientsOf = "clients"
)

// MemberName is the name of the coordinator's i-th member (from 1).
func MemberName(i int) string { return fmt.Sprintf("member-%d", i) }

// member is one member of the coordinator's cluster.
type member struct {
	name       string
	crashed    bool
	paused     bool
	pauseGen   int
	cutClients bool
	// disk is this member's fsync time.
	disk time.Duration
	// following: the member applies what the leader commits as it does.
	// applied is the revision it had applied when it stopped following
	// (its state for serializable reads).
	following bool
	applied   int64
	// lostAt is when it stopped following (its streams' clock).
	lostAt time.Duration
	// electArmed and electGen: its election timer.
	electArmed bool
	electGen   int
}

// waiting is a request a member holds until a leader can serve it.
type waiting struct {
	id       int
	member   int
	env      Envelope
	deadline time.Duration
}

// kvChange is one committed change of a key, kept so a member that
// stopped following can answer from the revision it had reached.
type kvChange struct {
	rev, createRev int64
	key, value     string
	deleted        bool
}

// cluster is the coordinator's members and their Raft state.
type cluster struct {
	members []member
	leader  int // index of the member that leads (or led last), -1: none
	term    int64
	// noLeader is set once the cluster's loss of its leader is traced.
	noLeader bool
	// stepArmed: the leader lost its quorum and steps down at stepGen's
	// timer unless the quorum comes back first.
	stepArmed bool
	stepGen   int
	clientOf  map[string]int // client -> member index + 1
	next      int            // the member a new client talks to
	waits     []waiting
	nextWait  int
	history   []kvChange
	// handling is set while the state machine runs a served request.
	handling bool
}

// The cluster's tasks (evCluster), by fn.
const (
	fnElect    taskFn = 100 + iota // a member's election timer (node, n: electGen)
	fnStepDown                     // the leader's CheckQuorum (n: stepGen)
	fnMemberResume
	fnServe   // a request reaches the leader and is committed (env; n: member)
	fnGiveUp  // a waiting request's deadline (n: its id)
	fnMoveOff // a client's stream re-opens on another member (str: client)
)

// newCluster makes n members; the first leads from the start, at term 2
// (a fresh etcd cluster's first leader is elected in term 2).
func newCluster(n int, disk time.Duration) *cluster {
	if disk <= 0 {
		disk = DefaultDiskSync
	}
	cl := &cluster{leader: 0, term: 2, clientOf: map[string]int{}}
	for i := 1; i <= n; i++ {
		cl.members = append(cl.members, member{name: MemberName(i), disk: disk, following: true})
	}
	return cl
}

func (cl *cluster) clone() *cluster {
	if cl == nil {
		return nil
	}
	d := *cl
	d.members = slices.Clone(cl.members)
	d.clientOf = make(map[string]int, len(cl.clientOf))
	for k, v := range cl.clientOf {
		d.clientOf[k] = v
	}
	d.waits = slices.Clone(cl.waits)
	d.history = slices.Clip(cl.history) // append-only
	return &d
}

// Members returns the names of the coordinator's members (none: it is one
// server, as in every world that sets no Members).
func (c *Coordinator) Members() []string {
	if c.cl == nil {
		return nil
	}
	out := make([]string, len(c.cl.members))
	for i, m := range c.cl.members {
		out[i] = m.name
	}
	return out
}

// MemberState is what a view shows of one member.
type MemberState struct {
	Name                  string
	Leader                bool // it leads now (and can reach a quorum)
	Crashed, Paused       bool
	CutClients            bool
	InQuorum              bool  // it can reach the leader, which has its quorum
	Applied               int64 // the revision it has applied
	Term                  int64
	DiskSync              time.Duration
	ClientsOn             []string
	CampaignsAt, StepDown bool
}

// MemberStates describes every member now (nil: no cluster).
func (c *Coordinator) MemberStates() []MemberState {
	if c.cl == nil {
		return nil
	}
	act := c.activeLeader()
	out := make([]MemberState, len(c.cl.members))
	for i, m := range c.cl.members {
		out[i] = MemberState{Name: m.name, Leader: i == act, Crashed: m.crashed, Paused: m.paused,
			CutClients: m.cutClients, InQuorum: c.serves(i), Applied: c.appliedBy(i), Term: c.cl.term, DiskSync: m.disk}
		for cli, j := range c.cl.clientOf {
			if j-1 == i {
				out[i].ClientsOn = append(out[i].ClientsOn, cli)
			}
		}
		slices.Sort(out[i].ClientsOn)
	}
	return out
}

// Leader returns the member that leads now with a quorum ("": none, or no
// cluster) and the term.
func (c *Coordinator) Leader() (string, int64) {
	if c.cl == nil {
		return "", 0
	}
	if i := c.activeLeader(); i >= 0 {
		return c.cl.members[i].name, c.cl.term
	}
	return "", c.cl.term
}

// memberIndex returns the index of the member named name, or -1.
func (c *Coordinator) memberIndex(name string) int {
	if c.cl == nil {
		return -1
	}
	for i, m := range c.cl.members {
		if m.name == name {
			return i
		}
	}
	return -1
}

func (cl *cluster) live(i int) bool {
	m := &cl.members[i]
	return !m.crashed && !m.paused
}

// reach reports whether members i and j can talk (both live, no cut).
func (c *Coordinator) reach(i, j int) bool {
	cl := c.cl
	if !cl.live(i) || !cl.live(j) {
		return false
	}
	if i == j {
		return true
	}
	a, b := cl.members[i].name, cl.members[j].name
	return !c.sim.Net.Cut(a, b) && !c.sim.Net.Cut(b, a)
}

// quorumOf reports whether member i reaches a majority, itself included.
func (c *Coordinator) quorumOf(i int) bool {
	n := 0
	for j := range c.cl.members {
		if c.reach(i, j) {
			n++
		}
	}
	return n > len(c.cl.members)/2
}

// activeLeader is the leader if it is live and reaches its quorum, or -1.
func (c *Coordinator) activeLeader() int {
	if l := c.cl.leader; l >= 0 && c.quorumOf(l) {
		return l
	}
	return -1
}

// serves reports whether a request at member i can be committed now.
func (c *Coordinator) serves(i int) bool {
	l := c.activeLeader()
	return l >= 0 && c.reach(i, l)
}

// appliedBy is the revision member i has applied.
func (c *Coordinator) appliedBy(i int) int64 {
	if c.cl.members[i].following {
		return c.Rev
	}
	return c.cl.members[i].applied
}

func (c *Coordinator) memberTrace(i int, kind Kind, f ...Field) {
	c.sim.Trace.add(c.sim.now, c.cl.members[i].name, kind, f...)
}
