package core

// Results a fenced register returns, in the seed's words.
const (
	Accepted      = "accepted"
	RejectedStale = "rejected stale token"
)

// FencedRegister is a storage value that remembers the highest fencing
// token it has accepted and, with Fencing on, rejects any write carrying a
// lower one. This is the half of the protocol the lock service cannot do:
// only the resource sees the late write arrive.
type FencedRegister struct {
	sim  *Sim
	Name string
	// Fencing enables the token check. Off, every write is accepted and a
	// stale one is only counted.
	Fencing bool
	Value   string
	Highest int64
	// StaleAccepted counts writes accepted with a token below Highest.
	StaleAccepted int
	// highestEv is the trace's Seq+1 of the write that set Highest.
	highestEv int32
}

// AddRegister adds a fenced register actor with the given name.
func (s *Sim) AddRegister(name string, fencing bool) *FencedRegister {
	r := &FencedRegister{sim: s, Name: name, Fencing: fencing, Value: "empty"}
	s.addActor(r)
	s.Register = r
	s.Trace.add(s.now, name, KindSetting, S(FName, "fencing"), S(FValue, onOff(fencing)), S(FResource, name))
	return r
}

func (r *FencedRegister) name() string { return r.Name }

// Write applies the seed's FencedRegister rule and returns Accepted or
// RejectedStale.
func (r *FencedRegister) Write(token int64, value string) string {
	if r.Fencing && token < r.Highest {
		return RejectedStale
	}
	if token < r.Highest {
		r.StaleAccepted++
	} else {
		r.Highest = token
	}
	r.Value = value
	return Accepted
}

func (r *FencedRegister) receive(env Envelope) {
	m, ok := env.Msg.(writeReq)
	if !ok {
		return
	}
	before := r.Highest
	res := r.Write(m.Token, m.Value)
	if r.sim.Trace.on(KindWrite) {
		// The verdict is caused by the write's arrival and by the write
		// that set the highest token it compared with.
		r.sim.Trace.also = r.highestEv
		fs := []Field{S(FFrom, env.From), I(FToken, m.Token), S(FValue, m.Value), S(FResult, res), I(FHighest, before)}
		if m.Label != "" {
			fs = append(fs, S(FLabel, m.Label))
		}
		r.sim.Trace.add(r.sim.now, r.Name, KindWrite, fs...)
		if res == Accepted && m.Token >= before {
			r.highestEv = r.sim.Trace.cause
		}
	}
	if res == Accepted && m.Token < before {
		r.sim.Trace.add(r.sim.now, r.Name, KindStale, S(FFrom, env.From), I(FToken, m.Token), I(FHighest, before))
	}
	reply := replyAccepted
	if res != Accepted {
		reply = replyRejected
	}
	r.sim.Net.send(r.Name, env.From, reply)
}

// The register's two answers, each put in a Message once: nothing changes
// a message after it is sent, so every reply can share one.
var (
	replyAccepted Message = writeResp{Result: Accepted}
	replyRejected Message = writeResp{Result: RejectedStale}
)

// Job queue results.
const (
	JobAccepted          = "accepted"
	JobDuplicateIgnored  = "duplicate ignored"
	JobDuplicateExecuted = "duplicate executed"
)

// JobQueue accepts jobs keyed by an idempotency key such as
// "invoice:customer-17:2026-11-29". With Idempotency on, a key is accepted
// once and repeats are ignored (and counted); off, a repeat runs again.
type JobQueue struct {
	sim         *Sim
	Name        string
	Idempotency bool
	seen        map[string]int
	// Jobs lists accepted keys in order.
	Jobs []string
	// DuplicatesIgnored and DuplicatesExecuted count repeats.
	DuplicatesIgnored, DuplicatesExecuted int
}

// AddJobQueue adds a job queue actor.
func (s *Sim) AddJobQueue(name string, idempotency bool) *JobQueue {
	q := &JobQueue{sim: s, Name: name, Idempotency: idempotency, seen: map[string]int{}}
	s.addActor(q)
	s.Queue = q
	s.Trace.add(s.now, name, KindSetting, S(FName, "idempotency"), S(FValue, onOff(idempotency)), S(FResource, name))
	return q
}

func (q *JobQueue) name() string { return q.Name }

// Enqueue decides one job.
func (q *JobQueue) Enqueue(key string) string {
	n := q.seen[key]
	q.seen[key] = n + 1
	switch {
	case n == 0:
		q.Jobs = append(q.Jobs, key)
		return JobAccepted
	case q.Idempotency:
		q.DuplicatesIgnored++
		return JobDuplicateIgnored
	default:
		q.Jobs = append(q.Jobs, key)
		q.DuplicatesExecuted++
		return JobDuplicateExecuted
	}
}

func (q *JobQueue) receive(env Envelope) {
	m, ok := env.Msg.(enqueueReq)
	if !ok {
		return
	}
	res := q.Enqueue(m.Key)
	q.sim.Trace.add(q.sim.now, q.Name, KindEnqueue, S(FFrom, env.From), I(FToken, m.Token), S(FIdem, m.Key), S(FResult, res))
}

// OffsetStore keeps each shard's committed stream offset and the highest
// shard-lease token that committed it. With Fencing on, a commit with an
// older token is rejected, so a stale owner cannot rewind a shard.
type OffsetStore struct {
	sim     *Sim
	Name    string
	Fencing bool
	Offset  []int64
	Highest []int64
	// Rejected counts fenced-off commits; Regressions counts accepted
	// commits that moved an offset backwards (records to be reprocessed).
	Rejected, Regressions, StaleAccepted int
	Commits                              int
}

// AddOffsetStore adds an offset store for n shards.
func (s *Sim) AddOffsetStore(name string, shards int, fencing bool) *OffsetStore {
	o := &OffsetStore{sim: s, Name: name, Fencing: fencing, Offset: make([]int64, shards), Highest: make([]int64, shards)}
	s.addActor(o)
	s.Offsets = o
	s.Trace.add(s.now, name, KindSetting, S(FName, "fencing"), S(FValue, onOff(fencing)), S(FResource, name))
	return o
}

func (o *OffsetStore) name() string { return o.Name }

// Commit decides one shard's offset commit.
func (o *OffsetStore) Commit(shard int, offset, token int64) string {
	if shard < 0 || shard >= len(o.Offset) {
		return "rejected unknown shard"
	}
	if o.Fencing && token < o.Highest[shard] {
		o.Rejected++
		return RejectedStale
	}
	o.Commits++
	if token < o.Highest[shard] {
		o.StaleAccepted++
	} else {
		o.Highest[shard] = token
	}
	if offset < o.Offset[shard] {
		o.Regressions++
	}
	o.Offset[shard] = offset
	return Accepted
}

func (o *OffsetStore) receive(env Envelope) {
	switch m := env.Msg.(type) {
	case *offsetCommitReq:
		acc, rej := 0, 0
		for i := range m.Base {
			e := m.entry(i)
			before, prevOff := int64(0), int64(0)
			if e.Shard >= 0 && e.Shard < len(o.Offset) {
				before, prevOff = o.Highest[e.Shard], o.Offset[e.Shard]
			}
			res := o.Commit(e.Shard, e.Offset, e.Token)
			if res != Accepted {
				rej++
				o.sim.Trace.add(o.sim.now, o.Name, KindOffset, S(FFrom, env.From), I(FShard, int64(e.Shard)), I(FOffset, e.Offset), I(FToken, e.Token), S(FResult, res), I(FHighest, before))
				continue
			}
			acc++
			if e.Token < before || e.Offset < prevOff {
				o.sim.Trace.add(o.sim.now, o.Name, KindStale, S(FFrom, env.From), I(FShard, int64(e.Shard)), I(FToken, e.Token), I(FHighest, before), I(FOffset, e.Offset), I(FWasOffset, prevOff))
			}
		}
		if acc > 0 {
			o.sim.Trace.add(o.sim.now, o.Name, KindOffset, S(FFrom, env.From), I(FEntries, int64(acc)), S(FResult, Accepted))
		}
	case offsetFetchReq:
		resp := offsetFetchResp{Shards: m.Shards, Offsets: make([]int64, len(m.Shards))}
		for i, sh := range m.Shards {
			if sh >= 0 && sh < len(o.Offset) {
				resp.Offsets[i] = o.Offset[sh]
				if i < len(m.Tokens) {
					o.Highest[sh] = max(o.Highest[sh], m.Tokens[i])
				}
			}
		}
		o.sim.Net.send(o.Name, env.From, resp)
	}
}
