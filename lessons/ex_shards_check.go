package lessons

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// Exercise 2's check: the job that runs the sweep, the learner's
// predictions against what it measured, and the figures it reports.

// shardRunParts are the parts a run of the design decides; with the design
// and placement parts they are always all present, in this order.
var shardRunParts = []string{"Balance", "Coordinator load", "Failover", "False failovers", "Stale owner"}

// shardJob measures a design over its pause and crash phases, one run a
// step.
type shardJob struct {
	a     Answer
	d     ShardDesign
	sweep *shardSweep
	res   *Result
}

func checkShards(a Answer) Job {
	e := exShards
	var missing []string
	for _, k := range e.Numbers {
		if _, ok := a.Numbers[k.ID]; !ok && k.Unset == "" {
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
	return &shardJob{a: a, d: d, sweep: newShardSweep(d)}
}

func (j *shardJob) Progress() float64 { return j.sweep.progress() }

func (j *shardJob) Step(n int) bool {
	for ; n > 0; n-- {
		if j.sweep.step() {
			return true
		}
	}
	return false
}

func (j *shardJob) Result() Result {
	if j.res != nil {
		return *j.res
	}
	parts := []Feedback{{Part: "Design", OK: true, Why: "Every choice is made; the simulator ran the design."}}
	if err := j.sweep.err; err != nil {
		parts[0] = Feedback{Part: "Design", Why: "The design could not run: " + err.Error()}
		for _, p := range shardRunParts {
			parts = append(parts, Feedback{Part: p, Why: "Not run."})
		}
		r := result(append(parts, judgePlacement(j.a)...))
		j.res = &r
		return r
	}
	m := j.sweep.m
	parts = append(parts, judgeShardRun(j.d, m)...)
	parts = append(parts, judgePlacement(j.a)...)
	w, gc := m.WorstCrash(), m.WorstPausePhase()
	figs := []string{
		fmt.Sprintf("Shards per live worker before any fault: %d to %d (fair share %d).", m.Min, m.Max, (designShards+designWorkers-1)/designWorkers),
		fmt.Sprintf("Lease renewals at the coordinator: %s per second (over %s, a whole number of renewal rounds).", num(loadRound(m.RenewRate)), secs(m.RenewWindow)),
		crashFigure(m),
		fmt.Sprintf("Shards taken from %s by its %s pause over %d start moments from %s to %s: at worst %d (pause at %s).",
			designGCWorker, secs(designGCPause), len(m.Pauses), instant(m.Pauses[0].At), instant(m.Pauses[len(m.Pauses)-1].At), gc.Lost, instant(gc.At)),
		fmt.Sprintf("Stale offset commits from %s accepted: %d.", designSleeper, m.StaleCommits),
	}
	r := result(parts, figs...)
	r.Predictions = shardPredictions(j.a, m)
	r.Figures = append(r.Figures, predictionFigures(r.Predictions)...)
	r.Replay = ShardLesson(j.d, w.At, gc.At)
	j.res = &r
	return r
}

// shardPredictions are the learner's two predictions beside what the
// simulator measured: the coordinator's renewal load and the worst
// failover.
func shardPredictions(a Answer, m ShardMeasure) []Prediction {
	rate := loadRound(m.RenewRate)
	v, given := predicted(exShards, a, "predict-load")
	load := predictionAgainst(Prediction{What: "Coordinator load", Unit: "per second", Given: given, Predicted: v,
		Measured: rate, Measurable: true, MeasuredText: loadPhrase(rate), Tolerance: "a tenth"},
		max(rate/10, 0.01),
		"every lease is renewed on its own, each worker's session too",
		"count the leases renewed, and divide by the renewal interval")
	v, given = predicted(exShards, a, "predict-failover")
	fo := Prediction{What: "Worst failover of " + designVictim + "'s shards", Unit: "s", Given: given, Predicted: v, Tolerance: "2 s"}
	w := m.WorstCrash()
	switch {
	case w.Victim == 0:
		fo.MeasuredText = designVictim + " owned no shard, so no failover"
	case w.Stuck > 0:
		fo.MeasuredText = fmt.Sprintf("%d %s never taken over", w.Stuck, pluralS(w.Stuck, "shard", "shards"))
		if given {
			fo.Note = "a failover that never ends has no time to predict"
		}
	default:
		fo.Measured, fo.Measurable, fo.MeasuredText = w.Reassign.Seconds(), true, secs(w.Reassign)
	}
	fo = predictionAgainst(fo, 2,
		"the shards wait for their leases to expire, up to the whole TTL, and then for a survivor's scan",
		"a crash just after a renewal waits the TTL, then a scan finds the shards")
	return []Prediction{load, fo}
}

// loadRound rounds a renewal rate to the precision it needs: tenths from
// 10 a second up, three significant digits below (0.976, not 1).
func loadRound(rate float64) float64 {
	switch {
	case rate >= 10:
		return roundTo(rate, 0.1)
	case rate >= 1:
		return roundTo(rate, 0.01)
	}
	return roundTo(rate, 0.001)
}

// loadPhrase is a rounded renewal rate with its noun: "1 lease renewal
// per second", "0.976 lease renewals per second". text is the rate as
// written (a cite).
func loadPhrase(rate float64, text ...string) string {
	t := num(rate)
	if len(text) > 0 {
		t = text[0]
	}
	if rate == 1 {
		return t + " lease renewal per second"
	}
	return t + " lease renewals per second"
}

// crashFigure sums up the crash sweep.
func crashFigure(m ShardMeasure) string {
	w := m.WorstCrash()
	failover := secs(w.Reassign)
	if w.Stuck > 0 {
		failover = fmt.Sprintf("%d %s never taken over", w.Stuck, pluralS(w.Stuck, "shard", "shards"))
	}
	from, to := instant(m.Crashes[0].At), instant(m.Crashes[len(m.Crashes)-1].At)
	if m.OverBudget {
		return fmt.Sprintf("Failover of %s's shards: %s after the crash at %s, more than twice the %s budget (%d %s tried from %s, up to the first that far over).",
			designVictim, failover, instant(w.At), secs(designReassign), len(m.Crashes), pluralS(len(m.Crashes), "crash moment", "crash moments"), from)
	}
	return fmt.Sprintf("Failover of %s's shards over %d crash moments from %s to %s: at worst %s (crash at %s).", designVictim, len(m.Crashes), from, to, failover, instant(w.At))
}
