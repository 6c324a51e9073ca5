package lessons

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// The troubleshooting world has four incidents side by side on one
// coordinator: one per symptom of the seed's troubleshooting guide, and a
// retry storm, the cause behind its advice to retry with jitter.
const (
	// Two workers on one shard: worker-00 freezes twice for longer than
	// its shard leases; the offset store starts with fencing off.
	tsWorkerPause = 20 * time.Second
	// Leadership flapping: under load the report leader's unit of work
	// keeps its loop busy for 5 s every 10 s, and its client renews the
	// 4 s lease (KeepAliveOnce every third of the TTL) from that same
	// loop: each renewal that falls due during a unit waits for it, and
	// the lease lapses while its owner is alive.
	reportLock   = "locks/report"
	reportTTL    = 4 * time.Second
	reportWork   = 5 * time.Second
	reportGap    = 10 * time.Second
	reportPrompt = 50 * time.Millisecond // a renewal on its own task leaves within this of its due time
	// No leader after an outage: a network outage cuts both compactor
	// clients off from the coordinator. etcd loses nothing in an outage
	// (requests wait, watches resume), but compact-1's 12 s session
	// expires and it campaigns again with the dead one (every Lock is
	// refused); compact-2's 60 s session survives and its turn comes
	// while it is cut off, but its watch ended with the connection and it
	// never reads the contenders again: it holds the lock without knowing.
	compactLock = "locks/compactor"
	compactTTL  = 12 * time.Second
	compactLong = 60 * time.Second
	outageFrom  = 20 * time.Second
	outageTo    = 40 * time.Second
)

// Retry storm: four indexer clients elect a leader with a 6 s TTL. From
// stallFrom to stallTo a congested link holds back every answer the
// coordinator sends them; their requests still get through. Started
// together, they lose their sessions on the same tick and from then on
// ask for a new one on the same fixed timers (a grant unanswered for
// RetryBase + TTL/3, then RetryBase before the next): each request lands
// on the coordinator within milliseconds of the other three, every 4 s,
// until the answers flow again. Retry with jitter gives each its own
// random wait.
const (
	indexLock = "locks/indexer"
	indexTTL  = 6 * time.Second
	stallFrom = 25 * time.Second
	stallTo   = 70 * time.Second
	// The storm goal asks, once the indexers run the jitter fix, for
	// stormCalm of their retries in a row (two rounds of four) with never
	// more than two in any 100 ms. In step, three land together every
	// round, so a run is at most five long; jittered, three may meet by
	// chance now and then, but a run of eight is reached within the
	// storm whenever the fix is in by 50 s (500 seeds tried).
	stormCalm = 8
)

var (
	reportNames  = []string{"report-1", "report-2"}
	compactNames = []string{"compact-1", "compact-2"}
	indexNames   = []string{"index-1", "index-2", "index-3", "index-4"}
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
	for _, n := range indexNames {
		stall := core.Action{Do: core.VerbDelay, Proc: core.CoordinatorName, Peer: n, For: core.Duration(stallTo - stallFrom)}
		log = append(log, core.At(stallFrom, stall))
	}
	return log.Sorted()
}

// reportHeld reports whether one report process led through two units of
// its work in a row with the lock never moving, its renewals meanwhile
// all leaving within reportPrompt of their due time if prompt is set.
func reportHeld(w *World, prompt bool) bool {
	key := "report-held"
	if prompt {
		key += "-prompt"
	}
	return cached(w, key, func() bool {
		var units []*core.Event
		for e := range w.ofKind(core.KindWorkBusy) {
			if strings.HasPrefix(e.Actor, "report-") {
				units = append(units, e)
			}
		}
		for i := 1; i < len(units); i++ {
			a, b := units[i-1], units[i]
			end := b.At + reportWork + time.Second
			if a.Actor != b.Actor || w.Sim.Now() < end || lockChanged(w, reportLock, a.At, end) {
				continue
			}
			if !prompt || renewalsPrompt(w, a.Actor, a.At, end) {
				return true
			}
		}
		return false
	})
}

// renewalsPrompt reports whether every renewal proc ran within [from, to]
// left within reportPrompt of its due time.
func renewalsPrompt(w *World, proc string, from, to time.Duration) bool {
	for e := range w.ofKind(core.KindRenewal) {
		if e.Actor == proc && e.At >= from && e.At <= to && (e.Late() > reportPrompt || e.Result() != core.RenewalSent) {
			return false
		}
	}
	return true
}

// worstReportWait is the longest a report renewal has waited behind work.
func worstReportWait(w *World) time.Duration {
	worst := time.Duration(0)
	for e := range w.ofKind(core.KindRenewal) {
		if strings.HasPrefix(e.Actor, "report-") {
			worst = max(worst, e.Late())
		}
	}
	return worst
}

// restarted reports whether the learner crashed proc by t (a restart is
// not one of the fixes the compactor goals ask for).
func restarted(w *World, proc string, t time.Duration) bool {
	for _, a := range w.Log {
		if a.Do == core.VerbCrash && a.Proc == proc && a.At.D() <= t {
			return true
		}
	}
	return false
}

// lockChanged reports a holder change or a free lock within [from, to].
func lockChanged(w *World, lock string, from, to time.Duration) bool {
	for e := range w.Sim.Trace.All() {
		if e.At >= from && e.At <= to && (e.Kind == core.KindHolder || e.Kind == core.KindFree) && e.Lock() == lock {
			return true
		}
	}
	return false
}

// storm is what the indexers' retries show: whether all four run the
// jitter fix; of their retries since then (since the stall, if they do
// not), the most in one 100 ms and the longest run in a row with never
// more than two in any 100 ms. Each grant the coordinator makes an
// indexer answers one of their retries.
type storm struct {
	fixed     bool
	most, run int
}

func readStorm(w *World) storm {
	return cached(w, "storm", func() storm {
		fixedAt := map[string]time.Duration{}
		for e := range w.ofKind(core.KindSetting) {
			if _, ok := fixedAt[e.Actor]; !ok && e.Name() == "fix" && e.Value() == string(core.FixJitter) && slices.Contains(indexNames, e.Actor) {
				fixedAt[e.Actor] = e.At
			}
		}
		st, from := storm{fixed: len(fixedAt) == len(indexNames)}, stallFrom
		if st.fixed {
			from = slices.Max(slices.Collect(maps.Values(fixedAt)))
		}
		var at []time.Duration
		for e := range w.ofKind(core.KindLeaseGrant) {
			if e.At >= from && slices.Contains(indexNames, e.Owner()) {
				at = append(at, e.At)
			}
		}
		// A run of retries breaks where three fall within 100 ms; the
		// two latest of those start the next one.
		start, first := 0, 0
		for i := range at {
			for at[i]-at[first] >= window {
				first++
			}
			st.most = max(st.most, i-first+1)
			if i-start >= 2 && at[i]-at[i-2] < window {
				start = i - 1
			}
			st.run = max(st.run, i-start+1)
		}
		return st
	})
}

var troubleshooting = &Lesson{
	ID:        "troubleshooting",
	Title:     "Troubleshooting by the trace",
	Objective: "Diagnose four incidents from the trace alone and fix each client, not by a restart.",
	Summary:   "Two owners of a shard, a flapping leader, no leader after an outage, a retry storm.",
	Minutes:   20,
	Intro: []string{
		"Four systems share this coordinator and each has an incident in progress. Diagnose each one from the trace (the coordinator's revision history, the renewal and expiry log, the tokens on writes) and apply the fix. Nothing you do to one touches the others. Each process's menu has Fix: entries that deploy a change to that client's code while it runs.",
		"Two workers on one shard. worker-00 and worker-01 split four stream shards, each under its own lease, and commit offsets with the shard's token. worker-00 sometimes freezes for 20 s. Compare the tokens on its offset commits with the tokens the coordinator issued for the same shards, and look at what the offset store does with the older ones.",
		"Leadership flapping. report-1 and report-2 elect a leader for the nightly report with a 4 s TTL. Under today's load the leader spends 5 s of every 10 s on a unit of work. Nobody freezes, yet the lock keeps moving. Look at the lease expiries and at when each renewal left compared with when it was due.",
		"No leader after an outage. compact-1 held the compactor lock, with compact-2 queued behind it. From 20 s to 40 s a network outage cut both off from the coordinator. The outage itself lost nothing: etcd's client holds its requests until the connection is back, and a watch resumes from the revision it had reached. Yet after the outage nobody leads. Read what each client sends once it reconnects, what the coordinator answers, and who the coordinator says holds the lock.",
		"Retry storm. index-1 to index-4 are four copies of a search indexer that elect one leader with a 6 s TTL. From 25 s to 70 s a congested link holds back every answer the coordinator sends them; their requests still get through. Each client is correct on its own: when an answer does not come, it gives up and asks again. After 30 s, note when the coordinator grants each of the four a new lease, and when it expires that lease unused.",
	},
	Recap: "Each symptom had a cause the trace could prove, and a fix in the client. The shard was processed twice because a frozen worker woke with old tokens and the store did not check them: fencing at the storage boundary made it harmless. The report leader flapped because its renewals waited behind its own work: the coordinator cannot tell a late renewal from a dead process. Renewing from a small task of its own sent them on time with the 4 s TTL unchanged; a longer TTL also stops the flapping, but only hides the delay until the load grows. The compactor had no leader for two reasons. compact-1 kept campaigning with its expired session, and etcd refused every Lock with \"requested lease not found\": a client must watch its session (Session.Done() in etcd's Go client) and make a new one when it ends. compact-2's session survived and its turn came during the outage, but its watch had ended with the connection and it never looked again: it held the lock without knowing. Reading the contenders again after a reconnect found it first in line. A restart would have hidden both bugs until the next outage. The indexers had no bug any one of them could show: each waited the same fixed time before asking again, so clients that failed together stayed together, and every retry of one reached the coordinator in the same 100 ms as the other three's, every 4 s for as long as the answers were held. Retry with jitter made each wait a random time of its own: one retry later they had drifted apart, and the coordinator heard from them one at a time. A restart keeps the fixed wait, and the next failure they share puts them back in step.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		w := core.World{Seed: seed, Resources: []core.Resource{core.OffsetsResource("offsets", 4, false), core.RegisterResource("reports", false)}}
		for i, n := range core.WorkerNames(2) {
			w.Workers = append(w.Workers, core.ShardConfig{
				Name: n, Shards: 4, TTL: 10 * time.Second, LeasePerShard: true, CommitEvery: 2 * time.Second,
				StartAt: time.Duration(i) * 200 * time.Millisecond,
			})
		}
		for i, n := range reportNames {
			w.Processes = append(w.Processes, core.ProcessConfig{
				Name: n, Lock: reportLock, TTL: reportTTL, StartAt: time.Duration(i) * 300 * time.Millisecond,
				RenewEvery: reportTTL / 3, Target: "reports", WorkEvery: reportGap, WorkTakes: reportWork, RenewOnWorkLoop: true,
			})
		}
		w.Processes = append(w.Processes,
			core.ProcessConfig{Name: compactNames[0], Lock: compactLock, TTL: compactTTL, ReuseSession: true},
			core.ProcessConfig{Name: compactNames[1], Lock: compactLock, TTL: compactLong, StartAt: 300 * time.Millisecond, StaleWatch: true})
		for _, n := range indexNames { // deployed together: they start together
			w.Processes = append(w.Processes, core.ProcessConfig{Name: n, Lock: indexLock, TTL: indexTTL, StartAt: 500 * time.Millisecond})
		}
		return w, nil
	},
	Script:   troubleshootingScript(),
	Duration: 120 * time.Second,
	Controls: []Control{CtlFencing, CtlSetTTL, CtlFix, CtlExpire, CtlCrash, CtlPartition},
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
			Text:   "Flapping: make the report leader keep the lock through two of its units of work in a row.",
			Proved: "Two units of work passed and the lock never moved: the leader's lease outlived the wait.",
			Met:    func(w *World) bool { return reportHeld(w, false) },
		},
		{
			ID:     "report-prompt",
			Text:   "Flapping, its cause: renewals on time (50 ms) for two units.",
			Proved: "The renewals no longer wait for the work: they leave on time whatever the load, so the coordinator hears from a live leader when it should.",
			Measure: func(w *World) string {
				if worst := worstReportWait(w); worst > 0 {
					return "worst wait " + core.Seconds(worst)
				}
				return ""
			},
			Met: func(w *World) bool { return reportHeld(w, true) },
		},
		{
			ID:     "compactor-leader",
			Text:   "No leader: after the outage, get a compactor process to lead again without restarting it.",
			Proved: "compact-2 read the contenders again, found its own key first in line, and began to lead: it had held the lock since compact-1's session expired, without knowing.",
			Met: func(w *World) bool {
				for e := range w.ofKind(core.KindState) {
					if e.At > outageTo && e.To() == core.Leader.String() && strings.HasPrefix(e.Actor, "compact-") && !restarted(w, e.Actor, e.At) {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "compactor-session",
			Text:   "No leader: get compact-1 a live session again after the outage, without a restart.",
			Proved: "compact-1 saw its session had ended, made a new one and queued with it: its Lock is no longer refused.",
			Met: func(w *World) bool {
				for e := range w.ofKind(core.KindLeaseRenewed) {
					if e.At > outageTo && e.Actor == compactNames[0] && e.How() == "granted" && !restarted(w, e.Actor, e.At) {
						return true
					}
				}
				return false
			},
		},
		{
			ID:     "storm-spread",
			Text:   "Retry storm: fix the indexers, then 8 retries in a row, never 3 in 100 ms.",
			Proved: "Each indexer now waits a random time of its own before asking again: the four that failed together drifted apart within a retry or two, and the coordinator's grants to them came one at a time instead of three at once.",
			Measure: func(w *World) string {
				switch st := readStorm(w); {
				case st.fixed && st.run > 0:
					return fmt.Sprintf("%d of %d in a row", min(st.run, stormCalm), stormCalm)
				case !st.fixed && st.most > 1:
					return fmt.Sprintf("%d in one 100 ms", st.most)
				}
				return ""
			},
			Met: func(w *World) bool {
				st := readStorm(w)
				return st.fixed && st.run >= stormCalm
			},
		},
	},
	Hints: []string{
		"Shard: the timeline marks worker-00's offset commits after it wakes with their tokens (\"STALE offset …\" or \"offset rejected …\"); compare them with the tokens the coordinator handed out for the same shards (the narration says \"acquired … with token\"). Report: nobody pauses, so look at the renewals: each one that fell due during a unit of work left seconds late, and the lease had ended first. Compactor: after the outage, every line about compact-1 ends in \"requested lease not found\"; compact-2 says its watch ended with the connection, and the coordinator's lock view names who holds the lock. Indexers: from 30 s, line up the times at which the coordinator grants index-1 to index-4 a lease (\"lease.grant\" in the trace) and expires it again, and the times at which each gives up waiting (\"no answer from coordinator\"): how far apart are the four, round after round?",
		"Shard: switch fencing on before worker-00's second freeze (60 s). Report: the renewal runs on the loop that does the work; the Fix: menu can move it somewhere nothing holds it up (a longer TTL only hides the wait). Compactor: one client needs to notice its session ended and make another; the other needs to look at the contenders again once it is back. Indexers: nothing ever makes one of them wait longer or shorter than the others before it asks again, so they never drift apart; a Fix: entry changes how each waits (a restart or a new TTL keeps the wait fixed).",
		"At 10 s switch fencing on, and give report-1 and report-2 the fix \"renew from a task of its own\". After the outage (45 s) give compact-1 \"make a new session when the old one ends\" and compact-2 \"re-list the contenders after a reconnect\". By 45 s give index-1, index-2, index-3 and index-4 \"retry with jitter\".",
	},
	Solution: core.ActionLog{
		core.At(10*time.Second, core.Fencing(true)),
		core.At(10*time.Second, core.Fix("report-1", core.FixOwnTask)),
		core.At(10*time.Second, core.Fix("report-2", core.FixOwnTask)),
		core.At(30*time.Second, core.Fix("index-1", core.FixJitter)),
		core.At(30*time.Second, core.Fix("index-2", core.FixJitter)),
		core.At(30*time.Second, core.Fix("index-3", core.FixJitter)),
		core.At(30*time.Second, core.Fix("index-4", core.FixJitter)),
		core.At(45*time.Second, core.Fix("compact-1", core.FixNewSession)),
		core.At(45*time.Second, core.Fix("compact-2", core.FixRelist)),
	},
}
