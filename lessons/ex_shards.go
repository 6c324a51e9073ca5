package lessons

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// Exercise 2's stated bounds for 1,000 partitions over 40 workers.
const (
	designShards    = 1000
	designWorkers   = 40
	designImbalance = 2   // most minus fewest shards per live worker
	designRenewLoad = 500 // lease renewals per second at the coordinator
	designReassign  = 30 * time.Second
	designCrashAt   = 60 * time.Second
	designPauseAt   = 100 * time.Second
	designVictim    = "worker-07" // crashes
	designSleeper   = "worker-21" // pauses past its leases
	designGCAt      = 40 * time.Second
	designGCPause   = 2 * time.Second // an ordinary garbage-collection pause
	designGCWorker  = "worker-13"
)

// ShardDesign is a learner's shard-ownership design.
type ShardDesign struct {
	TTL, Renew    time.Duration
	LeasePerShard bool
	Assign        core.AssignRule
	Fenced        bool
}

// CrashPhase is one crash moment of worker-07 and the failover it gave.
type CrashPhase struct {
	At time.Duration
	// Victim counts the shards the crashed worker owned when it crashed.
	Victim int
	// Reassign is how long its shards took to find new owners; Stuck
	// counts those that never did before the run ended. Expired is the
	// part of Reassign spent waiting for its leases: from the crash until
	// the coordinator expired the last of them (the TTL, less the time
	// since their last renewal); the rest is the survivors' scans finding
	// and claiming the freed shards.
	Reassign time.Duration
	Expired  time.Duration
	Stuck    int
}

// PausePhase is one start of worker-13's short pause and what it cost.
type PausePhase struct {
	At time.Duration
	// Owned counts the shards worker-13 owned when it froze; Lost those
	// taken from it because its leases lapsed in the pause, though it was
	// alive and meant to keep them (not ones it gave back to rebalance).
	Owned, Lost int
}

// ShardMeasure is what the simulator measured of a design.
type ShardMeasure struct {
	// Min and Max are the fewest and most shards a live worker owned
	// before any fault.
	Min, Max int
	// RenewRate is lease renewals per second at the coordinator, measured
	// over RenewWindow: a whole number of renewal intervals (at least
	// one), so the rate is not skewed by a partial round.
	RenewRate   float64
	RenewWindow time.Duration
	// Pauses are the short pause's starts over one renewal interval, and
	// WorstPause the index of the costliest (the earliest of equals).
	Pauses     []PausePhase
	WorstPause int
	// Crashes are the crash moments over one renewal interval, and Worst
	// the index of the slowest failover (the earliest of equals), or of
	// the first over the budget. The run goes on from the worst pause.
	Crashes []CrashPhase
	Worst   int
	// OverBudget reports that the sweep stopped at the first crash moment
	// whose shards went unowned for more than twice the budget (Worst):
	// the design fails there, and the moments after it are not tried.
	OverBudget bool
	// StaleCommits counts offset commits a paused, superseded owner made
	// that the offset store accepted; SleeperOwned the shards it owned
	// when it froze (a pause of a worker that owned nothing proves
	// nothing). Both from a run with the worst pause and crash, from
	// before the freeze to the end: the run offered to watch.
	StaleCommits, SleeperOwned int
}

// WorstCrash is the crash moment the failover verdict rests on.
func (m ShardMeasure) WorstCrash() CrashPhase { return m.Crashes[m.Worst] }

// WorstPausePhase is the pause start the false-failover verdict rests on.
func (m ShardMeasure) WorstPausePhase() PausePhase { return m.Pauses[m.WorstPause] }

// MeasureShardDesign runs the design: 1,000 shards, 40 workers; from 40 s
// worker-13 pauses for 2 s, at every start that matters over one renewal
// interval; once those pauses are over (from 60 s, or later for long
// renewals: crashFrom) worker-07 crashes, at every moment that matters over
// one renewal interval; at 100 s worker-21 freezes for the TTL plus 5 s.
func MeasureShardDesign(d ShardDesign) (ShardMeasure, error) {
	j := newShardSweep(d)
	for !j.step() {
	}
	return j.m, j.err
}

// shardWorld writes the design's world, before its faults.
func shardWorld(d ShardDesign) (core.World, error) {
	return core.ShardsConfig{
		Shards: designShards, Workers: designWorkers, TTL: d.TTL, RenewEvery: d.Renew,
		LeasePerShard: d.LeasePerShard, Assign: d.Assign, ScanJitter: 0.5,
		CommitEvery: time.Second, Fencing: d.Fenced, Stagger: 50 * time.Millisecond,
	}.World(1)
}

// ShardLesson is the design's run with the pause at pauseAt and the crash
// at crashAt, to watch in the player: the same world and faults the check
// simulated.
func ShardLesson(d ShardDesign, crashAt, pauseAt time.Duration) *Lesson {
	return &Lesson{
		ID:    "shard-design-run",
		Title: fmt.Sprintf("Your shard design, crash at %s", instant(crashAt)),
		Intro: []string{fmt.Sprintf("The checked run the verdict rests on: %s pauses for %s at %s; %s crashes at %s; at %s %s freezes past its TTL.",
			designGCWorker, secs(designGCPause), instant(pauseAt), designVictim, instant(crashAt), secs(designPauseAt), designSleeper)},
		World:    func(uint64, Knobs) (core.World, error) { return shardWorld(d) },
		Script:   designLog(d, crashAt, pauseAt),
		Duration: designEnd(d),
	}
}

// designLog is the faults every design meets: a short pause at pauseAt, a
// crash at crashAt, and a pause past the TTL.
func designLog(d ShardDesign, crashAt, pauseAt time.Duration) core.ActionLog {
	return core.ActionLog{
		core.At(pauseAt, gcPause()),
		core.At(crashAt, core.Crash(designVictim)),
		sleeperPause(d),
	}
}

func gcPause() core.Action {
	return core.Pause(designGCWorker, designGCPause)
}

func sleeperPause(d ShardDesign) core.Timed {
	return core.At(designPauseAt, core.Pause(designSleeper, d.TTL+5*time.Second))
}

// designEnd is when a design's run ends: after the frozen worker-21 woke.
func designEnd(d ShardDesign) time.Duration { return designPauseAt + d.TTL + 15*time.Second }

// crashFrom is when the crash sweep begins: at 60 s, unless worker-13's
// pauses, tried over one whole renewal interval from 40 s, have not all
// ended and settled by then; then right after the last could have.
func crashFrom(d ShardDesign) time.Duration {
	return max(designCrashAt, designGCAt+d.Renew+designGCPause+designPauseSettle)
}

// designRoundTrip is the slowest keepalive round trip of the design's
// world (its links are the default ones).
var designRoundTrip = core.DefaultLink.RoundTrip()

// Policy is the design's lease-policy verdict: the lab's one rule
// (core.LeasePolicy.Check, as exercise 4, the leases lesson and the
// sandbox judge it) with the 2 s pause as the budget and the world's
// round trip: 2 × renew + 2 s < TTL, with more than the round trip to
// spare.
func (d ShardDesign) Policy() core.PolicyVerdict {
	return core.LeasePolicy{TTL: d.TTL, RenewEvery: d.Renew, PauseBudget: designGCPause, RoundTrip: designRoundTrip}.Check()
}

// shardSweep measures a design, one run a step. It simulates the common
// start once and clones the world at each fault moment, so every phase
// costs only the simulation after its fault.
//
// Which moments matter: a crash's failover is how long until the crashed
// worker's last shard has a new owner. Between two messages of that worker
// the rest of the world runs the same whenever it dies, so the owners come
// at the same time and the failover is longest for the earliest crash: the
// one right after a message. Those moments, plus evenly spread ones, are
// the crash phases. A pause costs the most when it starts just before the
// paused worker sends to the coordinator (its renewal is held longest), so
// the pause phases are the instants before each of worker-13's messages to
// the coordinator over one whole renewal interval, plus evenly spread ones.
type shardSweep struct {
	d     ShardDesign
	m     ShardMeasure
	world *core.Sim // the run so far: before the pause, then from the worst pause on
	// worst is the world of the worst phase so far; cands the moments
	// left to try in the current sweep.
	worst *core.Sim
	// freeze is the worst pause's world before the crash sweep and
	// worker-21's freeze: the stale owner is read from it, with the worst
	// crash added, so that run sees the freeze and the wake.
	freeze *core.Sim
	cands  []time.Duration
	stage  int
	err    error
}

const (
	// designPauseGrid and designCrashGrid are how many evenly spread
	// moments per renewal interval each sweep tries besides the ones the
	// worker's messages mark. A crash between two of them fails over no
	// slower than one right after the message before it, so its grid is
	// only the four moments the check once sampled alone: the sweep never
	// tries less than it did.
	designPauseGrid = 8
	designCrashGrid = 4
	// designHopeless is twice the failover budget: a design that misses
	// the budget by less is swept whole, so its worst moment is reported.
	designHopeless = 2 * designReassign
	// designPauseSettle is how long after a pause ends its cost is
	// counted: a lapsed lease is found at the wake or by the reply to the
	// renewal sent then.
	designPauseSettle = time.Second
)

func newShardSweep(d ShardDesign) *shardSweep { return &shardSweep{d: d} }

// progress is the fraction done, growing with every step.
func (j *shardSweep) progress() float64 {
	left := func(done int) float64 { return float64(done) / float64(done+len(j.cands)) }
	switch j.stage {
	case 0:
		return 0
	case 1:
		return 0.05 + 0.25*left(len(j.m.Pauses))
	case 2:
		return 0.3 + 0.65*left(len(j.m.Crashes))
	}
	return 1
}

// step does one unit of the sweep and reports whether it is done.
func (j *shardSweep) step() bool {
	if j.err != nil || j.stage == 3 {
		return true
	}
	switch {
	case j.stage == 0:
		j.err = j.start()
		if j.err == nil {
			j.stage = 1
		}
	case j.stage == 1 && len(j.cands) > 0:
		j.tryPause()
	case j.stage == 1:
		j.world, j.worst = j.worst, nil
		j.world.RunUntil(min(crashFrom(j.d), designPauseAt))
		j.freeze = fork(j.world)
		j.cands = phases(j.world, designVictim, crashFrom(j.d), j.d.Renew, 0, designCrashGrid, "")
		j.stage = 2
	case j.stage == 2 && len(j.cands) > 0:
		j.tryCrash()
	default:
		j.finish()
		j.stage = 3
	}
	return j.err != nil || j.stage == 3
}

// start runs the common start: it measures the renewal load and the
// balance on a world with no fault yet, and lists the pause phases.
func (j *shardSweep) start() error {
	s, err := core.BuildWorld(shardWorld(j.d))
	if err != nil {
		return err
	}
	s.Trace.Quiet = true
	s.Schedule(core.ActionLog{sleeperPause(j.d)})
	s.RunUntil(20 * time.Second)
	calm := s.Clone()
	r0 := calm.Coord.Renewals
	rounds := max(1, (designCrashAt-time.Second-20*time.Second)/j.d.Renew)
	j.m.RenewWindow = rounds * j.d.Renew
	calm.RunUntil(20*time.Second + j.m.RenewWindow)
	j.m.RenewRate = float64(calm.Coord.Renewals-r0) / j.m.RenewWindow.Seconds()
	calm.RunUntil(max(calm.Now(), designCrashAt-time.Second))
	st := calm.ShardStats()
	j.m.Min, j.m.Max = st.Min, st.Max
	j.world = s
	j.cands = phases(s, designGCWorker, designGCAt, j.d.Renew, -1, designPauseGrid, "coordinator")
	return nil
}

// phases are the moments in [from, from+span) to try a fault of proc at:
// grid evenly spread ones from from on, and each instant proc sends a
// message (to to, if not empty), moved by shift (-1: just before it). s
// is run to from.
func phases(s *core.Sim, proc string, from, span, shift time.Duration, grid int, to string) []time.Duration {
	s.RunUntil(from)
	var out []time.Duration
	for k := range grid {
		out = append(out, from+time.Duration(k)*span/time.Duration(grid))
	}
	look := fork(s)
	look.Trace.Quiet = false
	look.RunUntil(from + span)
	for _, e := range look.Trace.Events {
		if t := e.At + shift; e.Kind == core.KindSend && e.Actor == proc && (to == "" || e.To() == to) && t > from && t < from+span {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tryPause runs worker-13's pause at the next pause phase.
func (j *shardSweep) tryPause() {
	at := j.cands[0]
	j.cands = j.cands[1:]
	j.world.RunUntil(at)
	ph := PausePhase{At: at, Owned: len(worker(j.world, designGCWorker).Owned())}
	w := fork(j.world)
	w.ScheduleAction(at, gcPause())
	w.RunUntil(at + designGCPause + designPauseSettle)
	for _, e := range w.Trace.Events {
		if e.Kind == core.KindShardDrop && e.Actor == designGCWorker && !strings.HasPrefix(e.Why(), "rebalance") {
			ph.Lost++
		}
	}
	j.m.Pauses = append(j.m.Pauses, ph)
	if j.worst == nil || ph.Lost > j.m.Pauses[j.m.WorstPause].Lost {
		j.m.WorstPause, j.worst = len(j.m.Pauses)-1, w
	}
}

// tryCrash crashes worker-07 at the next crash phase and runs until its
// shards all have new owners or the run ends. A crash moment whose shards
// stay unowned for longer than designHopeless ends the sweep: the design
// fails there whatever the other moments show, and the long runs of the
// moments after it are spared.
func (j *shardSweep) tryCrash() {
	at := j.cands[0]
	j.cands = j.cands[1:]
	j.world.RunUntil(at)
	victim := worker(j.world, designVictim).Owned()
	ph := CrashPhase{At: at, Victim: len(victim)}
	w := fork(j.world)
	w.ScheduleAction(at, core.Crash(designVictim))
	waiting := map[int]bool{}
	for _, sh := range victim {
		waiting[sh] = true
	}
	seen, end := 0, designEnd(j.d)
	for len(waiting) > 0 && w.Now() < end {
		w.RunUntil(min(w.Now()+time.Second, end))
		for _, e := range w.Trace.Events[seen:] {
			if e.Kind == core.KindLeaseExpire && e.Owner() == designVictim {
				ph.Expired = max(ph.Expired, e.At-at)
			}
			if sh := int(e.Shard()); e.Kind == core.KindShardOwn && waiting[sh] && e.Actor != designVictim {
				delete(waiting, sh)
				ph.Reassign = max(ph.Reassign, e.At-at)
			}
		}
		seen = len(w.Trace.Events)
	}
	ph.Stuck = len(waiting)
	j.m.Crashes = append(j.m.Crashes, ph)
	if ph.Stuck > 0 || ph.Reassign > designHopeless {
		j.m.Worst, j.m.OverBudget, j.worst, j.cands = len(j.m.Crashes)-1, true, w, nil
		return
	}
	if j.worst == nil || ph.Reassign > j.m.Crashes[j.m.Worst].Reassign {
		j.m.Worst, j.worst = len(j.m.Crashes)-1, w
	}
}

// finish runs the worst pause's world with the worst crash from before
// worker-21 froze to the end, for the stale owner: the worst crash's own
// world may already be past the freeze, even past the wake.
func (j *shardSweep) finish() {
	w := j.freeze
	w.ScheduleAction(j.m.WorstCrash().At, core.Crash(designVictim))
	w.RunUntil(designPauseAt)
	j.m.SleeperOwned = len(worker(w, designSleeper).Owned())
	seen := len(w.Trace.Events)
	w.RunUntil(designEnd(j.d))
	for _, e := range w.Trace.Events[seen:] {
		if e.Kind == core.KindStale && e.From() == designSleeper {
			j.m.StaleCommits++
		}
	}
	j.worst, j.world, j.freeze = nil, nil, nil
}

// fork is a copy of s to run a fault in, with a trace of its own that
// starts empty: the sweep reads only what follows the fork, and a shared
// prefix would be copied whole by the fork's first event.
func fork(s *core.Sim) *core.Sim {
	c := s.Clone()
	c.Trace.Events = nil
	return c
}

// worker is the shard worker named name.
func worker(s *core.Sim, name string) *core.ShardWorker {
	for _, w := range s.Workers() {
		if w.Name() == name {
			return w
		}
	}
	panic("no shard worker " + name)
}

// shardItems are the data the learner places, with where each belongs.
var shardItems = []struct {
	id, label string
	coord     bool
	why       string
}{
	{"leases", "Shard ownership leases (shard-042 belongs to worker-07 until its TTL runs out)", true,
		"Ownership leases live in the coordinator: they are small, change only when ownership changes, and must expire on one authoritative clock."},
	{"tokens", "The fencing token of each ownership (the lease key's revision)", true,
		"Tokens are issued by the coordinator: only its single ordered history can number ownerships so that newer is always higher."},
	{"workers", "Worker identities and liveness (one session per worker)", true,
		"Membership is coordination state: the live-worker list is what the fair-share rule divides by, and a session expiring is how a dead worker is noticed."},
	{"offsets", "Each shard's committed stream offset", false,
		"Offsets move with every batch (1,000 shards committing every second): far too hot for a coordinator, and they must commit together with the records they describe."},
	{"records", "Processed records and their results", false,
		"Records are the data itself; a coordinator holds kilobytes of metadata, not a stream."},
	{"last-token", "The highest token each shard's offset was committed with", false,
		"The highest accepted token sits next to the offset, in the store, so the store itself can refuse a stale owner's commit."},
}

func shardQuestions() []Question {
	qs := []Question{
		{ID: "granularity", Text: "Lease granularity", Options: []Option{
			{"per-shard", "One lease per shard (1,000 leases)"},
			{"per-worker", "One lease per worker; its shard keys ride on it"},
		}},
		{ID: "assignment", Text: "Assignment rule", Options: []Option{
			{"fair-share", "Fair share: claim free shards up to shards / live workers (rounded up), give extras back"},
			{"greedy", "Greedy: claim every free shard you see"},
			{"static", "Static hash: worker i owns the shards numbered i mod 40"},
		}},
		{ID: "offsets", Text: "Offset commits", Options: []Option{
			{"fenced", "Carry the shard's token; the store refuses tokens below the highest it has seen"},
			{"plain", "Plain commits: the store keeps whatever arrives last"},
		}},
	}
	for _, it := range shardItems {
		qs = append(qs, Question{ID: "place-" + it.id, Text: "Where does this live? " + it.label, Options: []Option{
			{"coordinator", "Coordination service"},
			{"store", "Stream or database"},
		}})
	}
	return qs
}

var exShards = &Exercise{
	ID:      "shard-design",
	Title:   "Shard ownership for 1,000 partitions and 40 workers",
	Summary: "Design leases, renewals and rebalancing for 1,000 shards; defend the numbers.",
	Minutes: 20,
	Brief: []string{
		"A stream of 1,000 partitions is processed by 40 workers. Design who owns which partition: the lease granularity, TTL and renewal interval, the assignment rule, and how offsets are committed. Then sort the data between the coordination service and the stream or database.",
		"The simulator runs your design: the workers start; from 40 s worker-13 pauses for 2 s, as garbage collection does now and then; once those pauses are over (from 60 s, later if renewals are more than 17 s apart) worker-07 crashes; and at 100 s worker-21 freezes for longer than its TTL. Whether a pause costs a lease, and how long a crash takes to recover from, depend on where in its renewal cycle the worker is hit, so the pause and the crash are each tried at every moment that matters over one whole renewal interval, and the worst counts. The simulator never loses a renewal, so the TTL is also held to the lease policy rule: 2 × renew + 2 s < TTL with more than the round trip (12 ms) to spare, room for the pause and one missed renewal. A crashed worker's shards come free only when the coordinator expires its leases, and survivors find free shards by scanning every third of the TTL (up to half again more, so they do not all scan at once): failover is the wait for the leases plus a scan. Bounds: at most 2 shards between the busiest and the idlest worker; at most 500 lease renewals per second at the coordinator; every shard of the crashed worker owned again within 30 s, whenever it crashed; no shard taken from worker-13 for a 2 s pause, whenever it began; no offset overwritten by a stale owner.",
	},
	KeyPoints: []string{
		"Leases, tokens and membership go in the coordinator; offsets, records and the highest token per shard stay with the data.",
		"Failover is at least the TTL (a crash just after a renewal leaves the whole lease to wait out) plus a scan, so the failover budget caps the TTL; an ordinary pause plus a missed renewal sets its floor.",
		"Renewal load is leases / renew interval, sessions included: each lease is renewed on its own (an etcd keepalive request names one lease), however many share a worker's keepalive stream.",
		"Offset commits carry the shard token and the store refuses older ones.",
	},
	Hints: []string{
		"Start from what must not happen: a dead worker's shards idle too long, a live worker losing shards to a short pause, the coordinator drowning in renewals, a stale owner's offset landing. Each bounds one of your choices.",
		"Failover takes at least the TTL (survivors wait out the dead worker's leases, the whole TTL when it crashed just after renewing) plus a scan, so the budget caps the TTL; a 2 s pause plus a missed renewal sets its floor. The renewal interval sets the load: every worker renews its session too, so 1,000 shard leases plus 40 sessions renewed every r seconds is 1,040 / r renewals a second (one lease per worker: 40 / r).",
		"The key step: choose the TTL from both sides at once (long enough for a 2 s pause plus a missed renewal, short enough that waiting out a dead worker's leases fits the failover budget), then the slowest renewal that still survives a missed one, and check the load it makes. Fair share keeps the balance; fenced offset commits stop the frozen worker. Place in the coordinator only what is small and needs one authority.",
	},
	Numbers: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 2, Max: 120, Step: 1, Default: 60},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 0.5, Max: 60, Step: 0.5, Default: 1},
		{ID: "predict-load", Label: "Predict: lease renewals per second at the coordinator", Unit: "per second", Min: -1, Max: 5000, Step: 1, Default: -1, Unset: "no prediction"},
		{ID: "predict-failover", Label: "Predict: worst failover of worker-07's shards", Unit: "s", Min: -1, Max: 300, Step: 0.5, Default: -1, Unset: "no prediction"},
	},
	Questions: shardQuestions(),
	Reference: Answer{
		Numbers: map[string]float64{"ttl": 15, "renew": 5, "predict-load": 208, "predict-failover": 21},
		Choices: map[string][]string{
			"granularity": {"per-shard"}, "assignment": {"fair-share"}, "offsets": {"fenced"},
			"place-leases": {"coordinator"}, "place-tokens": {"coordinator"}, "place-workers": {"coordinator"},
			"place-offsets": {"store"}, "place-records": {"store"}, "place-last-token": {"store"},
		},
	},
	Worked: []string{
		"One lease per shard, as in the shard-ownership example (128 shards over 12 workers): ownership moves shard by shard, a dead worker's shards spread over everyone, and each ownership gets its own fencing token. Every lease is renewed on its own: in etcd a keepalive request (LeaseKeepAliveRequest) names one lease ID, so each worker sends 26 of them every renewal, for its 25 shard leases and its session, over its one keepalive stream. (The lab sends a worker's renewals together as one message, as they travel on one stream, and counts every lease it renews.) A TTL of 15 s renewed every 5 s costs (1,000 shard leases + 40 worker sessions) / 5 = 208 lease renewals per second, sessions included: light. A 60 s TTL would leave the dead worker's shards idle for up to a minute, and renewing every second would be 1,040 per second for nothing.",
		"One lease per worker, with its shard keys attached to it, is a valid alternative: it needs one keepalive per worker instead of per shard, so the load drops to 40 / 5 = 8 renewals a second, but a lapse loses all of a worker's shards at once, and the fencing token is then the shard key's revision, not the lease.",
		"Fair share bounds the imbalance at one or two shards (1,000 / 40 = 25 each); greedy lets the first worker grab everything, and a static hash never moves a dead worker's shards at all.",
		"Offsets carry the shard token and the store refuses older ones, so the frozen worker-21 cannot overwrite what its successor committed. The coordinator holds only small, slow-changing facts (leases, tokens, members); offsets, records and the highest token seen per shard stay with the data.",
	},
	Format: `{
  "numbers": { "ttl": <seconds>, "renew": <seconds>,
               "predict-load": <renewals per second>, "predict-failover": <seconds> },
  "defence": "your reasoning in a few sentences (kept, not graded)",
  "choices": {
    "granularity": ["per-shard" | "per-worker"],
    "assignment":  ["fair-share" | "greedy" | "static"],
    "offsets":     ["fenced" | "plain"],
    "place-leases": ["coordinator" | "store"],   and likewise
    "place-tokens", "place-workers", "place-offsets", "place-records",
    "place-last-token"
  }
}
predict-load and predict-failover are your predictions, made before the
simulation runs: the lease renewals per second the coordinator will see,
and how long worker-07's shards will wait for new owners after its crash,
at worst. Both are optional (leave them out, or give -1, for none); the
verdict shows each beside what the simulator measured (close: within a
tenth for the load, within 2 s for the failover), and they never change it.`,
}

func init() { exShards.start = checkShards }

// shardRunParts are the parts a run of the design decides; with the design
// and placement parts they are always all present, in this order.
var shardRunParts = []string{"Balance", "Coordinator load", "Failover", "False failovers", "Stale owner"}

// shardJob measures a design over its pause and crash phases, one run a
// step.
type shardJob struct {
	a     Answer
	d     ShardDesign
	sweep *shardSweep
	res   *Result
}

func checkShards(a Answer) Job {
	e := exShards
	var missing []string
	for _, k := range e.Numbers {
		if _, ok := a.Numbers[k.ID]; !ok && k.Unset == "" {
			missing = append(missing, k.Label)
		}
	}
	for _, q := range []string{"granularity", "assignment", "offsets"} {
		if a.choice(q) == "" {
			missing = append(missing, e.Question(q).Text)
		}
	}
	d := ShardDesign{
		TTL:           time.Duration(e.Number(a, "ttl") * float64(time.Second)),
		Renew:         time.Duration(e.Number(a, "renew") * float64(time.Second)),
		LeasePerShard: a.choice("granularity") != "per-worker",
		Fenced:        a.choice("offsets") == "fenced",
	}
	switch a.choice("assignment") {
	case "greedy":
		d.Assign = core.AssignGreedy
	case "static":
		d.Assign = core.AssignStatic
	}
	design := Feedback{Part: "Design", OK: true, Why: "Every choice is made; the simulator ran the design."}
	switch {
	case len(missing) > 0:
		design = Feedback{Part: "Design", Why: "Not answered: " + strings.Join(missing, ", ") + ". The simulator runs only a whole design; it never fills in a choice for you."}
	case d.Renew >= d.TTL:
		var b because
		b.stateD(d.Renew, ">=", d.TTL)
		design = b.feedback("Design", false, "Renewing every %s with a %s TTL lets every lease lapse before it is renewed: renew well within the TTL.", b.given(d.Renew), b.given(d.TTL))
	}
	if !design.OK {
		parts := []Feedback{design}
		for _, p := range shardRunParts {
			parts = append(parts, Feedback{Part: p, Why: "Not run: the design is not complete."})
		}
		return finished(append(parts, judgePlacement(a)...))
	}
	return &shardJob{a: a, d: d, sweep: newShardSweep(d)}
}

func (j *shardJob) Progress() float64 { return j.sweep.progress() }

func (j *shardJob) Step(n int) bool {
	for ; n > 0; n-- {
		if j.sweep.step() {
			return true
		}
	}
	return false
}

func (j *shardJob) Result() Result {
	if j.res != nil {
		return *j.res
	}
	parts := []Feedback{{Part: "Design", OK: true, Why: "Every choice is made; the simulator ran the design."}}
	if err := j.sweep.err; err != nil {
		parts[0] = Feedback{Part: "Design", Why: "The design could not run: " + err.Error()}
		for _, p := range shardRunParts {
			parts = append(parts, Feedback{Part: p, Why: "Not run."})
		}
		r := result(append(parts, judgePlacement(j.a)...))
		j.res = &r
		return r
	}
	m := j.sweep.m
	parts = append(parts, judgeShardRun(j.d, m)...)
	parts = append(parts, judgePlacement(j.a)...)
	w, gc := m.WorstCrash(), m.WorstPausePhase()
	figs := []string{
		fmt.Sprintf("Shards per live worker before any fault: %d to %d (fair share %d).", m.Min, m.Max, (designShards+designWorkers-1)/designWorkers),
		fmt.Sprintf("Lease renewals at the coordinator: %s per second (over %s, a whole number of renewal rounds).", num(loadRound(m.RenewRate)), secs(m.RenewWindow)),
		crashFigure(m),
		fmt.Sprintf("Shards taken from %s by its %s pause over %d start moments from %s to %s: at worst %d (pause at %s).",
			designGCWorker, secs(designGCPause), len(m.Pauses), instant(m.Pauses[0].At), instant(m.Pauses[len(m.Pauses)-1].At), gc.Lost, instant(gc.At)),
		fmt.Sprintf("Stale offset commits from %s accepted: %d.", designSleeper, m.StaleCommits),
	}
	r := result(parts, figs...)
	r.Predictions = shardPredictions(j.a, m)
	r.Figures = append(r.Figures, predictionFigures(r.Predictions)...)
	r.Replay = ShardLesson(j.d, w.At, gc.At)
	j.res = &r
	return r
}

// shardPredictions are the learner's two predictions beside what the
// simulator measured: the coordinator's renewal load and the worst
// failover.
func shardPredictions(a Answer, m ShardMeasure) []Prediction {
	rate := loadRound(m.RenewRate)
	v, given := predicted(exShards, a, "predict-load")
	load := predictionAgainst(Prediction{What: "Coordinator load", Unit: "per second", Given: given, Predicted: v,
		Measured: rate, Measurable: true, MeasuredText: loadPhrase(rate), Tolerance: "a tenth"},
		max(rate/10, 0.01),
		"every lease is renewed on its own, each worker's session too",
		"count the leases renewed, and divide by the renewal interval")
	v, given = predicted(exShards, a, "predict-failover")
	fo := Prediction{What: "Worst failover of " + designVictim + "'s shards", Unit: "s", Given: given, Predicted: v, Tolerance: "2 s"}
	w := m.WorstCrash()
	switch {
	case w.Victim == 0:
		fo.MeasuredText = designVictim + " owned no shard, so no failover"
	case w.Stuck > 0:
		fo.MeasuredText = fmt.Sprintf("%d %s never taken over", w.Stuck, pluralS(w.Stuck, "shard", "shards"))
		if given {
			fo.Note = "a failover that never ends has no time to predict"
		}
	default:
		fo.Measured, fo.Measurable, fo.MeasuredText = w.Reassign.Seconds(), true, secs(w.Reassign)
	}
	fo = predictionAgainst(fo, 2,
		"the shards wait for their leases to expire, up to the whole TTL, and then for a survivor's scan",
		"a crash just after a renewal waits the TTL, then a scan finds the shards")
	return []Prediction{load, fo}
}

// loadRound rounds a renewal rate to the precision it needs: tenths from
// 10 a second up, three significant digits below (0.976, not 1).
func loadRound(rate float64) float64 {
	switch {
	case rate >= 10:
		return roundTo(rate, 0.1)
	case rate >= 1:
		return roundTo(rate, 0.01)
	}
	return roundTo(rate, 0.001)
}

// loadPhrase is a rounded renewal rate with its noun: "1 lease renewal
// per second", "0.976 lease renewals per second". text is the rate as
// written (a cite).
func loadPhrase(rate float64, text ...string) string {
	t := num(rate)
	if len(text) > 0 {
		t = text[0]
	}
	if rate == 1 {
		return t + " lease renewal per second"
	}
	return t + " lease renewals per second"
}

// crashFigure sums up the crash sweep.
func crashFigure(m ShardMeasure) string {
	w := m.WorstCrash()
	failover := secs(w.Reassign)
	if w.Stuck > 0 {
		failover = fmt.Sprintf("%d %s never taken over", w.Stuck, pluralS(w.Stuck, "shard", "shards"))
	}
	from, to := instant(m.Crashes[0].At), instant(m.Crashes[len(m.Crashes)-1].At)
	if m.OverBudget {
		return fmt.Sprintf("Failover of %s's shards: %s after the crash at %s, more than twice the %s budget (%d %s tried from %s, up to the first that far over).",
			designVictim, failover, instant(w.At), secs(designReassign), len(m.Crashes), pluralS(len(m.Crashes), "crash moment", "crash moments"), from)
	}
	return fmt.Sprintf("Failover of %s's shards over %d crash moments from %s to %s: at worst %s (crash at %s).", designVictim, len(m.Crashes), from, to, failover, instant(w.At))
}

// judgeShardRun marks the run: balance and load from the world before any
// fault, the failover from the worst crash moment, the false failovers
// from the worst pause start, and the stale owner from the run with both.
func judgeShardRun(d ShardDesign, m ShardMeasure) []Feedback {
	var b because
	var bal Feedback
	switch {
	case b.claim(float64(m.Max-m.Min), "<=", designImbalance):
		bal = b.feedback("Balance", true, "Every live worker owned %s to %s shards: within %s of each other.", b.runN(float64(m.Min)), b.runN(float64(m.Max)), b.givenN(designImbalance))
	case d.Assign == core.AssignGreedy:
		bal = b.feedback("Balance", false, "Greedy claiming let the first workers take everything: %s shards on one worker, %s on another.", b.runN(float64(m.Max)), b.runN(float64(m.Min)))
	default:
		b.state(float64(m.Max-m.Min), ">", designImbalance)
		bal = b.feedback("Balance", false, "Workers owned %s to %s shards, more than %s apart.", b.runN(float64(m.Min)), b.runN(float64(m.Max)), b.givenN(designImbalance))
	}

	var bl because
	rate := loadRound(m.RenewRate)
	var load Feedback
	// Every worker also renews its own session lease: with one lease per
	// shard that is 1,040 leases, not 1,000.
	leases := designWorkers
	what := "the 40 workers' sessions"
	if d.LeasePerShard {
		leases += designShards
		what = "1,000 shard leases and the 40 workers' sessions"
	}
	if bl.claim(rate, "<=", designRenewLoad) {
		load = bl.feedback("Coordinator load", true, "%s, within the %s bound.", loadPhrase(rate, bl.runN(rate)), bl.givenN(designRenewLoad))
	} else {
		bl.state(rate, ">", designRenewLoad)
		load = bl.feedback("Coordinator load", false, "%s, over the %s bound: %s (%s leases) are each renewed every %s. Renew less often.", loadPhrase(rate, bl.runN(rate)), bl.givenN(designRenewLoad), what, bl.givenN(float64(leases)), bl.given(d.Renew))
	}

	var bf because
	var re Feedback
	w := m.WorstCrash()
	at := w.At
	switch {
	case w.Victim == 0:
		re = bf.feedback("Failover", false, "%s owned no shard when it crashed at %s, so there was nothing to take over: the assignment left it idle.", designVictim, bf.moment(at))
	case w.Stuck > 0 && d.Assign == core.AssignStatic:
		re = bf.feedback("Failover", false, "%s of %s's shards were never taken over: under a static hash no one else may own them.", bf.runN(float64(w.Stuck)), designVictim)
	case w.Stuck > 0:
		re = bf.feedback("Failover", false, "%s of %s's shards %s never taken over before the run ended (crash at %s).", bf.runN(float64(w.Stuck)), designVictim, pluralS(w.Stuck, "was", "were"), bf.moment(at))
	case bf.claimD(w.Reassign, "<=", designReassign):
		// "The worst": no other crash moment took longer.
		for _, x := range m.Crashes {
			bf.stateD(x.Reassign, "<=", w.Reassign)
		}
		re = bf.feedback("Failover", true, "Of %s crash moments over one renewal interval, the slowest to recover was the crash at %s, and even then %s's shards all had new owners %s after the crash, within %s: %s",
			bf.runN(float64(len(m.Crashes))), bf.moment(at), designVictim, bf.run(w.Reassign), bf.given(designReassign), failoverParts(&bf, d, w))
	case m.OverBudget:
		re = bf.feedback("Failover", false, "A crash at %s left %s's shards without owners for %s, over %s: %s Shorten the TTL: both parts grow with it.", bf.moment(at), designVictim, bf.run(w.Reassign), bf.given(designReassign), failoverParts(&bf, d, w))
	default:
		bf.stateD(w.Reassign, ">", designReassign)
		for _, x := range m.Crashes {
			bf.stateD(x.Reassign, "<=", w.Reassign)
		}
		re = bf.feedback("Failover", false, "Of %s crash moments over one renewal interval, the slowest to recover was the crash at %s: it left %s's shards without owners for %s, over %s: %s Shorten the TTL: both parts grow with it.",
			bf.runN(float64(len(m.Crashes))), bf.moment(at), designVictim, bf.run(w.Reassign), bf.given(designReassign), failoverParts(&bf, d, w))
	}

	var bg because
	var ff Feedback
	gc := m.WorstPausePhase()
	owned := false
	for _, p := range m.Pauses {
		owned = owned || p.Owned > 0
	}
	switch {
	case !owned:
		ff = bg.feedback("False failovers", false, "%s owned no shard when it paused, so its pause tested nothing.", designGCWorker)
	case gc.Lost > 0:
		// The simulator loses no renewal: the pause alone held one up.
		why := "The pause alone held its renewal back past the TTL."
		left := d.TTL - d.Renew
		switch {
		case bg.claimD(left, "<", designGCPause):
			why = fmt.Sprintf("The pause alone did it: a lease renewed every %s with a %s TTL has only %s left just before a renewal, less than the %s pause.", bg.given(d.Renew), bg.given(d.TTL), bg.derived(left), bg.given(designGCPause))
		case bg.claimD(left, "==", designGCPause):
			why = fmt.Sprintf("The pause alone did it: a lease renewed every %s with a %s TTL has only %s left just before a renewal, no more than the %s pause, and nothing for the renewal's trip to the coordinator.", bg.given(d.Renew), bg.given(d.TTL), bg.derived(left), bg.given(designGCPause))
		}
		ff = bg.feedback("False failovers", false, "A %s pause of %s beginning at %s cost it %s of its %s shards, though it was alive. %s",
			bg.given(designGCPause), designGCWorker, bg.moment(gc.At), bg.runN(float64(gc.Lost)), bg.runN(float64(gc.Owned)), why)
	case bg.claimD(d.Policy().Need, ">", d.TTL):
		ff = bg.feedback("False failovers", false, "No start of %s's %s pause (%s moments over one renewal interval) cost it a shard, but only because no renewal went missing: the lease policy rule asks for 2 × %s + %s = %s, more than the %s TTL. One keepalive lost during a pause would cost every lease it covers. Renew more often or lengthen the TTL.",
			designGCWorker, bg.given(designGCPause), bg.runN(float64(len(m.Pauses))), bg.given(d.Renew), bg.given(designGCPause), bg.derived(d.Policy().Need), bg.given(d.TTL))
	case !d.Policy().OK:
		// Zero margin, or no more than the round trip: the retry after a
		// missed renewal lands as the leases end, and is refused.
		pol := d.Policy()
		bg.stateD(pol.Need, "<=", d.TTL)
		bg.stateD(pol.Margin, "<=", designRoundTrip)
		ff = bg.feedback("False failovers", false, "No start of %s's %s pause (%s moments over one renewal interval) cost it a shard, but only because no renewal went missing: 2 × %s + %s = %s leaves %s of the %s TTL to spare, no more than the %s round trip. If the keepalive sent on waking is lost, the next one reaches the coordinator as the leases end, and a renewal that arrives at the expiry is refused: the rule wants more than the round trip to spare.",
			designGCWorker, bg.given(designGCPause), bg.runN(float64(len(m.Pauses))), bg.given(d.Renew), bg.given(designGCPause), bg.derived(pol.Need), bg.derived(pol.Margin), bg.given(d.TTL), bg.given(designRoundTrip))
	default:
		pol := d.Policy()
		bg.stateD(pol.Need, "<", d.TTL)
		bg.stateD(pol.Margin, ">", designRoundTrip)
		ff = bg.feedback("False failovers", true, "%s's %s pause cost it no shard, whichever of %s moments over one renewal interval it began at, and the %s TTL leaves room for a missed renewal too: 2 × %s + %s = %s, with %s to spare, more than the %s round trip.",
			designGCWorker, bg.given(designGCPause), bg.runN(float64(len(m.Pauses))), bg.given(d.TTL), bg.given(d.Renew), bg.given(designGCPause), bg.derived(pol.Need), bg.derived(pol.Margin), bg.given(designRoundTrip))
	}

	var bs because
	var st Feedback
	switch {
	case m.SleeperOwned == 0:
		st = bs.feedback("Stale owner", false, "%s owned no shard when it froze at %s, so there was no stale owner to stop.", designSleeper, bs.given(designPauseAt))
	case m.StaleCommits > 0:
		st = bs.feedback("Stale owner", false, "%s offset commits from the frozen %s were accepted after new owners had committed: offsets went backwards. Commit with the shard's token and have the store refuse older ones.", bs.runN(float64(m.StaleCommits)), designSleeper)
	case !d.Fenced:
		st = Feedback{Part: "Stale owner", Why: fmt.Sprintf("%s's commits did not land this time, but nothing stops them: without token checks, a stale commit is accepted.", designSleeper)}
	default:
		st = Feedback{Part: "Stale owner", OK: true, Why: fmt.Sprintf("%s froze past its leases and woke still believing it owned its shards; the offset store refused its older tokens.", designSleeper)}
	}
	return []Feedback{bal, load, re, ff, st}
}

// failoverParts says what a crash's failover was made of, as measured in
// its run: the wait for the dead worker's leases to expire (nobody may
// claim a shard before), then the survivors' scans, every third of the
// TTL and up to half again, finding and claiming the freed shards.
func failoverParts(b *because, d ShardDesign, w CrashPhase) string {
	if w.Expired <= 0 || w.Expired > w.Reassign {
		return fmt.Sprintf("nobody may claim a shard until its %s lease expires, and the survivors find freed shards only by their scans.", b.given(d.TTL))
	}
	return fmt.Sprintf("%s of waiting until the coordinator expired the last of its leases (up to the %s TTL from their last renewal, found by the coordinator's half-second sweep; nobody may claim a shard before), then %s until the survivors' scans, every third of the TTL and up to half again, found and claimed the last freed shard.",
		b.run(w.Expired), b.given(d.TTL), b.diff(w.Reassign, w.Expired))
}

func judgePlacement(a Answer) []Feedback {
	var wrong []string
	missing := 0
	for _, it := range shardItems {
		got := a.choice("place-" + it.id)
		want := "store"
		if it.coord {
			want = "coordinator"
		}
		switch got {
		case "":
			missing++
		case want:
		default:
			wrong = append(wrong, it.why)
		}
	}
	const part = "Where the data lives"
	var b because
	switch {
	case len(wrong) == 0 && missing == 0:
		return []Feedback{{Part: part, OK: true, Why: "The coordinator keeps small, rarely changing facts that need one authority (leases, tokens, members); everything that moves with the data stays with the data."}}
	case len(wrong) == 0:
		return []Feedback{b.feedback(part, false, "%s of the items are not placed.", b.derivedN(float64(missing)))}
	case len(wrong) == 1:
		return []Feedback{{Part: part, Why: wrong[0]}}
	}
	return []Feedback{b.feedback(part, false, "%s items are misplaced. For example: %s", b.derivedN(float64(len(wrong))), wrong[0])}
}
