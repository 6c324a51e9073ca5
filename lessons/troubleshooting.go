package lessons

import (
	"strings"
	"time"

	"leaselab/core"
)

// The troubleshooting world has three incidents side by side on one
// coordinator, one per symptom of the seed's troubleshooting guide.
const (
	// Two workers on one shard: worker-00 freezes twice for longer than
	// its shard leases; the offset store starts with fencing off.
	tsWorkerPause = 20 * time.Second
	// Leadership flapping: the report job's TTL (4 s) is shorter than the
	// 5 s stalls its processes suffer under load.
	reportLock  = "locks/report"
	reportTTL   = 4 * time.Second
	reportPause = 5 * time.Second
	// No leader after an outage: a network outage cuts both compactor
	// clients off from the coordinator for longer than their 12 s TTL.
	// etcd loses nothing in an outage (requests wait, watches resume), but
	// the sessions expire, and both clients made their session once and
	// keep campaigning with the dead one: every Lock is refused.
	compactLock = "locks/compactor"
	compactTTL  = 12 * time.Second
	outageFrom  = 20 * time.Second
	outageTo    = 40 * time.Second
)

var (
	reportNames  = []string{"report-1", "report-2"}
	compactNames = []string{"compact-1", "compact-2"}
)

func troubleshootingScript() core.ActionLog {
	log := core.ActionLog{
		core.At(10*time.Second, core.Pause("worker-00", tsWorkerPause)),
		core.At(60*time.Second, core.Pause("worker-00", tsWorkerPause)),
	}
	for _, n := range compactNames {
		log = append(log,
			core.At(outageFrom, core.Partition(n, core.CoordinatorName)),
			core.At(outageTo, core.Heal(n, core.CoordinatorName)))
	}
	// Load: each report process stalls every 20 s, the two 10 s apart.
	for t := 15 * time.Second; t < 110*time.Second; t += 20 * time.Second {
		log = append(log,
			core.At(t, core.Pause(reportNames[0], reportPause)),
			core.At(t+10*time.Second, core.Pause(reportNames[1], reportPause)))
	}
	return log.Sorted()
}

// lockChanged reports a holder change or a free lock within [from, to].
func lockChanged(w *World, lock string, from, to time.Duration) bool {
	for _, e := range w.Sim.Trace.Events {
		if e.At >= from && e.At <= to && (e.Kind == core.KindHolder || e.Kind == core.KindFree) && e.Lock() == lock {
			return true
		}
	}
	return false
}

var troubleshooting = &Lesson{
	ID:        "troubleshooting",
	Title:     "Troubleshooting: three incidents, read from the trace",
	Objective: "Diagnose three incidents from the trace alone, and fix each one.",
	Summary:   "Two owners of a shard, a flapping leader, no leader after an outage.",
	Minutes:   15,
	Intro: []string{
		"Three systems share this coordinator and each has an incident in progress. Diagnose each one from the trace (the coordinator's revision history, the renewal and expiry log, the tokens on writes) and apply the fix. Nothing you do to one touches the others.",
		"Two workers on one shard. worker-00 and worker-01 split four stream shards, each under its own lease, and commit offsets with the shard's token. worker-00 sometimes freezes for 20 s. Compare the tokens on its offset commits with the tokens the coordinator issued for the same shards, and look at what the offset store does with the older ones.",
		"Leadership flapping. report-1 and report-2 elect a leader for the nightly report with a 4 s TTL, and under load each stalls for 5 s every 20 s. Look at the lease expiries: whose lease, and was that process dead or frozen? The fix must outlast the stalls, and a new TTL only applies to a process's next session.",
		"No leader after an outage. compact-1 held the compactor lock, with compact-2 queued behind it. From 20 s to 40 s a network outage cut both off from the coordinator, longer than their 12 s TTL. The outage itself lost nothing: etcd's client holds its requests until the connection is back, and a watch resumes from the revision it had reached (unless that revision was compacted meanwhile: then the watch ends with an error and the client must read again and watch anew). Yet after the outage nobody leads. Read what each client sends once it reconnects and what the coordinator answers.",
	},
	Recap: "Each symptom had a cause the trace could prove. The shard was processed twice because a frozen worker woke with old tokens and the store did not check them: fencing at the storage boundary made it harmless. The report leader flapped because its TTL was shorter than real stalls: a TTL with margin, taking effect with each new session, stopped it. The compactor had no leader because both sessions expired during the outage and each client kept campaigning with its dead session: etcd refused every Lock with \"requested lease not found\". A restarted client opened a new session and led at once. A real client watches its session (Session.Done() in etcd's Go client) and makes a new one when it ends.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		w := core.World{Seed: seed, Resources: []core.Resource{core.OffsetsResource("offsets", 4, false)}}
		for i, n := range core.WorkerNames(2) {
			w.Workers = append(w.Workers, core.ShardConfig{
				Name: n, Shards: 4, TTL: 10 * time.Second, LeasePerShard: true, CommitEvery: 2 * time.Second,
				StartAt: time.Duration(i) * 200 * time.Millisecond,
			})
		}
		for i, n := range reportNames {
			w.Processes = append(w.Processes, core.ProcessConfig{Name: n, Lock: reportLock, TTL: reportTTL, StartAt: time.Duration(i) * 300 * time.Millisecond})
		}
		for i, n := range compactNames {
			w.Processes = append(w.Processes, core.ProcessConfig{Name: n, Lock: compactLock, TTL: compactTTL, StartAt: time.Duration(i) * 300 * time.Millisecond, ReuseSession: true})
		}
		return w, nil
	},
	Script:   troubleshootingScript(),
	Duration: 120 * time.Second,
	Controls: []Control{CtlFencing, CtlSetTTL, CtlExpire, CtlCrash, CtlPartition},
	PauseFor: 10 * time.Second,
	Goals: []Goal{
		{
			ID:     "shard-fenced",
			Text:   "Two workers on one shard: stop the woken worker's old-token commits from landing.",
			Proved: "The offset store now keeps the highest token per shard and refused worker-00's commit with an older one: a stale owner can no longer rewind a shard.",
			Met: func(w *World) bool {
				for e := range w.ofKind(core.KindOffset) {
					if e.Result() == core.RejectedStale {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "report-stable",
			Text:   "Flapping: make the report leader survive two of its stalls in a row.",
			Proved: "With a TTL above twice the renew interval plus the stall, two stalls of the leader passed and the lock never moved.",
			Met: func(w *World) bool {
				var kept []pauseSpan
				for _, sp := range pauses(w) {
					if !sp.Leader || sp.To < 0 || !strings.HasPrefix(sp.Proc, "report-") {
						continue
					}
					if w.Sim.Now() < sp.To+time.Second || lockChanged(w, reportLock, sp.From, sp.To+time.Second) {
						kept = nil
						continue
					}
					kept = append(kept, sp)
					if len(kept) >= 2 && !lockChanged(w, reportLock, kept[0].From, sp.To+time.Second) {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "compactor-leader",
			Text:   "No leader: after the outage, get a compactor process to lead again.",
			Proved: "The restarted client threw its dead session away, opened a new one, and its Lock succeeded: the lock had been free since the old sessions expired.",
			Met: func(w *World) bool {
				for e := range w.ofKind(core.KindState) {
					if e.At > outageTo && e.To() == core.Leader.String() && strings.HasPrefix(e.Actor, "compact-") {
						return true
					}
				}
				return false
			},
		},
	},
	Hints: []string{
		"Shard: the timeline marks worker-00's offset commits after it wakes with their tokens (\"STALE offset …\" or \"offset rejected …\"); compare them with the tokens the coordinator handed out for the same shards (the narration says \"acquired … with token\"). Report: each \"the coordinator expired the lease of report-…\" falls inside that process's pause on the timeline. Compactor: after 40 s the messages that waited in the connections go out, but both sessions expired during the outage, and every later line about compact-1 or compact-2 ends in \"requested lease not found\": the clients keep using their expired sessions.",
		"Shard: switch fencing on before worker-00's second freeze (60 s). Report: give both report processes a TTL of at least 16 s. Their client renews the way etcd's does, a third of the TTL after each answer on a half-second loop, so every 5.5 s with that TTL, and 2 x 5.5 + 5 <= 16; each picks the new TTL up at its next session. Compactor: the clients never make a new session by themselves. Restart one of them (crash it, then restart): a new life opens a new session.",
		"At 10 s switch fencing on. Set each report process's TTL to 16 s while it is frozen (its old session is lost anyway): report-1 at 16 s, report-2 at 26 s. At 45 s crash compact-2 and restart it at 46 s.",
	},
	Solution: core.ActionLog{
		core.At(10*time.Second, core.Fencing(true)),
		core.At(16*time.Second, core.SetTTL("report-1", 16*time.Second)),
		core.At(26*time.Second, core.SetTTL("report-2", 16*time.Second)),
		core.At(45*time.Second, core.Crash("compact-2")),
		core.At(46*time.Second, core.Restart("compact-2")),
	},
}
