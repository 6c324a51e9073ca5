package lessons

import (
	"fmt"
	"strconv"
	"time"
)

// Exercise 3's check: the job that runs the design's nights and the
// alternative's, the learner's predictions against them, and the
// trade-off table it reports.

// compactionJob runs the nights a few at a time: the design's, then the
// alternative's over the same nights, then the trade-off curve.
type compactionJob struct {
	design, alt NightDesign
	// The learner's predictions (see predicted) and the keepalives an
	// hour they worked out.
	answer     Answer
	estPerHour float64
	curve      []NightDesign // the trade-off points around the design
	stats      NightStats
	altStats   NightStats
	points     []NightStats
	done       int // nights run over all stages
	total      int
	err        error
	res        *Result
}

// compactionParts are exercise 4's parts, always all of them, in this
// order, so the count never changes between tries.
// A checked design gets every one of them; an answer that cannot be run
// gets one line instead, saying why (six lines repeating one reason read
// as six faults). The predictions are no part: they are shown beside the
// measurements, as feedback.
var compactionParts = []string{"Failover", "Duplicates", "Policy rule", "Renewal load", "Priority", "Keepalives per hour"}

func startCompaction(a Answer) Job {
	var missing []string
	for _, k := range exCompaction.Numbers {
		if _, ok := a.Numbers[k.ID]; !ok && k.Unset == "" {
			missing = append(missing, strconv.Quote(k.Label))
		}
	}
	if len(missing) > 0 {
		verb := "is"
		if len(missing) > 1 {
			verb = "are"
		}
		return finished([]Feedback{{Part: "Answer", Why: fmt.Sprintf("Not checked: %s %s not answered. The check runs only a whole answer, and never fills a number in for you.", joinAnd(missing), verb)}})
	}
	d := NightDesign{
		TTL:   time.Duration(a.Numbers["ttl"] * float64(time.Second)),
		Renew: time.Duration(a.Numbers["renew"] * float64(time.Second)),
	}
	alt := NightDesign{
		TTL:   time.Duration(a.Numbers["alt-ttl"] * float64(time.Second)),
		Renew: time.Duration(a.Numbers["alt-renew"] * float64(time.Second)),
	}
	if d.Renew >= d.TTL {
		var b because
		b.stateD(d.Renew, ">=", d.TTL)
		return finished([]Feedback{b.feedback("Design", false, "Not checked: renewing every %s with a %s TTL means the lease lapses before each renewal: the renewal interval must be well under the TTL.", b.given(d.Renew), b.given(d.TTL))})
	}
	if alt.Renew >= alt.TTL {
		var b because
		b.stateD(alt.Renew, ">=", alt.TTL)
		return finished([]Feedback{b.feedback("Alternative", false, "Not checked: your alternative renews every %s with a %s TTL, so its lease lapses before each renewal: weigh your design against one that could work.", b.given(alt.Renew), b.given(alt.TTL))})
	}
	if alt == d {
		var b because
		return finished([]Feedback{b.feedback("Alternative", false, "Not checked: your alternative (TTL %s, renew %s) is your design. A defence weighs the choice against another design: give a second TTL and renewal interval you considered.", b.given(d.TTL), b.given(d.Renew))})
	}
	j := &compactionJob{design: d, alt: alt, answer: a, estPerHour: a.Numbers["per-hour"]}
	for _, dt := range []float64{-12, -6, 4, 8} {
		ttl := d.TTL + time.Duration(dt*float64(time.Second))
		if ttl < 2*time.Second || ttl > 60*time.Second {
			continue
		}
		renew := time.Duration(float64(d.Renew) * float64(ttl) / float64(d.TTL)).Round(100 * time.Millisecond)
		j.curve = append(j.curve, NightDesign{TTL: ttl, Renew: max(renew, 100*time.Millisecond)})
	}
	j.points = make([]NightStats, len(j.curve))
	j.total = 2*nightsChecked + nightsPerCurve*len(j.curve)
	return j
}

func (j *compactionJob) Progress() float64 { return float64(j.done) / float64(j.total) }

func (j *compactionJob) Step(n int) bool {
	for ; n > 0 && j.done < j.total && j.err == nil; n-- {
		d, night, st := j.design, j.done, &j.stats
		switch {
		case j.done >= 2*nightsChecked:
			k := (j.done - 2*nightsChecked) / nightsPerCurve
			d, night, st = j.curve[k], (j.done-2*nightsChecked)%nightsPerCurve, &j.points[k]
		case j.done >= nightsChecked:
			d, night, st = j.alt, j.done-nightsChecked, &j.altStats
		}
		r, err := RunNight(d, night)
		if err != nil {
			j.err = err
			break
		}
		st.add(r)
		j.done++
		// The trade-off rows are shown only to a passing design: do not
		// make a failing one wait for them.
		if j.done == 2*nightsChecked && !j.mainPasses() {
			j.total = j.done
		}
	}
	return j.done >= j.total || j.err != nil
}

func (j *compactionJob) Result() Result {
	if j.res != nil {
		return *j.res
	}
	if j.err != nil {
		r := result([]Feedback{{Part: "Design", Why: "The design could not run: " + j.err.Error()}})
		j.res = &r
		return r
	}
	d, st := j.design, j.stats
	r := result(j.parts())
	r.Figures = j.figures(r.Pass)
	r.Predictions = j.predictions()
	r.Figures = append(r.Figures, predictionFigures(r.Predictions)...)
	if n := st.WorstNight; n >= 0 {
		why := fmt.Sprintf("the slowest failover, %s", secs(st.Worst))
		if st.worstFailed {
			why = "a crash no compactor took over from before the night ended"
		}
		if st.worstDups > 0 {
			why = fmt.Sprintf("%d duplicate compaction %s", st.worstDups, pluralS(st.worstDups, "step", "steps"))
		}
		r.Replay = NightLesson(d, n, why)
		r.Figures = append(r.Figures, fmt.Sprintf("Worst night: night %d (%s); the lab's Worst run tab plays it.", n+1, why))
	}
	j.res = &r
	return r
}

// parts judges the design on the main nights, in compactionParts order.
func (j *compactionJob) parts() []Feedback {
	d, st := j.design, j.stats
	return []Feedback{judgeFailover(d, st), judgeDuplicates(d, st), judgeRule(d), judgeLoad(d), judgePriority(d, st, j.alt), judgePerHour(j.estPerHour, d)}
}

// mainPasses reports whether the design passes on the main nights.
func (j *compactionJob) mainPasses() bool {
	return result(j.parts()).Pass
}

// predictions are the learner's four predictions beside the runs.
func (j *compactionJob) predictions() []Prediction {
	a := j.answer
	return []Prediction{
		failoverPrediction("Your design, worst failover", a, "est-failover", j.stats),
		dupNightsPrediction("Your design, nights with a duplicate", a, "est-dup-nights", j.stats),
		failoverPrediction("Your alternative, worst failover", a, "alt-est-failover", j.altStats),
		dupNightsPrediction("Your alternative, nights with a duplicate", a, "alt-est-dup-nights", j.altStats),
	}
}

func failoverPrediction(what string, a Answer, id string, st NightStats) Prediction {
	v, given := predicted(exCompaction, a, id)
	p := Prediction{What: what, Unit: "s", Given: given, Predicted: v, Tolerance: "a second"}
	switch {
	case st.Crashes == 0:
		p.MeasuredText = "no crash to measure"
	case st.Failed > 0:
		p.MeasuredText = fmt.Sprintf("no takeover at all after %d of %d %s", st.Failed, st.Crashes, pluralS(st.Crashes, "crash", "crashes"))
		if given {
			p.Note = "a failover that never ends has no time to predict"
		}
	default:
		p.Measured, p.Measurable = st.Worst.Seconds(), true
		p.MeasuredText = secs(st.Worst)
	}
	return predictionAgainst(p, 1,
		"a successor waits out the rest of the dead leader's lease, up to the whole TTL, and the sweep",
		"the wait is the rest of the dead leader's lease at most, and a little for the sweep")
}

func dupNightsPrediction(what string, a Answer, id string, st NightStats) Prediction {
	v, given := predicted(exCompaction, a, id)
	p := Prediction{What: what, Given: given, Predicted: v, Tolerance: "a tenth or one night",
		Measured: float64(st.DupNights), Measurable: true,
		MeasuredText: fmt.Sprintf("%d of %d", st.DupNights, st.Nights)}
	return predictionAgainst(p, max(1, float64(st.DupNights)/10),
		"more long pauses outlived the lease than you expected",
		"fewer long pauses outlived the lease than you expected")
}

// figures is the trade-off table: the learner's row always, the rows
// around it only once they pass (a passing row would be the answer).
func (j *compactionJob) figures(passed bool) []string {
	d, st := j.design, j.stats
	figs := []string{"Your design, over the checked nights:"}
	rows, stats := []NightDesign{d}, []NightStats{st}
	if passed {
		figs = []string{"The trade-off around your choice (renewal scaled with the TTL):"}
		rows = append(rows, j.curve...)
		stats = append(stats, j.points...)
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	// Print in TTL order, marking the learner's own row.
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && rows[order[b]].TTL < rows[order[b-1]].TTL; b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	for _, i := range order {
		mark := "  "
		if i == 0 {
			mark = "> "
		}
		figs = append(figs, fmt.Sprintf("%sTTL %s, renew %s: %s", mark, secs(rows[i].TTL), secs(rows[i].Renew), tableRow(rows[i], stats[i])))
	}
	return append(figs, fmt.Sprintf("Your alternative over the same nights, TTL %s, renew %s: %s", secs(j.alt.TTL), secs(j.alt.Renew), tableRow(j.alt, j.altStats)))
}

// tableRow is one design's row of the trade-off table, judged by the same
// rule and budget as the parts above it.
func tableRow(d NightDesign, st NightStats) string {
	rule := "rule ok"
	if !d.RuleHolds() {
		rule = "rule fails"
	}
	fo := fmt.Sprintf("failover up to %s", secs(st.Worst))
	switch {
	case st.Failed > 0:
		// Never a time: the nights that saw no takeover have none.
		fo = fmt.Sprintf("no takeover after %d of %d %s", st.Failed, st.Crashes, pluralS(st.Crashes, "crash", "crashes"))
	case st.Worst > nightFailover:
		fo += " (over 30 s)"
	}
	return fmt.Sprintf("%s, %d %s in %d nights, %s", fo, st.Duplicates, pluralS(st.Duplicates, "duplicate", "duplicates"), st.Nights, rule)
}
