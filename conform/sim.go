package conform

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// SimOptions changes how the simulator runs a scenario.
type SimOptions struct {
	Seed uint64
	// DeadlineCheck overrides core.ProcessConfig.DeadlineCheck: a
	// negative value checks the client's deadline at the deadline itself,
	// which etcd does not do (the suite's own test uses it to prove that
	// a model change is caught).
	DeadlineCheck time.Duration
}

// lockName is the lock every lock and election scenario contends for.
const lockName = "lock"

// RunSim runs sc in LeaseLab's simulator and returns what it observed.
func RunSim(sc *Scenario, opt SimOptions) (*Run, error) {
	s := core.NewSim(opt.Seed)
	s.Coord.TokenSource = core.TokenRevision
	var log core.ActionLog
	var direct []Step // steps the simulator runs by calling its API at their time
	if sc.Kind != "leases" {
		s.AddRegister("storage", true)
		for i, n := range sc.Clients {
			s.AddProcess(core.ProcessConfig{
				Name: n, Lock: lockName, TTL: time.Duration(sc.TTL) * time.Second,
				StartAt: time.Duration(i) * sc.Stagger, Target: "storage",
				ReuseSession: sc.ReuseSession, DeadlineCheck: opt.DeadlineCheck,
			})
			s.Net.SetDelay(n, core.CoordinatorName, sc.delay(n), 0)
		}
	}
	for _, st := range sc.Steps {
		at := func(a core.Action) { log = append(log, core.At(st.At, a)) }
		switch st.Do {
		case "pause":
			at(core.Action{Do: "pause", Proc: st.Proc, For: core.Duration(st.For)})
		case "stall":
			at(core.Action{Do: "delay", Proc: st.Proc, Peer: core.CoordinatorName, For: core.Duration(st.For)})
			at(core.Action{Do: "delay", Proc: core.CoordinatorName, Peer: st.Proc, For: core.Duration(st.For)})
		case "cut":
			at(core.Action{Do: "partition", Proc: st.Proc, Peer: core.CoordinatorName})
			log = append(log, core.At(st.At+st.For, core.Action{Do: "heal", Proc: st.Proc, Peer: core.CoordinatorName}))
		case "release", "resign":
			at(core.Action{Do: "release", Proc: st.Proc})
		case "write":
			at(core.Action{Do: "write", Proc: st.Proc, Value: st.Proc})
		case "revoke":
			if sc.Kind == "leases" {
				direct = append(direct, st)
			} else {
				at(core.Action{Do: "expire", Proc: st.Proc})
			}
		case "grant", "put", "proclaim":
			direct = append(direct, st)
		default:
			return nil, fmt.Errorf("scenario %s: unknown step %q", sc.Name, st.Do)
		}
	}
	s.Schedule(log)
	leases := map[string]core.LeaseID{}
	for _, st := range direct {
		s.RunUntil(st.At)
		c := s.Coord
		switch st.Do {
		case "grant":
			leases[st.Lease] = c.Grant("admin", core.WholeSeconds(time.Duration(st.TTL)*time.Second)).ID
		case "put":
			if err := c.Put("admin", st.Key, "", leases[st.Lease]); err != nil {
				return nil, err
			}
		case "revoke":
			c.Revoke(leases[st.Lease], false, "revoked by admin")
		case "proclaim":
			// concurrency.Election.Proclaim: a put of the leader's own key,
			// if it still has the create revision it campaigned with.
			p := s.Process(st.Proc)
			key := lockName + "/" + p.LeaseID().String()
			cmp := []core.Compare{{Key: key, Target: "create_revision", Int: p.Token()}}
			if _, err := c.Txn(st.Proc, cmp, []core.TxnOp{{Put: true, Key: key, Value: st.Value, Lease: p.LeaseID()}}, nil); err != nil {
				return nil, err
			}
		}
	}
	s.RunUntil(sc.Until)
	if errs := s.ActionErrors(); len(errs) > 0 {
		return nil, fmt.Errorf("scenario %s: %v", sc.Name, errs[0])
	}
	r := &Run{Side: "sim", Base: core.FreshRevision, Obs: simObs(sc, s.Trace)}
	r.sort()
	return r, nil
}

// simObs reads the learner-visible events out of a simulator trace.
func simObs(sc *Scenario, t *core.Trace) []Obs {
	r := simReader{sc: sc, owner: map[string]string{}, modRev: map[string]int64{}, value: map[string]string{}, ttl: map[string]int64{}}
	for e := range t.All() {
		if r.deleted != nil && (e.Kind != core.KindDelete || e.Rev() != r.deleted.Token) {
			r.out = append(r.out, *r.deleted)
			r.deleted = nil
		}
		if !r.session(e) {
			r.store(e)
		}
	}
	if r.deleted != nil {
		r.out = append(r.out, *r.deleted)
	}
	return r.out
}

// simReader is what simObs remembers of the trace read so far.
type simReader struct {
	sc     *Scenario
	out    []Obs
	owner  map[string]string // key -> its writer
	modRev map[string]int64  // key -> its last put's revision
	value  map[string]string // key -> its value now
	ttl    map[string]int64  // lease -> granted TTL in seconds
	holder string            // election: the leader key
	// deleted gathers the deletes of one revision.
	deleted *Obs
	// lastSessionLost: a session.lost and the lease.lost it causes are
	// one event.
	lastSessionLost core.Event
}

// session reads what a client sees of its lease, session and leadership,
// and of its writes; it reports whether e was one of those.
func (r *simReader) session(e *core.Event) bool {
	switch e.Kind {
	case core.KindLeaseGrant:
		// A client sees its grant when the answer arrives (below); an
		// admin's grant is a direct call.
		if e.Owner() == "admin" {
			r.out = append(r.out, Obs{At: e.At, Who: "admin", What: "granted", N: e.Num(core.FTTL) / 1000})
		} else {
			r.ttl[e.Lease()] = e.Num(core.FTTL) / 1000
		}
	case core.KindLeaseRenewed:
		switch e.How() {
		case "keepalive":
			r.out = append(r.out, Obs{At: e.At, Who: e.Actor, What: "keepalive"})
		case "granted":
			r.out = append(r.out, Obs{At: e.At, Who: e.Actor, What: "granted", N: r.ttl[e.Lease()]})
		}
	case core.KindState:
		if e.To() == core.Leader.String() {
			r.out = append(r.out, Obs{At: e.At, Who: e.Actor, What: "acquired", Token: e.Token()})
		}
	case core.KindSessionLost:
		r.lastSessionLost = *e
		if why := e.Why(); why == core.ErrSessionExpired.Error() {
			r.out = append(r.out, Obs{At: e.At, Who: e.Actor, What: "session-expired"})
		} else {
			r.out = append(r.out, Obs{At: e.At, Who: e.Actor, What: "refused", Note: why})
		}
	case core.KindLeaseLost:
		if r.lastSessionLost.Actor != e.Actor || r.lastSessionLost.At != e.At {
			r.out = append(r.out, Obs{At: e.At, Who: e.Actor, What: "lost"})
		}
	case core.KindWrite:
		what := "write-accepted"
		if e.Result() != core.Accepted {
			what = "write-rejected"
		}
		r.out = append(r.out, Obs{At: e.At, Who: e.From(), What: what, Token: e.Token()})
	case core.KindNote:
		if strings.HasPrefix(e.Words(), "write ") && strings.Contains(e.Words(), "refused: not leader") {
			r.out = append(r.out, Obs{At: e.At, Who: e.Actor, What: "write-refused"})
		}
	default:
		return false
	}
	return true
}

// store reads the store's own changes: puts, deletes and the election's
// holder.
func (r *simReader) store(e *core.Event) {
	kind := r.sc.Kind
	switch e.Kind {
	case core.KindPut:
		key := e.Key()
		if _, ok := r.owner[key]; !ok {
			r.owner[key] = e.Value() // the creator; a proclaim changes only the value
		}
		r.modRev[key], r.value[key] = e.Rev(), e.Value()
		if kind == "leases" {
			r.out = append(r.out, Obs{At: e.At, Who: key, What: "put", Token: e.Rev()})
		}
		if kind == "election" && key == r.holder {
			r.out = append(r.out, Obs{At: e.At, Who: ownerOf(r.owner, key), What: "leader", Token: e.Rev(), Note: e.Value()})
		}
	case core.KindDelete:
		if r.deleted == nil {
			who := ownerOf(r.owner, e.Key())
			if kind == "leases" {
				who = "store"
			}
			r.deleted = &Obs{At: e.At, Who: who, What: "deleted", Token: e.Rev()}
		}
		r.deleted.N++
		delete(r.owner, e.Key())
	case core.KindHolder:
		if kind == "election" {
			r.holder = e.Key()
			r.out = append(r.out, Obs{At: e.At, Who: e.Owner(), What: "leader", Token: r.modRev[r.holder], Note: r.value[r.holder]})
		}
	}
}

// ownerOf names a lock key's owner: the simulator's processes write their
// own name as the value.
func ownerOf(owner map[string]string, key string) string {
	if o := owner[key]; o != "" {
		return o
	}
	return key
}
