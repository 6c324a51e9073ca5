package lessons

import (
	"fmt"
	"math/rand/v2"
	"time"

	"leaselab/core"
)

// Exercise 3's world: the learner's design, a night of compaction under
// it (its schedule, its world, its replay as a lesson) and the stats over
// many nights.

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
	for e := range s.Trace.All() {
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
