package lessons

import (
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// Exercise 2's measurement: the sweep over the crash and pause moments
// that matter, one run a step, each a clone of the common start.

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
	for e := range look.Trace.All() {
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
	for e := range w.Trace.All() {
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
		for e := range w.Trace.Span(seen, w.Trace.Len()) {
			if e.Kind == core.KindLeaseExpire && e.Owner() == designVictim {
				ph.Expired = max(ph.Expired, e.At-at)
			}
			if sh := int(e.Shard()); e.Kind == core.KindShardOwn && waiting[sh] && e.Actor != designVictim {
				delete(waiting, sh)
				ph.Reassign = max(ph.Reassign, e.At-at)
			}
		}
		seen = w.Trace.Len()
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
	seen := w.Trace.Len()
	w.RunUntil(designEnd(j.d))
	for e := range w.Trace.Span(seen, w.Trace.Len()) {
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
	c.Trace.Forget()
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
