package lessons

import (
	"fmt"
	"math/rand/v2"
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
)

var compactors = []string{"compactor-1", "compactor-2", "compactor-3"}

// NightDesign is a TTL and renewal interval for the compaction leader.
type NightDesign struct{ TTL, Renew time.Duration }

// Policy is the design's lease-policy verdict with the stated pause budget.
func (d NightDesign) Policy() core.PolicyVerdict {
	return core.LeasePolicy{TTL: d.TTL, RenewEvery: d.Renew, PauseBudget: nightLongPause}.Check()
}

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
		log = append(log, core.At(span(5*time.Second, 85*time.Second), core.Action{Do: "pause", Proc: leader, For: core.Duration(span(50*time.Millisecond, 300*time.Millisecond))}))
	}
	if r.IntN(10) == 0 {
		log = append(log, core.At(span(5*time.Second, 75*time.Second), core.Action{Do: "pause", Proc: leader, For: core.Duration(span(2*time.Second, nightLongPause))}))
	}
	if r.IntN(4) == 0 {
		log = append(log, core.At(span(20*time.Second, 50*time.Second), core.Action{Do: "crash", Proc: leader}))
	}
	return log.Sorted()
}

// RunNight simulates night n of the design.
func RunNight(d NightDesign, n int) (Night, error) {
	s, err := core.NewContention(uint64(n)+1, core.ContentionConfig{
		Names: compactors, TTL: d.TTL, RenewEvery: d.Renew, Stagger: 100 * time.Millisecond, WorkEvery: nightStep,
	})
	if err != nil {
		return Night{}, err
	}
	s.Net.Default = core.Link{Delay: nightLinkDelay, Jitter: nightLinkJitter}
	// The leader's keepalives are sometimes lost (a lost renewal is what
	// the rule's second renew interval is for).
	s.Net.Link(compactors[0], core.CoordinatorName).Drop = nightLinkDrop
	s.Trace.Quiet = true
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
			holder, owner = e.Int("token"), e.Get("owner")
			if out.Crashed && out.Failed && e.At >= crashAt && e.Get("owner") != compactors[0] {
				out.Failover, out.Failed = e.At-crashAt, false
			}
		case core.KindFree:
			holder, owner = 0, ""
		case core.KindWrite:
			if e.Get("result") == core.Accepted && e.Int("token") != holder {
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
}

func (st *NightStats) add(n Night) {
	st.Nights++
	st.Duplicates += n.Duplicates
	if n.Duplicates > 0 {
		st.DupNights++
	}
	if n.Crashed {
		st.Crashes++
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
	ID:    "compaction-ttl",
	Title: "A TTL for the nightly compaction leader",
	Brief: []string{
		"Every night one of three compactors takes a lease and compacts storage, writing one step every 2 s. Two costs pull against each other: if the leader dies, up to 30 s without compaction is fine; but if two compactors work at once, the duplicate run is expensive. Storage does not check tokens.",
		"Choose the TTL and the renewal interval. Your design then runs for 1,000 seeded nights. Each night the leader may pause a few times for 50-300 ms; on one night in ten it also pauses once for 2 to 8 s (8 s is the longest pause); on one night in four it crashes. Messages take 20-50 ms, and one in 20 of the leader's messages to the coordinator is lost.",
		"It passes when the worst failover is at most 30 s, no night has a duplicate compaction step, and the seed's rule 2 × renew + 8 s ≤ TTL holds.",
	},
	Numbers: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 2, Max: 60, Step: 1, Default: 30},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 0.5, Max: 30, Step: 0.5, Default: 10},
	},
	Reference: Answer{Numbers: map[string]float64{"ttl": 25, "renew": 5}},
	Worked: []string{
		"Two limits fence in the TTL. Failover: when the leader crashes, the others wait out the rest of its lease, up to a full TTL plus the coordinator's half-second sweep, so the TTL must stay under about 29 s. Safety: the rule needs 2 × renew + 8 s ≤ TTL, so a renewal can be missed and a retry still land after the longest pause.",
		"Inside that band, lean towards the longer TTL, because duplicates are the expensive failure and a slower failover is allowed. TTL 25 s with renewals every 5 s leaves 7 s of margin over the rule (10 + 8 = 18 s) and fails over in at most about 25.5 s. Renewing every 5 s costs one keepalive per 5 s for a single leader: nothing.",
		"TTL 30 s with renewals every 10 s looks right by the rule (28 s ≤ 30 s) but breaks the failover budget, and TTL 12 s with renewals every 4 s fails the rule (16 s > 12 s): the long-pause nights turn into duplicate compactions.",
	},
	Format: `{ "numbers": { "ttl": 25, "renew": 5 } }
ttl is the lease TTL in seconds (2 to 60), renew the keepalive interval in
seconds (0.5 to 30). The check runs 1,000 nights, then 100 nights at four
TTLs around yours (renewal scaled with it) to draw the trade-off curve.`,
}

func init() { exCompaction.start = startCompaction }

// compactionJob runs the nights a few at a time.
type compactionJob struct {
	design NightDesign
	curve  []NightDesign // the trade-off points around the design
	stats  NightStats
	points []NightStats
	done   int // nights run over all stages
	total  int
	err    error
	res    *Result
}

func startCompaction(a Answer) Job {
	d := NightDesign{
		TTL:   time.Duration(exCompaction.Number(a, "ttl") * float64(time.Second)),
		Renew: time.Duration(exCompaction.Number(a, "renew") * float64(time.Second)),
	}
	if d.Renew >= d.TTL {
		return finished([]Feedback{{Part: "Design", Why: fmt.Sprintf("Renewing every %s with a %s TTL means the lease lapses before each renewal: the renewal interval must be well under the TTL.", secs(d.Renew), secs(d.TTL))}})
	}
	j := &compactionJob{design: d}
	for _, dt := range []float64{-12, -6, 4, 8} {
		ttl := d.TTL + time.Duration(dt*float64(time.Second))
		if ttl < 2*time.Second || ttl > 60*time.Second {
			continue
		}
		renew := time.Duration(float64(d.Renew) * float64(ttl) / float64(d.TTL)).Round(100 * time.Millisecond)
		j.curve = append(j.curve, NightDesign{TTL: ttl, Renew: max(renew, 100*time.Millisecond)})
	}
	j.points = make([]NightStats, len(j.curve))
	j.total = nightsChecked + nightsPerCurve*len(j.curve)
	return j
}

func (j *compactionJob) Progress() float64 { return float64(j.done) / float64(j.total) }

func (j *compactionJob) Step(n int) bool {
	for ; n > 0 && j.done < j.total && j.err == nil; n-- {
		d, night, st := j.design, j.done, &j.stats
		if j.done >= nightsChecked {
			k := (j.done - nightsChecked) / nightsPerCurve
			d, night, st = j.curve[k], (j.done-nightsChecked)%nightsPerCurve, &j.points[k]
		}
		r, err := RunNight(d, night)
		if err != nil {
			j.err = err
			break
		}
		st.add(r)
		j.done++
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
	pol := d.Policy()
	var parts []Feedback
	fo := Feedback{Part: "Failover", OK: st.Failed == 0 && st.Worst <= nightFailover}
	switch {
	case st.Failed > 0:
		fo.Why = fmt.Sprintf("On %d of %d crash nights no compactor took over before the night ended.", st.Failed, st.Crashes)
	case fo.OK:
		fo.Why = fmt.Sprintf("Worst failover over %d crashes: %s, within 30 s. A successor waits out the rest of the lease, so the failover is bounded by the TTL plus the sweep.", st.Crashes, secs(st.Worst))
	default:
		fo.Why = fmt.Sprintf("Worst failover over %d crashes: %s, over the 30 s budget. Survivors wait out the dead leader's remaining lease, up to the whole %s TTL: shorten it.", st.Crashes, secs(st.Worst), secs(d.TTL))
	}
	dup := Feedback{Part: "Duplicates", OK: st.Duplicates == 0}
	if dup.OK {
		dup.Why = fmt.Sprintf("No duplicate compaction step in %d nights: no pause outlived the lease.", st.Nights)
	} else {
		dup.Why = fmt.Sprintf("%d duplicate compaction steps on %d of %d nights: a long pause outlived the lease, another compactor took over, and the paused one carried on when it woke. Renew more often or lengthen the TTL.", st.Duplicates, st.DupNights, st.Nights)
	}
	rule := Feedback{Part: "Policy rule", OK: pol.OK}
	if pol.OK {
		rule.Why = fmt.Sprintf("2 × %s + 8 s = %s ≤ %s: %s to spare, so a missed renewal and the longest pause still fit.", secs(d.Renew), secs(pol.Need), secs(d.TTL), secs(pol.Margin))
	} else {
		rule.Why = fmt.Sprintf("2 × %s + 8 s = %s > %s. Even if these nights were lucky, a pause starting just before a renewal that is then lost outlives the lease.", secs(d.Renew), secs(pol.Need), secs(d.TTL))
	}
	parts = append(parts, fo, dup, rule)
	figs := []string{"The trade-off around your choice (renewal scaled with the TTL):"}
	rows := append([]NightDesign{d}, j.curve...)
	stats := append([]NightStats{st}, j.points...)
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
		rule, fo := "rule ok", ""
		if !rows[i].Policy().OK {
			rule = "rule fails"
		}
		if stats[i].Worst > nightFailover || stats[i].Failed > 0 {
			fo = " (over 30 s)"
		}
		figs = append(figs, fmt.Sprintf("%sTTL %s, renew %s: failover up to %s%s, %d duplicates in %d nights, %s",
			mark, secs(rows[i].TTL), secs(rows[i].Renew), secs(stats[i].Worst), fo, stats[i].Duplicates, stats[i].Nights, rule))
	}
	r := result(parts, figs...)
	j.res = &r
	return r
}
