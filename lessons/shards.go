package lessons

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/explore"
)

// shardsConfig is the seed's Example 2: 128 shards over 12 workers, one
// lease per shard key stream/shard-000 ... stream/shard-127, offsets
// committed with the shard's token. The knob sets ScanJitter.
func shardsConfig(k Knobs) core.ShardsConfig {
	return core.ShardsConfig{
		Shards: 128, Workers: 12, TTL: 15 * time.Second, LeasePerShard: true,
		ScanEvery: 3 * time.Second, ScanJitter: k["jitter"], CommitEvery: 2 * time.Second,
		Fencing: true, Stagger: 200 * time.Millisecond,
	}
}

const shardPrefix = "stream/shard-"

// outage is a set of workers whose shard leases the coordinator expired
// together (within one second of the first).
type outage struct {
	At      time.Duration
	Seq     int // trace position of the first expiry
	Workers []string
	Leases  int
}

// outages groups the coordinator's expiries of worker leases.
func outages(w *World) []outage {
	return cached(w, "outages", func() []outage { return findOutages(w) })
}

func findOutages(w *World) []outage {
	var out []outage
	for e := range w.ofKind(core.KindLeaseExpire) {
		owner := e.Owner()
		if !strings.HasPrefix(owner, "worker-") {
			continue
		}
		if n := len(out); n == 0 || e.At > out[n-1].At+time.Second {
			out = append(out, outage{At: e.At, Seq: e.Seq})
		}
		o := &out[len(out)-1]
		o.Leases++
		if !slices.Contains(o.Workers, owner) {
			o.Workers = append(o.Workers, owner)
		}
	}
	return out
}

// shardOwners replays the coordinator's holder changes of every shard up
// to trace position seq: shard lock name to owner ("" when free). The
// replay is remembered per seq (the trace before it never changes) and the
// caller gets its own copy.
func shardOwners(w *World, seq int) map[string]string {
	key := fmt.Sprintf("shardOwners@%d", seq)
	if e, ok := w.memo[key]; ok {
		return maps.Clone(e.v.(map[string]string))
	}
	own := replayOwners(w, seq)
	if w.memo == nil {
		w.memo = map[string]memoEntry{}
	}
	w.memo[key] = memoEntry{v: own}
	return maps.Clone(own)
}

func replayOwners(w *World, seq int) map[string]string {
	own := map[string]string{}
	w.each(0, func(e *core.Event) bool {
		if e.Seq >= seq {
			return false
		}
		if lock := e.Lock(); strings.HasPrefix(lock, shardPrefix) {
			own[lock] = holderOf(e)
		}
		return true
	}, core.KindHolder, core.KindFree)
	return own
}

// holderOf is the owner a holder change names: "" when the lock is freed.
func holderOf(e *core.Event) string {
	if e.Kind == core.KindFree {
		return ""
	}
	return e.Owner()
}

// failover is what happened after one worker alone stopped renewing.
type failover struct {
	Worker string
	Moved  int // shards the worker held, all now held by others
	// Others counts holder changes of shards the worker did not hold
	// until its last shard was reclaimed.
	Others   int
	Min, Max int // shards per other worker when the last was reclaimed
	Done     bool
}

// singleFailover follows the first outage of a single worker until every
// shard it held has a new holder.
func singleFailover(w *World) (failover, bool) {
	return cachedOK(w, "singleFailover", func() (failover, bool) { return measureFailover(w) })
}

func measureFailover(w *World) (failover, bool) {
	var o *outage
	for _, x := range outages(w) {
		if len(x.Workers) == 1 {
			o = &x
			break
		}
	}
	if o == nil {
		return failover{}, false
	}
	f := failover{Worker: o.Workers[0]}
	own := shardOwners(w, o.Seq)
	pending := map[string]bool{}
	for lock, owner := range own {
		if owner == f.Worker {
			pending[lock] = true
		}
	}
	f.Moved = len(pending)
	w.each(o.Seq, func(e *core.Event) bool {
		lock := e.Lock()
		if !strings.HasPrefix(lock, shardPrefix) {
			return true
		}
		own[lock] = holderOf(e)
		if !pending[lock] && e.Kind == core.KindHolder {
			f.Others++
		}
		if e.Kind == core.KindHolder && own[lock] != f.Worker {
			delete(pending, lock)
		}
		f.Done = len(pending) == 0
		return !f.Done
	}, core.KindHolder, core.KindFree)
	if !f.Done {
		return f, true
	}
	count := map[string]int{}
	for _, owner := range own {
		if owner != "" && owner != f.Worker {
			count[owner]++
		}
	}
	f.Min = -1
	for _, n := range count {
		if f.Min < 0 || n < f.Min {
			f.Min = n
		}
		f.Max = max(f.Max, n)
	}
	return f, true
}

// herd describes a mass expiry: several workers frozen together, the
// coordinator's load burst when they woke, and how their rescans spread.
type herd struct {
	Workers []string
	Leases  int
	// Steady is the busiest 100 ms window in the 20 s before the expiry;
	// Burst the busiest in the second after the workers woke.
	Steady, Burst int32
	// Lockstep is the largest number of the woken workers' rescans landing
	// in one 100 ms window, from 10 s to 40 s after they woke.
	Lockstep int
	Settled  bool // 40 s have passed since they woke
}

const window = 100 * time.Millisecond

// massExpiry finds the first outage of three or more workers that were
// all frozen, and measures it.
func massExpiry(w *World) (herd, bool) {
	return cachedOK(w, "massExpiry", func() (herd, bool) { return measureHerd(w) })
}

func measureHerd(w *World) (herd, bool) {
	for _, o := range outages(w) {
		if len(o.Workers) < 3 {
			continue
		}
		h := herd{Workers: o.Workers, Leases: o.Leases}
		// The workers wake when the last of them resumes.
		var woke time.Duration
		for _, sp := range pauses(w) {
			if slices.Contains(o.Workers, sp.Proc) && sp.From < o.At && sp.To >= o.At {
				woke = max(woke, sp.To)
			}
		}
		if woke == 0 {
			continue
		}
		load := w.Sim.Coord.LoadSeries()
		bucket := func(t time.Duration) int { return min(int(t/window), len(load)) }
		for _, n := range load[bucket(o.At-20*time.Second):bucket(o.At)] {
			h.Steady = max(h.Steady, n)
		}
		for _, n := range load[bucket(woke):bucket(woke+time.Second)] {
			h.Burst = max(h.Burst, n)
		}
		scans := map[time.Duration]int{}
		for e := range eventsFrom(w, woke+10*time.Second) {
			if e.At >= woke+40*time.Second {
				break
			}
			if e.Kind == core.KindSend && e.Msg() == "ListShards" && slices.Contains(o.Workers, e.Actor) {
				b := e.At / window
				scans[b]++
				h.Lockstep = max(h.Lockstep, scans[b])
			}
		}
		h.Settled = w.Sim.Now() >= woke+40*time.Second
		return h, true
	}
	return herd{}, false
}

var shards = &Lesson{
	ID:        "shards",
	Title:     "128 shards, 12 workers: one lease per shard",
	Objective: "Move a stalled worker's shards without unbalancing the map, and spread the rescans out.",
	Summary:   "One lease per shard: rebalancing, rejected offset commits and renewal bursts.",
	Minutes:   12,
	Intro: []string{
		"A stream has 128 shards and 12 workers share them. One global leader handing out work would be a bottleneck, so every shard has a lease of its own: the key stream/shard-000 to stream/shard-127. A worker claims free shard keys up to its fair share and processes only those. Every commit of a shard's stream offset carries that shard's token.",
		"Because each shard has its own lease, losing a worker costs only its shards: their leases lapse, the others pick them up at their next scan, and the rest of the map stays put.",
		"Per-shard leases have a cost too. When many of them lapse at the same moment, every worker that lost them comes back at the same moment, and if they all rescan on the same fixed beat they keep hitting the coordinator together: a thundering herd. The jitter slider spreads each worker's scans over a random part of the interval.",
	},
	Recap: "One lease per shard made failure partial: only the stopped worker's shards moved, the map stayed balanced, and its late offset commits were fenced off by the newer shard tokens. The price is many leases that can lapse together; random jitter on rescans turns the herd's synchronized beats into a spread-out trickle.",
	World: func(seed uint64, k Knobs) (core.World, error) {
		return shardsConfig(k).World(seed)
	},
	Knobs: []Knob{
		{ID: "jitter", Label: "Scan jitter", Unit: "", Min: 0, Max: 1, Step: 0.1, Default: 0},
	},
	SolutionKnobs: Knobs{"jitter": 1},
	Duration:      200 * time.Second,
	Controls:      []Control{CtlPause, CtlPartition, CtlCrash, CtlDelay},
	PauseFor:      30 * time.Second,
	Search: &Search{Invariant: explore.NoStaleOffset, Protects: core.VerbFencing, Bounds: explore.Bounds{Procs: []string{"worker-00"}, Kinds: []string{explore.FaultPause},
		From: 5 * time.Second, To: 20 * time.Second, Step: 2500 * time.Millisecond,
		MinLen: 5 * time.Second, MaxLen: 40 * time.Second, LenStep: 5 * time.Second, MaxFaults: 1, Horizon: 70 * time.Second}},
	SandboxPreset: "shards",
	Goals: []Goal{
		{
			ID:     "partial",
			Text:   "Stop one worker renewing (pause it 30 s, or cut its link): only its shards move.",
			Proved: "The stopped worker's shard leases lapsed and the other workers claimed exactly those shards; every other shard kept its owner.",
			Met: func(w *World) bool {
				f, ok := singleFailover(w)
				return ok && f.Done && f.Moved > 0 && f.Others == 0
			},
		},
		{
			ID:     "balanced",
			Text:   "Once its shards are reclaimed, no worker holds over one shard more than another.",
			Proved: "Each worker claimed up to its fair share (shards divided by live workers, rounded up), so the remaining workers ended within one shard of each other.",
			Met: func(w *World) bool {
				f, ok := singleFailover(w)
				return ok && f.Done && f.Min > 0 && f.Max-f.Min <= 1
			},
		},
		{
			ID:     "stale-commit",
			Text:   "Let a paused worker wake: its offset commits for shards it no longer owns must be rejected.",
			Proved: "The worker woke believing it still owned its shards and committed their offsets with the old tokens; the offset store had already seen newer ones and refused them.",
			Met: func(w *World) bool {
				f, ok := singleFailover(w)
				if !ok {
					return false
				}
				for e := range w.ofKind(core.KindOffset) {
					if e.From() == f.Worker && e.Result() == core.RejectedStale {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "herd",
			Text:   "Later, freeze three or more workers at once for 30 s; watch the coordinator's load.",
			Proved: "Dozens of shard leases lapsed in the same second, and the frozen workers woke together: the coordinator's busiest 100 ms jumped far above its steady peak.",
			Met: func(w *World) bool {
				h, ok := massExpiry(w)
				return ok && h.Burst >= 3*h.Steady
			},
		},
		{
			ID:     "calm",
			Text:   "Set scan jitter so the woken workers' rescans spread out (at most two per 100 ms).",
			Proved: "With jitter, each woken worker drew its own scan interval, so the herd that arrived together did not keep rescanning together.",
			Met: func(w *World) bool {
				h, ok := massExpiry(w)
				return ok && h.Settled && h.Lockstep <= 2
			},
		},
	},
	Hints: []string{
		"A worker's shard leases last 15 s. Any stop longer than that, a pause or a cut from the coordinator, lets them lapse.",
		"Pause worker-03 for 30 s at about 30 s and wait for it to wake. Then, at about 90 s, pause worker-06 to worker-11 at the same instant. With jitter 0 the woken workers rescan in lockstep every 3 s; raise the jitter.",
		"Set scan jitter to 1. Pause worker-03 for 30 s at 30 s; at 90 s pause worker-06, worker-07, worker-08, worker-09, worker-10 and worker-11, each for 30 s.",
	},
	Solution: append(core.ActionLog{
		core.At(30*time.Second, core.Pause("worker-03", 30*time.Second)),
	}, pauseEach(90*time.Second, 30*time.Second, core.WorkerNames(12)[6:]...)...),
}

// pauseEach pauses every named process at the same instant.
func pauseEach(at, d time.Duration, names ...string) core.ActionLog {
	var log core.ActionLog
	for _, n := range names {
		log = append(log, core.At(at, core.Pause(n, d)))
	}
	return log
}
