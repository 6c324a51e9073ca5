package lessons

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// The coordinator is a cluster too: three etcd members behind the lock,
// and what their own failures do to the leases they keep. Every behaviour
// here was measured on three real etcd 3.7.3 members (conform/cluster_test.go,
// conform/ETCD_CLUSTER.md) and is modelled in core/cluster.go.
const (
	clusterTTL      = 5 * time.Second
	clusterSlowDisk = 300 * time.Millisecond
	clusterLock     = "locks/leader"
)

var clusterConfig = core.ContentionConfig{
	Names: []string{"A", "B"}, TTL: clusterTTL, Stagger: 500 * time.Millisecond,
	RetryBase: time.Second, Fencing: true,
}

// lockCommitWait is the longest a lock request (the contender's
// transaction) waited between reaching the coordinator and being
// committed: the put of its key, measured from the arrival of the message
// that caused it.
func lockCommitWait(w *World) time.Duration {
	return cached(w, "lock-commit-wait", func() time.Duration {
		tr := w.Sim.Trace
		var worst time.Duration
		for e := range w.ofKind(core.KindPut) {
			if !strings.HasPrefix(e.Key(), clusterLock+"/") {
				continue
			}
			for _, c := range e.Causes() {
				if s := tr.Event(c); s != nil && s.Kind == core.KindSend && s.Msg() == "Acquire" {
					worst = max(worst, e.At-s.Arrive())
				}
			}
		}
		return worst
	})
}

// crashedAt returns when proc last crashed at or before t (false: it had
// not, or it restarted since).
func crashedAt(w *World, proc string, t time.Duration) (time.Duration, bool) {
	at, down := time.Duration(0), false
	for e := range w.Sim.Trace.All() {
		if e.At > t {
			break
		}
		if e.Actor != proc {
			continue
		}
		switch e.Kind {
		case core.KindCrash:
			at, down = e.At, true
		case core.KindRestart:
			down = false
		}
	}
	return at, down
}

// deadHolderOutlived is how long past its owner's crash a lease that a new
// coordinator leader re-armed lived before it expired (0: none yet), and
// how many times the longest-lived such lease was re-armed while its owner
// was down.
func deadHolderOutlived(w *World) (lived time.Duration, rearms int) {
	type res struct {
		lived  time.Duration
		rearms int
	}
	r := cached(w, "dead-holder", func() res {
		count := map[string]int{}
		crash := map[string]time.Duration{}
		var out res
		for e := range w.Sim.Trace.All() {
			switch e.Kind {
			case core.KindLeaseRearm:
				if at, down := crashedAt(w, e.Owner(), e.At); down {
					count[e.Lease()]++
					crash[e.Lease()] = at
					out.rearms = max(out.rearms, count[e.Lease()])
				}
			case core.KindLeaseExpire:
				if at, ok := crash[e.Lease()]; ok {
					out.lived = max(out.lived, e.At-at)
				}
			}
		}
		return out
	})
	return r.lived, r.rearms
}

// deadlineWithoutLeader reports whether a client's own lease deadline
// passed while the coordinator had no leader, and a leader came back after.
func deadlineWithoutLeader(w *World) bool {
	leaderless, lost := false, false
	for e := range w.Sim.Trace.All() {
		switch e.Kind {
		case core.KindNoLeader:
			leaderless = true
		case core.KindLeader:
			if lost {
				return true
			}
			leaderless = false
		case core.KindLeaseLost:
			lost = lost || leaderless
		}
	}
	return false
}

// staleThenLinearizable reports whether a member answered a serializable
// read with an owner that was no longer true, and the same member was then
// asked linearizably (which never answers stale).
func staleThenLinearizable(w *World) bool {
	stale := map[string]bool{}
	for e := range w.ofKind(core.KindRead) {
		switch {
		case e.How() == "serializable" && e.Result() == "stale":
			stale[e.Actor] = true
		case e.How() == "linearizable" && stale[e.Actor]:
			return true
		}
	}
	return false
}

var coordinatorCluster = &Lesson{
	ID:        "coordinator-cluster",
	Title:     "The coordinator is a cluster too",
	Objective: "See what the coordinator's own members do to leases: slow disks, new leaders, no leader.",
	Summary:   "Three etcd members behind the lock: crash, cut off and pause them, and watch the leases.",
	Minutes:   12,
	Intro: []string{
		"Until now the coordinator has been one box. A real one is a small cluster, here three etcd members (member-1, member-2, member-3) that keep the same data by Raft: one of them leads, in a numbered term, and a change counts only once a majority of members (two of three: the quorum) has written it to disk. A and B contend for one lock with 5-second leases, as before.",
		"When A asks for the lock, its request is one transaction: if A's own key (the lock's name plus A's lease ID) has create revision 0, that is, it does not exist yet, put it with the lease attached; in the same transaction read the lock's oldest key, whose owner holds the lock. The leader answers only after two members have that write on disk, so a slow disk on the quorum slows every acquisition. A keepalive is not written to the log, but the leader checks with a quorum that it still leads before it answers.",
		"Leases live on the leader. When the leader member dies, the others wait out their election timeout (1 to 2 seconds), elect a new leader, and that leader cannot know how long each lease had left: etcd gives every lease its whole TTL again, plus one election timeout. And while there is no leader at all, nothing expires, even though every client's own clock keeps running.",
		"Any member answers a serializable read from what it has applied, at once, without asking the others. A member cut off from its peers still does, with whatever it last knew. A linearizable read (etcd's default) goes through the leader and never answers stale: on a member that cannot reach the leader it waits, and gives up after 7 seconds.",
		"Click a member to crash, restart, pause or cut it off, give it a slow disk, or read from it who holds the lock. Start by slowing two members' disks, then crash A and the leader member, and follow the lease through the new leader.",
	},
	Recap: "The lock is only as steady as the cluster behind it. Writes wait for a quorum's disks; a new leader re-arms every lease for a whole TTL plus an election timeout, so a dead holder keeps its lock longer than its TTL, and for ever if leadership keeps changing; without a quorum nothing expires while clients' own deadlines pass; a member cut off from its peers serves stale serializable reads. Size TTLs for failover = election + TTL, read ownership linearizably, and keep the coordinator's own members healthy.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		w, err := clusterConfig.World(seed)
		w.Coordinator.Members = 3
		return w, err
	},
	Duration: 100 * time.Second,
	Controls: []Control{CtlCrash, CtlPause, CtlPartition, CtlSlowDisk, CtlRead},
	PauseFor: 3 * time.Second,
	Goals: []Goal{
		{
			ID:     "quorum-wait",
			Text:   fmt.Sprintf("Slow two disks, restart a contender: its lock write waits %s.", core.Seconds(clusterSlowDisk)),
			Proved: "The lock's write waited for the quorum's disks: an acquisition is committed only once a majority has it, so the slowest disk of that majority sets its time.",
			Met:    func(w *World) bool { return lockCommitWait(w) >= clusterSlowDisk },
			Measure: func(w *World) string {
				if d := lockCommitWait(w); d > 0 {
					return "slowest write " + core.Seconds(d)
				}
				return ""
			},
		},
		{
			ID:     "outlive",
			Text:   "Crash the holder, then the leading member: the lock outlives its 5 s TTL.",
			Proved: "The new leader gave the dead holder's lease its whole TTL again plus one election timeout: failover took the election, then a full TTL more.",
			Met: func(w *World) bool {
				lived, _ := deadHolderOutlived(w)
				return lived > clusterTTL+core.ElectionTimeout
			},
			Measure: func(w *World) string {
				if lived, _ := deadHolderOutlived(w); lived > 0 {
					return "a dead holder's lease lived " + core.Seconds(lived) + " past its crash"
				}
				return ""
			},
		},
		{
			ID:     "no-quorum",
			Text:   "Crash or cut off two members until a client's own deadline passes, then bring one back.",
			Proved: "Without a quorum the coordinator expired nothing and answered no renewal; the client gave up on its own clock, and the returning leader re-armed the leases.",
			Met:    deadlineWithoutLeader,
		},
		{
			ID:     "stale-read",
			Text:   "Cut a member off, let the lock move, then read from it: serializable, then linearizable.",
			Proved: "The cut-off member answered the serializable read with an owner that was no longer true; the linearizable read had to go through the leader and never gave the stale owner.",
			Met:    staleThenLinearizable,
		},
		{
			ID:     "flapping",
			Text:   "Crash a holder, then pause each new leading member: its lease is re-armed three times.",
			Proved: "Every new leader gave the dead holder a fresh TTL: while the coordinator's leadership keeps changing, a lease whose owner is gone never expires.",
			Met: func(w *World) bool {
				_, n := deadHolderOutlived(w)
				return n >= 3
			},
		},
	},
	Hints: []string{
		"A lease lives on the coordinator's leader. Which member leads? Its badge says so; what happens to the leases when it goes?",
		"The quorum is two of three: one slow or dead member changes nothing, two change everything. A read from a member that cannot reach the leader is answered from what that member last knew.",
		"Slow member-2's and member-3's disks; crash A at 2 s and member-1 at 3 s; restart member-1 and A at 12 s; cut member-2 off from its peers at 20 s, crash B at 21 s, read from member-2 at 32 s (serializable, then linearizable), heal it at 40 s; crash member-1 and member-3 at 42 s, restart them at 50 s; crash A at 56 s and pause the leading member each time a new one takes over (member-3 at 57 s, member-1 at 58.9 s, member-2 at 61.3 s, member-3 at 63.4 s).",
	},
	Solution: clusterSolution,
}

// clusterSolution is the last hint, played: every goal in 100 s.
var clusterSolution = core.ActionLog{
	core.At(time.Second, core.Action{Do: core.VerbSlowDisk, Proc: "member-2", For: core.Duration(clusterSlowDisk)}),
	core.At(time.Second, core.Action{Do: core.VerbSlowDisk, Proc: "member-3", For: core.Duration(clusterSlowDisk)}),
	core.At(2*time.Second, core.Crash("A")),
	core.At(3*time.Second, core.Crash("member-1")),
	core.At(12*time.Second, core.Restart("member-1")),
	core.At(12*time.Second, core.Restart("A")),
	core.At(20*time.Second, core.Partition("member-2", core.PeersOf)),
	core.At(21*time.Second, core.Crash("B")),
	core.At(32*time.Second, core.Action{Do: core.VerbRead, Proc: "member-2", Key: clusterLock}),
	core.At(32*time.Second, core.Action{Do: core.VerbRead, Proc: "member-2", Key: clusterLock, On: true}),
	core.At(40*time.Second, core.Heal("member-2", core.PeersOf)),
	core.At(42*time.Second, core.Crash("member-1")),
	core.At(42*time.Second, core.Crash("member-2")),
	core.At(50*time.Second, core.Restart("member-1")),
	core.At(50*time.Second, core.Restart("member-2")),
	core.At(56*time.Second, core.Crash("A")),
	core.At(57*time.Second, core.Pause("member-3", 3*time.Second)),
	core.At(58900*time.Millisecond, core.Pause("member-1", 3*time.Second)),
	core.At(61300*time.Millisecond, core.Pause("member-2", 3*time.Second)),
	core.At(63400*time.Millisecond, core.Pause("member-3", 3*time.Second)),
}

// deadHolderFailover finds the key moment of the failover story: the
// member leading the coordinator crashes while the lock's holder is a
// crashed process. It returns the moment, the dead holder and its lease,
// and when that lease was due to run out by then.
func deadHolderFailover(w *World) (at time.Duration, holder, lease string, due time.Duration, ok bool) {
	leader := ""
	held := map[string]string{} // lease -> owner of the lock's current holder key
	var holderLease string
	down := map[string]bool{}
	expiry := map[string]time.Duration{}
	for e := range w.Sim.Trace.All() {
		switch e.Kind {
		case core.KindLeader:
			leader = e.Actor
		case core.KindCrash:
			down[e.Actor] = true
		case core.KindRestart:
			down[e.Actor] = false
		case core.KindLeaseGrant, core.KindLeaseRenew, core.KindLeaseRearm:
			expiry[e.Lease()] = e.Expiry()
		case core.KindHolder:
			if e.Lock() == clusterLock {
				holderLease = strings.TrimPrefix(e.Key(), clusterLock+"/")
				held[holderLease] = e.Owner()
			}
		case core.KindFree, core.KindLeaseExpire:
			if e.Kind == core.KindFree || e.Lease() == holderLease {
				holderLease = ""
			}
		case core.KindMember:
			if e.State() == "crashed" && e.Actor == leader && holderLease != "" && down[held[holderLease]] {
				return e.At, held[holderLease], holderLease, expiry[holderLease], true
			}
		}
	}
	return 0, "", "", 0, false
}

// clusterFailoverPrediction asks, as the leading member crashes while the lock's
// holder is dead, when the lock will pass on.
var clusterFailoverPrediction = Predict{
	ID: "lock-after-failover",
	Question: func(w *World) string {
		_, holder, _, due, _ := deadHolderFailover(w)
		return fmt.Sprintf("%s, the lock's holder, is dead; its lease was due to run out at %s. The member leading the coordinator has just crashed. When will the lock pass on?", holder, instant(due))
	},
	Options: []Option{
		{"expiry", "At that time, as if nothing happened"},
		{"later", "Later: after a new leader is elected"},
		{"never", "Never: the lease died with the leader"},
	},
	Due: func(w *World) bool {
		_, _, _, _, ok := deadHolderFailover(w)
		return ok
	},
	Outcome: func(w *World) (string, string) {
		at, holder, lease, due, ok := deadHolderFailover(w)
		if !ok {
			return "", ""
		}
		for e := range w.ofKind(core.KindLeaseExpire) {
			if e.Lease() != lease || e.At < at {
				continue
			}
			if e.At > due+500*time.Millisecond {
				return "later", fmt.Sprintf("%s's lease ended at %s, not at %s: the new leader gave it a whole TTL again", holder, instant(e.At), instant(due))
			}
			return "expiry", fmt.Sprintf("%s's lease ended at %s, when it was due", holder, instant(e.At))
		}
		return "", ""
	},
}

func init() { coordinatorCluster.Predictions = []Predict{clusterFailoverPrediction} }
