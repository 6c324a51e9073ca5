package lab

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"leaselab/core"
)

// Span is an interval on the timeline; Open spans run to the play head.
type Span struct {
	From, To time.Duration
}

// Lane is one actor's row on the timeline (or, for the last lane of a
// crowded world, several actors' rows merged: Members names them).
type Lane struct {
	Name    string
	Lock    string // the lock a process contends for ("" for workers)
	Members []string
	Belief  []Span // believed it led (a worker: believed it owned shards)
	Truth   []Span // the coordinator said it held the lock (or shards)
	Paused  []Span
	Crashed []Span
	// Held spans what it sent was held back by the network (a delay).
	Held []Span
}

// Mark kinds.
const (
	MarkWrite  = "write"  // a fenced register's decision
	MarkJob    = "job"    // a job queue's decision
	MarkOffset = "offset" // an offset store's refusal
)

// WriteMark is one resource decision.
type WriteMark struct {
	At       time.Duration
	From     string
	Token    int64
	Accepted bool
	Stale    bool   // accepted although it should not have been
	Kind     string // MarkWrite, MarkJob or MarkOffset
	Label    string // what to print beside a notable mark
}

// Overlap is a span in which two or more processes believed they held
// the same lock.
type Overlap struct {
	Span
	Lock string
}

// Timeline is what the timeline view draws, up to the play head.
type Timeline struct {
	Now      time.Duration
	Length   time.Duration
	Lanes    []Lane
	Overlaps []Overlap
	Writes   []WriteMark
	// Leaders marks each change of the coordinator's leader (a cluster's
	// only): a member elected, or the cluster left with none.
	Leaders []LeaderMark
}

// LeaderMark is one change of a clustered coordinator's leader: Member
// leads from At in Term ("" : from At there is no leader).
type LeaderMark struct {
	At     time.Duration
	Member string
	Term   int64
}

// Label is the mark's words on the timeline: "member-3 leads, term 3"
// or "no leader".
func (m LeaderMark) Label() string {
	if m.Member == "" {
		return "no leader"
	}
	return fmt.Sprintf("%s leads, term %d", m.Member, m.Term)
}

// Timeline builds the lanes from the trace (cached until the simulation
// moves): one per process and per shard worker, the last summarising the
// rest beyond MaxLanes.
func (lb *Lab) Timeline() Timeline { return lb.TimelineShowing("") }

// TimelineShowing is Timeline with actor name's lane kept among those
// shown (not summarised into "+N more"): the one the learner selected.
func (lb *Lab) TimelineShowing(name string) Timeline {
	s := lb.world.Sim
	if lb.tl == nil || lb.tlGen != lb.gen || lb.tlLen != s.Trace.Len() || lb.tlAt != s.Now() {
		tl := lb.timeline()
		lb.tl, lb.tlGen, lb.tlLen, lb.tlAt = &tl, lb.gen, s.Trace.Len(), s.Now()
		lb.tlShown = nil
	}
	if lb.tlShown == nil || lb.tlFor != name {
		tl := *lb.tl // every lane; the cache keeps them
		tl.Lanes = summarise(Showing(tl.Lanes, name, MaxLanes))
		lb.tlShown, lb.tlFor = &tl, name
	}
	return *lb.tlShown
}

// Showing returns lanes with name's lane moved up to the last place of
// the first n-1 (the ones a summary of n lanes keeps), when it would
// otherwise be summarised; lanes is not changed.
func Showing(lanes []Lane, name string, n int) []Lane {
	i := slices.IndexFunc(lanes, func(l Lane) bool { return len(l.Members) == 1 && l.Members[0] == name })
	if name == "" || i < n-1 || n < 2 {
		return lanes
	}
	out := slices.Clone(lanes)
	moved := out[i]
	copy(out[n-1:i+1], out[n-2:i])
	out[n-2] = moved
	return out
}

// timeline builds every lane, mark and overlap from the trace up to now.
func (lb *Lab) timeline() Timeline {
	s := lb.world.Sim
	b := newTimelineBuilder(s, lb.Length())
	for i := range s.Trace.Len() {
		b.event(s.Trace.At(i))
	}
	return b.done()
}

// timelineBuilder folds the trace, event by event, into a Timeline: the
// lanes' spans open and shut as their actors change state, and what it
// must remember between events (who holds each lock and shard, how many
// shards each worker owns and holds) to tell when.
type timelineBuilder struct {
	tl  Timeline
	idx map[string]int // actor -> its lane
	// holder is each lock's owner; shardHolder each shard's.
	holder, shardHolder map[string]string
	owns                map[string]int // worker -> shards believed owned
	holds               map[string]int // worker -> shards held per the coordinator
	// lastOffset is when each worker's last refused offset was marked
	// (one mark per refused batch, not per shard).
	lastOffset map[string]time.Duration
}

// newTimelineBuilder starts a lane for each of s's processes, then each
// of its workers, all empty.
func newTimelineBuilder(s *core.Sim, length time.Duration) *timelineBuilder {
	b := &timelineBuilder{
		tl:  Timeline{Now: s.Now(), Length: length},
		idx: map[string]int{}, holder: map[string]string{}, shardHolder: map[string]string{},
		owns: map[string]int{}, holds: map[string]int{}, lastOffset: map[string]time.Duration{},
	}
	for _, p := range s.Processes() {
		b.idx[p.Name()] = len(b.tl.Lanes)
		b.tl.Lanes = append(b.tl.Lanes, Lane{Name: p.Name(), Lock: p.Config().Lock, Members: []string{p.Name()}})
	}
	for _, w := range s.Workers() {
		b.idx[w.Name()] = len(b.tl.Lanes)
		b.tl.Lanes = append(b.tl.Lanes, Lane{Name: w.Name(), Members: []string{w.Name()}})
	}
	return b
}

// openSpan starts a span at at, open until shut.
func openSpan(spans *[]Span, at time.Duration) { *spans = append(*spans, Span{From: at, To: -1}) }

// shutSpan ends the last span at at, if it is open.
func shutSpan(spans []Span, at time.Duration) {
	if n := len(spans); n > 0 && spans[n-1].To < 0 {
		spans[n-1].To = at
	}
}

// event folds one event into the timeline.
func (b *timelineBuilder) event(e *core.Event) {
	li, isActor := b.idx[e.Actor]
	switch e.Kind {
	case core.KindState:
		if !isActor {
			return
		}
		if e.To() == core.Leader.String() {
			openSpan(&b.tl.Lanes[li].Belief, e.At)
		} else if e.From() == core.Leader.String() {
			shutSpan(b.tl.Lanes[li].Belief, e.At)
		}
	case core.KindShardOwn, core.KindShardDrop:
		if isActor {
			b.owned(e, li)
		}
	case core.KindHold:
		if hi, ok := b.idx[e.From()]; ok {
			until := e.Until()
			b.tl.Lanes[hi].Held = append(b.tl.Lanes[hi].Held, Span{From: e.At, To: min(until, b.tl.Now)})
		}
	case core.KindPause, core.KindResume, core.KindCrash, core.KindRestart:
		if isActor {
			b.lifecycle(e, li)
		}
	case core.KindHolder, core.KindFree:
		if lock := e.Lock(); strings.HasPrefix(lock, "stream/") {
			b.shardHeld(e, lock)
		} else {
			b.lockHeld(e, lock)
		}
	case core.KindLeader:
		b.tl.Leaders = append(b.tl.Leaders, LeaderMark{At: e.At, Member: e.Actor, Term: e.Term()})
	case core.KindNoLeader:
		b.tl.Leaders = append(b.tl.Leaders, LeaderMark{At: e.At, Term: e.Term()})
	case core.KindWrite, core.KindEnqueue:
		b.tl.Writes = append(b.tl.Writes, decisionMark(e))
	case core.KindOffset:
		if e.Result() != core.Accepted {
			b.offsetMark(e, WriteMark{At: e.At, From: e.From(), Token: e.Token(), Kind: MarkOffset,
				Label: fmt.Sprintf("offset rejected %d", e.Token())})
		}
	case core.KindStale:
		if e.Format(core.FShard) != "" {
			b.offsetMark(e, WriteMark{At: e.At, From: e.From(), Token: e.Token(), Kind: MarkOffset,
				Accepted: true, Stale: true, Label: fmt.Sprintf("STALE offset %d", e.Token())})
		}
	}
}

// owned counts the shards worker e.Actor (lane li) believes it owns: its
// belief opens with its first and shuts with its last.
func (b *timelineBuilder) owned(e *core.Event, li int) {
	n := b.owns[e.Actor]
	if e.Kind == core.KindShardOwn {
		b.owns[e.Actor] = n + 1
		if n == 0 {
			openSpan(&b.tl.Lanes[li].Belief, e.At)
		}
	} else if n > 0 {
		b.owns[e.Actor] = n - 1
		if n == 1 {
			shutSpan(b.tl.Lanes[li].Belief, e.At)
		}
	}
}

// lifecycle opens and shuts lane li's pauses and crashes; a crashed
// worker owns no shard any more.
func (b *timelineBuilder) lifecycle(e *core.Event, li int) {
	lane := &b.tl.Lanes[li]
	switch e.Kind {
	case core.KindPause:
		openSpan(&lane.Paused, e.At)
	case core.KindResume:
		shutSpan(lane.Paused, e.At)
	case core.KindCrash:
		// A crash ends a pause (no resume follows it): left open, the
		// lane said "paused" to the end of the run.
		shutSpan(lane.Paused, e.At)
		openSpan(&lane.Crashed, e.At)
		if b.owns[e.Actor] > 0 {
			b.owns[e.Actor] = 0
			shutSpan(lane.Belief, e.At)
		}
	case core.KindRestart:
		shutSpan(lane.Crashed, e.At)
	}
}

// shardHeld counts the shards each worker holds per the coordinator (a
// lock under "stream/" is a shard): its truth opens with its first and
// shuts with its last.
func (b *timelineBuilder) shardHeld(e *core.Event, lock string) {
	if prev := b.shardHolder[lock]; prev != "" {
		b.holds[prev]--
		if j, ok := b.idx[prev]; ok && b.holds[prev] == 0 {
			shutSpan(b.tl.Lanes[j].Truth, e.At)
		}
	}
	b.shardHolder[lock] = ""
	if e.Kind == core.KindHolder {
		o := e.Owner()
		b.shardHolder[lock] = o
		b.holds[o]++
		if j, ok := b.idx[o]; ok && b.holds[o] == 1 {
			openSpan(&b.tl.Lanes[j].Truth, e.At)
		}
	}
}

// lockHeld moves lock's truth from its last holder's lane to its new
// holder's (none for a free).
func (b *timelineBuilder) lockHeld(e *core.Event, lock string) {
	if j, ok := b.idx[b.holder[lock]]; ok {
		shutSpan(b.tl.Lanes[j].Truth, e.At)
	}
	b.holder[lock] = ""
	if e.Kind == core.KindHolder {
		b.holder[lock] = e.Owner()
		if j, ok := b.idx[b.holder[lock]]; ok {
			openSpan(&b.tl.Lanes[j].Truth, e.At)
		}
	}
}

// decisionMark is a fenced register's (KindWrite) or a job queue's
// (KindEnqueue) decision, labelled where it is notable.
func decisionMark(e *core.Event) WriteMark {
	if e.Kind == core.KindEnqueue {
		m := WriteMark{At: e.At, From: e.From(), Token: e.Token(), Kind: MarkJob, Accepted: true}
		switch e.Result() {
		case core.JobDuplicateExecuted:
			m.Stale, m.Label = true, "ran twice"
		case core.JobDuplicateIgnored:
			m.Accepted, m.Label = false, "duplicate ignored"
		}
		return m
	}
	m := WriteMark{At: e.At, From: e.From(), Token: e.Token(), Kind: MarkWrite,
		Accepted: e.Result() == core.Accepted, Stale: e.Result() == core.Accepted && e.Token() < e.Highest()}
	switch {
	case m.Stale:
		m.Label = fmt.Sprintf("STALE accepted %d", m.Token)
	case !m.Accepted:
		m.Label = fmt.Sprintf("rejected %d", m.Token)
	}
	return m
}

// offsetMark marks an offset store's refusal or stale acceptance m, once
// per batch: not again for the same worker at the same moment.
func (b *timelineBuilder) offsetMark(e *core.Event, m WriteMark) {
	if t, ok := b.lastOffset[m.From]; ok && t == e.At {
		return
	}
	b.lastOffset[m.From] = e.At
	b.tl.Writes = append(b.tl.Writes, m)
}

// done shuts every span still open at the play head and finds the
// overlaps.
func (b *timelineBuilder) done() Timeline {
	tl := b.tl
	for i := range tl.Lanes {
		for _, spans := range []*[]Span{&tl.Lanes[i].Belief, &tl.Lanes[i].Truth, &tl.Lanes[i].Paused, &tl.Lanes[i].Crashed} {
			shutSpan(*spans, tl.Now)
		}
	}
	tl.Overlaps = overlaps(tl.Lanes)
	return tl
}

// overlaps finds, per lock, the spans in which two or more lanes believed
// they led.
func overlaps(lanes []Lane) []Overlap {
	type edge struct {
		at time.Duration
		d  int
	}
	byLock := map[string][]edge{}
	var locks []string
	for _, l := range lanes {
		if l.Lock == "" {
			continue
		}
		if _, ok := byLock[l.Lock]; !ok {
			locks = append(locks, l.Lock)
		}
		for _, sp := range l.Belief {
			byLock[l.Lock] = append(byLock[l.Lock], edge{sp.From, 1}, edge{sp.To, -1})
		}
	}
	var out []Overlap
	for _, lock := range locks {
		es := byLock[lock]
		sort.SliceStable(es, func(i, j int) bool {
			if es[i].at != es[j].at {
				return es[i].at < es[j].at
			}
			return es[i].d < es[j].d // ends before starts at the same instant
		})
		n, from := 0, time.Duration(0)
		for _, e := range es {
			n += e.d
			switch {
			case n == 2 && e.d > 0:
				from = e.at
			case n == 1 && e.d < 0 && e.at > from:
				out = append(out, Overlap{Span: Span{From: from, To: e.at}, Lock: lock})
			}
		}
	}
	return out
}

// Fit returns the timeline with at most n lanes, the last summarising
// the rest (n is at least 2).
func (tl Timeline) Fit(n int) Timeline {
	n = max(n, 2)
	if len(tl.Lanes) <= n {
		return tl
	}
	tl.Lanes = summariseTo(append([]Lane(nil), tl.Lanes...), n)
	return tl
}

// summarise keeps the first MaxLanes-1 lanes and merges the rest into one.
func summarise(lanes []Lane) []Lane { return summariseTo(lanes, MaxLanes) }

func summariseTo(lanes []Lane, max int) []Lane {
	if len(lanes) <= max {
		return lanes
	}
	rest := lanes[max-1:]
	n := 0
	for _, l := range rest {
		n += len(l.Members)
	}
	sum := Lane{Name: fmt.Sprintf("+%d more", n)} // select one to see its lane
	for _, l := range rest {
		sum.Members = append(sum.Members, l.Members...)
		sum.Paused = append(sum.Paused, l.Paused...)
		sum.Crashed = append(sum.Crashed, l.Crashed...)
		sum.Held = append(sum.Held, l.Held...)
	}
	sum.Paused, sum.Crashed, sum.Held = union(sum.Paused), union(sum.Crashed), union(sum.Held)
	return append(lanes[:max-1:max-1], sum)
}

// union merges overlapping spans.
func union(spans []Span) []Span {
	sort.Slice(spans, func(i, j int) bool { return spans[i].From < spans[j].From })
	var out []Span
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.From <= out[n-1].To {
			out[n-1].To = max(out[n-1].To, sp.To)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// LaneOf returns the lane showing actor name, or -1.
func (tl Timeline) LaneOf(name string) int {
	for i, l := range tl.Lanes {
		for _, m := range l.Members {
			if m == name {
				return i
			}
		}
	}
	return -1
}
