package core

import (
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"time"
)

// The explorer searches over *timing*: when a fault starts and how long it
// lasts. Given a world, an invariant and bounds, it runs every fault
// schedule in the bounds (or a seeded random sample of them) and returns
// the simplest one that breaks the invariant — fewest faults, then
// earliest, then shortest — as an action log that replays the failure
// exactly. When none does, its report says what was covered.
//
// Exhaustive search shares prefixes: the world is simulated once up to each
// fault's start and cloned there; a pause is applied with the longest
// length in the bounds and the paused world advanced one grid step at a
// time, each step cloned and resumed (the clone's pending resume is moved
// to that instant, which leaves it exactly as if it had been paused for
// that length). So a schedule costs one clone and the run after its last
// fault, not a run from time zero.

// Invariant is a property every run must keep: at most Allow trace events
// may match. Matching looks at one event at a time, so a run is checked as
// it goes and stops at the first violation.
type Invariant struct {
	Name string
	// Match picks the events that count against the invariant.
	Match func(e *Event) bool
	// Allow is how many matching events a run may contain (0: none).
	Allow int
	// Kinds, if set, lists every event kind Match can accept: search
	// worlds then record no other event, which saves most of their work.
	Kinds []Kind
	// Settled, if set, reports that world s can no longer produce an
	// event Match accepts, whatever pauses and crashes it meets later. It
	// must be certain: a search counts every schedule from such a world
	// as keeping the invariant without running it.
	Settled func(s *Sim) bool
	// MatchIn and Scan replace Match for an invariant about a history
	// (who believes what) rather than single events. A search checks
	// with MatchIn, which may read world s right after e happened; Scan
	// finds the events that count in a whole trace (a replay's).
	MatchIn func(s *Sim, e *Event) bool
	Scan    func(t *Trace) []int
}

// Matches returns the indexes of t's events that count against inv, in
// order.
func (inv *Invariant) Matches(t *Trace) []int {
	if inv.Scan != nil {
		return inv.Scan(t)
	}
	var out []int
	for i := range t.Events {
		if inv.Match(&t.Events[i]) {
			out = append(out, i)
		}
	}
	return out
}

// First returns the event of t that breaks inv (the one past Allow), or
// nil.
func (inv *Invariant) First(t *Trace) *Event {
	if m := inv.Matches(t); len(m) > inv.Allow {
		return &t.Events[m[inv.Allow]]
	}
	return nil
}

// matchIn is the search's check of e in world s.
func (inv *Invariant) matchIn(s *Sim, e *Event) bool {
	if inv.MatchIn != nil {
		return inv.MatchIn(s, e)
	}
	return inv.Match(e)
}

// NoStaleWrite: no fenced register accepts a write whose token is below
// the highest it has accepted.
var NoStaleWrite = Invariant{Name: "no stale write accepted", Kinds: []Kind{KindStale}, Match: func(e *Event) bool {
	return e.Kind == KindStale && e.Format(FShard) == ""
}}

// FencedForGood reports that the world's register rejects stale writes
// and will go on doing so: fencing is on and no queued action can switch
// it (faults cannot), so it never accepts a stale write again. It is
// NoStaleWrite's Settled in the explore targets (a frame-sliced search
// that should last long enough to watch leaves it unset).
func FencedForGood(s *Sim) bool {
	if s.Register == nil {
		return true
	}
	return s.Register.Fencing && !s.actionQueued("fencing")
}

// IdempotentForGood: the job queue ignores duplicates and no queued
// action can switch that off, so no duplicate is executed again (a
// Settled for AtMostDuplicateJobs).
func IdempotentForGood(s *Sim) bool {
	return s.Queue == nil || s.Queue.Idempotency && !s.actionQueued("idempotency")
}

// actionQueued reports a learner action of kind do waiting in the queue.
func (s *Sim) actionQueued(do Verb) bool {
	for _, e := range s.queue {
		if tk := &s.tasks[e.slot]; tk.kind == evAction && tk.act.Do == do {
			return true
		}
	}
	return false
}

// NoStaleOffset: no offset store accepts a commit from a stale shard owner
// (a lower token, or an offset moving backwards).
var NoStaleOffset = Invariant{Name: "no stale offset commit", Kinds: []Kind{KindStale}, Match: func(e *Event) bool {
	return e.Kind == KindStale && e.Format(FShard) != ""
}}

// OneOwnerPerShard: no worker takes a shard while another still believes
// it owns it. This one is about belief, which no coordinator can enforce:
// a worker frozen past its lease wakes up still believing, so fencing does
// not keep this invariant; it keeps the overlap harmless (NoStaleOffset).
var OneOwnerPerShard = Invariant{
	Name:  "no two workers believe they own one shard",
	Kinds: []Kind{KindShardOwn},
	MatchIn: func(s *Sim, e *Event) bool {
		if e.Kind != KindShardOwn {
			return false
		}
		sh := int(e.Shard())
		for _, w := range s.workers {
			if w.cfg.Name != e.Actor && w.own.get(sh) != nil {
				return true
			}
		}
		return false
	},
	Scan: func(t *Trace) []int {
		var out []int
		owners := map[int64][]string{}
		for i := range t.Events {
			e := &t.Events[i]
			if e.Kind != KindShardOwn && e.Kind != KindShardDrop {
				continue
			}
			sh := e.Shard()
			cur := owners[sh]
			if e.Kind == KindShardDrop {
				owners[sh] = slices.DeleteFunc(cur, func(w string) bool { return w == e.Actor })
				continue
			}
			if slices.ContainsFunc(cur, func(w string) bool { return w != e.Actor }) {
				out = append(out, i)
			}
			if !slices.Contains(cur, e.Actor) {
				owners[sh] = append(cur, e.Actor)
			}
		}
		return out
	},
}

// AtMostDuplicateJobs allows n jobs executed twice.
func AtMostDuplicateJobs(n int) Invariant {
	return Invariant{Name: fmt.Sprintf("at most %d duplicate jobs executed", n), Allow: n, Kinds: []Kind{KindEnqueue}, Match: func(e *Event) bool {
		return e.Kind == KindEnqueue && e.Result() == JobDuplicateExecuted
	}}
}

// Fault kinds the explorer injects.
const (
	FaultPause = "pause"
	FaultCrash = "crash"
	// FaultDelay holds everything the process sends for For: its network
	// path stalls and then delivers late (the "delay" action).
	FaultDelay = "delay"
)

// FaultKinds lists the kinds, in the order the search tries them.
var FaultKinds = []string{FaultPause, FaultCrash, FaultDelay}

// lasts reports whether faults of kind have a length (For).
func lasts(kind string) bool { return kind != FaultCrash }

// Fault is one injected failure: a pause of For, a crash (no restart), or
// For of the process's outgoing messages held back.
type Fault struct {
	Kind string
	Proc string
	At   time.Duration
	For  time.Duration
}

func (f Fault) String() string {
	switch f.Kind {
	case FaultCrash:
		return fmt.Sprintf("crash %s at %s", f.Proc, FormatTime(f.At))
	case FaultDelay:
		return fmt.Sprintf("delay what %s sends at %s for %s", f.Proc, FormatTime(f.At), FormatTime(f.For))
	}
	return fmt.Sprintf("pause %s at %s for %s", f.Proc, FormatTime(f.At), FormatTime(f.For))
}

// Action returns the fault as a timed learner action.
func (f Fault) Action() Timed {
	if f.Kind == FaultCrash {
		return At(f.At, Crash(f.Proc))
	}
	return At(f.At, Action{Do: Verb(f.Kind), Proc: f.Proc, For: Duration(f.For)})
}

// Bounds is the space of fault schedules: up to MaxFaults faults, each of
// one of Kinds on one of Procs, starting on the grid From, From+Step, ...
// below To; a pause lasts MinLen, MinLen+LenStep, ... up to MaxLen. Every
// run is observed until Horizon.
type Bounds struct {
	Procs          []string
	Kinds          []string
	From, To, Step time.Duration
	MinLen, MaxLen time.Duration
	LenStep        time.Duration
	MaxFaults      int
	Horizon        time.Duration
	// Settle, if positive, ends each run Settle after its last fault ends
	// (a pause's resume, a crash) instead of at Horizon: a narrower bound
	// that makes a large search affordable. It is part of what a "no
	// violation" verdict covers.
	Settle time.Duration
	_      struct{}
}

// Errors of bad bounds.
var ErrBounds = errors.New("bad bounds")

// Limits of a search a learner can ask for. A grid past them would not
// finish in any sitting (a simulated schedule costs about 0.1 to 1 ms), and
// a start grid finer than MaxStarts would need per-start bookkeeping that
// no longer fits in memory.
const (
	MaxSchedules = 1e9
	MaxStarts    = 1 << 20
	// MaxFaultLen is the longest pause or delay: no run is observed
	// longer (see Validate's horizon limit), so a longer one changes
	// nothing, and keeping lengths small keeps their loops from wrapping.
	MaxFaultLen = time.Hour
)

// Validate rejects bounds that describe no schedule, an endless one, or
// more than a search can run (see MaxSchedules and MaxStarts).
func (b Bounds) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrBounds, fmt.Sprintf(format, a...))
	}
	switch {
	case len(b.Procs) == 0:
		return bad("no process to fault")
	case len(b.Kinds) == 0:
		return bad("no fault kind (want %s)", strings.Join(FaultKinds, ", "))
	case b.Step <= 0 || b.From < 0 || b.To <= b.From:
		return bad("start grid [%s, %s) step %s is empty", b.From, b.To, b.Step)
	case b.Step > time.Hour:
		return bad("start step %s is longer than an hour (the longest horizon)", b.Step)
	case b.MaxFaults < 1 || b.MaxFaults > 3:
		return bad("at most 1 to 3 faults, got %d", b.MaxFaults)
	case b.Horizon < b.To:
		return bad("horizon %s ends before the last fault start %s", b.Horizon, b.To)
	case b.Horizon > time.Hour:
		return bad("horizon %s is longer than an hour", b.Horizon)
	case b.Settle < 0:
		return bad("settle %s is negative", b.Settle)
	}
	if d := firstRepeat(b.Procs); d != "" {
		return bad("process %q is listed twice", d)
	}
	if d := firstRepeat(b.Kinds); d != "" {
		return bad("fault kind %q is listed twice", d)
	}
	for _, k := range b.Kinds {
		if !slices.Contains(FaultKinds, k) {
			return bad("unknown fault kind %q (want %s)", k, strings.Join(FaultKinds, ", "))
		}
		if lasts(k) && (b.LenStep <= 0 || b.MinLen <= 0 || b.MaxLen < b.MinLen) {
			return bad("%s lengths [%s, %s] step %s are empty", k, b.MinLen, b.MaxLen, b.LenStep)
		}
		if lasts(k) && (b.MaxLen > MaxFaultLen || b.LenStep > MaxFaultLen) {
			return bad("%s lengths up to %s step %s: neither may be longer than %s (no run is observed longer)", k, b.MaxLen, b.LenStep, MaxFaultLen)
		}
	}
	if n := gridPoints(b.From, b.To, b.Step); n > MaxStarts {
		return bad("the start grid has %d points; the limit is %d: use a coarser step", n, MaxStarts)
	}
	if n := b.Count(); n > MaxSchedules {
		return bad("%.3g schedules; the limit is %.0e: narrow the grid", n, float64(MaxSchedules))
	}
	return nil
}

// firstRepeat returns the first value listed twice in vs, or "".
func firstRepeat(vs []string) string {
	for i, v := range vs {
		if slices.Contains(vs[:i], v) {
			return v
		}
	}
	return ""
}

// End returns when a run of faults stops being observed.
func (b Bounds) End(faults []Fault) time.Duration {
	if b.Settle <= 0 || len(faults) == 0 {
		return b.Horizon
	}
	last := time.Duration(0)
	for _, f := range faults {
		last = max(last, f.At+f.For)
	}
	return min(b.Horizon, last+b.Settle)
}

// starts and lens are only called on valid bounds, whose grids are small
// (MaxStarts, MaxFaultLen), so the int conversions cannot wrap.
func (b Bounds) starts() int { return int(gridPoints(b.From, b.To, b.Step)) }

func (b Bounds) lens() int {
	if !slices.ContainsFunc(b.Kinds, lasts) || b.LenStep <= 0 || b.MaxLen < b.MinLen {
		return 0
	}
	return int((b.MaxLen-b.MinLen)/b.LenStep) + 1
}

// choices is how many single faults start at one grid point (in floating
// point: Count is also asked of bounds being validated, which may be huge).
func (b Bounds) choices() float64 {
	per := 0.0
	for _, k := range b.Kinds {
		if lasts(k) {
			per += float64(b.lens())
		} else {
			per++
		}
	}
	return float64(len(b.Procs)) * per
}

// Count returns how many schedules exhaustive search runs: for each k up to
// MaxFaults, the k-fault schedules whose starts do not decrease.
func (b Bounds) Count() float64 {
	total := 0.0
	for k := 1; k <= b.MaxFaults; k++ {
		total += multisets(float64(gridPoints(b.From, b.To, b.Step)), k) * pow(b.choices(), k)
	}
	return total
}

// multisets counts non-decreasing sequences of length k over n values.
func multisets(n float64, k int) float64 {
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * (n + float64(i)) / float64(i+1)
	}
	return r
}

func pow(x float64, k int) float64 {
	r := 1.0
	for range k {
		r *= x
	}
	return r
}

func (b Bounds) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "up to %d %s of %s", b.MaxFaults, plural(b.MaxFaults, "fault", "faults"), strings.Join(b.Procs, ", "))
	fmt.Fprintf(&s, " (%s) starting %s to %s every %s", strings.Join(b.Kinds, ", "), FormatTime(b.From), FormatTime(b.To), FormatTime(b.Step))
	if b.lens() > 0 {
		var what []string
		for _, k := range b.Kinds {
			if lasts(k) {
				what = append(what, k+"s")
			}
		}
		fmt.Fprintf(&s, ", %s %s to %s every %s", strings.Join(what, " and "), FormatTime(b.MinLen), FormatTime(b.MaxLen), FormatTime(b.LenStep))
	}
	if b.Settle > 0 {
		fmt.Fprintf(&s, ", each run observed until %s after its last fault ends (at most %s)", FormatTime(b.Settle), FormatTime(b.Horizon))
	} else {
		fmt.Fprintf(&s, ", each run observed until %s", FormatTime(b.Horizon))
	}
	return s.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Problem is what to search: a world builder (fresh world with its own
// script and the base log scheduled), the invariant and the bounds.
type Problem struct {
	// Build returns a fresh world at time zero with every scheduled action
	// of the scenario in it, Base included.
	Build func() (*Sim, error)
	// Base is the part of the scenario's action log a counterexample must
	// repeat to replay (switches such as "fencing off" at time zero).
	Base      ActionLog
	Invariant Invariant
	Bounds    Bounds
}

// Result is the outcome of a search.
type Result struct {
	// Found reports a counterexample: Faults, and Log (Base + faults) to
	// replay it; Violation is the first event that broke the invariant
	// (its Seq means nothing: search worlds keep no trace; Problem.Replay
	// gives the run with its full trace).
	Found     bool
	Faults    []Fault
	Log       ActionLog
	Violation Event
	// Tried counts schedules run; Total is the size of the space
	// (exhaustive) or the sample size (random). Complete reports that the
	// search ran to its end (found, or exhausted its bounds or sample)
	// rather than being cancelled.
	Tried int
	// Settled counts the schedules among Tried that were not simulated:
	// the world before their fault could no longer break the invariant
	// (Invariant.Settled), so they keep it.
	Settled  int
	Total    float64
	Complete bool
	Random   bool
	Elapsed  time.Duration
	Bounds   Bounds
}

// PerSecond returns schedules tried per second of wall time.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Tried) / r.Elapsed.Seconds()
}

// Summary is the verdict in one or two sentences.
func (r Result) Summary() string {
	how := "exhaustive"
	if r.Random {
		how = "random"
	}
	cover := fmt.Sprintf("%d schedules tried (%s search, %.0f schedules/s): %s", r.Tried, how, r.PerSecond(), r.Bounds)
	if r.Settled > 0 {
		cover += fmt.Sprintf("; %d of them simulated, %d settled without simulating (the invariant could no longer break before their fault)", r.Tried-r.Settled, r.Settled)
	}
	switch {
	case r.Found && len(r.Faults) == 0:
		return "the scenario breaks the invariant with no fault at all"
	case r.Found:
		fs := make([]string, len(r.Faults))
		for i, f := range r.Faults {
			fs[i] = f.String()
		}
		return fmt.Sprintf("violation found with %s; %s", strings.Join(fs, ", then "), cover)
	case !r.Complete:
		return "search cancelled: no violation in the " + cover
	case r.Random:
		return "no violation in a random sample: " + cover + " (a sample proves nothing)"
	}
	return "no violation within bounds: " + cover
}

// run is one world under observation and how many of its events matched
// the invariant so far.
type run struct {
	s       *Sim
	matched int
	bad     *Event
}

func (r *run) clone() *run { return &run{s: r.s.Clone(), matched: r.matched} }

// cloneRun is r.clone reusing a recycled run (see recycle) if there is one.
func (x *Explorer) cloneRun(r *run) *run {
	n := len(x.spares)
	if n == 0 {
		return r.clone()
	}
	d := x.spares[n-1]
	x.spares = x.spares[:n-1]
	*d = run{s: r.s.cloneInto(d.s), matched: r.matched}
	return d
}

// recycle takes back a run whose verdict is in and that nothing refers
// to any more: the next cloneRun overwrites its world (Sim.cloneInto).
func (x *Explorer) recycle(r *run) {
	if len(x.spares) < maxSpares {
		x.spares = append(x.spares, r)
	}
}

// maxSpares bounds the recycled runs an explorer keeps: one per level of
// nesting (the start's world, the pause's, the schedule's) is enough.
const maxSpares = 4

// check reads the trace events not yet seen and reports a violation. A
// search world keeps no trace: checked events (and their fields) are
// dropped at once (nothing in a world reads its own trace), so clones copy
// no trace prefix and runs allocate none. The replay of a counterexample
// has the full trace.
func (r *run) check(inv *Invariant) bool {
	t := r.s.Trace
	bad := false
	for i := range t.Events {
		if inv.matchIn(r.s, &t.Events[i]) {
			r.matched++
			if r.matched > inv.Allow {
				e := t.Events[i].Detached()
				r.bad, bad = &e, true
				break
			}
		}
	}
	t.drop()
	return bad
}

// advance fires events due before t (or at t too, when inclusive),
// stopping at the first violation, which it reports.
func (r *run) advance(inv *Invariant, t time.Duration, inclusive bool) bool {
	s := r.s
	for {
		at, ok := s.NextEventAt()
		if !ok || at > t || at == t && !inclusive {
			break
		}
		s.Step()
		if r.check(inv) {
			return true
		}
	}
	if inclusive && t > s.now {
		s.now = t
	}
	return false
}

// Explorer runs one search a budget at a time, so a front end can spread it
// over frames, show progress and cancel it.
type Explorer struct {
	p      Problem
	res    Result
	next   func() (struct{}, bool)
	stop   func()
	best   *candidate
	clock  func() time.Time
	start  time.Time
	random *rand.Rand
	sample int
	err    error
	// verdict, set by tests, receives every schedule's outcome and makes
	// the search go on past violations.
	verdict func(faults []Fault, bad *Event)
	// workers is how many goroutines Run may use for an exhaustive search
	// not yet stepped (explore_parallel.go).
	workers int
	stepped bool
	// spares are finished runs whose worlds the next clones overwrite.
	spares []*run
}

type candidate struct {
	faults []Fault
	bad    Event
}

// Validate checks p's bounds, and that every process they fault is in p's
// world: a fault of a process that does not exist is never applied, and a
// search of such faults would report "no violation" having tested nothing.
func (p Problem) Validate() error {
	if err := p.Bounds.Validate(); err != nil {
		return err
	}
	s, err := p.Build()
	if err != nil {
		return err
	}
	var names []string
	for _, c := range s.clients {
		names = append(names, c.base().id)
	}
	for _, name := range p.Bounds.Procs {
		if s.node(name) == nil {
			return fmt.Errorf("%w: no process %q in this world (it has %s)", ErrBounds, name, strings.Join(names, ", "))
		}
	}
	return nil
}

// NewExplorer prepares an exhaustive search of p.
func NewExplorer(p Problem, clock func() time.Time) (*Explorer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	x := &Explorer{p: p, clock: clock, workers: runtime.GOMAXPROCS(0)}
	x.res = Result{Bounds: p.Bounds, Total: p.Bounds.Count()}
	x.next, x.stop = iter.Pull(x.exhaustive)
	x.start = clock()
	return x, nil
}

// NewRandomExplorer prepares a seeded random search of n schedules, each
// with 1 to MaxFaults faults drawn uniformly from the bounds' grid.
func NewRandomExplorer(p Problem, n int, seed uint64, clock func() time.Time) (*Explorer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: random search needs at least one schedule", ErrBounds)
	}
	x := &Explorer{p: p, clock: clock, sample: n, random: rand.New(rand.NewPCG(seed, 0x5eed))}
	x.res = Result{Bounds: p.Bounds, Total: float64(n), Random: true}
	x.next, x.stop = iter.Pull(x.randomSearch)
	x.start = clock()
	return x, nil
}

// Step runs up to budget schedules and reports whether the search is over.
func (x *Explorer) Step(budget int) bool {
	if x.next == nil {
		return true
	}
	x.stepped = true
	for range budget {
		if _, ok := x.next(); !ok {
			x.finish(true)
			return true
		}
	}
	x.res.Elapsed = x.clock().Sub(x.start)
	return false
}

// Cancel ends the search; Result then reports what was covered.
func (x *Explorer) Cancel() {
	if x.next != nil {
		x.finish(false)
	}
}

func (x *Explorer) finish(complete bool) {
	x.stop()
	x.next = nil
	x.res.Complete = complete
	x.res.Elapsed = x.clock().Sub(x.start)
	if x.best != nil {
		x.res.Found, x.res.Faults, x.res.Violation = true, x.best.faults, x.best.bad
		x.res.Log = append(slices.Clone(x.p.Base), faultLog(x.best.faults)...)
	}
}

// Err returns a world-building error met during the search.
func (x *Explorer) Err() error { return x.err }

// Progress returns schedules tried and the size of the space.
func (x *Explorer) Progress() (tried int, total float64) { return x.res.Tried, x.res.Total }

// Result returns the verdict so far (final once Step reported the end).
func (x *Explorer) Result() Result { return x.res }

// Run searches to the end. An exhaustive search not yet stepped runs on
// GOMAXPROCS goroutines, with the same result as run sequentially.
func (x *Explorer) Run() (Result, error) {
	if x.workers > 1 && !x.stepped && x.next != nil && !x.res.Random && x.verdict == nil {
		x.parallel(x.workers)
		return x.res, x.err
	}
	for !x.Step(1 << 20) {
	}
	return x.res, x.err
}

func faultLog(fs []Fault) ActionLog {
	log := make(ActionLog, len(fs))
	for i, f := range fs {
		log[i] = f.Action()
	}
	return log
}

// base builds the world and checks it up to the first fault start.
func (x *Explorer) base() *run {
	s, err := x.p.Build()
	if err != nil {
		x.err = err
		return nil
	}
	// Message sends are the bulk of a trace and no invariant reads them;
	// an invariant may say which few kinds it reads.
	s.Trace.Quiet = true
	if x.p.Invariant.Kinds != nil {
		s.Trace.Keep(x.p.Invariant.Kinds...)
	}
	s.Coord.noSeries = true
	r := &run{s: s}
	if r.check(&x.p.Invariant) {
		x.best = &candidate{bad: *r.bad}
		return nil
	}
	return r
}

// exhaustive yields once per schedule run. It stops at the first violation:
// the order (fewest faults, then earliest starts, then shortest pauses, in
// Procs and Kinds order) makes that one the simplest.
func (x *Explorer) exhaustive(yield func(struct{}) bool) {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	r0 := x.base()
	if r0 == nil {
		return
	}
	// The scenario alone may already break the invariant.
	probe := r0.clone()
	if !x.settled(r0) && probe.advance(inv, b.Horizon, true) {
		x.best = &candidate{bad: *probe.bad}
		return
	}
	for k := 1; k <= b.MaxFaults; k++ {
		if !x.level(yield, r0, nil, k) || x.best != nil {
			return
		}
	}
}

// level enumerates the remaining k faults after prefix, on world r (at or
// before the earliest allowed start). It returns false to stop everything.
func (x *Explorer) level(yield func(struct{}) bool, r *run, prefix []Fault, k int) bool {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	from := b.From
	if len(prefix) > 0 {
		from = prefix[len(prefix)-1].At
	}
	w := x.cloneRun(r)
	for s := from; s < b.To; s += b.Step {
		if w.advance(inv, s, true) {
			return x.brokenFrom(yield, w, prefix, s, k)
		}
		if x.settled(w) {
			// Every schedule from here on keeps the invariant.
			return x.rest(prefix, s, k, func(fs []Fault) bool { return x.settledClean(yield, fs) })
		}
		if !x.startAt(yield, w, prefix, s, k) {
			return false
		}
	}
	x.recycle(w)
	return true
}

// brokenFrom handles a world w broken before start s by the faults placed
// so far (after their own run's observation window ended): every schedule
// from here on contains this violation, and the first of them is the
// simplest not yet tried.
func (x *Explorer) brokenFrom(yield func(struct{}) bool, w *run, prefix []Fault, s time.Duration, k int) bool {
	bad := *w.bad
	return x.rest(prefix, s, k, func(fs []Fault) bool { return x.record(yield, fs, bad) })
}

// startAt tries every next fault starting at s on world w (at s; it is
// left unchanged).
func (x *Explorer) startAt(yield func(struct{}) bool, w *run, prefix []Fault, s time.Duration, k int) bool {
	b := &x.p.Bounds
	for _, proc := range b.Procs {
		for _, kind := range b.Kinds {
			f := Fault{Kind: kind, Proc: proc, At: s}
			if kind == FaultCrash {
				c := x.cloneRun(w)
				c.s.ScheduleAction(s, f.Action().Action)
				if !x.finishRun(yield, c, append(prefix, f), k) {
					return false
				}
				x.recycle(c)
				continue
			}
			if kind == FaultDelay {
				if !x.eachLength(yield, w, prefix, f, k) {
					return false
				}
				continue
			}
			if !x.pauses(yield, w, prefix, f, k) {
				return false
			}
		}
	}
	return true
}

// eachLength tries every length of f (at f.At) on world w, each on its
// own clone of w, then the faults after it (finishRun): a fault whose
// length changes the world from its start (a delay holds messages from the
// first one sent) shares only the prefix.
func (x *Explorer) eachLength(yield func(struct{}) bool, w *run, prefix []Fault, f Fault, k int) bool {
	b := &x.p.Bounds
	for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
		c := x.cloneRun(w)
		f.For = l
		c.s.ScheduleAction(f.At, f.Action().Action)
		if !x.finishRun(yield, c, append(prefix, f), k) {
			return false
		}
		x.recycle(c)
	}
	return true
}

// settled reports that no schedule from world r can break the invariant.
func (x *Explorer) settled(r *run) bool {
	return x.p.Invariant.Settled != nil && x.p.Invariant.Settled(r.s)
}

// rest calls fn with every completion of prefix to k faults whose next
// start is at or after from, in search order, until fn returns false.
func (x *Explorer) rest(prefix []Fault, from time.Duration, k int, fn func([]Fault) bool) bool {
	return x.restUntil(prefix, from, x.p.Bounds.To, k, fn)
}

// restUntil is rest with the next start below to.
func (x *Explorer) restUntil(prefix []Fault, from, to time.Duration, k int, fn func([]Fault) bool) bool {
	if len(prefix) == k {
		return fn(prefix)
	}
	b := &x.p.Bounds
	for s := from; s < to; s += b.Step {
		for _, proc := range b.Procs {
			for _, kind := range b.Kinds {
				f := Fault{Kind: kind, Proc: proc, At: s}
				if kind == FaultCrash {
					if !x.rest(append(prefix, f), s, k, fn) {
						return false
					}
					continue
				}
				for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
					f.For = l
					if !x.rest(append(prefix, f), s, k, fn) {
						return false
					}
				}
			}
		}
	}
	return true
}

// pauses tries every pause length of f (at f.At) on world w.
func (x *Explorer) pauses(yield func(struct{}) bool, w *run, prefix []Fault, f Fault, k int) bool {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	if len(prefix)+1 < k {
		// More faults follow, possibly during this pause: place each
		// length exactly and go on from the pause's start.
		return x.eachLength(yield, w, prefix, f, k)
	}
	p := x.cloneRun(w)
	defer x.recycle(p)
	f.For = b.MaxLen
	n := p.s.node(f.Proc)
	before := 0
	if n != nil {
		before = n.pauses
	}
	p.s.ScheduleAction(f.At, f.Action().Action)
	if p.advance(inv, f.At, true) {
		// The pause itself cannot break an invariant, but be exact.
		return x.record(yield, append(prefix, Fault{Kind: f.Kind, Proc: f.Proc, At: f.At, For: b.MinLen}), *p.bad)
	}
	if n == nil || n.pauses == before {
		// The pause did not apply (unknown, crashed or already paused
		// process): the lengths differ only in how long each run is
		// observed (Settle).
		for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
			f.For = l
			c := x.cloneRun(p)
			if !x.finishRun(yield, c, append(prefix, f), k) {
				return false
			}
			x.recycle(c)
		}
		return true
	}
	for l := b.MinLen; l <= b.MaxLen; l += b.LenStep {
		end := f.At + l
		if end > b.Horizon {
			// This pause and every longer one outlast the horizon: each
			// run is the paused world observed to the horizon.
			broken := p.advance(inv, b.Horizon, true)
			for ; l <= b.MaxLen; l += b.LenStep {
				f.For = l
				if broken && !x.record(yield, append(prefix, f), *p.bad) || !broken && !x.clean(yield, append(prefix, f)) {
					return false
				}
			}
			return true
		}
		if p.advance(inv, end, false) {
			// The world paused this long already broke the invariant: so
			// does every longer pause, whose runs are identical to here.
			for ; l <= b.MaxLen; l += b.LenStep {
				f.For = l
				if !x.record(yield, append(prefix, f), *p.bad) {
					return false
				}
			}
			return true
		}
		c := x.cloneRun(p)
		if l < b.MaxLen && !c.s.movePauseEnd(c.s.node(f.Proc), end) {
			panic("core: explorer lost a pause's resume event")
		}
		f.For = l
		if !x.finishRun(yield, c, append(prefix, f), k) {
			return false
		}
		x.recycle(c)
	}
	return true
}

// finishRun runs a schedule whose faults are all placed (k reached), or
// places the next one.
func (x *Explorer) finishRun(yield func(struct{}) bool, c *run, faults []Fault, k int) bool {
	if len(faults) < k {
		return x.level(yield, c, faults, k)
	}
	if c.advance(&x.p.Invariant, x.p.Bounds.End(faults), true) {
		return x.record(yield, faults, *c.bad)
	}
	return x.clean(yield, faults)
}

// clean counts a schedule that kept the invariant.
func (x *Explorer) clean(yield func(struct{}) bool, faults []Fault) bool {
	x.res.Tried++
	if x.verdict != nil {
		x.verdict(faults, nil)
	}
	return yield(struct{}{})
}

// settledClean counts a schedule that keeps the invariant without being
// simulated (see Result.Settled).
func (x *Explorer) settledClean(yield func(struct{}) bool, faults []Fault) bool {
	x.res.Settled++
	return x.clean(yield, faults)
}

// record notes a violating schedule and stops the search.
func (x *Explorer) record(yield func(struct{}) bool, faults []Fault, bad Event) bool {
	x.res.Tried++
	if x.verdict != nil {
		// Tests: every schedule's verdict, no stop.
		x.verdict(faults, &bad)
		return yield(struct{}{})
	}
	x.best = &candidate{faults: slices.Clone(faults), bad: bad}
	yield(struct{}{})
	return false
}

// randomSearch runs sample schedules drawn from the grid and keeps the
// simplest violating one.
func (x *Explorer) randomSearch(yield func(struct{}) bool) {
	b := &x.p.Bounds
	inv := &x.p.Invariant
	r0 := x.base()
	if r0 == nil {
		return
	}
	for i := 0; i < x.sample; i++ {
		fs := x.draw()
		c := x.cloneRun(r0)
		for _, f := range fs {
			c.s.ScheduleAction(f.At, f.Action().Action)
		}
		if c.advance(inv, b.End(fs), true) && (x.best == nil || simpler(fs, x.best.faults)) {
			x.best = &candidate{faults: fs, bad: *c.bad}
		}
		x.recycle(c)
		x.res.Tried++
		if !yield(struct{}{}) {
			return
		}
	}
}

func (x *Explorer) draw() []Fault {
	b := &x.p.Bounds
	fs := make([]Fault, 1+x.random.IntN(b.MaxFaults))
	for i := range fs {
		f := Fault{
			Kind: b.Kinds[x.random.IntN(len(b.Kinds))],
			Proc: b.Procs[x.random.IntN(len(b.Procs))],
			At:   b.From + time.Duration(x.random.IntN(b.starts()))*b.Step,
		}
		if lasts(f.Kind) {
			f.For = b.MinLen + time.Duration(x.random.IntN(b.lens()))*b.LenStep
		}
		fs[i] = f
	}
	slices.SortStableFunc(fs, func(a, b Fault) int { return int(a.At - b.At) })
	return fs
}

// simpler orders schedules: fewer faults, then earlier starts, then
// shorter pauses.
func simpler(a, b []Fault) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if a[i].At != b[i].At {
			return a[i].At < b[i].At
		}
		if a[i].For != b[i].For {
			return a[i].For < b[i].For
		}
	}
	return false
}

// Replay runs the problem's world with the faults from time zero, with a
// full trace, until the bounds stop observing that schedule. It returns the
// world and the first event that broke the invariant (nil if none): the
// run a counterexample stands for, as the player and labctl show it.
func (p Problem) Replay(faults []Fault) (*Sim, *Event, error) {
	s, err := p.Build()
	if err != nil {
		return nil, nil, err
	}
	s.Schedule(faultLog(faults))
	s.RunUntil(p.Bounds.End(faults))
	return s, p.Invariant.First(s.Trace), nil
}

// Refusals summarises what the protected resources refused in a trace:
// what fencing or idempotency did in a run that kept its invariant.
func Refusals(t *Trace) string {
	var writes, offsets, jobs int
	for i := range t.Events {
		e := &t.Events[i]
		switch {
		case e.Kind == KindWrite && e.Result() == RejectedStale:
			writes++
		case e.Kind == KindOffset && e.Result() == RejectedStale:
			offsets++
		case e.Kind == KindEnqueue && e.Result() == JobDuplicateIgnored:
			jobs++
		}
	}
	var parts []string
	for _, c := range []struct {
		n         int
		one, many string
	}{{writes, "stale write rejected", "stale writes rejected"}, {offsets, "stale offset commit rejected", "stale offset commits rejected"}, {jobs, "duplicate job ignored", "duplicate jobs ignored"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, plural(c.n, c.one, c.many)))
		}
	}
	if len(parts) == 0 {
		return "nothing needed refusing"
	}
	return strings.Join(parts, ", ")
}

// node returns the process's or worker's node, or nil.
func (s *Sim) node(name string) *node {
	for _, c := range s.clients {
		if n := c.base(); n.id == name {
			return n
		}
	}
	return nil
}

// movePauseEnd moves the pending automatic resume of n's current pause to
// t (no earlier than now). Everything else about a pause is the same
// whatever its length, so the world is then exactly as if it had been
// paused for the shorter length from the start — except the pause's own
// trace line, which still shows the length first asked for.
func (s *Sim) movePauseEnd(n *node, t time.Duration) bool {
	for i := range s.queue {
		e := &s.queue[i]
		if tk := &s.tasks[e.slot]; tk.kind == evResume && tk.node == n.idx && tk.n == n.pauses && tk.epoch == n.epoch {
			if t < s.now {
				t = s.now
			}
			e.at = t
			s.queue.up(i)
			return true
		}
	}
	return false
}
