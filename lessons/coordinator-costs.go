package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// The coordinator's side of a lease: what one acquisition commits and what
// every renewal costs. 128 shards over 12 workers; the learner crashes
// worker-03 (the solution at 60 s). The learner moves the TTL, the renewal interval and the lease
// granularity and reads the coordinator's load off the run.
const (
	costShards   = 128
	costWorkers  = 12
	costVictim   = "worker-03"
	costCrashAt  = 60 * time.Second
	costFrom     = 20 * time.Second // the load is measured from here...
	costTo       = 50 * time.Second // ...to here, before the crash
	costMaxLoad  = 20.0             // lease renewals per second
	costFailover = 15 * time.Second
)

func costsConfig(k Knobs) core.ShardsConfig {
	return core.ShardsConfig{
		Shards: costShards, Workers: costWorkers, TTL: k.Seconds("ttl"), RenewEvery: k.Seconds("renew"),
		LeasePerShard: k["per-shard"] >= 1, ScanEvery: 3 * time.Second, CommitEvery: 2 * time.Second,
		Fencing: true, Stagger: 200 * time.Millisecond,
	}
}

// renewalLoad is the lease renewals per second the coordinator served
// between costFrom and costTo, read from its trace: a keepalive for one
// lease is one renewal, a batched one counts every lease it carries. It is
// negative until the run has passed costTo.
func renewalLoad(w *World) float64 {
	if w.Sim.Now() < costTo {
		return -1
	}
	return cached(w, "renewal-load", func() float64 {
		n := int64(0)
		for e := range w.ofKind(core.KindLeaseRenew) {
			if e.At < costFrom || e.At >= costTo {
				continue
			}
			if l := e.Leases(); l > 0 {
				n += l
			} else {
				n++
			}
		}
		return float64(n) / (costTo - costFrom).Seconds()
	})
}

// victimFailover is how long after its first crash the last of
// worker-03's shards had a new owner (-1: no crash yet, or not all of them
// taken over yet).
func victimFailover(w *World) time.Duration {
	return cached(w, "victim-failover", func() time.Duration {
		owned := map[int64]bool{}
		var worst time.Duration
		crashed := time.Duration(-1)
		for e := range w.Sim.Trace.All() {
			sh := e.Shard()
			switch {
			case crashed < 0 && e.Actor == costVictim && e.Kind == core.KindCrash:
				crashed = e.At
			case crashed < 0 && e.Actor == costVictim && e.Kind == core.KindShardOwn:
				owned[sh] = true
			case crashed < 0 && e.Actor == costVictim && e.Kind == core.KindShardDrop:
				delete(owned, sh)
			case crashed >= 0 && e.Kind == core.KindShardOwn && e.Actor != costVictim && owned[sh]:
				delete(owned, sh)
				worst = max(worst, e.At-crashed)
			}
		}
		if crashed < 0 || len(owned) > 0 {
			return -1
		}
		return worst
	})
}

var coordinatorCosts = &Lesson{
	ID:        "coordinator-costs",
	Title:     "What the coordinator commits, and what it costs",
	Objective: "Lower the coordinator's renewal load without making failover slower.",
	Summary:   "What every renewal costs the coordinator, and which knob trades load for failover.",
	Minutes:   8,
	Intro: []string{
		"Behind every lock is a small replicated database. When a worker acquires a lease, the coordinator's leader appends the write to its log and answers only once a majority of its members have stored it: an acquisition costs a round of disk syncs on a quorum. In etcd it is one transaction on the contender's own key (the lock's prefix and its lease ID): if that key's create revision is 0 (it does not exist yet), put it attached to the lease, otherwise read it back; either way the same transaction also reads the oldest key under the prefix, which names the holder. The revision that put creates is the fencing token. The coordinator's own leaders come in terms; a write committed in one term is never undone by the next leader, which is why the revisions, and so the tokens, only grow.",
		"Every renewal is a request too, and in etcd all keepalives go to the leader. So the coordinator's load is leases divided by the renewal interval: 128 shard leases plus 12 worker sessions renewed every second is 140 requests a second for the same answer. Keep what it stores small (a lock value names an owner, not a payload), do not use it to pass messages or queue work, and avoid churning through many short-lived keys when a local queue would do.",
		"Here 12 workers share 128 shards; after 50 s, crash worker-03. The sliders set the TTL, the renewal interval, and whether each shard has its own lease (1) or rides on its worker's session (0). The world view's load strip shows the coordinator's requests per 100 ms. Find a design that keeps the coordinator under 20 renewals a second and still hands worker-03's shards on within 15 s.",
		"A related cause of flapping leadership: a renewal that waits behind the application's own work is late exactly like a paused one. Renew from a small task of its own, and measure how late renewals arrive.",
	},
	Recap: "Load is leases over the renewal interval; failover is about a TTL. Renewing less often with the same TTL saves load but leaves less room for a lost renewal; one lease per worker, with the shard keys attached to it, cuts the load by the number of shards each worker owns, at the price that a lapse loses all of them at once.",
	World: func(seed uint64, k Knobs) (core.World, error) {
		if k.Seconds("renew") >= k.Seconds("ttl") {
			return core.World{}, fmt.Errorf("renew every %s with a %s TTL: every lease would lapse before its renewal", secs(k.Seconds("renew")), secs(k.Seconds("ttl")))
		}
		return costsConfig(k).World(seed)
	},
	Knobs: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 3, Max: 60, Step: 1, Default: 30},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 0.5, Max: 20, Step: 0.5, Default: 1},
		{ID: "per-shard", Label: "Per shard (1) / per worker (0)", Unit: "", Min: 0, Max: 1, Step: 1, Default: 1},
	},
	KnobCheck: func(k Knobs) (bool, string) {
		leases := float64(costWorkers)
		if k["per-shard"] >= 1 {
			leases += costShards
		}
		load := leases / k["renew"]
		if k["renew"] >= k["ttl"] {
			return false, "The renewal interval must be under the TTL."
		}
		return load <= costMaxLoad, fmt.Sprintf("%g leases renewed every %g s: about %.0f renewals a second (bound %g).", leases, k["renew"], load, costMaxLoad)
	},
	SolutionKnobs: Knobs{"ttl": 9, "renew": 3, "per-shard": 0},
	Solution:      core.ActionLog{core.At(costCrashAt, core.Crash(costVictim))},
	Duration:      100 * time.Second,
	Controls:      []Control{CtlPause, CtlCrash},
	PauseFor:      5 * time.Second,
	Goals: []Goal{
		{
			ID: "light", Text: "Keep the coordinator under 20 lease renewals a second (measured from 20 s to 50 s).",
			Proved: "The coordinator served under 20 renewals a second: the load follows the number of leases and how often each is renewed.",
			Met: func(w *World) bool {
				l := renewalLoad(w)
				return l >= 0 && l <= costMaxLoad
			},
		},
		{
			ID: "fast", Text: "...then crash worker-03 (after 50 s) and have every one of its shards owned again within 15 s.",
			Proved: "worker-03's shards were all taken over within 15 s: a short TTL, not frequent renewals, is what makes failover fast.",
			Met: func(w *World) bool {
				f := victimFailover(w)
				return f >= 0 && f <= costFailover
			},
		},
	},
	Hints: []string{
		"Watch the load strip while you move the renewal slider: what does the load divide by?",
		"Failover waits out the dead worker's leases, so it follows the TTL, not the renewal interval. Which slider lowers the load without lengthening failover?",
		"Set the granularity to 0 (one lease per worker: 12 leases instead of 140), the TTL to about 9 s and renew every 3 s; at 60 s crash worker-03.",
	},
}
