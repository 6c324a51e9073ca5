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

// electionWait draws a follower's election timeout: 10 to 19 ticks after
// the last heartbeat it heard, which was up to one tick ago.
func (c *Coordinator) electionWait() time.Duration {
	ticks := 10 + c.sim.rng.IntN(10)
	since := time.Duration(c.sim.rng.Int64N(int64(HeartbeatEvery)))
	return time.Duration(ticks)*HeartbeatEvery - since
}

// clusterChanged runs after anything that changes who can reach whom: it
// arms the leader's step-down, the followers' elections, and lets waiting
// requests through.
func (c *Coordinator) clusterChanged() {
	cl := c.cl
	if l := cl.leader; l >= 0 && cl.live(l) && !c.quorumOf(l) {
		if !cl.stepArmed {
			cl.stepArmed = true
			cl.stepGen++
			c.sim.at(c.sim.now+ElectionTimeout, task{kind: evCluster, fn: fnStepDown, n: cl.stepGen})
		}
	} else if cl.stepArmed {
		cl.stepArmed = false
		cl.stepGen++
	}
	for i := range cl.members {
		m := &cl.members[i]
		f := c.serves(i)
		if m.following && !f {
			m.applied, m.lostAt = c.Rev, c.sim.now
			if c.rules.dropsClients() && cl.live(i) {
				c.breakClients(i)
			}
		}
		m.following = f
		hears := cl.leader >= 0 && cl.leader != i && c.reach(i, cl.leader)
		switch {
		case !cl.live(i) || hears || i == cl.leader && c.quorumOf(i):
			if m.electArmed {
				m.electArmed = false
				m.electGen++
			}
		case !m.electArmed:
			m.electArmed = true
			m.electGen++
			c.sim.at(c.sim.now+c.electionWait(), task{kind: evCluster, fn: fnElect, node: int32(i), n: m.electGen})
		}
	}
	c.serveWaiting()
}

// fireCluster runs one of the cluster's tasks.
func (c *Coordinator) fireCluster(t task) {
	cl := c.cl
	switch t.fn {
	case fnElect:
		m := &cl.members[t.node]
		if t.n != m.electGen || !m.electArmed {
			return
		}
		m.electArmed = false
		c.campaign(int(t.node))
	case fnStepDown:
		if t.n != cl.stepGen || !cl.stepArmed {
			return
		}
		cl.stepArmed = false
		l := cl.leader
		cl.leader = -1
		cl.noLeader = true
		c.memberTrace(l, KindNoLeader, I(FTerm, cl.term), S(FWhy, "the leader cannot reach a majority of members: it steps down, and no lease expires until a new leader is elected"))
		c.clusterChanged()
	case fnMemberResume:
		m := &cl.members[t.node]
		if t.n == m.pauseGen && m.paused {
			c.resumeMember(int(t.node))
		}
	case fnServe:
		c.serve(t.n, t.env, t.tseq)
	case fnGiveUp:
		c.giveUp(t.n)
	case fnMoveOff:
		delete(cl.clientOf, t.str)
	}
}

// campaign is member i's election: it wins with a majority of votes.
func (c *Coordinator) campaign(i int) {
	cl := c.cl
	if !cl.live(i) {
		return
	}
	if l := cl.leader; l >= 0 && l != i && c.reach(i, l) {
		return // it hears the leader again
	}
	votes := 0
	for j := range cl.members {
		if !c.reach(i, j) {
			continue
		}
		// Pre-vote: a member that hears a leader refuses; so does one
		// whose log is ahead of the candidate's.
		if j != i && cl.leader >= 0 && (j == cl.leader || c.reach(j, cl.leader)) && c.quorumOf(cl.leader) {
			continue
		}
		if c.appliedBy(j) > c.appliedBy(i) {
			continue
		}
		votes++
	}
	if votes <= len(cl.members)/2 {
		if !cl.noLeader && c.activeLeader() < 0 {
			cl.noLeader = true
			c.memberTrace(i, KindNoLeader, I(FTerm, cl.term), S(FWhy, fmt.Sprintf("%s hears no leader and cannot win an election: %d of %d members can vote for it", cl.members[i].name, votes, len(cl.members))))
		}
		m := &cl.members[i]
		m.electArmed = true
		m.electGen++
		c.sim.at(c.sim.now+c.electionWait(), task{kind: evCluster, fn: fnElect, node: int32(i), n: m.electGen})
		return
	}
	cl.term++
	cl.leader = i
	cl.noLeader = false
	c.memberTrace(i, KindLeader, I(FTerm, cl.term), I(FRev, c.Rev))
	c.promote()
	c.clusterChanged()
	if len(c.leases) > 0 {
		c.armSweep()
	}
}

// promote is etcd's lessor.Promote: every lease lives one election timeout
// plus its whole TTL from now, however much of it was left (a system
// whose server re-arms its sessions otherwise says so: serverRules.promoted).
func (c *Coordinator) promote() {
	why := c.rules.rearmWhy()
	for _, id := range c.leaseOrder {
		l := c.leases[id]
		l.Expiry = c.rules.promoted(c, l) // each system its own way
		cause := c.sim.Trace.cause
		c.trace(KindLeaseRearm, S(FLease, l.idText()), S(FOwner, l.Owner), D(FExpiry, l.Expiry), S(FWhy, why))
		l.lastEv = c.sim.Trace.cause
		c.sim.Trace.cause = cause
	}
	c.firstExpiry = c.sim.now + ElectionTimeout
}

// canExpire reports whether the coordinator may expire leases now: with a
// cluster, only a leader that reaches its quorum does.
func (c *Coordinator) canExpire() bool { return c.cl == nil || c.activeLeader() >= 0 }

// memberOf returns the member client talks to, choosing the next one that
// is up (and reachable by clients) when it has none.
func (c *Coordinator) memberOf(who string) int {
	cl := c.cl
	was := cl.clientOf[who]
	if j := was - 1; j >= 0 && !cl.members[j].crashed && !cl.members[j].cutClients {
		return j
	}
	if was < 0 {
		was = -was // its stream was ended there: it opens the next on another
	}
	for k := range cl.members {
		j := (cl.next + k) % len(cl.members)
		if c.rules.dropsClients() && !c.serves(j) && c.anyServes() {
			continue // the client's next try reaches a server that serves
		}
		if m := &cl.members[j]; !m.crashed && !m.cutClients {
			cl.next = j + 1
			cl.clientOf[who] = j + 1
			if _, ok := c.sim.actors[who].(client); ok && j+1 != was {
				c.sim.Trace.add(c.sim.now, who, KindClientMember, S(FMember, m.name))
			}
			return j
		}
	}
	return -1
}

// anyServes reports whether some member can serve a request now.
func (c *Coordinator) anyServes() bool {
	for i := range c.cl.members {
		if c.serves(i) {
			return true
		}
	}
	return false
}

// route is a request's arrival at the client's member.
func (c *Coordinator) route(env Envelope) {
	i := c.memberOf(env.From)
	if i < 0 {
		c.sim.Trace.aside(c.sim.now, env.From, KindDrop, I(FID, int64(env.ID)), S(FTo, CoordinatorName), S(FMsg, env.Msg.Kind()), S(FWhy, "no member of the coordinator is up"))
		return
	}
	c.admit(i, env, c.sim.now+RequestTimeout)
}

// admit serves the request at member i if a leader can commit it, and
// holds it until deadline otherwise.
func (c *Coordinator) admit(i int, env Envelope, deadline time.Duration) {
	cl := c.cl
	if c.rules.dropsClients() && !c.serves(i) && env.From != "learner" {
		// A ZooKeeper server that is not part of a quorum serves no
		// client: it closes the connection, and the client tries the
		// next server (ClientCnxn's reconnect loop).
		c.memberTrace(i, KindRefused, S(FWho, env.From), S(FMsg, env.Msg.Kind()), S(FWhy, "this server is not part of a quorum: it closes client connections"))
		c.closeZK(i, env.From)
		return
	}
	if c.serves(i) {
		c.sim.at(c.sim.now+c.latency(i, env.Msg), task{kind: evCluster, fn: fnServe, n: i, env: env, tseq: uint64(deadline)})
		return
	}
	if c.stream(env) {
		for _, w := range cl.waits {
			if w.env.From == env.From && w.member == i && c.stream(w.env) {
				return // one stream: the keepalive already waiting stands for it
			}
		}
		// A keepalive stream requires a leader: the member ends it once
		// it has had none for three election timeouts, checked every
		// election timeout (interceptor.go:315-351, monitorLeader), its
		// own election timeout after it lost the leader.
		deadline = max(c.sim.now, min(deadline, cl.members[i].lostAt+4*ElectionTimeout))
	}
	cl.nextWait++
	cl.waits = append(cl.waits, waiting{id: cl.nextWait, member: i, env: env, deadline: deadline})
	c.sim.at(deadline, task{kind: evCluster, fn: fnGiveUp, n: cl.nextWait})
}

// stream reports whether a request travels on a keepalive stream opened
// with WithRequireLeader, as etcd's KeepAlive client opens it (clientv3
// lease.go:210-211). A client on its own KeepAliveOnce timer (RenewEvery)
// sends each on a call of its own, which waits the whole RequestTimeout.
func (c *Coordinator) stream(env Envelope) bool {
	if _, ok := env.Msg.(keepAliveReq); !ok {
		return false
	}
	p := c.sim.Process(env.From)
	return p == nil || p.cfg.RenewEvery == 0
}

// proposal reports whether a request is a write Raft must commit.
func proposal(m Message) bool {
	switch m.(type) {
	case keepAliveReq, checkReq, listShardsReq, readReq, zkPing:
		return false
	}
	return true
}

// latency is how long a request at member i takes to be committed: the
// hop to the leader and back, then a round trip to the quorum (and, for
// a write, the disk syncs: the leader's own, each follower's before it
// acknowledges).
func (c *Coordinator) latency(i int, m Message) time.Duration {
	cl, net := c.cl, c.sim.Net
	l := c.activeLeader()
	name := func(j int) string { return cl.members[j].name }
	var fwd time.Duration
	if i != l {
		fwd = net.Link(name(i), name(l)).Delay + net.Link(name(l), name(i)).Delay
	}
	write := proposal(m)
	var acks []time.Duration
	for j := range cl.members {
		if j != l && c.reach(l, j) {
			d := net.Link(name(l), name(j)).Delay + net.Link(name(j), name(l)).Delay
			if write {
				d += cl.members[j].disk
			}
			acks = append(acks, d)
		}
	}
	slices.Sort(acks)
	var q time.Duration
	if need := len(cl.members) / 2; need > 0 && need <= len(acks) {
		q = acks[need-1]
	}
	if write {
		q = max(q, cl.members[l].disk)
	}
	return fwd + q
}

// serve runs a request at the leader once it is committed; if the leader
// was lost meanwhile, the request waits again.
func (c *Coordinator) serve(i int, env Envelope, deadline uint64) {
	if !c.serves(i) {
		c.admit(i, env, time.Duration(deadline))
		return
	}
	if r, ok := env.Msg.(readReq); ok {
		c.answerRead(i, r, "linearizable")
		return
	}
	c.cl.handling = true
	c.receive(env)
	c.cl.handling = false
}

// serveWaiting lets through every waiting request a leader can serve now.
func (c *Coordinator) serveWaiting() {
	cl := c.cl
	if len(cl.waits) == 0 {
		return
	}
	ready := cl.waits[:0:0]
	keep := cl.waits[:0]
	for _, w := range cl.waits {
		switch {
		case cl.members[w.member].crashed:
			// The member died with the request: its client's stream broke.
		case c.serves(w.member):
			ready = append(ready, w)
		default:
			keep = append(keep, w)
		}
	}
	cl.waits = keep
	for _, w := range ready {
		c.admit(w.member, w.env, w.deadline)
	}
}

// closeZK closes the ZooKeeper connection of client who at member i: the
// client is Disconnected and reconnects, with its session, to another.
func (c *Coordinator) closeZK(i int, who string) {
	if p := c.sim.Process(who); p != nil && p.lease != 0 {
		c.reply(who, zkClosed{Session: p.lease})
	}
	if c.cl.clientOf[who]-1 == i {
		c.cl.clientOf[who] = -(i + 1)
		c.cl.next = i + 1
	}
}

// giveUp ends a request that waited its whole RequestTimeout.
func (c *Coordinator) giveUp(id int) {
	cl := c.cl
	k := slices.IndexFunc(cl.waits, func(w waiting) bool { return w.id == id })
	if k < 0 {
		return
	}
	w := cl.waits[k]
	if cl.members[w.member].paused {
		// A paused member gives up only once it runs again.
		cl.waits[k].deadline = c.sim.now + RequestTimeout
		c.sim.at(cl.waits[k].deadline, task{kind: evCluster, fn: fnGiveUp, n: id})
		return
	}
	cl.waits = slices.Delete(cl.waits, k, k+1)
	why := c.rules.quorumless(w.env.Msg)
	c.memberTrace(w.member, KindRefused, S(FWho, w.env.From), S(FMsg, w.env.Msg.Kind()), S(FWhy, why))
	if c.stream(w.env) && cl.clientOf[w.env.From]-1 == w.member {
		// The client opens its stream again, on the next member.
		cl.clientOf[w.env.From] = -(w.member + 1)
		cl.next = w.member + 1
	}
	switch m := w.env.Msg.(type) {
	case acquireReq:
		c.reply(w.env.From, lockStatus{Lock: m.Lock, Err: why})
	case checkReq:
		c.reply(w.env.From, lockStatus{Lock: m.Lock, Key: m.Key, CreateRev: m.Rev, Err: why})
	case putReq:
		c.reply(w.env.From, opResp{Op: "put", Key: m.Key, Err: why})
	case deleteReq:
		c.reply(w.env.From, opResp{Op: "delete", Key: m.Key, Err: why})
	case readReq:
		c.memberTrace(w.member, KindRead, S(FLock, m.Lock), S(FHow, "linearizable"), S(FResult, why))
	}
	// A grant, a keepalive and the rest get no answer: the client's own
	// timers (its grant retry, its lease deadline) take it from there.
}

// breakClients ends the streams of every client talking to member i:
// each opens its stream again on another member ClientRetryWait later,
// and what it sends meanwhile waits in its connection.
func (c *Coordinator) breakClients(i int) {
	cl := c.cl
	var names []string
	for cli, j := range cl.clientOf {
		if j-1 == i {
			names = append(names, cli)
		}
	}
	slices.Sort(names)
	for _, cli := range names {
		if _, ok := c.sim.actors[cli].(client); !ok {
			continue
		}
		if c.rules.dropsClients() {
			c.closeZK(i, cli)
			continue
		}
		n := c.sim.Net
		n.connDown(cli)
		cc := n.conns[cli]
		cc.healedAt = c.sim.now
		c.sim.at(c.sim.now+ClientRetryWait, task{kind: evReconnect, str: cli, n: cc.gen})
	}
}

// record keeps a committed change for members that fall behind.
func (c *Coordinator) record(ch kvChange) {
	if c.cl != nil {
		c.cl.history = append(c.cl.history, ch)
	}
}

// ownerAt returns the owner of lock as the state at revision rev has it:
// the value of the lock's oldest key (etcd's recipe: the key with the
// lowest create revision under the lock's prefix holds it).
func (c *Coordinator) ownerAt(lock string, rev int64) string {
	prefix := lock + "/"
	type kv struct {
		value     string
		createRev int64
	}
	live := map[string]kv{}
	for _, ch := range c.cl.history {
		if ch.rev > rev {
			break
		}
		if len(ch.key) <= len(prefix) || ch.key[:len(prefix)] != prefix {
			continue
		}
		if ch.deleted {
			delete(live, ch.key)
		} else {
			live[ch.key] = kv{ch.value, ch.createRev}
		}
	}
	owner, first := "", int64(0)
	for _, v := range live {
		if first == 0 || v.createRev < first {
			owner, first = v.value, v.createRev
		}
	}
	return owner
}

// readReq is a learner's read of a lock's owner at a member.
type readReq struct {
	noToken
	Lock string
}

func (readReq) Kind() string { return "Read" }

// answerRead traces member i's answer to a read of lock's owner.
func (c *Coordinator) answerRead(i int, r readReq, how string) {
	rev := c.appliedBy(i)
	owner := c.ownerAt(r.Lock, rev)
	result := "current"
	if rev < c.Rev && c.ownerAt(r.Lock, c.Rev) != owner {
		result = "stale"
	}
	if owner == "" {
		owner = "nobody"
	}
	c.memberTrace(i, KindRead, S(FLock, r.Lock), S(FOwner, owner), I(FRev, rev), S(FHow, how), S(FResult, result))
}

// memberAct applies an action to member i.
func (c *Coordinator) memberAct(i int, a Action) error {
	cl := c.cl
	m := &cl.members[i]
	switch a.Do {
	case VerbCrash:
		if m.crashed {
			return fmt.Errorf("crash: %s is already down", m.name)
		}
		m.crashed, m.paused = true, false
		c.memberTrace(i, KindMember, S(FState, "crashed"))
		c.breakClients(i)
	case VerbRestart:
		if !m.crashed {
			return fmt.Errorf("restart: %s is not down", m.name)
		}
		m.crashed = false
		if cl.leader == i {
			cl.leader = -1 // it comes back a follower
		}
		c.memberTrace(i, KindMember, S(FState, "restarted"))
	case VerbPause:
		if m.crashed {
			return fmt.Errorf("pause: %s is down", m.name)
		}
		m.paused = true
		m.pauseGen++
		c.memberTrace(i, KindMember, S(FState, "paused"), D(FFor, a.For.D()))
		c.sim.at(c.sim.now+a.For.D(), task{kind: evCluster, fn: fnMemberResume, node: int32(i), n: m.pauseGen})
	case VerbResume:
		if !m.paused {
			return fmt.Errorf("resume: %s is not paused", m.name)
		}
		c.resumeMember(i)
		return nil
	case VerbSlowDisk:
		m.disk = a.For.D()
		c.memberTrace(i, KindSetting, S(FName, "disk sync"), D(FMs, m.disk))
	case VerbRead:
		r := readReq{Lock: a.Key}
		if !a.On {
			c.answerRead(i, r, "serializable")
			return nil
		}
		if m.crashed {
			return fmt.Errorf("read: %s is down", m.name)
		}
		c.admit(i, Envelope{From: "learner", To: CoordinatorName, SentAt: c.sim.now, Msg: r}, c.sim.now+RequestTimeout)
		return nil
	case VerbPartition, VerbHeal:
		return c.memberCut(i, a)
	default:
		return fmt.Errorf("%s: %s is a coordinator member: it can be crashed, restarted, paused, cut off, given a slow disk or read from", a.Do, m.name)
	}
	c.clusterChanged()
	return nil
}

// resumeMember wakes a paused member.
func (c *Coordinator) resumeMember(i int) {
	c.cl.members[i].paused = false
	c.cl.members[i].pauseGen++
	c.memberTrace(i, KindMember, S(FState, "resumed"))
	c.clusterChanged()
}

// memberCut cuts member i off from (or heals it with) its peers, its
// clients, or one peer.
func (c *Coordinator) memberCut(i int, a Action) error {
	cl := c.cl
	m := &cl.members[i]
	cut := a.Do == VerbPartition
	switch a.Peer {
	case ClientsOf:
		m.cutClients = cut
		state := "cut off from its clients"
		if !cut {
			state = "reachable by clients again"
		}
		c.memberTrace(i, KindMember, S(FState, state))
		if cut {
			c.breakClients(i)
		}
	case PeersOf:
		for j := range cl.members {
			if j != i {
				c.memberLink(i, j, cut, a.OneWay)
			}
		}
	default:
		j := c.memberIndex(a.Peer)
		if j < 0 || j == i {
			return fmt.Errorf("%s: %s can be cut off from %s, from %s or from another member, not from %q", a.Do, m.name, PeersOf, ClientsOf, a.Peer)
		}
		c.memberLink(i, j, cut, a.OneWay)
	}
	c.clusterChanged()
	return nil
}

func (c *Coordinator) memberLink(i, j int, cut, oneWay bool) {
	a, b := c.cl.members[i].name, c.cl.members[j].name
	if cut {
		c.sim.Net.Partition(a, b, oneWay)
	} else {
		c.sim.Net.Heal(a, b)
	}
}
