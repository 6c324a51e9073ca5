package lessons

import (
	"fmt"

	"leaselab/core"
)

// A lesson's recap question, asked with the learner's own run (issue 31,
// item 2): once the lesson's story has happened in their run, the recap
// asks them to build the chain of events that leads from its cause to its
// outcome, picking events of that run in order, as exercises 1 and 3 do.
// The same checker judges it (judgeChain): any chain valid in the run
// that holds every link the argument needs is right, and feedback names
// the gap, never the missing event. It is not a goal and costs nothing:
// a wrong chain is only told what it lacks.

// RecapChain is a lesson's recap question as a chain of the run.
type RecapChain struct {
	// Question asks for the chain, in the lesson's words.
	Question string
	// roles are the links the argument needs in run w, or nil while the
	// run has not shown the outcome (there is nothing to explain yet).
	roles func(w *World) []chainRole
}

// Asks reports whether run w has shown the outcome the question is about.
func (r *RecapChain) Asks(w *World) bool { return len(r.roles(w)) > 0 }

// Judge checks chain (event numbers of run w, in order) against the
// question: right, or what gap it leaves, without naming the event.
func (r *RecapChain) Judge(w *World, chain []int) Feedback {
	if len(chain) > maxChain {
		return Feedback{Part: chainPart, Why: fmt.Sprintf("Your chain has %d steps: an argument needs a few, at most %d.", len(chain), maxChain)}
	}
	roles := r.roles(w)
	if len(roles) == 0 {
		return Feedback{Part: chainPart, Why: "Your run has not shown what this question is about yet: play the lesson until it has, then tell its story."}
	}
	return judgeChain(w, chain, roles)
}

// fencedRecap asks for the story of the rejected late write: A's last
// renewal, its pause, the coordinator's expiry, B's acquisition with
// token 8, B's write, A's late write and storage's refusal.
var fencedRecap = &RecapChain{
	Question: "Tell the story of the write storage refused, with your own run: pick its events, in order, from the cause to the refusal.",
	roles: func(w *World) []chainRole {
		for e := range w.ofKind(core.KindWrite) {
			if e.Result() == core.RejectedStale {
				return lateWriteRoles(w, e, func(d *core.Event) bool { return d.Kind == core.KindWrite && d.Result() == core.RejectedStale })
			}
		}
		return nil
	},
}

func init() { fencedWrites.RecapChain = fencedRecap }

// leasesRecap asks for the story of the false failover: what A's lease
// last rested on, the pause, the coordinator's expiry, and B taking the
// lock while A slept.
var leasesRecap = &RecapChain{
	Question: "Tell the story of the failover of a holder that had only frozen, with your own run: pick its events, in order, from what its lease last rested on to the lock changing hands.",
	roles: func(w *World) []chainRole {
		sp, h, ok := falseFailover(w)
		if !ok || h == nil {
			return nil
		}
		return renewalChainRoles(w, sp, h)
	},
}

func init() { leases.RecapChain = leasesRecap }

// clusterRecap asks, in lesson 14, for the story of the lock a dead holder
// kept past its TTL: the coordinator's leader going down, the election,
// the new leader re-arming the dead holder's lease, its expiry at last, and
// the lock passing on.
var clusterRecap = &RecapChain{
	Question: "Tell the story of the lock a dead holder kept past its TTL, with your own run: pick its events, in order, from the coordinator's leader going down to the lock passing on.",
	roles: func(w *World) []chainRole {
		at, holder, lease, _, ok := deadHolderFailover(w)
		if !ok {
			return nil
		}
		var crashed string
		var elected, rearm, expired, next *core.Event
		for e := range w.Sim.Trace.All() {
			switch {
			case e.At == at && e.Kind == core.KindMember && e.State() == "crashed" && crashed == "":
				crashed = e.Actor
			case e.At >= at && e.Kind == core.KindLeader && elected == nil:
				elected = e
			case elected != nil && e.Kind == core.KindLeaseRearm && e.Lease() == lease && rearm == nil:
				rearm = e
			case rearm != nil && e.Kind == core.KindLeaseExpire && e.Lease() == lease && expired == nil:
				expired = e
			case expired != nil && e.Kind == core.KindHolder && e.Lock() == clusterLock && next == nil:
				next = e
			}
		}
		if next == nil {
			return nil // the story has not ended yet
		}
		return []chainRole{
			{ask: "what happened to the coordinator itself?", is: func(e *core.Event) bool {
				return e.At == at && (e.Kind == core.KindMember && e.Actor == crashed && e.State() == "crashed" ||
					e.Kind == core.KindAction && e.Words() == core.Crash(crashed).String())
			}},
			{ask: "what did the other members do without a leader?", is: isEvent(elected)},
			{ask: fmt.Sprintf("what did the new leader do to %s's lease?", holder), is: isEvent(rearm)},
			{ask: "what freed the lock in the end?", is: isEvent(expired)},
			acquisitionRole(next, "who took the lock then, and with which token?"),
		}
	},
}

func init() { coordinatorCluster.RecapChain = clusterRecap }
