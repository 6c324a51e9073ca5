package lessons

import (
	"time"

	"leaselab/core"
)

// The leases lesson's timetable. The first pause hits A just before a
// renewal (at the first multiple of the renew interval after leasesFirst);
// the rolling restart gives every client a fresh session, so a TTL set with
// set-ttl is in force when the same pause hits A again at leasesSecond.
const (
	leasesLock     = "locks/leader"
	leasesFirst    = 10 * time.Second
	leasesRestartA = 40 * time.Second
	leasesRestartB = 45 * time.Second
	leasesSecond   = 65 * time.Second
)

// leasePolicy is the knobs' lease policy: the coordinator's TTL, the
// client's renew interval and the platform's worst pause.
func leasePolicy(k Knobs) core.LeasePolicy {
	return core.LeasePolicy{TTL: k.Seconds("ttl"), RenewEvery: k.Seconds("renew"), PauseBudget: k.Seconds("pause")}
}

// firstPauseAt is the first renewal instant at or after leasesFirst. A's
// renewals fall a few milliseconds after each multiple of the renew
// interval (its grant takes one round trip), so a pause starting here
// starts just before a renewal: the worst moment.
func firstPauseAt(renew time.Duration) time.Duration {
	n := (leasesFirst + renew - 1) / renew
	return n * renew
}

// effectivePolicy is the policy in force for proc's pause sp: the TTL its
// current lease was granted with, the renew interval it was using (the
// knob, or TTL/3 after a set-ttl) and the pause's length.
func effectivePolicy(w *World, sp pauseSpan) core.LeasePolicy {
	p := core.LeasePolicy{RenewEvery: w.Knobs.Seconds("renew"), PauseBudget: sp.For}
	for e := range w.Sim.Trace.Span(0, sp.Seq) {
		switch {
		case e.Kind == core.KindLeaseGrant && e.Owner() == sp.Proc:
			p.TTL = e.TTL()
		case e.Kind == core.KindSetting && e.Actor == sp.Proc && e.Name() == "ttl":
			p.RenewEvery = e.Amount() / 3
		}
	}
	return p
}

// falseFailover finds the first pause of a leader during which the
// coordinator gave the lock to someone else although the leader had only
// frozen, under a policy that breaks the rule.
func falseFailover(w *World) (pauseSpan, *core.Event, bool) {
	for _, sp := range pauses(w) {
		if !sp.Leader || sp.Crashed || sp.To < 0 || effectivePolicy(w, sp).Check().OK {
			continue
		}
		if h := handoverDuring(w, leasesLock, sp.Proc, sp.From, sp.To); h != nil {
			return sp, h, true
		}
	}
	return pauseSpan{}, nil, false
}

// survivedPause finds a pause of a leader, as long as the knob pause and
// after a false failover, under a policy that keeps the rule, which the
// leader survived: its first renewal after waking was answered and nobody
// else held the lock meanwhile.
func survivedPause(w *World) bool {
	bad, _, ok := falseFailover(w)
	if !ok {
		return false
	}
	for _, sp := range pauses(w) {
		if sp.From <= bad.From || !sp.Leader || sp.To < 0 || sp.Crashed || sp.For < w.Knobs.Seconds("pause") || !effectivePolicy(w, sp).Check().OK {
			continue
		}
		for e := range w.ofKind(core.KindLeaseRenewed) {
			if e.Actor == sp.Proc && e.At >= sp.To && e.How() == "keepalive" {
				if handoverDuring(w, leasesLock, sp.Proc, sp.From, e.At) == nil {
					return true
				}
				break
			}
		}
	}
	return false
}

var leases = &Lesson{
	ID:        "leases",
	Title:     "Leases: acquire, renew, expire",
	Objective: "Find the renewal rule that keeps a paused holder's lease, then set a TTL that keeps it.",
	Summary:   "Acquire, renew and lose a lease; the rule 2 x renew + pause < TTL.",
	Minutes:   8,
	Intro: []string{
		"A lease is a lock that runs out. A asks the coordinator for one with a time to live (TTL), gets the lock, and keeps it only by renewing before the TTL is up. B waits its turn. If A dies, nobody has to clean up: the coordinator lets the lease lapse and hands the lock to B.",
		"Every lease in this lab has the same five parts, whatever the system calls them: the resource it guards (here the lock locks/leader), the owner's identity (A), the TTL, the renewal loop that keeps it alive, and a fencing token that grows with every new owner, for the store to check. A holder that is done releases the lease itself, and the next in line gets the lock at once instead of waiting out the TTL.",
		"The catch is that the coordinator cannot tell a dead process from a frozen one. A garbage-collection pause, a starved CPU or a suspended VM stops A's renewals exactly as a crash would. Pause A for longer than the time its lease has left and the coordinator gives the lock away while A, frozen, still believes it leads: a false failover.",
		"The lease-policy rule keeps room for that: 2 x renew + pause < ttl. A pause that begins just before a renewal finds ttl - renew of the lease left; the rule asks for one renewal interval more, so that the renewal sent on waking may be lost and the next one still lands before expiry. Its own example (ttl 30 s, renew every 10 s, pauses up to 12 s) fails the check by 2 s, yet a 12 s pause alone finds 20 s left and costs nothing: it fails for the missed renewal it keeps room for. Try it on the sliders.",
		"The script pauses A for the pause slider's length, starting just before one of its renewals. At 40 s the team rolls the fleet (each client closes its session and opens a new one) and at 65 s the same pause strikes A again. A set-ttl on a process takes effect with its next session: a lease keeps the TTL it was granted with.",
	},
	Recap: "The coordinator decides expiry on its own clock, from the last renewal it received; the client's belief lags behind. A pause that outlasts what is left of the lease looks like a crash, so the TTL has to exceed the renew interval twice plus the worst pause you expect: once for the lease already used when the pause begins, once for a renewal lost after it. And the TTL belongs to the lease: to change it you need a new session.",
	World: func(seed uint64, k Knobs) (core.World, error) {
		pol := leasePolicy(k)
		if err := pol.Validate(); err != nil {
			return core.World{}, err
		}
		w, err := core.ContentionConfig{
			Names: []string{"A", "B"}, Lock: leasesLock, FirstToken: 1, TTL: pol.TTL, RenewEvery: pol.RenewEvery,
			Stagger: 500 * time.Millisecond, Fencing: true,
		}.World(seed)
		w.Script = core.ActionLog{
			core.At(firstPauseAt(pol.RenewEvery), core.Pause("A", pol.PauseBudget)),
			core.At(leasesRestartA, core.Release("A")),
			core.At(leasesRestartB, core.Release("B")),
			core.At(leasesSecond, core.Pause("A", pol.PauseBudget)),
		}
		return w, err
	},
	Knobs: []Knob{
		{ID: "ttl", Label: "TTL", Unit: "s", Min: 2, Max: 60, Step: 1, Default: 15},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 1, Max: 15, Step: 1, Default: 5},
		{ID: "pause", Label: "Pause", Unit: "s", Min: 1, Max: 20, Step: 1, Default: 4},
	},
	KnobGoal: "false-failover",
	KnobCheck: func(k Knobs) (bool, string) {
		pol := leasePolicy(k)
		if err := pol.Validate(); err != nil {
			return false, err.Error()
		}
		v := pol.Check()
		return v.OK, v.Explanation
	},
	// The seed's first assessment question: renew every 5 s, TTL 12 s,
	// pauses of 9 s.
	SolutionKnobs: Knobs{"ttl": 12, "renew": 5, "pause": 9},
	Duration:      90 * time.Second,
	SandboxPreset: "leases",
	Controls:      []Control{CtlSetTTL, CtlPause, CtlCrash},
	PauseKnob:     "pause",
	Goals: []Goal{
		{
			ID:     "false-failover",
			Text:   "Move the sliders until the pause outlasts what is left of the lease when it begins (renew + pause > ttl: the run loses no renewal, so a policy short only of the missed renewal's room keeps its lock here), and watch the scripted pause make the coordinator give A's lock to B.",
			Proved: "A only froze, yet the coordinator expired its lease and made B the holder: without renewal margin, a pause is indistinguishable from a crash.",
			Met: func(w *World) bool {
				_, _, ok := falseFailover(w)
				return ok
			},
		},
		{
			ID:     "survived",
			Text:   "Then give A a TTL that keeps the rule (set-ttl; it renews every TTL/3) before the rolling restart, and let the same pause hit A at 65 s without a failover.",
			Proved: "With the TTL covering two renew intervals plus the pause, A's first renewal after waking was answered and the lock never moved.",
			Met:    survivedPause,
		},
	},
	Hints: []string{
		"A pause that starts just before a renewal is survived only if renew + pause stays under the TTL. Shorten the TTL or lengthen the pause until it does not.",
		"Make the pause longer than what is left of the lease when it begins just before a renewal (the TTL less one renew interval): B takes over while A is frozen. For A's next session, set-ttl makes A renew every TTL/3, so the rule reads 2 x TTL/3 + pause <= TTL: solve it for the TTL, with your pause, and give A at least that.",
		"For example TTL 10 s, renew every 4 s, pause 8 s: after B takes over (18.5 s), set A's TTL to 30 s. The rolling restart at 40 s gives A a 30 s lease renewed every 10 s; at 45 s A leads again and survives the 8 s pause at 65 s.",
	},
	Missteps: []Misstep{
		{Verb: core.VerbSetTTL, Proc: "A", Why: "Too early: A's first session has not begun, so it would get this TTL from the start and the first pause could not show the false failover. Play until B takes over from the frozen A (about 17.5 s), then set A's TTL."},
		{Proc: "A", Why: "A has not taken the lock yet: B would lead instead, and the scripted pauses would freeze a process that does not lead. Play until A leads (within a second), then try again."},
	},
	Solution: core.ActionLog{
		core.At(18*time.Second, core.SetTTL("A", 30*time.Second)),
	},
}
