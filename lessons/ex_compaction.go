package lessons

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"leaselab/core"
)

// Exercise 4's stated conditions: what a night looks like.
const (
	nightLength     = 90 * time.Second
	nightStep       = 2 * time.Second // the leader writes one compaction step this often
	nightLongPause  = 8 * time.Second // the longest pause: the pause budget
	nightFailover   = 30 * time.Second
	nightsChecked   = 1000
	nightsPerCurve  = 100
	nightLinkDelay  = 20 * time.Millisecond
	nightLinkJitter = 1.5  // one-way delay 20-50 ms
	nightLinkDrop   = 0.05 // one leader keepalive in 20 is lost
	// nightRoundTrip is the slowest keepalive round trip (2 x 50 ms): the
	// margin the rule must leave on top, because the coordinator refuses a
	// renewal that arrives at or after the expiry.
	nightRoundTrip = 100 * time.Millisecond
	// nightMaxPerHour bounds this one leader's keepalives: the coordinator
	// serves the whole cluster's locks and sessions.
	nightMaxPerHour = 1800
	// sweepEvery is how often the coordinator finds expired leases: a
	// survivor waits out the lease and up to one sweep more.
	sweepEvery = 500 * time.Millisecond
)

var compactors = []string{"compactor-1", "compactor-2", "compactor-3"}

// NightDesign is a TTL and renewal interval for the compaction leader.
type NightDesign struct{ TTL, Renew time.Duration }

// Policy is the design's lease-policy verdict with the stated pause budget
// and round trip: the lab's one rule (core.LeasePolicy.Check), as the
// leases lesson, the sandbox and exercise 2 judge it.
func (d NightDesign) Policy() core.PolicyVerdict {
	return core.LeasePolicy{TTL: d.TTL, RenewEvery: d.Renew, PauseBudget: nightLongPause, RoundTrip: nightRoundTrip}.Check()
}

// RuleHolds is the exercise's rule, the one the Policy rule part and the
// trade-off table both judge by: 2 × renew + 8 s < TTL with more than the
// slowest round trip to spare. At exactly the round trip, a renewal sent
// at the last moment reaches the coordinator at the expiry, and the
// coordinator refuses it.
func (d NightDesign) RuleHolds() bool { return d.Policy().OK }

// Night is what one simulated night measured.
type Night struct {
	// Crashed reports the leader crashing; Failover is then the time from
	// the crash until another compactor held the lock (Failed: never that
	// night).
	Crashed  bool
	Failover time.Duration
	Failed   bool
	// Duplicates counts compaction steps storage took from a compactor
	// that no longer held the lock.
	Duplicates int
}

// nightSchedule draws night n's faults from its own seed: a few short
// pauses, on one night in ten a long pause of 2-8 s, and on one night in
// four a crash of the leader.
func nightSchedule(n int) core.ActionLog {
	r := rand.New(rand.NewPCG(uint64(n)+1, 0xc0a1e5ced))
	leader := compactors[0]
	var log core.ActionLog
	span := func(from, to time.Duration) time.Duration {
		return from + time.Duration(r.Int64N(int64(to-from)/int64(time.Millisecond)))*time.Millisecond
	}
	for i, k := 0, r.IntN(4); i < k; i++ {
		log = append(log, core.At(span(5*time.Second, 85*time.Second), core.Pause(leader, span(50*time.Millisecond, 300*time.Millisecond))))
	}
	if r.IntN(10) == 0 {
		log = append(log, core.At(span(5*time.Second, 75*time.Second), core.Pause(leader, span(2*time.Second, nightLongPause))))
	}
	if r.IntN(4) == 0 {
		log = append(log, core.At(span(20*time.Second, 50*time.Second), core.Crash(leader)))
	}
	return log.Sorted()
}

// nightWorld writes night n's world for the design, before its faults.
func nightWorld(d NightDesign, n int) (core.World, error) {
	w, err := core.ContentionConfig{
		Names: compactors, TTL: d.TTL, RenewEvery: d.Renew, Stagger: 100 * time.Millisecond, WorkEvery: nightStep,
	}.World(uint64(n) + 1)
	if err != nil {
		return core.World{}, err
	}
	link := core.Link{Delay: nightLinkDelay, Jitter: nightLinkJitter}
	w.Net = &link
	// The leader's keepalives are sometimes lost (a lost renewal is what
	// the rule's second renew interval is for).
	lossy := link
	lossy.Drop = nightLinkDrop
	w.Links = []core.DirectedLink{{From: compactors[0], To: core.CoordinatorName, Link: lossy}}
	return w, nil
}

// NightLesson is night n of the design as a run to watch in the player:
// the same world and faults the check simulated.
func NightLesson(d NightDesign, n int, why string) *Lesson {
	return &Lesson{
		ID:    "compaction-night",
		Title: fmt.Sprintf("Night %d: TTL %s, renew %s", n+1, secs(d.TTL), secs(d.Renew)),
		Intro: []string{fmt.Sprintf("The worst of the checked nights for your design (%s). compactor-1 leads; its faults are the night's own. Play it, or scrub to the faults on the timeline.", why)},
		World: func(uint64, Knobs) (core.World, error) {
			return nightWorld(d, n)
		},
		Script:   nightSchedule(n),
		Duration: nightLength,
	}
}

// RunNight simulates night n of the design.
func RunNight(d NightDesign, n int) (Night, error) {
	s, err := core.BuildWorld(nightWorld(d, n))
	if err != nil {
		return Night{}, err
	}
	s.Trace.Quiet = true
	s.Trace.Keep(core.KindHolder, core.KindFree, core.KindWrite)
	s.Coord.NoLoadSeries()
	log := nightSchedule(n)
	s.Schedule(log)
	s.RunUntil(nightLength)
	var out Night
	var crashAt time.Duration
	for _, t := range log {
		if t.Do == "crash" {
			out.Crashed, crashAt, out.Failed = true, t.At.D(), true
		}
	}
	holder, owner, seen := int64(0), "", false
	for _, e := range s.Trace.Events {
		if out.Crashed && !seen && e.At >= crashAt {
			// A compactor that was not leading when it crashed (its first
			// request was lost) leaves no failover to time.
			seen = true
			out.Crashed = owner == compactors[0]
			out.Failed = out.Crashed
		}
		switch e.Kind {
		case core.KindHolder:
			holder, owner = e.Token(), e.Owner()
			if out.Crashed && out.Failed && e.At >= crashAt && e.Owner() != compactors[0] {
				out.Failover, out.Failed = e.At-crashAt, false
			}
		case core.KindFree:
			holder, owner = 0, ""
		case core.KindWrite:
			if e.Result() == core.Accepted && e.Token() != holder {
				out.Duplicates++
			}
		}
	}
	if out.Failed {
		out.Failover = nightLength - crashAt
	}
	return out, nil
}

// NightStats sums many nights.
type NightStats struct {
	Nights, Crashes, Duplicates, DupNights int
	Worst                                  time.Duration
	Failed                                 int // crashes with no successor that night
	// WorstNight is the night to watch: the one with the most duplicate
	// steps, or if none, a crash no one took over from, or else the
	// slowest failover (-1: no such night).
	WorstNight, worstDups int
	worstFailed           bool
}

func (st *NightStats) add(n Night) {
	if st.Nights == 0 {
		st.WorstNight = -1
	}
	night := st.Nights
	st.Nights++
	st.Duplicates += n.Duplicates
	if n.Duplicates > 0 {
		st.DupNights++
		if n.Duplicates > st.worstDups {
			st.WorstNight, st.worstDups = night, n.Duplicates
		}
	}
	if n.Crashed {
		st.Crashes++
		if st.worstDups == 0 && !st.worstFailed && (n.Failed || n.Failover > st.Worst) {
			st.WorstNight, st.worstFailed = night, n.Failed
		}
		st.Worst = max(st.Worst, n.Failover)
		if n.Failed {
			st.Failed++
		}
	}
}

// RunNights simulates nights 0..n-1 of the design.
func RunNights(d NightDesign, n int) (NightStats, error) {
	var st NightStats
	for i := 0; i < n; i++ {
		night, err := RunNight(d, i)
		if err != nil {
			return st, err
		}
		st.add(night)
	}
	return st, nil
}

var exCompaction = &Exercise{
	ID:      "compaction-ttl",
	Title:   "A TTL for the nightly compaction leader",
	Summary: "Pick a TTL and renewal for a leader whose duplicate runs are expensive.",
	Minutes: 15,
	Brief: []string{
		"Every night one of three compactors takes a lease and compacts storage, writing one step every 2 s. Two costs pull against each other: if the leader dies, up to 30 s without compaction is fine; but if two compactors work at once, the duplicate run is expensive. Storage does not check tokens.",
		"Choose the TTL and the renewal interval. Your design then runs for 1,000 seeded nights. Each night the leader may pause a few times for 50-300 ms; on one night in ten it also pauses once for 2 to 8 s (8 s is the longest pause); on one night in four it crashes. Messages take 20-50 ms, and one in 20 of the leader's messages to the coordinator is lost.",
		"It passes when the worst failover is at most 30 s; no night has a duplicate compaction step; the lease policy rule 2 × renew + 8 s < TTL holds with more than the slowest keepalive round trip to spare (100 ms: a renewal that reaches the coordinator at the expiry is refused); the leader sends at most 1,800 keepalives an hour (one every 2 s), because the coordinator serves the whole cluster; and the choice follows the priority above: those bounds leave a band of TTLs open, from the shortest the rule allows with the most frequent renewal the coordinator can spare to the longest whose failover fits 30 s, and since a duplicate costs more than a slow failover, your TTL must sit in the upper half of that band. Your written defence is kept beside the verdict; the verdict judges the numbers.",
		"Defend your choice against an alternative: give a second TTL and renewal interval you considered. Before you check, predict for both designs the worst failover and on how many of the 1,000 nights a duplicate step happens, and work out how many keepalives an hour your design sends. The lab then runs both designs over the same nights and shows each prediction beside what it measured. The predictions are feedback, not part of the verdict; the keepalives an hour is arithmetic, and is checked.",
	},
	KeyPoints: []string{
		"Failover after a crash takes up to the whole TTL plus the sweep, so the TTL stays under about 29 s.",
		"The rule 2 × renew + 8 s ≤ TTL, with a little room for the round trip, bounds the TTL from below.",
		"Duplicates are the expensive failure, so lean towards the longer TTL inside that band: a short TTL buys a fast failover the brief does not need.",
		"Renewing more often than needed only loads the coordinator.",
	},
	Hints: []string{
		"Two limits pull against each other: one bounds the TTL from above, the other from below. Which failure is expensive here, and which is merely allowed?",
		"A survivor waits out the rest of a dead leader's lease, so failover can take a whole TTL and a little more. The rule 2 × renew + 8 s ≤ TTL bounds it from below.",
		"The key step: pick the renewal interval first (no more often than every 2 s), then a TTL in whole seconds that exceeds 2 × renew + 8 s by more than the round trip, yet is low enough that the TTL plus the half-second sweep stays within 30 s. Inside that band, lean long.",
	},
	Numbers: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 2, Max: 60, Step: 1, Default: 30, Whole: "etcd grants leases in whole seconds"},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 0.5, Max: 30, Step: 0.5, Default: 10},
		{ID: "alt-ttl", Label: "Alternative you considered: lease TTL", Unit: "s", Min: 2, Max: 60, Step: 1, Default: 20, Whole: "etcd grants leases in whole seconds"},
		{ID: "alt-renew", Label: "Alternative you considered: renew every", Unit: "s", Min: 0.5, Max: 30, Step: 0.5, Default: 4},
		{ID: "est-failover", Label: "Predict, your design: worst failover", Unit: "s", Min: -1, Max: 90, Step: 0.5, Default: -1, Unset: "no prediction"},
		{ID: "est-dup-nights", Label: "Predict, your design: nights with a duplicate", Min: -1, Max: nightsChecked, Step: 1, Default: -1, Unset: "no prediction"},
		{ID: "alt-est-failover", Label: "Predict, the alternative: worst failover", Unit: "s", Min: -1, Max: 90, Step: 0.5, Default: -1, Unset: "no prediction"},
		{ID: "alt-est-dup-nights", Label: "Predict, the alternative: nights with a duplicate", Min: -1, Max: nightsChecked, Step: 1, Default: -1, Unset: "no prediction"},
		{ID: "per-hour", Label: "Work out: keepalives per hour, your design", Unit: "", Min: 0, Max: 7200, Step: 1, Default: 360},
	},
	Reference: Answer{Numbers: map[string]float64{"ttl": 25, "renew": 5, "alt-ttl": 15, "alt-renew": 3, "est-failover": 25.5, "est-dup-nights": 0, "alt-est-failover": 15.5, "alt-est-dup-nights": 0, "per-hour": 720}},
	Worked: []string{
		"Two limits fence in the TTL. Failover: when the leader crashes, the others wait out the rest of its lease, up to a full TTL plus the coordinator's half-second sweep, so the TTL must stay under about 29 s. Safety: the rule needs 2 × renew + 8 s ≤ TTL, so a renewal can be missed and a retry still land after the longest pause, and a little more for the round trip, because a renewal that reaches the coordinator at the expiry is refused.",
		"Inside that band, lean towards the longer TTL, because duplicates are the expensive failure and a slower failover is allowed. TTL 25 s with renewals every 5 s leaves 7 s of margin over the rule (10 + 8 = 18 s) and fails over in at most about 25.5 s. Renewing every 5 s costs 720 keepalives an hour; every half second would be 7,200, a load the coordinator carries for nothing.",
		"The alternative here, TTL 15 s renewed every 3 s, keeps the rule too (14 s is needed) and fails over in about 15.5 s, and over these nights it may well show no duplicate either. It still loses the argument: it spends the slack the brief gives to failover, which is cheap, on speed nobody asked for, and keeps only 1 s of margin against the failure that is expensive, so the brief's priority picks the longer TTL.",
		"TTL 30 s with renewals every 10 s looks right by the rule (28 s ≤ 30 s) but breaks the failover budget. TTL 12 s with renewals every 4 s fails the rule (16 s > 12 s) and lives on luck: a long pause outlives its lease only when it begins late in a renewal cycle or a renewal near it is lost, so of the 93 long-pause nights checked, one ended with a duplicate compaction step. One is already too many.",
	},
	Format: `ttl is the lease TTL in whole seconds (2 to 60: etcd grants leases in
whole seconds, so 12.5 is refused), renew the keepalive interval in seconds
(0.5 to 30); alt-ttl and alt-renew the same for the alternative you weigh
your design against (it must differ from your design). Predictions, made
before the check runs, for your design and for the alternative:
est-failover and alt-est-failover the worst failover in seconds,
est-dup-nights and alt-est-dup-nights on how many of the 1,000 nights a
duplicate step happens. A prediction is optional: leave it out, or give -1,
for none. The check shows each beside what it measured (a failover within
a second, a count within a tenth or one night, counts as close); they never
change the verdict. per-hour is the keepalives an hour your design sends,
worked out (within 1 % counts), and is checked. ttl, renew, alt-ttl,
alt-renew and per-hour must be given.
The check runs your design and the alternative over the same 1,000 nights,
then 100 nights at four TTLs around yours (renewal scaled with it) to draw
the trade-off curve, shown once you pass.`,
}

func init() { exCompaction.start = startCompaction }

// compactionJob runs the nights a few at a time: the design's, then the
// alternative's over the same nights, then the trade-off curve.
type compactionJob struct {
	design, alt NightDesign
	// The learner's predictions (see predicted) and the keepalives an
	// hour they worked out.
	answer     Answer
	estPerHour float64
	curve      []NightDesign // the trade-off points around the design
	stats      NightStats
	altStats   NightStats
	points     []NightStats
	done       int // nights run over all stages
	total      int
	err        error
	res        *Result
}

// compactionParts are exercise 4's parts, always all of them, in this
// order, so the count never changes between tries.
// A checked design gets every one of them; an answer that cannot be run
// gets one line instead, saying why (six lines repeating one reason read
// as six faults). The predictions are no part: they are shown beside the
// measurements, as feedback.
var compactionParts = []string{"Failover", "Duplicates", "Policy rule", "Renewal load", "Priority", "Keepalives per hour"}

func startCompaction(a Answer) Job {
	var missing []string
	for _, k := range exCompaction.Numbers {
		if _, ok := a.Numbers[k.ID]; !ok && k.Unset == "" {
			missing = append(missing, strconv.Quote(k.Label))
		}
	}
	if len(missing) > 0 {
		verb := "is"
		if len(missing) > 1 {
			verb = "are"
		}
		return finished([]Feedback{{Part: "Answer", Why: fmt.Sprintf("Not checked: %s %s not answered. The check runs only a whole answer, and never fills a number in for you.", joinAnd(missing), verb)}})
	}
	d := NightDesign{
		TTL:   time.Duration(a.Numbers["ttl"] * float64(time.Second)),
		Renew: time.Duration(a.Numbers["renew"] * float64(time.Second)),
	}
	alt := NightDesign{
		TTL:   time.Duration(a.Numbers["alt-ttl"] * float64(time.Second)),
		Renew: time.Duration(a.Numbers["alt-renew"] * float64(time.Second)),
	}
	if d.Renew >= d.TTL {
		var b because
		b.stateD(d.Renew, ">=", d.TTL)
		return finished([]Feedback{b.feedback("Design", false, "Not checked: renewing every %s with a %s TTL means the lease lapses before each renewal: the renewal interval must be well under the TTL.", b.given(d.Renew), b.given(d.TTL))})
	}
	if alt.Renew >= alt.TTL {
		var b because
		b.stateD(alt.Renew, ">=", alt.TTL)
		return finished([]Feedback{b.feedback("Alternative", false, "Not checked: your alternative renews every %s with a %s TTL, so its lease lapses before each renewal: weigh your design against one that could work.", b.given(alt.Renew), b.given(alt.TTL))})
	}
	if alt == d {
		var b because
		return finished([]Feedback{b.feedback("Alternative", false, "Not checked: your alternative (TTL %s, renew %s) is your design. A defence weighs the choice against another design: give a second TTL and renewal interval you considered.", b.given(d.TTL), b.given(d.Renew))})
	}
	j := &compactionJob{design: d, alt: alt, answer: a, estPerHour: a.Numbers["per-hour"]}
	for _, dt := range []float64{-12, -6, 4, 8} {
		ttl := d.TTL + time.Duration(dt*float64(time.Second))
		if ttl < 2*time.Second || ttl > 60*time.Second {
			continue
		}
		renew := time.Duration(float64(d.Renew) * float64(ttl) / float64(d.TTL)).Round(100 * time.Millisecond)
		j.curve = append(j.curve, NightDesign{TTL: ttl, Renew: max(renew, 100*time.Millisecond)})
	}
	j.points = make([]NightStats, len(j.curve))
	j.total = 2*nightsChecked + nightsPerCurve*len(j.curve)
	return j
}

func (j *compactionJob) Progress() float64 { return float64(j.done) / float64(j.total) }

func (j *compactionJob) Step(n int) bool {
	for ; n > 0 && j.done < j.total && j.err == nil; n-- {
		d, night, st := j.design, j.done, &j.stats
		switch {
		case j.done >= 2*nightsChecked:
			k := (j.done - 2*nightsChecked) / nightsPerCurve
			d, night, st = j.curve[k], (j.done-2*nightsChecked)%nightsPerCurve, &j.points[k]
		case j.done >= nightsChecked:
			d, night, st = j.alt, j.done-nightsChecked, &j.altStats
		}
		r, err := RunNight(d, night)
		if err != nil {
			j.err = err
			break
		}
		st.add(r)
		j.done++
		// The trade-off rows are shown only to a passing design: do not
		// make a failing one wait for them.
		if j.done == 2*nightsChecked && !j.mainPasses() {
			j.total = j.done
		}
	}
	return j.done >= j.total || j.err != nil
}

func (j *compactionJob) Result() Result {
	if j.res != nil {
		return *j.res
	}
	if j.err != nil {
		r := result([]Feedback{{Part: "Design", Why: "The design could not run: " + j.err.Error()}})
		j.res = &r
		return r
	}
	d, st := j.design, j.stats
	r := result(j.parts())
	r.Figures = j.figures(r.Pass)
	r.Predictions = j.predictions()
	r.Figures = append(r.Figures, predictionFigures(r.Predictions)...)
	if n := st.WorstNight; n >= 0 {
		why := fmt.Sprintf("the slowest failover, %s", secs(st.Worst))
		if st.worstFailed {
			why = "a crash no compactor took over from before the night ended"
		}
		if st.worstDups > 0 {
			why = fmt.Sprintf("%d duplicate compaction %s", st.worstDups, pluralS(st.worstDups, "step", "steps"))
		}
		r.Replay = NightLesson(d, n, why)
		r.Figures = append(r.Figures, fmt.Sprintf("Worst night: night %d (%s); the lab's Worst run tab plays it.", n+1, why))
	}
	j.res = &r
	return r
}

// parts judges the design on the main nights, in compactionParts order.
func (j *compactionJob) parts() []Feedback {
	d, st := j.design, j.stats
	return []Feedback{judgeFailover(d, st), judgeDuplicates(d, st), judgeRule(d), judgeLoad(d), judgePriority(d, st, j.alt), judgePerHour(j.estPerHour, d)}
}

// mainPasses reports whether the design passes on the main nights.
func (j *compactionJob) mainPasses() bool {
	return result(j.parts()).Pass
}

// predictions are the learner's four predictions beside the runs.
func (j *compactionJob) predictions() []Prediction {
	a := j.answer
	return []Prediction{
		failoverPrediction("Your design, worst failover", a, "est-failover", j.stats),
		dupNightsPrediction("Your design, nights with a duplicate", a, "est-dup-nights", j.stats),
		failoverPrediction("Your alternative, worst failover", a, "alt-est-failover", j.altStats),
		dupNightsPrediction("Your alternative, nights with a duplicate", a, "alt-est-dup-nights", j.altStats),
	}
}

// predicted returns number field id of a as a prediction: its value and
// whether one was given (left out, or the field's "not given" value,
// is none).
func predicted(e *Exercise, a Answer, id string) (float64, bool) {
	v, ok := a.Numbers[id]
	if !ok {
		return 0, false
	}
	for _, k := range e.Numbers {
		if k.ID == id {
			return v, k.Given(v)
		}
	}
	return v, true
}

// predictionAgainst fills p's comparison of a given prediction with a
// measured number: close within tol, otherwise how far and which way,
// with under or over saying what the run did that the prediction missed.
func predictionAgainst(p Prediction, tol float64, under, over string) Prediction {
	if !p.Given || !p.Measurable {
		return p
	}
	off := p.Predicted - p.Measured
	switch {
	case math.Abs(off) <= tol && off == 0:
		p.Close, p.Note = true, "exactly"
	case math.Abs(off) <= tol:
		p.Close, p.Note = true, "close, within "+p.Tolerance
	case off < 0:
		p.Note = num(roundTo(-off, 0.1)) + unitSuffix(p.Unit) + " under: " + under
	default:
		p.Note = num(roundTo(off, 0.1)) + unitSuffix(p.Unit) + " over: " + over
	}
	return p
}

func failoverPrediction(what string, a Answer, id string, st NightStats) Prediction {
	v, given := predicted(exCompaction, a, id)
	p := Prediction{What: what, Unit: "s", Given: given, Predicted: v, Tolerance: "a second"}
	switch {
	case st.Crashes == 0:
		p.MeasuredText = "no crash to measure"
	case st.Failed > 0:
		p.MeasuredText = fmt.Sprintf("no takeover at all after %d of %d %s", st.Failed, st.Crashes, pluralS(st.Crashes, "crash", "crashes"))
		if given {
			p.Note = "a failover that never ends has no time to predict"
		}
	default:
		p.Measured, p.Measurable = st.Worst.Seconds(), true
		p.MeasuredText = secs(st.Worst)
	}
	return predictionAgainst(p, 1,
		"a successor waits out the rest of the dead leader's lease, up to the whole TTL, and the sweep",
		"the wait is the rest of the dead leader's lease at most, and a little for the sweep")
}

func dupNightsPrediction(what string, a Answer, id string, st NightStats) Prediction {
	v, given := predicted(exCompaction, a, id)
	p := Prediction{What: what, Given: given, Predicted: v, Tolerance: "a tenth or one night",
		Measured: float64(st.DupNights), Measurable: true,
		MeasuredText: fmt.Sprintf("%d of %d", st.DupNights, st.Nights)}
	return predictionAgainst(p, max(1, float64(st.DupNights)/10),
		"more long pauses outlived the lease than you expected",
		"fewer long pauses outlived the lease than you expected")
}

func judgeFailover(d NightDesign, st NightStats) Feedback {
	const part = "Failover"
	var b because
	switch {
	case st.Crashes == 0:
		return Feedback{Part: part, Why: "No night crashed the leader, so failover was never measured."}
	case st.Failed > 0:
		return b.feedback(part, false, "On %s of %s crash nights no compactor took over before the night ended.", b.runN(float64(st.Failed)), b.runN(float64(st.Crashes)))
	case b.claimD(st.Worst, "<=", nightFailover):
		return b.feedback(part, true, "Worst failover over %s crashes: %s, within %s. A successor waits out the rest of the lease, so the failover is bounded by the TTL plus the sweep.", b.runN(float64(st.Crashes)), b.run(st.Worst), b.given(nightFailover))
	}
	return b.feedback(part, false, "Worst failover over %s crashes: %s, over the %s budget. Survivors wait out the dead leader's remaining lease, up to the whole %s TTL: shorten it.", b.runN(float64(st.Crashes)), b.run(st.Worst), b.given(nightFailover), b.given(d.TTL))
}

func judgeDuplicates(d NightDesign, st NightStats) Feedback {
	const part = "Duplicates"
	var b because
	if st.Duplicates == 0 {
		return b.feedback(part, true, "No duplicate compaction step in %s nights: no pause outlived the lease.", b.runN(float64(st.Nights)))
	}
	var remedy string
	// A pause that begins right after a renewal finds the lease whole: if
	// the longest pause is as long as the TTL, renewing more often cannot
	// save it.
	if b.claimD(nightLongPause, ">=", d.TTL) {
		remedy = fmt.Sprintf("The longest pause (%s) is at least the whole %s TTL, so renewing more often cannot help: even a lease renewed just before the pause runs out. Only a longer TTL does.", b.given(nightLongPause), b.given(d.TTL))
	} else {
		remedy = ruleRemedy(&b, d)
	}
	return b.feedback(part, false, "%s duplicate compaction %s on %s of %s nights: a long pause outlived the lease, another compactor took over, and the paused one carried on when it woke. %s",
		b.runN(float64(st.Duplicates)), pluralS(st.Duplicates, "step", "steps"), b.runN(float64(st.DupNights)), b.runN(float64(st.Nights)), remedy)
}

// ruleRemedy says what the rule asks of a design whose pauses outlived
// the lease: the gap, in the design's own numbers, never a TTL or renewal
// interval that would pass (that would be the answer).
func ruleRemedy(b *because, d NightDesign) string {
	if d.RuleHolds() {
		return "Your design keeps the rule, so that night lost more than the one renewal the rule allows for: a longer TTL leaves more room."
	}
	pol := d.Policy()
	return fmt.Sprintf("The rule wants the TTL to exceed 2 × %s + %s = %s by more than the %s round trip, and yours is %s: a longer TTL or more frequent renewals close that gap, as long as failover stays within %s and keepalives within %s an hour.",
		b.given(d.Renew), b.given(nightLongPause), b.derived(pol.Need), b.given(nightRoundTrip), b.given(d.TTL), b.given(nightFailover), b.givenN(nightMaxPerHour))
}

func judgeRule(d NightDesign) Feedback {
	const part = "Policy rule"
	var b because
	pol := d.Policy()
	need := b.derived(pol.Need)
	switch {
	case b.claimD(pol.Need, ">", d.TTL):
		return b.feedback(part, false, "2 × %s + %s = %s > %s. Even if these nights were lucky, a pause starting just before a renewal that is then lost outlives the lease.", b.given(d.Renew), b.given(nightLongPause), need, b.given(d.TTL))
	case pol.OK:
		b.claimD(pol.Margin, ">", nightRoundTrip)
		return b.feedback(part, true, "2 × %s + %s = %s ≤ %s: %s to spare, more than the %s round trip, so a missed renewal and the longest pause still fit.", b.given(d.Renew), b.given(nightLongPause), need, b.given(d.TTL), b.derived(pol.Margin), b.given(nightRoundTrip))
	}
	b.stateD(pol.Need, "<=", d.TTL)
	than := "less than"
	if !b.claimD(pol.Margin, "<", nightRoundTrip) {
		b.stateD(pol.Margin, "==", nightRoundTrip)
		than = "no more than"
	}
	return b.feedback(part, false, "2 × %s + %s = %s ≤ %s, with %s to spare: %s the %s round trip. A renewal sent at the last moment reaches the coordinator at or after the expiry and is refused.", b.given(d.Renew), b.given(nightLongPause), need, b.given(d.TTL), b.derived(pol.Margin), than, b.given(nightRoundTrip))
}

// The band of TTLs the brief leaves open, whatever the renewal: from the
// shortest TTL the rule allows with the most frequent renewal the
// coordinator can spare, to the longest whose failover (the TTL, the
// sweep and a round trip) fits the budget. Both in whole seconds, as etcd
// grants leases.
func priorityBand() (low, high time.Duration) {
	fastest := time.Hour / nightMaxPerHour
	low = time.Second
	for !(NightDesign{TTL: low, Renew: fastest}).RuleHolds() {
		low += time.Second
	}
	high = (nightFailover - sweepEvery - nightRoundTrip).Truncate(time.Second)
	return low, high
}

// LeansLong reports whether the design follows the brief's priority: a
// duplicate costs more than a slow failover, so inside the band the
// other bounds leave, the TTL sits in the upper half, spending the
// failover the brief allows on margin against pauses and lost renewals.
// It judges the numbers, never the written defence: a design that picks
// the shortest TTL it can is choosing fast failover, whatever its
// defence says.
func (d NightDesign) LeansLong() bool {
	low, high := priorityBand()
	return 2*d.TTL >= low+high
}

func judgePriority(d NightDesign, st NightStats, alt NightDesign) Feedback {
	const part = "Priority"
	var b because
	low, high := priorityBand()
	if d.LeansLong() {
		b.claimD(2*d.TTL, ">=", low+high)
		return b.feedback(part, true, "Your %s TTL sits in the upper half of the band the brief leaves open, so it spends the failover the brief allows on margin against the expensive failure, duplicates. %s", b.given(d.TTL), againstAlternative(&b, d, alt, low+high))
	}
	b.stateD(2*d.TTL, "<", low+high)
	unused := ""
	if st.Crashes > 0 && st.Failed == 0 && st.Worst < nightFailover {
		unused = fmt.Sprintf(" Your worst failover was %s of the %s allowed: the rest went unused.", b.run(st.Worst), b.given(nightFailover))
	}
	return b.feedback(part, false, "Your %s TTL sits in the lower half of the band the brief leaves open (from the shortest TTL the rule allows with the most frequent renewal the coordinator can spare, to the longest whose failover fits %s). That buys fast failover, which the brief says may be slow, with margin against duplicates, which the brief says are expensive.%s %s Whatever the defence argues, the brief sets the priority.",
		b.given(d.TTL), b.given(nightFailover), unused, againstAlternative(&b, d, alt, low+high))
}

// againstAlternative says how the choice of d over the alternative reads
// by the same rule (the upper half of the band): one rule judges both.
func againstAlternative(b *because, d, alt NightDesign, band time.Duration) string {
	altLong := alt.LeansLong()
	if altLong {
		b.claimD(2*alt.TTL, ">=", band)
	} else {
		b.stateD(2*alt.TTL, "<", band)
	}
	switch {
	case d.LeansLong() && !altLong:
		return fmt.Sprintf("Your alternative's %s TTL sits in the lower half: choosing yours over it follows the brief.", b.given(alt.TTL))
	case d.LeansLong():
		return fmt.Sprintf("Your alternative's %s TTL sits in the upper half too: the priority does not choose between the two; the other bounds do.", b.given(alt.TTL))
	case altLong:
		return fmt.Sprintf("Your alternative's %s TTL sits in the upper half: by the brief's priority, you chose the wrong one of the two.", b.given(alt.TTL))
	}
	return fmt.Sprintf("Your alternative's %s TTL sits in the lower half too: neither of the two follows the brief's priority.", b.given(alt.TTL))
}

// perHour is how many keepalives an hour the leader sends.
func perHour(d NightDesign) float64 { return float64(time.Hour) / float64(d.Renew) }

func judgeLoad(d NightDesign) Feedback {
	const part = "Renewal load"
	var b because
	n := perHour(d)
	if b.claim(n, "<=", nightMaxPerHour) {
		return b.feedback(part, true, "Renewing every %s is %s keepalives an hour, within the %s the coordinator can spare.", b.given(d.Renew), b.derivedN(roundTo(n, 1)), b.givenN(nightMaxPerHour))
	}
	return b.feedback(part, false, "Renewing every %s is %s keepalives an hour, over the %s the coordinator can spare for one leader. Renew less often: the rule asks for a TTL long enough, not for frequent renewals.", b.given(d.Renew), b.derivedN(roundTo(n, 1)), b.givenN(nightMaxPerHour))
}

func judgePerHour(est float64, d NightDesign) Feedback {
	const part = "Keepalives per hour"
	var b because
	n := perHour(d)
	if b.claim(math.Abs(est-n), "<=", n/100) {
		if roundTo(est, 1) == roundTo(n, 1) {
			return b.feedback(part, true, "Right: an hour is %s renewal intervals of %s.", b.derivedN(roundTo(n, 1)), b.given(d.Renew))
		}
		// Accepted, but not the number: say how close, not "right".
		return b.feedback(part, true, "Close enough (within 1 %%): you said %s, and an hour is %s renewal intervals of %s.", b.givenN(est), b.derivedN(roundTo(n, 1)), b.given(d.Renew))
	}
	return b.feedback(part, false, "%s is not it: how many intervals of %s fit in an hour?", b.givenN(est), b.given(d.Renew))
}

func pluralS(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// roundTo rounds v to the nearest multiple of unit.
func roundTo(v, unit float64) float64 {
	if unit < 1 {
		// Divide by the inverse: 5193 / 10 prints as 519.3, while
		// 5193 * 0.1 does not.
		return math.Round(v/unit) / math.Round(1/unit)
	}
	return math.Round(v/unit) * unit
}

// figures is the trade-off table: the learner's row always, the rows
// around it only once they pass (a passing row would be the answer).
func (j *compactionJob) figures(passed bool) []string {
	d, st := j.design, j.stats
	figs := []string{"Your design, over the checked nights:"}
	rows, stats := []NightDesign{d}, []NightStats{st}
	if passed {
		figs = []string{"The trade-off around your choice (renewal scaled with the TTL):"}
		rows = append(rows, j.curve...)
		stats = append(stats, j.points...)
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	// Print in TTL order, marking the learner's own row.
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && rows[order[b]].TTL < rows[order[b-1]].TTL; b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	for _, i := range order {
		mark := "  "
		if i == 0 {
			mark = "> "
		}
		figs = append(figs, fmt.Sprintf("%sTTL %s, renew %s: %s", mark, secs(rows[i].TTL), secs(rows[i].Renew), tableRow(rows[i], stats[i])))
	}
	return append(figs, fmt.Sprintf("Your alternative over the same nights, TTL %s, renew %s: %s", secs(j.alt.TTL), secs(j.alt.Renew), tableRow(j.alt, j.altStats)))
}

// tableRow is one design's row of the trade-off table, judged by the same
// rule and budget as the parts above it.
func tableRow(d NightDesign, st NightStats) string {
	rule := "rule ok"
	if !d.RuleHolds() {
		rule = "rule fails"
	}
	fo := fmt.Sprintf("failover up to %s", secs(st.Worst))
	switch {
	case st.Failed > 0:
		// Never a time: the nights that saw no takeover have none.
		fo = fmt.Sprintf("no takeover after %d of %d %s", st.Failed, st.Crashes, pluralS(st.Crashes, "crash", "crashes"))
	case st.Worst > nightFailover:
		fo += " (over 30 s)"
	}
	return fmt.Sprintf("%s, %d %s in %d nights, %s", fo, st.Duplicates, pluralS(st.Duplicates, "duplicate", "duplicates"), st.Nights, rule)
}

// joinAnd lists items as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
