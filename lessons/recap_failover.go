package lessons

import (
	"fmt"

	"leaselab/core"
)

// Recap questions of the lessons whose story is a failover: a crashed
// leader's lease running its whole TTL, a frozen leader's renewal task
// freezing with it, a crashed worker's shards moving on, and a crashed
// scheduler's batch repeated by its successor and absorbed by the queue.

// ttlRecap asks, in the TTL trade-off lesson, for the story of the
// failover after a crash: the last renewal before it (which bought a whole
// TTL), the crash, the expiry and the next holder.
var ttlRecap = &RecapChain{
	Question: "Tell the story of the failover after the leader crashed, with your own run: pick its events, in order, from what its lease last rested on to the next holder taking over.",
	roles:    crashFailoverRoles(isLock(leasesLock), "who took over, and with which token?"),
}

func init() { ttlTradeoff.RecapChain = ttlRecap }

// crashFailoverRoles builds the roles of the first failover after a crash
// on the locks lock accepts.
func crashFailoverRoles(lock func(string) bool, acquired string) func(w *World) []chainRole {
	crash := stallKind(core.KindCrash)
	return func(w *World) []chainRole {
		for _, f := range failoversAfterStall(w, lock, crash) {
			if roles := failoverRoles(w, f, crash, true, acquired); allPresent(w, roles) {
				return roles
			}
		}
		return nil
	}
}

// renewalLoopRecap asks for the story of the frozen leader: its renewal
// task froze with it, so the lease it last renewed ran out and the lock
// moved.
var renewalLoopRecap = &RecapChain{
	Question: "Tell the story of the lock leaving the frozen leader, with your own run: pick its events, in order, from what its lease last rested on to the next holder taking over.",
	roles: func(w *World) []chainRole {
		pause := stallKind(core.KindPause)
		for _, f := range failoversAfterStall(w, isLock(loopLock), pause) {
			if roles := failoverRoles(w, f, pause, true, "who took the lock while it was frozen?"); allPresent(w, roles) {
				return roles
			}
		}
		return nil
	},
}

func init() { renewalLoop.RecapChain = renewalLoopRecap }

// costsRecap asks, in the coordinator-costs lesson, for the story of one
// of the crashed worker's shards moving on: the last renewal of the lease
// it rode on, the crash, the expiry that freed it, and the new owner.
var costsRecap = &RecapChain{
	Question: fmt.Sprintf("Tell the story of one of %s's shards changing hands after the crash, with your own run: pick its events, in order, from what its lease last rested on to the new owner.", costVictim),
	roles:    crashFailoverRoles(isShardLock, "who owns the shard now, and with which token?"),
}

func init() { coordinatorCosts.RecapChain = costsRecap }

// schedulerRecap asks for the story of a repeated invoice the queue
// absorbed: the leader stopping mid-batch, its lease running out, the
// successor taking the lock with a higher token, re-sending a job the
// old leader had already enqueued, and the queue ignoring it by its key.
var schedulerRecap = &RecapChain{
	Question: "Tell the story of an invoice the queue ignored as a repeat, with your own run: pick its events, in order, from what stopped the leader mid-batch to the queue's verdict.",
	roles: func(w *World) []chainRole {
		tr := w.Sim.Trace
		for d := range w.ofKind(core.KindEnqueue) {
			if d.Result() != core.JobDuplicateIgnored || len(d.Causes()) == 0 {
				continue
			}
			send := tr.Event(d.Causes()[0])
			for _, f := range failoversAfterStall(w, isLock(schedulerLock), anyStall) {
				if f.h.Owner() != d.From() || f.h.Token() != d.Token() {
					continue
				}
				roles := failoverRoles(w, f, anyStall, false, "who took over, and with which token?")
				roles[0].ask = fmt.Sprintf("what stopped %s before it recorded its batch?", f.prev)
				roles = append(roles,
					chainRole{ask: fmt.Sprintf("what did %s do that had been done before?", f.h.Owner()), is: func(e *core.Event) bool {
						return e.Seq == d.Seq || send != nil && e.Seq == send.Seq
					}},
					chainRole{ask: "what did the queue do with it?", is: isEvent(d)})
				if allPresent(w, roles) {
					return roles
				}
			}
		}
		return nil
	},
}

func init() { scheduler.RecapChain = schedulerRecap }
