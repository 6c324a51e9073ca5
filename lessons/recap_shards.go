package lessons

import (
	"fmt"
	"strings"

	"leaselab/core"
)

// Recap questions of the shard lessons: a stopped worker's shard moved on
// with a newer token, and the offset store refused the worker's late
// commit with the old one.

// lateCommitQuestion is the shard lessons' recap question.
const lateCommitQuestion = "Tell the story of the offset commit the store refused, with your own run: pick its events, in order, from why the worker's shard lease ran out to the store's verdict."

var shardsRecap = &RecapChain{Question: lateCommitQuestion, roles: lateCommitRoles}

func init() { shards.RecapChain = shardsRecap }

var troubleshootingRecap = &RecapChain{Question: lateCommitQuestion, roles: lateCommitRoles}

func init() { troubleshooting.RecapChain = troubleshootingRecap }

// lateCommitRoles are the links of the late commit argument: the worker's
// stall, the expiry freeing its shard, another worker claiming it with a
// newer token, the stalled worker carrying on (it woke, or its link
// healed), its commit with the old token and the store refusing it.
func lateCommitRoles(w *World) []chainRole {
	tr := w.Sim.Trace
	for d := range w.ofKind(core.KindOffset) {
		if d.Result() != core.RejectedStale {
			continue
		}
		old := d.From()
		var send *core.Event
		for _, e := range tr.Chain(d) {
			if e.Kind == core.KindSend {
				send = e
				break
			}
		}
		// The claim that set the store's highest token for d's shard.
		var own *core.Event
		for e := range w.ofKind(core.KindShardOwn) {
			if e.Seq < d.Seq && e.Shard() == d.Shard() && e.Token() == d.Highest() && e.Actor != old {
				own = e
			}
		}
		if send == nil || own == nil {
			continue
		}
		var h *core.Event
		for e := range w.ofKind(core.KindHolder) {
			if e.Seq < own.Seq && e.Owner() == own.Actor && e.Token() == own.Token() && strings.HasSuffix(e.Lock(), fmt.Sprintf("-%03d", d.Shard())) {
				h = e
			}
		}
		if h == nil {
			continue
		}
		f, ok := handoverAfterExpiry(w, h, old)
		if !ok {
			continue
		}
		st := stallBefore(w, f, anyStall)
		if st == nil {
			continue
		}
		s, _ := stallOf(w, st)
		if !s.covers(h) || s.end < 0 || s.end > send.Seq {
			continue
		}
		roles := failoverRoles(w, f, anyStall, false, "who claimed the shard, and with which token?")
		roles[0].ask = fmt.Sprintf("why did %s's shard lease stop being renewed?", old)
		roles[1].ask = "what freed the shard?"
		end := s.end
		roles = append(roles,
			chainRole{ask: fmt.Sprintf("what let %s act again, knowing nothing of that?", old), is: func(e *core.Event) bool { return e.Seq == end }},
			chainRole{ask: fmt.Sprintf("which of %s's messages came too late?", old), is: func(e *core.Event) bool { return e.Seq == send.Seq || e.Seq == d.Seq }},
			chainRole{ask: "what did the offset store do with it?", is: isEvent(d)})
		if allPresent(w, roles) {
			return roles
		}
	}
	return nil
}
