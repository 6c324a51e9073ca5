package lessons

import (
	"fmt"
	"math/rand/v2"
	"time"

	"leaselab/core"
)

// PauseModel is a seeded distribution of stop-the-world pauses (garbage
// collection, CPU starvation): each process freezes again after a gap drawn
// uniformly from [Gap/2, 3*Gap/2], for a length drawn uniformly from [Min,
// Max]. No pause starts at or after Until.
type PauseModel struct {
	Gap, Min, Max, Until time.Duration
}

// Schedule draws the pauses of each named process. The draws come from
// their own source, seeded from seed alone, so every TTL faces exactly the
// same pauses.
func (m PauseModel) Schedule(seed uint64, names []string) core.ActionLog {
	rng := rand.New(rand.NewPCG(seed, 0x7061757365))
	var log core.ActionLog
	for _, n := range names {
		t := time.Duration(0)
		for {
			t += m.Gap/2 + time.Duration(rng.Int64N(int64(m.Gap)+1))
			if t >= m.Until {
				break
			}
			d := m.Min + time.Duration(rng.Int64N(int64(m.Max-m.Min)+1))
			d = d.Round(100 * time.Millisecond)
			log = append(log, core.At(t, core.Pause(n, d)))
			t += d
		}
	}
	return log.Sorted()
}

// SweepPoint is one TTL's measurements, for the trade-off chart.
type SweepPoint struct {
	TTL time.Duration
	// Failover is the time from the leader's crash to the next holder: how
	// long the lock stays with a dead process.
	Failover time.Duration
	// FalseFailovers counts handovers away from a holder that had not
	// crashed, under the pause model: each one is a live leader deposed.
	FalseFailovers int
}

// ttlStorm is the lesson's pause model: pauses of 1 to 9 s (the seed's
// worst garbage-collection pause) about every 20 s per process, for the
// first 100 s.
var ttlStorm = PauseModel{Gap: 12 * time.Second, Min: time.Second, Max: 9 * time.Second, Until: 100 * time.Second}

// Bounds the learner's TTL must meet.
const ttlFailoverBound = 20 * time.Second

var ttlNames = []string{"A", "B", "C"}

// ttlWorld writes three contenders with the given TTL (renewing every
// TTL/3, like etcd's client), facing the pauses of pm.
func ttlWorld(seed uint64, ttl time.Duration, pm PauseModel) (core.World, error) {
	w, err := core.ContentionConfig{
		Names: ttlNames, FirstToken: 1, TTL: ttl, Stagger: 500 * time.Millisecond, Fencing: true,
	}.World(seed)
	w.Script = pm.Schedule(seed, ttlNames)
	return w, err
}

// falseFailovers counts the trace's handovers of the leader lock away from
// a holder that had not crashed before it.
func falseFailovers(t *core.Trace, before time.Duration) int {
	n, prev, crashed := 0, "", map[string]bool{}
	for e := range t.All() {
		if e.At >= before {
			break
		}
		switch e.Kind {
		case core.KindCrash:
			crashed[e.Actor] = true
		case core.KindHolder:
			if prev != "" && !crashed[prev] {
				n++
			}
			prev = e.Owner()
			crashed[prev] = false
		}
	}
	return n
}

// TTLSweep measures, for each TTL, the failover time after a real crash
// (in a world with no pauses, crashing the leader just after a renewal, the
// worst moment) and the false failovers the pause model causes in a world
// with no crash. Both come from running the simulator, seeded by seed.
func TTLSweep(seed uint64, ttls []time.Duration, pm PauseModel) ([]SweepPoint, error) {
	out := make([]SweepPoint, 0, len(ttls))
	for _, ttl := range ttls {
		p := SweepPoint{TTL: ttl}
		s, err := core.BuildWorld(ttlWorld(seed, ttl, pm))
		if err != nil {
			return nil, fmt.Errorf("ttl %s: %w", ttl, err)
		}
		s.RunUntil(pm.Until + pm.Max + 2*ttl)
		p.FalseFailovers = falseFailovers(s.Trace, s.Now())

		// No pauses: A leads throughout. It crashes 50 ms after the
		// coordinator renews its lease for the first time after 30 s,
		// read from a dry run: the renewal bought a whole TTL.
		s, err = core.BuildWorld(ttlWorld(seed, ttl, PauseModel{}))
		if err != nil {
			return nil, err
		}
		s.RunUntil(30*time.Second + ttl)
		crash := time.Duration(-1)
		for _, e := range s.Trace.Filter(core.KindLeaseRenew) {
			if e.At > 30*time.Second && e.Owner() == "A" {
				crash = e.At + 50*time.Millisecond
				break
			}
		}
		if crash < 0 {
			return nil, fmt.Errorf("ttl %s: A never renewed after 30 s", ttl)
		}
		if s, err = core.BuildWorld(ttlWorld(seed, ttl, PauseModel{})); err != nil {
			return nil, err
		}
		s.ScheduleAction(crash, core.Crash("A"))
		s.RunUntil(crash + 2*ttl + time.Second)
		for _, e := range s.Trace.Filter(core.KindHolder) {
			if e.At > crash {
				p.Failover = e.At - crash
				break
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// stormEnd is when the last pause of the storm has ended.
func stormEnd(w *World) time.Duration {
	end := time.Duration(-1)
	for _, sp := range pauses(w) {
		if sp.To < 0 {
			return -1
		}
		end = max(end, sp.To)
	}
	return end
}

// crashFailover finds the first crash of the lock holder after the storm
// and how long the lock took to move on (-1 if it has not yet).
func crashFailover(w *World, after time.Duration) (time.Duration, bool) {
	holder := ""
	for e := range w.Sim.Trace.All() {
		switch {
		case e.Kind == core.KindHolder:
			holder = e.Owner()
		case e.Kind == core.KindCrash && e.Actor == holder && e.At >= after:
			for h := range w.ofKind(core.KindHolder) {
				if h.Seq > e.Seq {
					return h.At - e.At, true
				}
			}
			return -1, true
		}
	}
	return 0, false
}

var ttlTradeoff = &Lesson{
	ID:        "ttl-tradeoff",
	Title:     "Short or long TTL: failover time against false failovers",
	Objective: "Choose a TTL that survives a storm of pauses and still fails over within 20 s.",
	Summary:   "A short TTL fails over fast but deposes live leaders; a long one waits.",
	Minutes:   8,
	Intro: []string{
		"The TTL is a bet on how long silence means death. A short one hands a crashed leader's lock on quickly, but it also deposes live leaders that merely stalled. A long one rides out stalls and leaves a crashed leader's lock unowned for longer.",
		"Here A, B and C contend for one lock and renew the way etcd's client does: a third of the TTL after each answer, on a loop that wakes every half second. For the first 100 s each of them freezes about every 20 s, for 1 to 9 s (the worst garbage-collection pause of exercise 1). The pauses come from a fixed random seed, the same for every TTL you try.",
		"The chart beside the run is TTLSweep: for each TTL, the failover time after a real crash and the number of false failovers under these pauses. Your bounds: no false failover during the storm, and after a crash a new leader within 20 s.",
	},
	Recap: "A false failover happens when a pause starting just after a renewal outlasts what is left of the lease, roughly when the pause exceeds two thirds of the TTL with renewals at TTL/3. Failover after a crash takes the whole TTL (plus the coordinator's sweep), because the last renewal just before the crash bought a full TTL. So the window is set by measured pauses at one end and the outage you can afford at the other. The lease-policy rule (2 x renew + pause < ttl) would ask for more than 27 s here: it adds room for one lost renewal on top, which no chart of pauses alone will show you.",
	World: func(seed uint64, k Knobs) (core.World, error) {
		return ttlWorld(seed, k.Seconds("ttl"), ttlStorm)
	},
	Knobs: []Knob{
		{ID: "ttl", Label: "TTL", Unit: "s", Min: 2, Max: 40, Step: 1, Default: 5},
	},
	SolutionKnobs: Knobs{"ttl": 16},
	Duration:      160 * time.Second,
	Controls:      []Control{CtlCrash, CtlPause},
	PauseFor:      10 * time.Second,
	SandboxPreset: "pause-storm",
	Sweep:         &Sweep{Knob: "ttl", Pauses: ttlStorm},
	Goals: []Goal{
		{
			ID:     "no-false-failover",
			Text:   "Pick a TTL with which the leader survives the whole storm of pauses: no false failover before 100 s.",
			Proved: "Every pause ended before the coordinator gave up on its holder: the TTL covers the stalls this platform produces.",
			Met: func(w *World) bool {
				end := stormEnd(w)
				return end >= 0 && w.Sim.Now() >= end+w.Knobs.Seconds("ttl") && falseFailovers(w.Sim.Trace, end+w.Knobs.Seconds("ttl")) == 0
			},
		},
		{
			ID:     "fast-failover",
			Text:   fmt.Sprintf("After the storm, crash the leader: a new leader must hold the lock within %s.", secs(ttlFailoverBound)),
			Proved: "The crashed leader's lease lapsed and the next contender took over within the bound: the TTL is short enough for real failures.",
			Met: func(w *World) bool {
				d, ok := crashFailover(w, ttlStorm.Until)
				return ok && d >= 0 && d <= ttlFailoverBound
			},
		},
	},
	Hints: []string{
		"With a 5 s TTL the storm's longer pauses depose the leader. Raise the TTL and read the false-failover curve of the chart.",
		"Failover after a crash is about the TTL itself. So you need a TTL above the storm's false-failover range and below 20 s.",
		"Set the TTL to 16 s and, once the storm is over (after about 110 s), crash whichever process leads.",
	},
	Solution: core.ActionLog{core.At(115*time.Second, core.Crash("A"))},
}

// secs writes a length as every sentence of the lab does (core.Seconds).
func secs(d time.Duration) string { return core.Seconds(d) }
