package lessons

import (
	"fmt"

	"leaselab/core"
)

// Exercise 2's feedback: each part of a run judged against the stated
// bounds (judgeShardRun), and the learner's placement of the data.

// judgeShardRun marks the run: balance and load from the world before any
// fault, the failover from the worst crash moment, the false failovers
// from the worst pause start, and the stale owner from the run with both.
func judgeShardRun(d ShardDesign, m ShardMeasure) []Feedback {
	return []Feedback{shardBalance(d, m), shardLoad(d, m), shardFailover(d, m), shardFalseFailovers(d, m), shardStaleOwner(d, m)}
}

// shardBalance: how far apart the live workers' shard counts were.
func shardBalance(d ShardDesign, m ShardMeasure) Feedback {
	var b because
	var bal Feedback
	switch {
	case b.claim(float64(m.Max-m.Min), "<=", designImbalance):
		bal = b.feedback("Balance", true, "Every live worker owned %s to %s shards: within %s of each other.", b.runN(float64(m.Min)), b.runN(float64(m.Max)), b.givenN(designImbalance))
	case d.Assign == core.AssignGreedy:
		bal = b.feedback("Balance", false, "Greedy claiming let the first workers take everything: %s shards on one worker, %s on another.", b.runN(float64(m.Max)), b.runN(float64(m.Min)))
	default:
		b.state(float64(m.Max-m.Min), ">", designImbalance)
		bal = b.feedback("Balance", false, "Workers owned %s to %s shards, more than %s apart.", b.runN(float64(m.Min)), b.runN(float64(m.Max)), b.givenN(designImbalance))
	}
	return bal
}

// shardLoad: the coordinator's renewal load against the bound.
func shardLoad(d ShardDesign, m ShardMeasure) Feedback {
	var bl because
	rate := loadRound(m.RenewRate)
	var load Feedback
	// Every worker also renews its own session lease: with one lease per
	// shard that is 1,040 leases, not 1,000.
	leases := designWorkers
	what := "the 40 workers' sessions"
	if d.LeasePerShard {
		leases += designShards
		what = "1,000 shard leases and the 40 workers' sessions"
	}
	if bl.claim(rate, "<=", designRenewLoad) {
		load = bl.feedback("Coordinator load", true, "%s, within the %s bound.", loadPhrase(rate, bl.runN(rate)), bl.givenN(designRenewLoad))
	} else {
		bl.state(rate, ">", designRenewLoad)
		load = bl.feedback("Coordinator load", false, "%s, over the %s bound: %s (%s leases) are each renewed every %s. Renew less often.", loadPhrase(rate, bl.runN(rate)), bl.givenN(designRenewLoad), what, bl.givenN(float64(leases)), bl.given(d.Renew))
	}
	return load
}

// shardFailover: the worst crash moment's failover against the budget.
func shardFailover(d ShardDesign, m ShardMeasure) Feedback {
	var bf because
	var re Feedback
	w := m.WorstCrash()
	at := w.At
	switch {
	case w.Victim == 0:
		re = bf.feedback("Failover", false, "%s owned no shard when it crashed at %s, so there was nothing to take over: the assignment left it idle.", designVictim, bf.moment(at))
	case w.Stuck > 0 && d.Assign == core.AssignStatic:
		re = bf.feedback("Failover", false, "%s of %s's shards were never taken over: under a static hash no one else may own them.", bf.runN(float64(w.Stuck)), designVictim)
	case w.Stuck > 0:
		re = bf.feedback("Failover", false, "%s of %s's shards %s never taken over before the run ended (crash at %s).", bf.runN(float64(w.Stuck)), designVictim, pluralS(w.Stuck, "was", "were"), bf.moment(at))
	case bf.claimD(w.Reassign, "<=", designReassign):
		// "The worst": no other crash moment took longer.
		for _, x := range m.Crashes {
			bf.stateD(x.Reassign, "<=", w.Reassign)
		}
		re = bf.feedback("Failover", true, "Of %s crash moments over one renewal interval, the slowest to recover was the crash at %s, and even then %s's shards all had new owners %s after the crash, within %s: %s",
			bf.runN(float64(len(m.Crashes))), bf.moment(at), designVictim, bf.run(w.Reassign), bf.given(designReassign), failoverParts(&bf, d, w))
	case m.OverBudget:
		re = bf.feedback("Failover", false, "A crash at %s left %s's shards without owners for %s, over %s: %s Shorten the TTL: both parts grow with it.", bf.moment(at), designVictim, bf.run(w.Reassign), bf.given(designReassign), failoverParts(&bf, d, w))
	default:
		bf.stateD(w.Reassign, ">", designReassign)
		for _, x := range m.Crashes {
			bf.stateD(x.Reassign, "<=", w.Reassign)
		}
		re = bf.feedback("Failover", false, "Of %s crash moments over one renewal interval, the slowest to recover was the crash at %s: it left %s's shards without owners for %s, over %s: %s Shorten the TTL: both parts grow with it.",
			bf.runN(float64(len(m.Crashes))), bf.moment(at), designVictim, bf.run(w.Reassign), bf.given(designReassign), failoverParts(&bf, d, w))
	}
	return re
}

// shardFalseFailovers: whether a live worker's pause cost it shards,
// and whether the policy leaves room for a missed renewal.
func shardFalseFailovers(d ShardDesign, m ShardMeasure) Feedback {
	var bg because
	var ff Feedback
	gc := m.WorstPausePhase()
	owned := false
	for _, p := range m.Pauses {
		owned = owned || p.Owned > 0
	}
	switch {
	case !owned:
		ff = bg.feedback("False failovers", false, "%s owned no shard when it paused, so its pause tested nothing.", designGCWorker)
	case gc.Lost > 0:
		// The simulator loses no renewal: the pause alone held one up.
		why := "The pause alone held its renewal back past the TTL."
		left := d.TTL - d.Renew
		switch {
		case bg.claimD(left, "<", designGCPause):
			why = fmt.Sprintf("The pause alone did it: a lease renewed every %s with a %s TTL has only %s left just before a renewal, less than the %s pause.", bg.given(d.Renew), bg.given(d.TTL), bg.derived(left), bg.given(designGCPause))
		case bg.claimD(left, "==", designGCPause):
			why = fmt.Sprintf("The pause alone did it: a lease renewed every %s with a %s TTL has only %s left just before a renewal, no more than the %s pause, and nothing for the renewal's trip to the coordinator.", bg.given(d.Renew), bg.given(d.TTL), bg.derived(left), bg.given(designGCPause))
		}
		ff = bg.feedback("False failovers", false, "A %s pause of %s beginning at %s cost it %s of its %s shards, though it was alive. %s",
			bg.given(designGCPause), designGCWorker, bg.moment(gc.At), bg.runN(float64(gc.Lost)), bg.runN(float64(gc.Owned)), why)
	case bg.claimD(d.Policy().Need, ">", d.TTL):
		ff = bg.feedback("False failovers", false, "No start of %s's %s pause (%s moments over one renewal interval) cost it a shard, but only because no renewal went missing: the lease policy rule asks for 2 × %s + %s = %s, more than the %s TTL. One keepalive lost during a pause would cost every lease it covers. Renew more often or lengthen the TTL.",
			designGCWorker, bg.given(designGCPause), bg.runN(float64(len(m.Pauses))), bg.given(d.Renew), bg.given(designGCPause), bg.derived(d.Policy().Need), bg.given(d.TTL))
	case !d.Policy().OK:
		// Zero margin, or no more than the round trip: the retry after a
		// missed renewal lands as the leases end, and is refused.
		pol := d.Policy()
		bg.stateD(pol.Need, "<=", d.TTL)
		bg.stateD(pol.Margin, "<=", designRoundTrip)
		ff = bg.feedback("False failovers", false, "No start of %s's %s pause (%s moments over one renewal interval) cost it a shard, but only because no renewal went missing: 2 × %s + %s = %s leaves %s of the %s TTL to spare, no more than the %s round trip. If the keepalive sent on waking is lost, the next one reaches the coordinator as the leases end, and a renewal that arrives at the expiry is refused: the rule wants more than the round trip to spare.",
			designGCWorker, bg.given(designGCPause), bg.runN(float64(len(m.Pauses))), bg.given(d.Renew), bg.given(designGCPause), bg.derived(pol.Need), bg.derived(pol.Margin), bg.given(d.TTL), bg.given(designRoundTrip))
	default:
		pol := d.Policy()
		bg.stateD(pol.Need, "<", d.TTL)
		bg.stateD(pol.Margin, ">", designRoundTrip)
		ff = bg.feedback("False failovers", true, "%s's %s pause cost it no shard, whichever of %s moments over one renewal interval it began at, and the %s TTL leaves room for a missed renewal too: 2 × %s + %s = %s, with %s to spare, more than the %s round trip.",
			designGCWorker, bg.given(designGCPause), bg.runN(float64(len(m.Pauses))), bg.given(d.TTL), bg.given(d.Renew), bg.given(designGCPause), bg.derived(pol.Need), bg.derived(pol.Margin), bg.given(designRoundTrip))
	}
	return ff
}

// shardStaleOwner: whether the frozen worker's stale commits landed.
func shardStaleOwner(d ShardDesign, m ShardMeasure) Feedback {
	var bs because
	var st Feedback
	switch {
	case m.SleeperOwned == 0:
		st = bs.feedback("Stale owner", false, "%s owned no shard when it froze at %s, so there was no stale owner to stop.", designSleeper, bs.given(designPauseAt))
	case m.StaleCommits > 0:
		st = bs.feedback("Stale owner", false, "%s offset commits from the frozen %s were accepted after new owners had committed: offsets went backwards. Commit with the shard's token and have the store refuse older ones.", bs.runN(float64(m.StaleCommits)), designSleeper)
	case !d.Fenced:
		st = Feedback{Part: "Stale owner", Why: fmt.Sprintf("%s's commits did not land this time, but nothing stops them: without token checks, a stale commit is accepted.", designSleeper)}
	default:
		st = Feedback{Part: "Stale owner", OK: true, Why: fmt.Sprintf("%s froze past its leases and woke still believing it owned its shards; the offset store refused its older tokens.", designSleeper)}
	}
	return st
}

// failoverParts says what a crash's failover was made of, as measured in
// its run: the wait for the dead worker's leases to expire (nobody may
// claim a shard before), then the survivors' scans, every third of the
// TTL and up to half again, finding and claiming the freed shards.
func failoverParts(b *because, d ShardDesign, w CrashPhase) string {
	if w.Expired <= 0 || w.Expired > w.Reassign {
		return fmt.Sprintf("nobody may claim a shard until its %s lease expires, and the survivors find freed shards only by their scans.", b.given(d.TTL))
	}
	return fmt.Sprintf("%s of waiting until the coordinator expired the last of its leases (up to the %s TTL from their last renewal, found by the coordinator's half-second sweep; nobody may claim a shard before), then %s until the survivors' scans, every third of the TTL and up to half again, found and claimed the last freed shard.",
		b.run(w.Expired), b.given(d.TTL), b.diff(w.Reassign, w.Expired))
}

func judgePlacement(a Answer) []Feedback {
	var wrong []string
	missing := 0
	for _, it := range shardItems {
		got := a.choice("place-" + it.id)
		want := "store"
		if it.coord {
			want = "coordinator"
		}
		switch got {
		case "":
			missing++
		case want:
		default:
			wrong = append(wrong, it.why)
		}
	}
	const part = "Where the data lives"
	var b because
	switch {
	case len(wrong) == 0 && missing == 0:
		return []Feedback{{Part: part, OK: true, Why: "The coordinator keeps small, rarely changing facts that need one authority (leases, tokens, members); everything that moves with the data stays with the data."}}
	case len(wrong) == 0:
		return []Feedback{b.feedback(part, false, "%s of the items are not placed.", b.derivedN(float64(missing)))}
	case len(wrong) == 1:
		return []Feedback{{Part: part, Why: wrong[0]}}
	}
	return []Feedback{b.feedback(part, false, "%s items are misplaced. For example: %s", b.derivedN(float64(len(wrong))), wrong[0])}
}
