package lab

import (
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
	Now      time.Duration
	Rev      int64
	Lock     core.LockInfo
	Keys     []KeyView
	Procs    []ProcView
	Store    *StoreView
	InFlight []MsgView
}

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
}

// World snapshots the world at the play head.
func (lb *Lab) World() WorldView {
	s := lb.world.Sim
	now := s.Now()
	lockName := ""
	if ps := s.Processes(); len(ps) > 0 {
		lockName = ps[0].Config().Lock
	}
	v := WorldView{Now: now, Rev: s.Coord.Rev, Lock: s.Coord.LockInfo(lockName)}
	for _, kv := range s.Coord.Range(lockName + "/") {
		v.Keys = append(v.Keys, KeyView{Key: kv.Key, Owner: kv.Value, CreateRev: kv.CreateRev, Holder: kv.Key == v.Lock.Key})
	}
	for _, p := range s.Processes() {
		pv := ProcView{Name: p.Name(), State: p.State(), Paused: p.Paused(), Crashed: p.Crashed(),
			Token: p.Token(), Believes: p.BelievesLeader(), Holder: v.Lock.Holder == p.Name(),
			TTL: p.Config().TTL, Cut: s.Net.Cut(p.Name(), core.CoordinatorName) || s.Net.Cut(core.CoordinatorName, p.Name())}
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
	v.InFlight = inFlight(s.Trace, now)
	return v
}

// inFlight finds messages sent but not yet arrived, scanning back from the
// end of the trace (messages never fly longer than maxFlight).
func inFlight(t *core.Trace, now time.Duration) []MsgView {
	const maxFlight = 5 * time.Second
	var out []MsgView
	for i := len(t.Events) - 1; i >= 0; i-- {
		e := &t.Events[i]
		if e.At < now-maxFlight {
			break
		}
		if e.Kind != core.KindSend {
			continue
		}
		arrive := time.Duration(e.Int("arrive_ms")) * time.Millisecond
		if arrive <= now || arrive <= e.At {
			continue
		}
		out = append(out, MsgView{From: e.Actor, To: e.Get("to"), Kind: e.Get("msg"), Token: e.Int("token"),
			Progress: float64(now-e.At) / float64(arrive-e.At)})
	}
	// Oldest first, so newer arrows draw on top.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Span is an interval on the timeline; Open spans run to the play head.
type Span struct {
	From, To time.Duration
}

// Lane is one process's row on the timeline.
type Lane struct {
	Name    string
	Belief  []Span // believed it led
	Truth   []Span // the coordinator said it held the lock
	Paused  []Span
	Crashed []Span
}

// WriteMark is one store decision.
type WriteMark struct {
	At       time.Duration
	From     string
	Token    int64
	Accepted bool
	Stale    bool // accepted below the highest token (fencing off)
}

// Timeline is what the timeline view draws, up to the play head.
type Timeline struct {
	Now      time.Duration
	Length   time.Duration
	Lanes    []Lane
	Overlaps []Span // two or more processes believed they led
	Writes   []WriteMark
}

// Timeline builds the lanes from the trace.
func (lb *Lab) Timeline() Timeline {
	s := lb.world.Sim
	now := s.Now()
	tl := Timeline{Now: now, Length: lb.Length()}
	idx := map[string]int{}
	for _, p := range s.Processes() {
		idx[p.Name()] = len(tl.Lanes)
		tl.Lanes = append(tl.Lanes, Lane{Name: p.Name()})
	}
	open := func(spans *[]Span, at time.Duration) { *spans = append(*spans, Span{From: at, To: -1}) }
	shut := func(spans []Span, at time.Duration) {
		if n := len(spans); n > 0 && spans[n-1].To < 0 {
			spans[n-1].To = at
		}
	}
	holder := ""
	for i := range s.Trace.Events {
		e := &s.Trace.Events[i]
		li, isProc := idx[e.Actor]
		switch e.Kind {
		case core.KindState:
			if !isProc {
				continue
			}
			if e.Get("to") == core.Leader.String() {
				open(&tl.Lanes[li].Belief, e.At)
			} else if e.Get("from") == core.Leader.String() {
				shut(tl.Lanes[li].Belief, e.At)
			}
		case core.KindPause:
			if isProc {
				open(&tl.Lanes[li].Paused, e.At)
			}
		case core.KindResume:
			if isProc {
				shut(tl.Lanes[li].Paused, e.At)
			}
		case core.KindCrash:
			if isProc {
				open(&tl.Lanes[li].Crashed, e.At)
			}
		case core.KindRestart:
			if isProc {
				shut(tl.Lanes[li].Crashed, e.At)
			}
		case core.KindHolder, core.KindFree:
			if j, ok := idx[holder]; ok {
				shut(tl.Lanes[j].Truth, e.At)
			}
			holder = ""
			if e.Kind == core.KindHolder {
				holder = e.Get("owner")
				if j, ok := idx[holder]; ok {
					open(&tl.Lanes[j].Truth, e.At)
				}
			}
		case core.KindWrite:
			tl.Writes = append(tl.Writes, WriteMark{At: e.At, From: e.Get("from"), Token: e.Int("token"),
				Accepted: e.Get("result") == core.Accepted, Stale: e.Get("result") == core.Accepted && e.Int("token") < e.Int("highest")})
		}
	}
	for i := range tl.Lanes {
		for _, spans := range []*[]Span{&tl.Lanes[i].Belief, &tl.Lanes[i].Truth, &tl.Lanes[i].Paused, &tl.Lanes[i].Crashed} {
			shut(*spans, now)
		}
	}
	for _, iv := range core.Check(s.Trace, now).Overlaps {
		if iv.What == "leader" {
			tl.Overlaps = append(tl.Overlaps, Span{From: iv.From, To: iv.To})
		}
	}
	return tl
}
