package lab

import (
	"fmt"
	"slices"
	"time"

	"leaselab/core"
)

// ProcView is one process as the world view draws it: its own belief next
// to the coordinator's truth.
type ProcView struct {
	Name     string
	State    core.State
	Paused   bool
	Crashed  bool
	Token    int64 // the token it believes it holds
	Believes bool  // acts as leader
	Holder   bool  // the coordinator says it holds the lock
	// BeliefLeft is how long the process thinks its lease has left (local
	// deadline - now); TruthLeft how long the coordinator will keep it.
	// Both are 0 without a lease. TTL scales the rings.
	BeliefLeft, TruthLeft, TTL time.Duration
	Cut                        bool // its link to the coordinator is cut
	// HeldUntil is when what it sends stops being held (0: not held).
	HeldUntil time.Duration
	// ConnDown: its connection to the coordinator is down (cut, or healed
	// and not yet reconnected); Waiting messages wait in it, lost to none.
	ConnDown bool
	Waiting  int
	// Busy is how long its unit of work keeps its loop busy from now;
	// RenewWait how long a renewal has waited behind that work (Renewing:
	// one waits).
	Busy, RenewWait time.Duration
	Renewing        bool
	// CutFrom names the Redis nodes its links are cut to (Redlock: a
	// client talks to every node, never to a coordinator).
	CutFrom []string
	// Deployed lists the fixes deployed to its client so far.
	Deployed []core.FixName
}

// KeyView is one coordinator key.
type KeyView struct {
	Key       string
	Owner     string
	CreateRev int64
	Holder    bool
}

// WorldView is everything the world view draws at the play head.
type WorldView struct {
	Now time.Duration
	// PauseFor is how long the pause button freezes a process (the
	// lesson's pause length; 0 where no lesson says).
	PauseFor time.Duration
	Rev      int64
	// Words name the coordinator, its write counter and the token in the
	// world's system's own terms (etcd: Coordinator, revision, token).
	Words core.SystemWords
	Lock  core.LockInfo // the first group's lock (most worlds have one)
	Keys  []KeyView     // and its keys
	// Procs are the lock contenders; Groups sort them by lock.
	Procs    []ProcView
	Groups   []LockGroup
	Store    *StoreView
	InFlight []MsgView
	// HeldLinks has one entry per link with held messages: Count of
	// them, the highest Token among them.
	HeldLinks []MsgView

	// Shard worlds: the workers, the coordinator's owner of each shard
	// (an index into Workers, -1 when free) and the offset store.
	Workers []WorkerView
	Shards  []int
	Offsets *OffsetsView
	// Load is the coordinator's requests per 100 ms window so far; Peak
	// its busiest window and when that started.
	Load   []int32
	Peak   int
	PeakAt time.Duration

	Queue *QueueView
	// Denied counts requests the coordinator's ACL refused; LastDenied
	// is the latest refusal's reason.
	Denied     int
	LastDenied string
	// Notes are keys outside every lock, shard and worker prefix (a
	// status key), with their values.
	Notes []NoteKey

	// Redis are a Redlock world's independent nodes, redis-1 first, each
	// with the first lock's key as it holds it; Quorum is how many of
	// them a client must win. None elsewhere.
	Redis  []RedisView
	Quorum int

	// Members are the coordinator's cluster members, member-1 first (none
	// for a coordinator of one); LeaderName is the member that leads now
	// with its quorum ("": none) and Term the cluster's term.
	Members    []MemberView
	LeaderName string
	Term       int64
}

// LockGroup is one lock and the processes that contend for it.
type LockGroup struct {
	Lock   core.LockInfo
	Recipe core.Recipe
	Keys   []KeyView
	Procs  []int // indices into WorldView.Procs
	// Handovers counts deletions of the holder's key; the last one woke
	// Woken watchers while Waiting contenders were queued.
	Handovers, Woken, Waiting int
}

// WorkerView is one shard worker.
type WorkerView struct {
	Name                 string
	Paused, Crashed, Cut bool
	Owned                int // shards it believes it owns
	Holds                int // shards the coordinator says it holds
	// HeldUntil is when what it sends stops being held (0: not held).
	HeldUntil time.Duration
}

// OffsetsView is the shard offset store.
type OffsetsView struct {
	Name                                          string
	Fencing                                       bool
	Commits, Rejected, StaleAccepted, Regressions int
}

// QueueView is the job queue.
type QueueView struct {
	Name                                        string
	Idempotency                                 bool
	Jobs, DuplicatesIgnored, DuplicatesExecuted int
	// Last is the latest decision: key and result.
	LastKey, LastResult string
}

// NoteKey is a coordinator key shown with its value.
type NoteKey struct{ Key, Value string }

// StoreView is the fenced register.
type StoreView struct {
	Name    string
	Highest int64
	Value   string
	Fencing bool
}

// MsgView is a message on the wire, Progress from 0 (sent) to 1 (arrives).
type MsgView struct {
	From, To string
	Kind     string
	Token    int64
	Progress float64
	// Held is a message the network still holds (a delay action): it has
	// not left its sender yet, so Progress is 0.
	Held bool
	// Count is how many held messages a HeldLinks entry stands for.
	Count int
}

// World snapshots the world at the play head. The snapshot is cached
// until the simulation moves.
func (lb *Lab) World() WorldView {
	s := lb.world.Sim
	if lb.wv != nil && lb.wvGen == lb.gen && lb.wvLen == s.Trace.Len() && lb.wvAt == s.Now() {
		return *lb.wv
	}
	v := lb.world1()
	lb.wv, lb.wvGen, lb.wvLen, lb.wvAt = &v, lb.gen, s.Trace.Len(), s.Now()
	return v
}

func (lb *Lab) world1() WorldView {
	s := lb.world.Sim
	now := s.Now()
	lockName, system := "", s.Coord.System
	if ps := s.Processes(); len(ps) > 0 {
		// The clients know their system (Kubernetes and Redlock do not
		// change the coordinator's own).
		lockName, system = ps[0].Config().Lock, ps[0].Config().System
	}
	v := WorldView{Now: now, Rev: s.Coord.Rev, Words: system.Words(), Lock: s.Coord.LockInfo(lockName), PauseFor: lb.Lesson.PauseLength(lb.Knobs())}
	for _, kv := range s.Coord.Range(lockName + "/") {
		v.Keys = append(v.Keys, KeyView{Key: kv.Key, Owner: kv.Value, CreateRev: kv.CreateRev, Holder: kv.Key == v.Lock.Key})
	}
	redis := s.RedisNodes() // looked up once per snapshot, not once per process
	for _, p := range s.Processes() {
		pv := ProcView{Name: p.Name(), State: p.State(), Paused: p.Paused(), Crashed: p.Crashed(),
			Token: p.Token(), Believes: p.BelievesLeader(), Holder: v.Lock.Holder == p.Name(),
			TTL: p.Config().TTL, Cut: s.Net.Cut(p.Name(), core.CoordinatorName) || s.Net.Cut(core.CoordinatorName, p.Name()),
			HeldUntil: s.Net.Holding(p.Name())}
		pv.ConnDown, pv.Waiting = s.Net.Connection(p.Name())
		for _, r := range redis {
			if s.Net.Cut(p.Name(), r.Name) || s.Net.Cut(r.Name, p.Name()) {
				pv.CutFrom = append(pv.CutFrom, r.Name)
			}
		}
		pv.Busy = p.Busy()
		pv.RenewWait, pv.Renewing = p.RenewalWaiting()
		for _, f := range core.Fixes {
			if p.Deployed(f) {
				pv.Deployed = append(pv.Deployed, f)
			}
		}
		if p.LeaseID() != 0 {
			pv.BeliefLeft = max(0, p.LocalDeadline()-now)
		}
		// The coordinator's truth: any live lease this process owns.
		for _, l := range s.Coord.Leases() {
			if l.Owner == p.Name() {
				pv.TruthLeft = max(pv.TruthLeft, l.Expiry-now)
			}
		}
		v.Procs = append(v.Procs, pv)
	}
	if r := s.Register; r != nil {
		v.Store = &StoreView{Name: r.Name, Highest: r.Highest, Value: r.Value, Fencing: r.Fencing}
	}
	v.InFlight = inFlight(s.Trace, now, s.Net)
	v.HeldLinks = heldLinks(v.InFlight)
	lb.addGroups(&v)
	lb.addShards(&v)
	lb.addRedis(&v, lockName)
	lb.addMembers(&v)
	if q := s.Queue; q != nil {
		v.Queue = &QueueView{Name: q.Name, Idempotency: q.Idempotency, Jobs: len(q.Jobs),
			DuplicatesIgnored: q.DuplicatesIgnored, DuplicatesExecuted: q.DuplicatesExecuted}
		if es := s.Trace.Filter(core.KindEnqueue); len(es) > 0 {
			e := es[len(es)-1]
			v.Queue.LastKey, v.Queue.LastResult = e.Idem(), e.Result()
		}
	}
	if ds := s.Trace.Filter(core.KindDenied); len(ds) > 0 {
		v.Denied, v.LastDenied = len(ds), ds[len(ds)-1].Why()
	}
	return v
}

// inFlight finds messages sent but not yet arrived, scanning back from the
// end of the trace (messages never fly longer than maxFlight, plus the
// longest hold the network has applied). A held message is reported as
// such until it leaves; its flight is measured from then.
func inFlight(t *core.Trace, now time.Duration, net *core.Network) []MsgView {
	const maxFlight = 5 * time.Second
	window := maxFlight
	if net.HoldsEnd()+maxFlight > now {
		window += net.LongestHold()
	}
	var out []MsgView
	for i := t.Len() - 1; i >= 0; i-- {
		e := t.At(i)
		if e.At < now-window {
			break
		}
		if e.Kind != core.KindSend {
			continue
		}
		arrive := e.Arrive()
		if arrive <= now || arrive <= e.At {
			continue
		}
		m := MsgView{From: e.Actor, To: e.To(), Kind: e.Msg(), Token: e.Token()}
		leave := e.At + e.Held()
		if now < leave {
			m.Held = true
		} else {
			m.Progress = float64(now-leave) / float64(arrive-leave)
		}
		out = append(out, m)
	}
	// Oldest first, so newer arrows draw on top.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// heldLinks groups the held messages of in by link, in order of the first.
func heldLinks(in []MsgView) []MsgView {
	var out []MsgView
	for _, m := range in {
		if !m.Held {
			continue
		}
		j := slices.IndexFunc(out, func(h MsgView) bool { return h.From == m.From && h.To == m.To })
		if j < 0 {
			m.Count = 1
			out = append(out, m)
			continue
		}
		out[j].Count++
		out[j].Token = max(out[j].Token, m.Token)
	}
	return out
}

// ConnTag is the world view's word for a process's connection to the
// coordinator: "link cut" while cut, "reconnecting" between the heal and
// the reconnect (gRPC's backoff), each with what waits in it; "" when up.
func (p ProcView) ConnTag() string {
	word := ""
	switch {
	case p.Cut:
		word = "link cut"
	case p.ConnDown:
		word = "reconnecting"
	default:
		return ""
	}
	if p.Waiting > 0 {
		word += fmt.Sprintf(" · %d waiting", p.Waiting)
	}
	return word
}

// LeaderBadge is what a leader's badge says, in its system's words: its
// token by name ("leader · czxid 7") where that fits, else the number
// alone ("leader 7"); a Redlock holder has none ("leader · no token").
func LeaderBadge(words core.SystemWords, token int64, fits func(string) bool) string {
	if words.Server == "" {
		words = core.SystemEtcd.Words()
	}
	long, short := fmt.Sprintf("leader · %s %d", words.Token, token), fmt.Sprintf("leader %d", token)
	if words.Token == "" {
		long, short = "leader · no token", "leader"
	}
	if fits(long) {
		return long
	}
	return short
}
