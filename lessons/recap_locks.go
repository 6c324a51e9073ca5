package lessons

import (
	"fmt"
	"strings"

	"leaselab/core"
)

// Recap questions of the lessons about who holds a lock and what storage
// takes from them: Redlock's unfenced late write, the one waiter a
// predecessor watch wakes, the forged token that locks the owner out, and
// the zombie leader whose writes the token check keeps out.

// redlockRecap asks for the story of the late write Redlock let through:
// A's pause, its keys running out, B winning the lock with token 0, B's
// write, A's late write and storage accepting it.
var redlockRecap = &RecapChain{
	Question: "Tell the story of the late write storage accepted with its token check on, with your own run: pick its events, in order, from why the first holder stopped extending its keys to storage taking its write.",
	roles:    redlockRoles,
}

func init() { redlockPause.RecapChain = redlockRecap }

func redlockRoles(w *World) []chainRole {
	tr := w.Sim.Trace
	for d := range w.ofKind(core.KindWrite) {
		if d.Result() != core.Accepted || len(d.Causes()) == 0 {
			continue
		}
		old, send := d.From(), tr.Event(d.Causes()[0])
		if send == nil || send.Kind != core.KindSend {
			continue
		}
		// The rival's acquisition while old was stalled, before old's
		// write went out, and the lock's fall just before it.
		for h := range w.ofKind(core.KindHolder) {
			if h.Seq > send.Seq {
				break
			}
			if h.Owner() == old {
				continue
			}
			var st *stall
			for _, s := range stallsOf(w, old) {
				if s.covers(h) && s.start < h.Seq && (s.end < 0 || s.end <= send.Seq) {
					st = &s
					break
				}
			}
			rivalWrote := func(e *core.Event) bool {
				return e.Seq > h.Seq && e.Seq < send.Seq && e.Token() == h.Token() &&
					(e.Kind == core.KindWrite && e.From() == h.Owner() && e.Result() == core.Accepted ||
						e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == h.Owner())
			}
			free := lastFreeBefore(w, h)
			if st == nil || free == nil || free.Seq < st.start || !hasEvent(w, rivalWrote) {
				continue
			}
			stStart := st.start
			return []chainRole{
				{ask: fmt.Sprintf("why did %s stop extending its keys?", old), is: func(e *core.Event) bool {
					s, ok := stallOf(w, e)
					return ok && s.start == stStart && (e.Seq == s.start || e.Kind == core.KindAction)
				}},
				{ask: fmt.Sprintf("what happened to %s's keys on the servers?", old), is: func(e *core.Event) bool {
					return e.Seq == free.Seq || e.Seq > stStart && e.Seq < free.Seq &&
						(e.Kind == core.KindRedisExpire || e.Kind == core.KindRedisDel) && e.Value() == free.Value()
				}},
				acquisitionRole(h, fmt.Sprintf("what did %s win while %s could not act, and with which token?", h.Owner(), old)),
				{ask: fmt.Sprintf("what did %s do as the holder?", h.Owner()), is: rivalWrote},
				{ask: fmt.Sprintf("which write of %s's came after it?", old), is: func(e *core.Event) bool { return e.Seq == send.Seq || e.Seq == d.Seq }},
				{ask: "what did storage's token check make of it?", is: isEvent(d)},
			}
		}
	}
	return nil
}

// hasEvent reports whether run w has an event is accepts.
func hasEvent(w *World, is func(*core.Event) bool) bool {
	for i := range w.Sim.Trace.Len() {
		if is(w.Sim.Trace.At(i)) {
			return true
		}
	}
	return false
}

// electionRecap asks, on the right lock, for the story of one handover
// that woke one waiter: the holder stopping, its key deleted when its
// lease ran out, the one watch that fired, and the successor holding.
var electionRecap = &RecapChain{
	Question: "Tell the story of a handover on the right-hand lock that woke exactly one waiter, with your own run: pick its events, in order, from what happened to the holder to the next one holding.",
	roles: func(w *World) []chainRole {
		tr := w.Sim.Trace
		for _, hw := range wakes(w, queueLock) {
			if hw.Waiters < 2 || len(hw.Woken) != 1 || hw.Woken[0] != hw.Next {
				continue
			}
			var h *core.Event
			for e := range w.ofKind(core.KindHolder) {
				if e.At >= hw.At && e.Lock() == queueLock && e.Owner() == hw.Next {
					h = e
					break
				}
			}
			if h == nil {
				continue
			}
			// The wake that led to h, and the deletion behind it.
			var fire *core.Event
			for _, e := range tr.Chain(h) {
				if e.Kind == core.KindWatchFire {
					fire = e
					break
				}
			}
			prev := ""
			for _, p := range handovers(w, queueLock) {
				if p.Seq < h.Seq {
					prev = p.Owner()
				}
			}
			f, ok := handoverAfterExpiry(w, h, prev)
			if fire == nil || !ok || stallBefore(w, f, anyStall) == nil {
				continue
			}
			// failoverRoles gives the stall, the freeing and the new holder;
			// here the freeing is the key going, and the wake sits before
			// the new holder.
			fr := failoverRoles(w, f, anyStall, false, "who holds the lock now, and with which token?")
			freed := freedRole(f, "")
			return []chainRole{
				fr[0],
				{ask: fmt.Sprintf("what took %s's key away?", prev), is: func(e *core.Event) bool { return freed.is(e) && e.Kind != core.KindFree }},
				{ask: "whom did that wake, and only whom?", is: isEvent(fire)},
				fr[2],
			}
		}
		return nil
	},
}

func init() { electionOrder.RecapChain = electionRecap }

// handsOnRecap asks for the story of the rightful holder locked out: its
// acquisition with the coordinator's token, its write, a write with a
// number the coordinator never issued beating it, and storage refusing
// the holder's next write.
var handsOnRecap = &RecapChain{
	Question: "Tell the story of the rightful holder's write storage refused, with your own run: pick its events, in order, from where its token came from to the refusal.",
	roles: func(w *World) []chainRole {
		tr := w.Sim.Trace
		issued := map[int64]bool{}
		for h := range w.ofKind(core.KindHolder) {
			issued[h.Token()] = true
		}
		for d := range w.ofKind(core.KindWrite) {
			cs := d.Causes()
			if d.Result() != core.RejectedStale || issued[d.Highest()] || len(cs) < 2 {
				continue
			}
			forged := tr.Event(cs[1]) // the write that set the highest token
			var h *core.Event
			for e := range w.ofKind(core.KindHolder) {
				if e.Seq < d.Seq && e.Owner() == d.From() && e.Token() == d.Token() {
					h = e
				}
			}
			if h == nil || forged == nil || forged.Kind != core.KindWrite || forged.Token() != d.Highest() {
				continue
			}
			owner, tok := h.Owner(), h.Token()
			wrote := func(e *core.Event) bool {
				return e.Seq > h.Seq && e.Seq < forged.Seq && e.Token() == tok &&
					(e.Kind == core.KindWrite && e.From() == owner && e.Result() == core.Accepted ||
						e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == owner && decisionOf(w, e) != nil && decisionOf(w, e).Result() == core.Accepted)
			}
			if !hasEvent(w, wrote) {
				continue
			}
			return []chainRole{
				acquisitionRole(h, fmt.Sprintf("where did %s's token come from?", owner)),
				{ask: fmt.Sprintf("what had storage already taken from %s?", owner), is: wrote},
				{ask: "which write beat it, and where did its number come from?", is: func(e *core.Event) bool {
					return e.Seq == forged.Seq || len(forged.Causes()) > 0 && e.Seq == forged.Causes()[0]
				}},
				{ask: fmt.Sprintf("what did storage do with %s's next write?", owner), is: isEvent(d)},
			}
		}
		return nil
	},
}

func init() { handsOnLab.RecapChain = handsOnRecap }

// stateMachineRecap asks for the story of the zombie's write: what the
// cut-off leader's lease last rested on, the cut, the coordinator's
// expiry, the next leader's token and write, and the zombie's write, sent
// after it had learned its lease was gone, refused by storage.
var stateMachineRecap = &RecapChain{
	Question: "Tell the story of a write the old leader sent after it knew its lease was gone, with your own run: pick its events, in order, from what its lease last rested on to storage's verdict.",
	roles: func(w *World) []chainRole {
		tr := w.Sim.Trace
		for d := range w.ofKind(core.KindWrite) {
			if d.Result() != core.RejectedStale || len(d.Causes()) == 0 {
				continue
			}
			send := tr.Event(d.Causes()[0])
			lost := false
			for e := range w.ofKind(core.KindLeaseLost) {
				lost = lost || e.Actor == d.From() && send != nil && e.Seq < send.Seq
			}
			if !lost {
				continue
			}
			roles := lateWriteRoles(w, d, func(v *core.Event) bool {
				return v.Kind == core.KindWrite && v.Result() == core.RejectedStale
			})
			if len(roles) == 7 && allPresent(w, roles) {
				return roles
			}
		}
		return nil
	},
}

func init() { stateMachine.RecapChain = stateMachineRecap }

// allPresent reports whether run w has an event for every link of roles.
func allPresent(w *World, roles []chainRole) bool {
	for _, r := range roles {
		if !hasEvent(w, func(e *core.Event) bool { return e.Kind != core.KindAction && r.is(e) }) {
			return false
		}
	}
	return true
}

// isLock accepts one lock by name.
func isLock(name string) func(string) bool {
	return func(l string) bool { return l == name }
}

// isShardLock accepts a shard's lock.
func isShardLock(l string) bool { return strings.HasPrefix(l, shardPrefix) }
