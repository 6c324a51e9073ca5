package lessons

import (
	"fmt"
	"time"

	"leaselab/core"
)

// Exercise 2's stated bounds for 1,000 partitions over 40 workers.
const (
	designShards    = 1000
	designWorkers   = 40
	designImbalance = 2   // most minus fewest shards per live worker
	designRenewLoad = 500 // lease renewals per second at the coordinator
	designReassign  = 30 * time.Second
	designCrashAt   = 60 * time.Second
	designPauseAt   = 100 * time.Second
	designVictim    = "worker-07" // crashes
	designSleeper   = "worker-21" // pauses past its leases
)

// ShardDesign is a learner's shard-ownership design.
type ShardDesign struct {
	TTL, Renew    time.Duration
	LeasePerShard bool
	Assign        core.AssignRule
	Fenced        bool
}

// ShardMeasure is what the simulator measured of a design.
type ShardMeasure struct {
	// Min and Max are the fewest and most shards a live worker owned
	// before the crash.
	Min, Max int
	// RenewRate is lease renewals per second at the coordinator.
	RenewRate float64
	// Reassign is how long the crashed worker's shards took to find new
	// owners; Stuck counts those that never did.
	Reassign time.Duration
	Stuck    int
	// StaleCommits counts offset commits a paused, superseded owner made
	// that the offset store accepted.
	StaleCommits int
}

// MeasureShardDesign runs the design: 1,000 shards, 40 workers; at 60 s
// worker-07 crashes; at 100 s worker-21 freezes for the TTL plus 5 s.
func MeasureShardDesign(d ShardDesign) (ShardMeasure, error) {
	s, err := core.NewShards(1, core.ShardsConfig{
		Shards: designShards, Workers: designWorkers, TTL: d.TTL, RenewEvery: d.Renew,
		LeasePerShard: d.LeasePerShard, Assign: d.Assign, ScanJitter: 0.5,
		CommitEvery: time.Second, Fencing: d.Fenced, Stagger: 50 * time.Millisecond,
	})
	if err != nil {
		return ShardMeasure{}, err
	}
	s.Trace.Quiet = true
	pause := d.TTL + 5*time.Second
	s.Schedule(core.ActionLog{
		core.At(designCrashAt, core.Action{Do: "crash", Proc: designVictim}),
		core.At(designPauseAt, core.Action{Do: "pause", Proc: designSleeper, For: core.Duration(pause)}),
	})
	var m ShardMeasure
	s.RunUntil(20 * time.Second)
	r0 := s.Coord.Renewals
	s.RunUntil(designCrashAt - time.Second)
	m.RenewRate = float64(s.Coord.Renewals-r0) / (designCrashAt - time.Second - 20*time.Second).Seconds()
	st := s.ShardStats()
	m.Min, m.Max = st.Min, st.Max
	var victim []int
	for _, w := range s.Workers() {
		if w.Name() == designVictim {
			victim = w.Owned()
		}
	}
	s.RunUntil(designPauseAt + pause + 10*time.Second)

	waiting := map[int]bool{}
	for _, sh := range victim {
		waiting[sh] = true
	}
	for _, e := range s.Trace.Events {
		switch {
		case e.Kind == core.KindShardOwn && e.At > designCrashAt && waiting[int(e.Int("shard"))] && e.Actor != designVictim:
			delete(waiting, int(e.Int("shard")))
			m.Reassign = max(m.Reassign, e.At-designCrashAt)
		case e.Kind == core.KindStale && e.Get("from") == designSleeper:
			m.StaleCommits++
		}
	}
	m.Stuck = len(waiting)
	return m, nil
}

// shardItems are the data the learner places, with where each belongs.
var shardItems = []struct {
	id, label string
	coord     bool
	why       string
}{
	{"leases", "Shard ownership leases (shard-042 belongs to worker-07 until its TTL runs out)", true,
		"Ownership leases live in the coordinator: they are small, change only when ownership changes, and must expire on one authoritative clock."},
	{"tokens", "The fencing token of each ownership (the lease key's revision)", true,
		"Tokens are issued by the coordinator: only its single ordered history can number ownerships so that newer is always higher."},
	{"workers", "Worker identities and liveness (one session per worker)", true,
		"Membership is coordination state: the live-worker list is what the fair-share rule divides by, and a session expiring is how a dead worker is noticed."},
	{"offsets", "Each shard's committed stream offset", false,
		"Offsets move with every batch (1,000 shards committing every second): far too hot for a coordinator, and they must commit together with the records they describe."},
	{"records", "Processed records and their results", false,
		"Records are the data itself; a coordinator holds kilobytes of metadata, not a stream."},
	{"last-token", "The highest token each shard's offset was committed with", false,
		"The highest accepted token sits next to the offset, in the store, so the store itself can refuse a stale owner's commit."},
}

func shardQuestions() []Question {
	qs := []Question{
		{ID: "granularity", Text: "Lease granularity", Options: []Option{
			{"per-shard", "One lease per shard (1,000 leases)"},
			{"per-worker", "One lease per worker; its shard keys ride on it"},
		}},
		{ID: "assignment", Text: "Assignment rule", Options: []Option{
			{"fair-share", "Fair share: claim free shards up to shards / live workers (rounded up), give extras back"},
			{"greedy", "Greedy: claim every free shard you see"},
			{"static", "Static hash: worker i owns the shards numbered i mod 40"},
		}},
		{ID: "offsets", Text: "Offset commits", Options: []Option{
			{"fenced", "Carry the shard's token; the store refuses tokens below the highest it has seen"},
			{"plain", "Plain commits: the store keeps whatever arrives last"},
		}},
	}
	for _, it := range shardItems {
		qs = append(qs, Question{ID: "place-" + it.id, Text: "Where does this live? " + it.label, Options: []Option{
			{"coordinator", "Coordination service"},
			{"store", "Stream or database"},
		}})
	}
	return qs
}

var exShards = &Exercise{
	ID:    "shard-design",
	Title: "Shard ownership for 1,000 partitions and 40 workers",
	Brief: []string{
		"A stream of 1,000 partitions is processed by 40 workers. Design who owns which partition: the lease granularity, TTL and renewal interval, the assignment rule, and how offsets are committed. Then sort the data between the coordination service and the stream or database.",
		"The simulator runs your design: the workers start, worker-07 crashes at 60 s, and at 100 s worker-21 freezes for longer than its TTL. Bounds: at most 2 shards between the busiest and the idlest worker; at most 500 lease renewals per second at the coordinator; every shard of the crashed worker owned again within 30 s; no offset overwritten by a stale owner.",
	},
	Numbers: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 2, Max: 120, Step: 1, Default: 60},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 0.5, Max: 60, Step: 0.5, Default: 1},
	},
	Questions: shardQuestions(),
	Reference: Answer{
		Numbers: map[string]float64{"ttl": 15, "renew": 5},
		Choices: map[string][]string{
			"granularity": {"per-shard"}, "assignment": {"fair-share"}, "offsets": {"fenced"},
			"place-leases": {"coordinator"}, "place-tokens": {"coordinator"}, "place-workers": {"coordinator"},
			"place-offsets": {"store"}, "place-records": {"store"}, "place-last-token": {"store"},
		},
	},
	Worked: []string{
		"One lease per shard, as the seed's Example 2 does: ownership moves shard by shard, a dead worker's shards spread over everyone, and each ownership gets its own fencing token. With batched keepalives (one request per worker carrying its 25 leases) a TTL of 15 s renewed every 5 s costs 1,000 / 5 = 200 lease renewals per second: light. A 60 s TTL would leave the dead worker's shards idle for up to a minute, and renewing every second would be 1,000 per second for nothing.",
		"Fair share bounds the imbalance at one or two shards (1,000 / 40 = 25 each); greedy lets the first worker grab everything, and a static hash never moves a dead worker's shards at all.",
		"Offsets carry the shard token and the store refuses older ones, so the frozen worker-21 cannot overwrite what its successor committed. The coordinator holds only small, slow-changing facts (leases, tokens, members); offsets, records and the highest token seen per shard stay with the data.",
	},
	Format: `{
  "numbers": { "ttl": 15, "renew": 5 },
  "choices": {
    "granularity": ["per-shard" | "per-worker"],
    "assignment":  ["fair-share" | "greedy" | "static"],
    "offsets":     ["fenced" | "plain"],
    "place-leases": ["coordinator" | "store"],   and likewise
    "place-tokens", "place-workers", "place-offsets", "place-records",
    "place-last-token"
  }
}`,
}

func init() { exShards.start = checkShards }

func checkShards(a Answer) Job {
	e := exShards
	d := ShardDesign{
		TTL:           time.Duration(e.Number(a, "ttl") * float64(time.Second)),
		Renew:         time.Duration(e.Number(a, "renew") * float64(time.Second)),
		LeasePerShard: a.choice("granularity") != "per-worker",
		Fenced:        a.choice("offsets") == "fenced",
	}
	switch a.choice("assignment") {
	case "greedy":
		d.Assign = core.AssignGreedy
	case "static":
		d.Assign = core.AssignStatic
	}
	var parts []Feedback
	for _, q := range []string{"granularity", "assignment", "offsets"} {
		if a.choice(q) == "" {
			parts = append(parts, Feedback{Part: e.Question(q).Text, Why: "Not chosen."})
		}
	}
	if d.Renew >= d.TTL {
		parts = append(parts, Feedback{Part: "Design", Why: fmt.Sprintf("Renewing every %s with a %s TTL lets every lease lapse before it is renewed: renew well within the TTL.", secs(d.Renew), secs(d.TTL))})
		return finished(append(parts, judgePlacement(a)...))
	}
	m, err := MeasureShardDesign(d)
	if err != nil {
		parts = append(parts, Feedback{Part: "Design", Why: "The design could not run: " + err.Error()})
		return finished(append(parts, judgePlacement(a)...))
	}
	parts = append(parts, judgeShardRun(d, m)...)
	parts = append(parts, judgePlacement(a)...)
	figs := []string{
		fmt.Sprintf("Shards per live worker before the crash: %d to %d (fair share %d).", m.Min, m.Max, (designShards+designWorkers-1)/designWorkers),
		fmt.Sprintf("Lease renewals at the coordinator: %.0f per second.", m.RenewRate),
		fmt.Sprintf("%s's shards found new owners after %s; %d never did.", designVictim, secs(m.Reassign), m.Stuck),
		fmt.Sprintf("Stale offset commits from %s accepted: %d.", designSleeper, m.StaleCommits),
	}
	return finished(parts, figs...)
}

func judgeShardRun(d ShardDesign, m ShardMeasure) []Feedback {
	bal := Feedback{Part: "Balance", OK: m.Max-m.Min <= designImbalance}
	switch {
	case bal.OK && m.Min == m.Max:
		bal.Why = fmt.Sprintf("Every live worker owned exactly %d shards.", m.Min)
	case bal.OK:
		bal.Why = fmt.Sprintf("Every live worker owned %d to %d shards: within 2 of each other.", m.Min, m.Max)
	case d.Assign == core.AssignGreedy:
		bal.Why = fmt.Sprintf("Greedy claiming let the first workers take everything: %d shards on one worker, %d on another.", m.Max, m.Min)
	default:
		bal.Why = fmt.Sprintf("Workers owned %d to %d shards, more than 2 apart.", m.Min, m.Max)
	}
	load := Feedback{Part: "Coordinator load", OK: m.RenewRate <= designRenewLoad}
	if load.OK {
		load.Why = fmt.Sprintf("%.0f lease renewals per second, under the 500 bound.", m.RenewRate)
	} else {
		load.Why = fmt.Sprintf("%.0f lease renewals per second, over the 500 bound: every lease is renewed every %s. Renew less often (a third of the TTL is the usual choice).", m.RenewRate, secs(d.Renew))
	}
	re := Feedback{Part: "Failover", OK: m.Stuck == 0 && m.Reassign <= designReassign}
	switch {
	case m.Stuck > 0 && d.Assign == core.AssignStatic:
		re.Why = fmt.Sprintf("%d of %s's shards were never taken over: under a static hash no one else may own them.", m.Stuck, designVictim)
	case m.Stuck > 0:
		re.Why = fmt.Sprintf("%d of %s's shards were never taken over before the run ended.", m.Stuck, designVictim)
	case re.OK:
		re.Why = fmt.Sprintf("%s's shards all had new owners %s after the crash, within 30 s.", designVictim, secs(m.Reassign))
	default:
		re.Why = fmt.Sprintf("%s's shards took %s to find new owners, over 30 s: nobody may claim them until their %s leases expire. Shorten the TTL.", designVictim, secs(m.Reassign), secs(d.TTL))
	}
	st := Feedback{Part: "Stale owner", OK: m.StaleCommits == 0}
	if st.OK {
		st.Why = fmt.Sprintf("%s froze past its leases and woke still believing it owned its shards; the offset store refused its older tokens.", designSleeper)
		if !d.Fenced {
			st.Why = fmt.Sprintf("%s's commits did not land this time, but nothing stops them: without token checks, a stale commit is accepted.", designSleeper)
			st.OK = false
		}
	} else {
		st.Why = fmt.Sprintf("%d offset commits from the frozen %s were accepted after new owners had committed: offsets went backwards. Commit with the shard's token and have the store refuse older ones.", m.StaleCommits, designSleeper)
	}
	return []Feedback{bal, load, re, st}
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
	f := Feedback{Part: "Where the data lives", OK: len(wrong) == 0 && missing == 0}
	switch {
	case f.OK:
		f.Why = "The coordinator keeps small, rarely changing facts that need one authority (leases, tokens, members); everything that moves with the data stays with the data."
	case len(wrong) == 0:
		f.Why = fmt.Sprintf("%d of the items are not placed.", missing)
	case len(wrong) == 1:
		f.Why = wrong[0]
	default:
		f.Why = fmt.Sprintf("%d items are misplaced. For example: %s", len(wrong), wrong[0])
	}
	return []Feedback{f}
}
