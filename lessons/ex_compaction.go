package lessons

import (
	"time"
)

// Exercise 4's stated conditions: what a night looks like.
const (
	nightLength     = 90 * time.Second
	nightStep       = 2 * time.Second // the leader writes one compaction step this often
	nightLongPause  = 8 * time.Second // the longest pause: the pause budget
	nightFailover   = 30 * time.Second
	nightsChecked   = 1000
	nightsPerCurve  = 100
	nightLinkDelay  = 20 * time.Millisecond
	nightLinkJitter = 1.5  // one-way delay 20-50 ms
	nightLinkDrop   = 0.05 // one leader keepalive in 20 is lost
	// nightRoundTrip is the slowest keepalive round trip (2 x 50 ms): the
	// margin the rule must leave on top, because the coordinator refuses a
	// renewal that arrives at or after the expiry.
	nightRoundTrip = 100 * time.Millisecond
	// nightMaxPerHour bounds this one leader's keepalives: the coordinator
	// serves the whole cluster's locks and sessions.
	nightMaxPerHour = 1800
	// sweepEvery is how often the coordinator finds expired leases: a
	// survivor waits out the lease and up to one sweep more.
	sweepEvery = 500 * time.Millisecond
)

var exCompaction = &Exercise{
	ID:      "compaction-ttl",
	Title:   "A TTL for the nightly compaction leader",
	Summary: "Pick a TTL and renewal for a leader whose duplicate runs are expensive.",
	Minutes: 15,
	Brief: []string{
		"Every night one of three compactors takes a lease and compacts storage, writing one step every 2 s. Two costs pull against each other: if the leader dies, up to 30 s without compaction is fine; but if two compactors work at once, the duplicate run is expensive. Storage does not check tokens.",
		"Choose the TTL and the renewal interval. Your design then runs for 1,000 seeded nights. Each night the leader may pause a few times for 50-300 ms; on one night in ten it also pauses once for 2 to 8 s (8 s is the longest pause); on one night in four it crashes. Messages take 20-50 ms, and one in 20 of the leader's messages to the coordinator is lost.",
		"It passes when the worst failover is at most 30 s; no night has a duplicate compaction step; the lease policy rule 2 × renew + 8 s < TTL holds with more than the slowest keepalive round trip to spare (100 ms: a renewal that reaches the coordinator at the expiry is refused); the leader sends at most 1,800 keepalives an hour (one every 2 s), because the coordinator serves the whole cluster; and the choice follows the priority above: those bounds leave a band of TTLs open, from the shortest the rule allows with the most frequent renewal the coordinator can spare to the longest whose failover fits 30 s, and since a duplicate costs more than a slow failover, your TTL must sit in the upper half of that band. Your written defence is kept beside the verdict; the verdict judges the numbers.",
		"Defend your choice against an alternative: give a second TTL and renewal interval you considered. Before you check, predict for both designs the worst failover and on how many of the 1,000 nights a duplicate step happens, and work out how many keepalives an hour your design sends. The lab then runs both designs over the same nights and shows each prediction beside what it measured. The predictions are feedback, not part of the verdict; the keepalives an hour is arithmetic, and is checked.",
	},
	KeyPoints: []string{
		"Failover after a crash takes up to the whole TTL plus the sweep, so the TTL stays under about 29 s.",
		"The rule 2 × renew + 8 s ≤ TTL, with a little room for the round trip, bounds the TTL from below.",
		"Duplicates are the expensive failure, so lean towards the longer TTL inside that band: a short TTL buys a fast failover the brief does not need.",
		"Renewing more often than needed only loads the coordinator.",
	},
	Hints: []string{
		"Two limits pull against each other: one bounds the TTL from above, the other from below. Which failure is expensive here, and which is merely allowed?",
		"A survivor waits out the rest of a dead leader's lease, so failover can take a whole TTL and a little more. The rule 2 × renew + 8 s ≤ TTL bounds it from below.",
		"The key step: pick the renewal interval first (no more often than every 2 s), then a TTL in whole seconds that exceeds 2 × renew + 8 s by more than the round trip, yet is low enough that the TTL plus the half-second sweep stays within 30 s. Inside that band, lean long.",
	},
	Numbers: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 2, Max: 60, Step: 1, Default: 30, Whole: "etcd grants leases in whole seconds"},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 0.5, Max: 30, Step: 0.5, Default: 10},
		{ID: "alt-ttl", Label: "Alternative you considered: lease TTL", Unit: "s", Min: 2, Max: 60, Step: 1, Default: 20, Whole: "etcd grants leases in whole seconds"},
		{ID: "alt-renew", Label: "Alternative you considered: renew every", Unit: "s", Min: 0.5, Max: 30, Step: 0.5, Default: 4},
		{ID: "est-failover", Label: "Predict, your design: worst failover", Unit: "s", Min: -1, Max: 90, Step: 0.5, Default: -1, Unset: "no prediction"},
		{ID: "est-dup-nights", Label: "Predict, your design: nights with a duplicate", Min: -1, Max: nightsChecked, Step: 1, Default: -1, Unset: "no prediction"},
		{ID: "alt-est-failover", Label: "Predict, the alternative: worst failover", Unit: "s", Min: -1, Max: 90, Step: 0.5, Default: -1, Unset: "no prediction"},
		{ID: "alt-est-dup-nights", Label: "Predict, the alternative: nights with a duplicate", Min: -1, Max: nightsChecked, Step: 1, Default: -1, Unset: "no prediction"},
		{ID: "per-hour", Label: "Work out: keepalives per hour, your design", Unit: "", Min: 0, Max: 7200, Step: 1, Default: 360},
	},
	Reference: Answer{Numbers: map[string]float64{"ttl": 25, "renew": 5, "alt-ttl": 15, "alt-renew": 3, "est-failover": 25.5, "est-dup-nights": 0, "alt-est-failover": 15.5, "alt-est-dup-nights": 0, "per-hour": 720}},
	Worked: []string{
		"Two limits fence in the TTL. Failover: when the leader crashes, the others wait out the rest of its lease, up to a full TTL plus the coordinator's half-second sweep, so the TTL must stay under about 29 s. Safety: the rule needs 2 × renew + 8 s ≤ TTL, so a renewal can be missed and a retry still land after the longest pause, and a little more for the round trip, because a renewal that reaches the coordinator at the expiry is refused.",
		"Inside that band, lean towards the longer TTL, because duplicates are the expensive failure and a slower failover is allowed. TTL 25 s with renewals every 5 s leaves 7 s of margin over the rule (10 + 8 = 18 s) and fails over in at most about 25.5 s. Renewing every 5 s costs 720 keepalives an hour; every half second would be 7,200, a load the coordinator carries for nothing.",
		"The alternative here, TTL 15 s renewed every 3 s, keeps the rule too (14 s is needed) and fails over in about 15.5 s, and over these nights it may well show no duplicate either. It still loses the argument: it spends the slack the brief gives to failover, which is cheap, on speed nobody asked for, and keeps only 1 s of margin against the failure that is expensive, so the brief's priority picks the longer TTL.",
		"TTL 30 s with renewals every 10 s looks right by the rule (28 s ≤ 30 s) but breaks the failover budget. TTL 12 s with renewals every 4 s fails the rule (16 s > 12 s) and lives on luck: a long pause outlives its lease only when it begins late in a renewal cycle or a renewal near it is lost, so of the 93 long-pause nights checked, one ended with a duplicate compaction step. One is already too many.",
	},
	Format: `ttl is the lease TTL in whole seconds (2 to 60: etcd grants leases in
whole seconds, so 12.5 is refused), renew the keepalive interval in seconds
(0.5 to 30); alt-ttl and alt-renew the same for the alternative you weigh
your design against (it must differ from your design). Predictions, made
before the check runs, for your design and for the alternative:
est-failover and alt-est-failover the worst failover in seconds,
est-dup-nights and alt-est-dup-nights on how many of the 1,000 nights a
duplicate step happens. A prediction is optional: leave it out, or give -1,
for none. The check shows each beside what it measured (a failover within
a second, a count within a tenth or one night, counts as close); they never
change the verdict. per-hour is the keepalives an hour your design sends,
worked out (within 1 % counts), and is checked. ttl, renew, alt-ttl,
alt-renew and per-hour must be given.
The check runs your design and the alternative over the same 1,000 nights,
then 100 nights at four TTLs around yours (renewal scaled with it) to draw
the trade-off curve, shown once you pass.`,
}

func init() { exCompaction.start = startCompaction }
