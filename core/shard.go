package core

import "time"

// ShardConfig configures one shard worker.
type ShardConfig struct {
	Name   string
	Prefix string // shard keys are Prefix + "000" ... (default "stream/shard-")
	Shards int
	TTL    time.Duration
	// RenewEvery is the keepalive period for the session and shard leases
	// (zero: TTL/3).
	RenewEvery time.Duration
	// LeasePerShard gives every shard key a lease of its own (the seed's
	// design); otherwise shard keys ride on the worker's session lease.
	LeasePerShard bool
	// Assign is the rule a worker claims free shards by (default: fair
	// share). AssignStatic needs Index (this worker's place) and Of (the
	// number of workers).
	Assign    AssignRule
	Index, Of int
	// ScanEvery is how often the worker lists free shards and rebalances;
	// ScanJitter spreads scans over [ScanEvery, ScanEvery*(1+ScanJitter)].
	// Without jitter, workers that lost leases together retry together.
	ScanEvery  time.Duration
	ScanJitter float64
	// CommitEvery is how often the worker commits offsets of its shards,
	// each with the shard's lease token. Zero: never.
	CommitEvery time.Duration
	// RecordsPerSecond is how fast each shard's offset advances.
	RecordsPerSecond int64
	StartAt          time.Duration
	// Offsets names the offset store actor.
	Offsets string
}

// offsets is the offset store the worker commits to.
func (c ShardConfig) offsets() string {
	if c.Offsets == "" {
		return "offsets"
	}
	return c.Offsets
}

func (c *ShardConfig) fill() {
	if c.Prefix == "" {
		c.Prefix = "stream/shard-"
	}
	if c.RenewEvery <= 0 {
		c.RenewEvery = c.TTL / 3
	}
	if c.ScanEvery <= 0 {
		c.ScanEvery = c.TTL / 3
	}
	if c.Offsets == "" {
		c.Offsets = "offsets"
	}
	if c.RecordsPerSecond <= 0 {
		c.RecordsPerSecond = 10
	}
}

// owned is a worker's belief about one shard.
type owned struct {
	token    int64
	lease    LeaseID
	deadline time.Duration
	offset   int64
	fetched  bool
}

// ShardWorker owns a changing set of shards, one lease-protected key each,
// and commits each shard's stream offset with that shard's fencing token.
type ShardWorker struct {
	node
	cfg      ShardConfig
	session  LeaseID
	deadline time.Duration // session deadline (local belief)
	own      ownSet
	awaiting bool

	// Messages the worker sends again and again are made once and shared
	// by every send (a message is never changed once sent): the scan, and
	// the keepalive for the leases it renewed last.
	scanMsg  Message
	renewReq keepAliveReq
	renewMsg Message
	// commits holds the offset commits it sends, entries their bases: a
	// few allocations for a run's commits (see slab). lastBase is the base
	// of the last commit (see offsetCommitReq).
	commits  slab[offsetCommitReq]
	entries  slab[offsetEntry]
	lastBase []offsetEntry
	// beliefs holds the worker's beliefs about shards it claimed (see slab).
	beliefs slab[owned]
	// why is the reason it gave shards back last (see rebalanceWhy).
	why struct {
		live, target int
		text         string
	}
}

// AddShardWorker adds a worker that joins at cfg.StartAt.
func (s *Sim) AddShardWorker(cfg ShardConfig) *ShardWorker {
	cfg.fill()
	w := &ShardWorker{node: node{sim: s, id: cfg.Name}, cfg: cfg}
	s.addClient(w, cfg.StartAt, fnJoin)
	s.workers = append(s.workers, w)
	return w
}

// Name returns the worker name.
func (w *ShardWorker) Name() string { return w.cfg.Name }

// Owned returns the shards the worker believes it owns, sorted.
func (w *ShardWorker) Owned() []int { return w.own.shards() }

// Owns reports whether the worker believes it owns shard.
func (w *ShardWorker) Owns(shard int) bool { return w.own.get(shard) != nil }

// ShardToken returns the token the worker holds for shard (0: not owned).
func (w *ShardWorker) ShardToken(shard int) int64 {
	if o := w.own.get(shard); o != nil {
		return o.token
	}
	return 0
}

func (w *ShardWorker) join() {
	w.awaiting = true
	w.send(CoordinatorName, grantReq{TTL: w.cfg.TTL})
	w.rearm(tmScan, w.sim.jitter(w.cfg.ScanEvery, w.cfg.ScanJitter), fnJoinRetry)
}

func (w *ShardWorker) receive(env Envelope) { w.deliver(env) }

// exec runs one of the worker's tasks (see node.run).
func (w *ShardWorker) exec(t task) {
	switch t.fn {
	case fnJoin:
		w.join()
	case fnJoinRetry:
		if w.awaiting {
			w.join() // the grant was lost: ask again
		}
	case fnRenew:
		w.renew()
	case fnScan:
		w.scan()
	case fnCommit:
		w.commit()
	case fnCheck:
		w.checkDeadlines()
	}
}

func (w *ShardWorker) handle(m Message) {
	switch m := m.(type) {
	case grantResp:
		if !w.awaiting {
			return
		}
		w.awaiting = false
		w.session, w.deadline = m.Lease, w.sim.now+m.TTL
		w.send(CoordinatorName, putReq{Key: WorkerPrefix + w.cfg.Name, Value: w.cfg.Name, Lease: w.session})
		w.rearm(tmRenew, w.cfg.RenewEvery, fnRenew)
		w.rearm(tmScan, 0, fnScan)
		if w.cfg.CommitEvery > 0 {
			w.rearm(tmCommit, w.cfg.CommitEvery, fnCommit)
		}
		w.armCheck()
	case keepAliveResp:
		w.onRenewal(m)
	case *keepAliveResp:
		w.onRenewal(*m)
	case listShardsResp:
		w.rebalance(m)
	case claimShardsResp:
		got, toks := make([]int, 0, len(m.Results)), make([]int64, 0, len(m.Results))
		for _, r := range m.Results {
			if !r.OK {
				continue
			}
			dl := w.deadline
			if w.cfg.LeasePerShard {
				dl = w.sim.now + w.cfg.TTL
			}
			o := w.beliefs.one()
			*o = owned{token: r.Token, lease: r.Lease, deadline: dl}
			w.own.set(r.Shard, o)
			w.trace(KindShardOwn, I(FShard, int64(r.Shard)), I(FToken, r.Token))
			got, toks = append(got, r.Shard), append(toks, r.Token)
		}
		if len(got) > 0 {
			w.send(w.cfg.Offsets, offsetFetchReq{Shards: got, Tokens: toks})
			w.armCheck()
		}
	case offsetFetchResp:
		for i, sh := range m.Shards {
			if o := w.own.get(sh); o != nil && !o.fetched {
				o.offset, o.fetched = m.Offsets[i], true
			}
		}
	}
}

// renew renews the worker's session and shard leases. In etcd each
// LeaseKeepAliveRequest names one lease ID, and a client sends them all
// over one keepalive stream; the lab sends them as one message (a fault
// of the stream loses them together) and the coordinator counts each
// lease renewed, so the load is per lease, as in etcd.
func (w *ShardWorker) renew() {
	if !w.renewsAll() {
		ids := make([]LeaseID, 0, 1+len(w.own))
		ids = append(ids, w.session)
		if w.cfg.LeasePerShard {
			for _, e := range w.own {
				ids = append(ids, e.o.lease)
			}
		}
		w.renewReq = keepAliveReq{Leases: ids}
		w.renewMsg = w.renewReq
	}
	w.send(CoordinatorName, w.renewMsg)
	w.rearm(tmRenew, w.cfg.RenewEvery, fnRenew)
}

// renewsAll reports whether the keepalive made last asks for exactly the
// leases the worker holds now, in the same order, so it can be sent again.
func (w *ShardWorker) renewsAll() bool {
	ids := w.renewReq.Leases
	if w.renewMsg == nil || len(ids) == 0 || ids[0] != w.session {
		return false
	}
	if !w.cfg.LeasePerShard {
		return len(ids) == 1
	}
	if len(ids) != 1+len(w.own) {
		return false
	}
	for i, e := range w.own {
		if ids[1+i] != e.o.lease {
			return false
		}
	}
	return true
}

func (w *ShardWorker) onRenewal(m keepAliveResp) {
	res := m.Results
	next := 0 // results come in the order the worker asked: look there first
	lookup := func(id LeaseID) (time.Duration, bool) {
		for k := range res {
			if i := (next + k) % len(res); res[i].Lease == id {
				next = i + 1
				return res[i].TTL, true
			}
		}
		return 0, false
	}
	if ttl, ok := lookup(w.session); ok {
		if ttl == 0 {
			w.loseAll("session lease expired at the coordinator")
			return
		}
		w.deadline = w.sim.now + ttl
	}
	for i := 0; i < len(w.own); {
		sh, o := w.own[i].shard, w.own[i].o
		if !w.cfg.LeasePerShard {
			o.deadline = w.deadline
			i++
			continue
		}
		ttl, ok := lookup(o.lease)
		switch {
		case !ok:
		case ttl == 0:
			w.drop(sh, "shard lease expired at the coordinator")
			continue // the next shard has moved into place i
		default:
			o.deadline = w.sim.now + ttl
		}
		i++
	}
	w.armCheck()
}

// armCheck arms one timer at the earliest local deadline.
func (w *ShardWorker) armCheck() {
	w.stop(tmCheck)
	if w.session == 0 {
		return
	}
	first := w.deadline
	for _, e := range w.own {
		first = min(first, e.o.deadline)
	}
	w.arm(tmCheck, first, fnCheck)
}

func (w *ShardWorker) checkDeadlines() {
	now := w.sim.now
	if now >= w.deadline {
		w.loseAll("local session deadline passed")
		return
	}
	for _, sh := range w.Owned() { // a copy: drop edits w.own
		if now >= w.own.get(sh).deadline {
			w.drop(sh, "local lease deadline passed")
		}
	}
	w.armCheck()
}

func (w *ShardWorker) drop(sh int, why string) {
	w.own.del(sh)
	w.trace(KindShardDrop, I(FShard, int64(sh)), S(FWhy, why))
}

// loseAll stops work on every shard and rejoins with a new session.
func (w *ShardWorker) loseAll(why string) {
	for _, sh := range w.Owned() {
		w.drop(sh, why)
	}
	if w.sim.Trace.on(KindLeaseLost) {
		w.trace(KindLeaseLost, S(FLease, w.session.String()), S(FWhy, why))
	}
	w.stop(tmRenew)
	w.stop(tmCommit)
	w.stop(tmCheck)
	w.session = 0
	w.join()
}

func (w *ShardWorker) scan() {
	if w.scanMsg == nil {
		w.scanMsg = listShardsReq{Prefix: w.cfg.Prefix, Count: w.cfg.Shards}
	}
	w.send(CoordinatorName, w.scanMsg)
	w.rearm(tmScan, w.sim.jitter(w.cfg.ScanEvery, w.cfg.ScanJitter), fnScan)
}

func (w *ShardWorker) sessionFor() LeaseID {
	if w.cfg.LeasePerShard {
		return 0
	}
	return w.session
}

// commit sends one batch of offset commits, each carrying its shard token.
func (w *ShardWorker) commit() {
	adv := w.cfg.RecordsPerSecond * int64(w.cfg.CommitEvery/time.Millisecond) / 1000
	n := 0
	for _, e := range w.own {
		if o := e.o; o.fetched {
			o.offset += adv
			n++
		}
	}
	if n > 0 {
		m := w.commits.one()
		m.Base, m.Advance = w.commitBase(n)
		w.send(w.cfg.Offsets, m)
	}
	w.rearm(tmCommit, w.cfg.CommitEvery, fnCommit)
}

// commitBase returns a base and an advance that give the n offsets the
// worker commits now (see offsetCommitReq): the last commit's base if
// every entry moved on by the same number of records since, else a new one.
func (w *ShardWorker) commitBase(n int) ([]offsetEntry, int64) {
	base := w.lastBase
	if len(base) == n {
		i, adv := 0, int64(0)
		for _, e := range w.own {
			o := e.o
			if !o.fetched {
				continue
			}
			b := &base[i]
			if i == 0 {
				adv = o.offset - b.Offset
			}
			if b.Shard != e.shard || b.Token != o.token || b.Offset+adv != o.offset {
				break
			}
			i++
		}
		if i == n {
			return base, adv
		}
	}
	base = w.entries.take(n)[:0]
	for _, e := range w.own {
		if o := e.o; o.fetched {
			base = append(base, offsetEntry{Shard: e.shard, Offset: o.offset, Token: o.token})
		}
	}
	w.lastBase = base
	return base, 0
}

func (w *ShardWorker) crash() {
	if !w.die() {
		return
	}
	for _, sh := range w.Owned() {
		w.drop(sh, "crashed")
	}
	w.session, w.awaiting = 0, false
}

func (w *ShardWorker) restart() {
	if w.revive() {
		w.join()
	}
}
