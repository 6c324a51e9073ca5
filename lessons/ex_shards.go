package lessons

import (
	"fmt"
	"strings"
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
	designGCAt      = 40 * time.Second
	designGCPause   = 2 * time.Second // an ordinary garbage-collection pause
	designGCWorker  = "worker-13"
	// designPhases is how many crash moments, spread over one renewal
	// interval, the failover is measured at: the time to take over depends
	// on where in its renewal cycle the worker died.
	designPhases = 4
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
	// Victim counts the shards the crashed worker owned when it crashed.
	Victim int
	// FalseFailovers counts shards taken from worker-13 after its short
	// pause, though it was alive and meant to keep them.
	FalseFailovers int
	// GCOwned and SleeperOwned count the shards worker-13 and worker-21
	// owned when they paused: a pause of a worker that owned nothing
	// proves nothing.
	GCOwned, SleeperOwned int
	// RenewWindow is the span the renewal rate was measured over: a whole
	// number of renewal intervals, so the rate is not skewed by a partial
	// round.
	RenewWindow time.Duration
}

// MeasureShardDesign runs the design: 1,000 shards, 40 workers; at 40 s
// worker-13 pauses for 2 s; at 60 s worker-07 crashes; at 100 s worker-21
// freezes for the TTL plus 5 s.
func MeasureShardDesign(d ShardDesign) (ShardMeasure, error) { return measureShards(d, designCrashAt) }

// shardSim builds the design's world, before its faults.
func shardSim(d ShardDesign) (*core.Sim, error) {
	return core.NewShards(1, core.ShardsConfig{
		Shards: designShards, Workers: designWorkers, TTL: d.TTL, RenewEvery: d.Renew,
		LeasePerShard: d.LeasePerShard, Assign: d.Assign, ScanJitter: 0.5,
		CommitEvery: time.Second, Fencing: d.Fenced, Stagger: 50 * time.Millisecond,
	})
}

// ShardLesson is the design's run with the crash at crashAt, to watch in
// the player: the same world and faults the check simulated.
func ShardLesson(d ShardDesign, crashAt time.Duration) *Lesson {
	return &Lesson{
		ID:    "shard-design-run",
		Title: fmt.Sprintf("Your shard design, crash at %s", secs(crashAt)),
		Intro: []string{fmt.Sprintf("The slowest failover of the checked runs: %s crashes at %s. Before that, %s pauses for %s at %s; at %s %s freezes past its TTL.",
			designVictim, secs(crashAt), designGCWorker, secs(designGCPause), secs(designGCAt), secs(designPauseAt), designSleeper)},
		Setup:    func(uint64, Knobs) (*core.Sim, error) { return shardSim(d) },
		Script:   designLog(d, crashAt),
		Duration: designPauseAt + d.TTL + 15*time.Second,
	}
}

// measureShards runs the design with the crash at crashAt.
func measureShards(d ShardDesign, crashAt time.Duration) (ShardMeasure, error) {
	s, err := shardSim(d)
	if err != nil {
		return ShardMeasure{}, err
	}
	s.Trace.Quiet = true
	pause := d.TTL + 5*time.Second
	s.Schedule(designLog(d, crashAt))
	var m ShardMeasure
	s.RunUntil(20 * time.Second)
	r0 := s.Coord.Renewals
	rounds := (designCrashAt - time.Second - 20*time.Second) / d.Renew
	m.RenewWindow = rounds * d.Renew
	s.RunUntil(20*time.Second + m.RenewWindow)
	m.RenewRate = float64(s.Coord.Renewals-r0) / m.RenewWindow.Seconds()
	s.RunUntil(designCrashAt - time.Second)
	st := s.ShardStats()
	m.Min, m.Max = st.Min, st.Max
	var victim []int
	s.RunUntil(crashAt - time.Millisecond)
	for _, w := range s.Workers() {
		if w.Name() == designVictim {
			victim = w.Owned()
		}
	}
	m.Victim = len(victim)
	s.RunUntil(designPauseAt + pause + 10*time.Second)

	waiting := map[int]bool{}
	for _, sh := range victim {
		waiting[sh] = true
	}
	owned := map[string]map[int]bool{designGCWorker: {}, designSleeper: {}}
	gcSeen, sleepSeen := false, false
	for _, e := range s.Trace.Events {
		sh := int(e.Int("shard"))
		if !gcSeen && e.At >= designGCAt {
			gcSeen, m.GCOwned = true, len(owned[designGCWorker])
		}
		if !sleepSeen && e.At >= designPauseAt {
			sleepSeen, m.SleeperOwned = true, len(owned[designSleeper])
		}
		if o := owned[e.Actor]; o != nil {
			switch e.Kind {
			case core.KindShardOwn:
				o[sh] = true
			case core.KindShardDrop:
				delete(o, sh)
			}
		}
		switch {
		case e.Kind == core.KindShardOwn && e.At > crashAt && waiting[sh] && e.Actor != designVictim:
			delete(waiting, sh)
			m.Reassign = max(m.Reassign, e.At-crashAt)
		case e.Kind == core.KindStale && e.Get("from") == designSleeper:
			m.StaleCommits++
		}
		// A shard worker-13 lost because its lease lapsed in the pause
		// (not one it gave back to rebalance).
		if e.Kind == core.KindShardDrop && e.Actor == designGCWorker && e.At >= designGCAt && e.At < designCrashAt && !strings.HasPrefix(e.Get("why"), "rebalance") {
			m.FalseFailovers++
		}
	}
	m.Stuck = len(waiting)
	return m, nil
}

// designLog is the faults every design meets: a short pause, a crash at
// crashAt, and a pause past the TTL.
func designLog(d ShardDesign, crashAt time.Duration) core.ActionLog {
	return core.ActionLog{
		core.At(designGCAt, core.Action{Do: "pause", Proc: designGCWorker, For: core.Duration(designGCPause)}),
		core.At(crashAt, core.Action{Do: "crash", Proc: designVictim}),
		core.At(designPauseAt, core.Action{Do: "pause", Proc: designSleeper, For: core.Duration(d.TTL + 5*time.Second)}),
	}
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
	ID:      "shard-design",
	Title:   "Shard ownership for 1,000 partitions and 40 workers",
	Summary: "Design leases, renewals and rebalancing for 1,000 shards; defend the numbers.",
	Minutes: 20,
	Brief: []string{
		"A stream of 1,000 partitions is processed by 40 workers. Design who owns which partition: the lease granularity, TTL and renewal interval, the assignment rule, and how offsets are committed. Then sort the data between the coordination service and the stream or database.",
		"The simulator runs your design: the workers start; at 40 s worker-13 pauses for 2 s, as garbage collection does now and then; worker-07 crashes at 60 s (the run is repeated with the crash at four moments spread over one renewal interval, because the time to take over depends on where in its renewal cycle the worker dies); and at 100 s worker-21 freezes for longer than its TTL. Bounds: at most 2 shards between the busiest and the idlest worker; at most 500 lease renewals per second at the coordinator; every shard of the crashed worker owned again within 30 s at the worst of those moments; no shard taken from worker-13 for a 2 s pause; no offset overwritten by a stale owner.",
	},
	KeyPoints: []string{
		"Leases, tokens and membership go in the coordinator; offsets, records and the highest token per shard stay with the data.",
		"The TTL bounds failover from above and must cover an ordinary pause plus a missed renewal from below.",
		"Renewal load is leases / renew interval, sessions included; batch keepalives per worker.",
		"Offset commits carry the shard token and the store refuses older ones.",
	},
	Hints: []string{
		"Start from what must not happen: a dead worker's shards idle too long, a live worker losing shards to a short pause, the coordinator drowning in renewals, a stale owner's offset landing. Each bounds one of your choices.",
		"The TTL bounds failover from above (survivors wait out the dead worker's leases) and must cover a 2 s pause plus a missed renewal from below. The renewal interval sets the load: 1,000 leases renewed every r seconds is 1,000 / r renewals a second.",
		"A TTL around 15 s renewed every 5 s keeps every bound; fair share keeps the balance; fenced offset commits stop the frozen worker. Place in the coordinator only what is small and needs one authority.",
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
		"One lease per shard, as in the shard-ownership example (128 shards over 12 workers): ownership moves shard by shard, a dead worker's shards spread over everyone, and each ownership gets its own fencing token. With batched keepalives (one request per worker carrying its 25 leases) a TTL of 15 s renewed every 5 s costs 1,000 / 5 = 200 lease renewals per second: light. A 60 s TTL would leave the dead worker's shards idle for up to a minute, and renewing every second would be 1,000 per second for nothing.",
		"One lease per worker, with its shard keys attached to it, is a valid alternative: it needs one keepalive per worker instead of per shard, so the load drops to 40 / 5 = 8 renewals a second, but a lapse loses all of a worker's shards at once, and the fencing token is then the shard key's revision, not the lease.",
		"Fair share bounds the imbalance at one or two shards (1,000 / 40 = 25 each); greedy lets the first worker grab everything, and a static hash never moves a dead worker's shards at all.",
		"Offsets carry the shard token and the store refuses older ones, so the frozen worker-21 cannot overwrite what its successor committed. The coordinator holds only small, slow-changing facts (leases, tokens, members); offsets, records and the highest token seen per shard stay with the data.",
	},
	Format: `{
  "numbers": { "ttl": 15, "renew": 5 },
  "defence": "your reasoning in a few sentences (kept, not graded)",
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

// shardRunParts are the parts a run of the design decides; with the design
// and placement parts they are always all present, in this order.
var shardRunParts = []string{"Balance", "Coordinator load", "Failover", "False failovers", "Stale owner"}

// shardJob measures a design at each crash phase, one run a step.
type shardJob struct {
	a        Answer
	d        ShardDesign
	measures []ShardMeasure
	err      error
	res      *Result
}

func checkShards(a Answer) Job {
	e := exShards
	var missing []string
	for _, k := range e.Numbers {
		if _, ok := a.Numbers[k.ID]; !ok {
			missing = append(missing, k.Label)
		}
	}
	for _, q := range []string{"granularity", "assignment", "offsets"} {
		if a.choice(q) == "" {
			missing = append(missing, e.Question(q).Text)
		}
	}
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
	design := Feedback{Part: "Design", OK: true, Why: "Every choice is made; the simulator ran the design."}
	switch {
	case len(missing) > 0:
		design = Feedback{Part: "Design", Why: "Not answered: " + strings.Join(missing, ", ") + ". The simulator runs only a whole design; it never fills in a choice for you."}
	case d.Renew >= d.TTL:
		var b because
		b.stateD(d.Renew, ">=", d.TTL)
		design = b.feedback("Design", false, "Renewing every %s with a %s TTL lets every lease lapse before it is renewed: renew well within the TTL.", b.given(d.Renew), b.given(d.TTL))
	}
	if !design.OK {
		parts := []Feedback{design}
		for _, p := range shardRunParts {
			parts = append(parts, Feedback{Part: p, Why: "Not run: the design is not complete."})
		}
		return finished(append(parts, judgePlacement(a)...))
	}
	return &shardJob{a: a, d: d}
}

func (j *shardJob) Progress() float64 { return float64(len(j.measures)) / designPhases }

func (j *shardJob) Step(n int) bool {
	for ; n > 0 && len(j.measures) < designPhases && j.err == nil; n-- {
		k := time.Duration(len(j.measures))
		m, err := measureShards(j.d, designCrashAt+k*j.d.Renew/designPhases)
		if err != nil {
			j.err = err
			break
		}
		j.measures = append(j.measures, m)
	}
	return len(j.measures) == designPhases || j.err != nil
}

func (j *shardJob) Result() Result {
	if j.res != nil {
		return *j.res
	}
	parts := []Feedback{{Part: "Design", OK: true, Why: "Every choice is made; the simulator ran the design."}}
	if j.err != nil {
		parts[0] = Feedback{Part: "Design", Why: "The design could not run: " + j.err.Error()}
		for _, p := range shardRunParts {
			parts = append(parts, Feedback{Part: p, Why: "Not run."})
		}
		r := result(append(parts, judgePlacement(j.a)...))
		j.res = &r
		return r
	}
	m := j.measures[0]
	worst := 0
	for i, x := range j.measures {
		if x.Stuck > j.measures[worst].Stuck || x.Stuck == j.measures[worst].Stuck && x.Reassign > j.measures[worst].Reassign {
			worst = i
		}
	}
	parts = append(parts, judgeShardRun(j.d, m, j.measures[worst], worst)...)
	parts = append(parts, judgePlacement(j.a)...)
	w := j.measures[worst]
	figs := []string{
		fmt.Sprintf("Shards per live worker before the crash: %d to %d (fair share %d).", m.Min, m.Max, (designShards+designWorkers-1)/designWorkers),
		fmt.Sprintf("Lease renewals at the coordinator: %s per second (over %s, a whole number of renewal rounds).", num(roundTo(m.RenewRate, 0.1)), secs(m.RenewWindow)),
		fmt.Sprintf("Failover of %s's shards at each crash moment: %s.", designVictim, phaseList(j.d, j.measures)),
		fmt.Sprintf("Shards taken from %s after its %s pause: %d.", designGCWorker, secs(designGCPause), m.FalseFailovers),
		fmt.Sprintf("Stale offset commits from %s accepted: %d.", designSleeper, w.StaleCommits),
	}
	r := result(parts, figs...)
	r.Replay = ShardLesson(j.d, designCrashAt+time.Duration(worst)*j.d.Renew/designPhases)
	j.res = &r
	return r
}

// phaseList is each crash moment and the failover it gave.
func phaseList(d ShardDesign, ms []ShardMeasure) string {
	var out []string
	for i, m := range ms {
		at := designCrashAt + time.Duration(i)*d.Renew/designPhases
		v := secs(m.Reassign)
		if m.Stuck > 0 {
			v = fmt.Sprintf("%d shards never taken over", m.Stuck)
		}
		out = append(out, fmt.Sprintf("crash at %s: %s", secs(at), v))
	}
	return strings.Join(out, "; ")
}

// judgeShardRun marks the run: balance, load, false failovers and the stale
// owner from the first run (they do not depend on the crash moment), the
// failover from the worst crash moment.
func judgeShardRun(d ShardDesign, m, w ShardMeasure, worstPhase int) []Feedback {
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

	var bl because
	rate := roundTo(m.RenewRate, 0.1)
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
		load = bl.feedback("Coordinator load", true, "%s lease renewals per second, within the %s bound.", bl.runN(rate), bl.givenN(designRenewLoad))
	} else {
		load = bl.feedback("Coordinator load", false, "%s lease renewals per second, over the %s bound: %s (%s leases) are each renewed every %s. Renew less often.", bl.runN(rate), bl.givenN(designRenewLoad), what, bl.givenN(float64(leases)), bl.given(d.Renew))
	}

	var bf because
	var re Feedback
	at := designCrashAt + time.Duration(worstPhase)*d.Renew/designPhases
	switch {
	case w.Victim == 0:
		re = bf.feedback("Failover", false, "%s owned no shard when it crashed at %s, so there was nothing to take over: the assignment left it idle.", designVictim, bf.given(at))
	case w.Stuck > 0 && d.Assign == core.AssignStatic:
		re = bf.feedback("Failover", false, "%s of %s's shards were never taken over: under a static hash no one else may own them.", bf.runN(float64(w.Stuck)), designVictim)
	case w.Stuck > 0:
		re = bf.feedback("Failover", false, "%s of %s's shards were never taken over before the run ended (crash at %s).", bf.runN(float64(w.Stuck)), designVictim, bf.given(at))
	case bf.claimD(w.Reassign, "<=", designReassign):
		re = bf.feedback("Failover", true, "At the worst of %s crash moments (%s), %s's shards all had new owners %s after the crash, within %s.", bf.givenN(designPhases), bf.given(at), designVictim, bf.run(w.Reassign), bf.given(designReassign))
	default:
		re = bf.feedback("Failover", false, "A crash at %s left %s's shards without owners for %s, over %s: nobody may claim them until their %s leases expire. Shorten the TTL.", bf.given(at), designVictim, bf.run(w.Reassign), bf.given(designReassign), bf.given(d.TTL))
	}

	var bg because
	var ff Feedback
	switch {
	case m.GCOwned == 0:
		ff = bg.feedback("False failovers", false, "%s owned no shard when it paused at %s, so its pause tested nothing.", designGCWorker, bg.given(designGCAt))
	case m.FalseFailovers == 0:
		ff = bg.feedback("False failovers", true, "%s's %s pause cost it no shard.", designGCWorker, bg.given(designGCPause))
	default:
		ff = bg.feedback("False failovers", false, "%s paused for %s and, though alive, lost %s shards to other workers: the TTL leaves no room for an ordinary pause and a missed renewal.", designGCWorker, bg.given(designGCPause), bg.runN(float64(m.FalseFailovers)))
	}

	var bs because
	var st Feedback
	switch {
	case w.SleeperOwned == 0:
		st = bs.feedback("Stale owner", false, "%s owned no shard when it froze at %s, so there was no stale owner to stop.", designSleeper, bs.given(designPauseAt))
	case w.StaleCommits > 0:
		st = bs.feedback("Stale owner", false, "%s offset commits from the frozen %s were accepted after new owners had committed: offsets went backwards. Commit with the shard's token and have the store refuse older ones.", bs.runN(float64(w.StaleCommits)), designSleeper)
	case !d.Fenced:
		st = Feedback{Part: "Stale owner", Why: fmt.Sprintf("%s's commits did not land this time, but nothing stops them: without token checks, a stale commit is accepted.", designSleeper)}
	default:
		st = Feedback{Part: "Stale owner", OK: true, Why: fmt.Sprintf("%s froze past its leases and woke still believing it owned its shards; the offset store refused its older tokens.", designSleeper)}
	}
	return []Feedback{bal, load, re, ff, st}
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
