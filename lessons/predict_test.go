package lessons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// verdictOf is a result's verdict without the predictions: pass, and each
// part's mark and words.
func verdictOf(r Result) []string {
	out := []string{r.Summary()}
	for _, p := range r.Parts {
		out = append(out, p.Part+": "+map[bool]string{true: "ok", false: "not"}[p.OK]+": "+p.Why)
	}
	return out
}

// withPredictions returns a with the number fields in ps set (a value of
// nil removes the field: no prediction).
func withPredictions(a Answer, ps map[string]*float64) Answer {
	a = a.Clone()
	for id, v := range ps {
		if v == nil {
			delete(a.Numbers, id)
			continue
		}
		a.Numbers[id] = *v
	}
	return a
}

func f(v float64) *float64 { return &v }

// Exercise 4: the learner predicts, for their design and for the
// alternative they weigh it against, the worst failover and the nights
// with a duplicate; the check shows each prediction beside what the runs
// measured, and the verdict is the same whatever the predictions are:
// right, wrong, absurd or missing.
func TestCompactionPredictionsAreShownBesideTheMeasurementAndNeverDecide(t *testing.T) {
	for _, design := range []Answer{exCompaction.Reference, compaction(12, 4), compaction(14, 2)} {
		base, err := exCompaction.Check(design)
		require.NoError(t, err)
		for name, ps := range map[string]map[string]*float64{
			"right":   {"est-failover": f(design.Numbers["ttl"] + 0.5), "est-dup-nights": f(0), "alt-est-failover": f(design.Numbers["alt-ttl"] + 0.5), "alt-est-dup-nights": f(0)},
			"wrong":   {"est-failover": f(3), "est-dup-nights": f(40), "alt-est-failover": f(60), "alt-est-dup-nights": f(7)},
			"absurd":  {"est-failover": f(90), "est-dup-nights": f(1000), "alt-est-failover": f(0), "alt-est-dup-nights": f(1000)},
			"missing": {"est-failover": nil, "est-dup-nights": nil, "alt-est-failover": nil, "alt-est-dup-nights": nil},
			"unset":   {"est-failover": f(-1), "est-dup-nights": f(-1), "alt-est-failover": f(-1), "alt-est-dup-nights": f(-1)},
		} {
			a := withPredictions(design, ps)
			r, err := exCompaction.Check(a)
			require.NoError(t, err, name)
			assert.Equal(t, verdictOf(base), verdictOf(r), "%s predictions change the verdict of TTL %v / %v", name, design.Numbers["ttl"], design.Numbers["renew"])
			require.Len(t, r.Predictions, 4, name)
			figs := strings.Join(r.Figures, "\n")
			for _, p := range r.Predictions {
				assert.Contains(t, figs, p.Line(), "%s: the prediction is in the figures every front end shows", name)
				assert.NotEmpty(t, p.MeasuredText, "%s: %s has its measurement beside it", name, p.What)
				given := ps[map[string]string{
					"Your design, worst failover": "est-failover", "Your design, nights with a duplicate": "est-dup-nights",
					"Your alternative, worst failover": "alt-est-failover", "Your alternative, nights with a duplicate": "alt-est-dup-nights",
				}[p.What]]
				assert.Equal(t, given != nil && *given != -1, p.Given, "%s: %s recorded as given or not", name, p.What)
				if p.Given {
					assert.Equal(t, *given, p.Predicted, "%s: %s recorded as predicted", name, p.What)
					assert.Contains(t, p.Line(), "you predicted "+num(*given), name)
				} else {
					assert.Contains(t, p.Line(), "no prediction", name)
				}
			}
		}
	}
}

// The measurements beside the predictions are the runs' own numbers: the
// design's and the alternative's worst failover and duplicate nights over
// the same 1,000 nights, and how close a prediction was is said, not
// judged.
func TestCompactionPredictionsCompareWithTheRuns(t *testing.T) {
	a := compaction(12, 4)
	a.Numbers["alt-ttl"], a.Numbers["alt-renew"] = 25, 5
	a.Numbers["est-dup-nights"], a.Numbers["alt-est-dup-nights"] = 0, 0
	a.Numbers["est-failover"], a.Numbers["alt-est-failover"] = 12.5, 20
	r, err := exCompaction.Check(a)
	require.NoError(t, err)
	mine, err := RunNights(NightDesign{TTL: 12e9, Renew: 4e9}, nightsChecked)
	require.NoError(t, err)
	alt, err := RunNights(NightDesign{TTL: 25e9, Renew: 5e9}, nightsChecked)
	require.NoError(t, err)
	ps := r.Predictions
	require.Len(t, ps, 4)
	assert.Equal(t, mine.Worst.Seconds(), ps[0].Measured)
	assert.True(t, ps[0].Close, "12.5 s is within a second of %v", mine.Worst)
	assert.Equal(t, float64(mine.DupNights), ps[1].Measured)
	require.Equal(t, 1, mine.DupNights)
	assert.True(t, ps[1].Close, "0 nights is within one night of 1")
	assert.Equal(t, alt.Worst.Seconds(), ps[2].Measured)
	assert.False(t, ps[2].Close)
	assert.Contains(t, ps[2].Note, "under: a successor waits out the rest of the dead leader's lease")
	assert.Equal(t, float64(alt.DupNights), ps[3].Measured)
	assert.Contains(t, r.Figures, "Your alternative over the same nights, TTL 25 s, renew 5 s: "+tableRow(NightDesign{TTL: 25e9, Renew: 5e9}, alt))
}

// The verdict judges the choice between the design and the alternative
// by the brief's one priority rule (the upper half of the band), whatever
// the defence says: choosing the fast-failover one of the two fails.
func TestCompactionJudgesTheChoiceAgainstTheAlternative(t *testing.T) {
	long := exCompaction.Reference.Clone() // 25 s chosen over 15 s
	r, err := exCompaction.Check(long)
	require.NoError(t, err)
	require.True(t, r.Pass, r.Text())
	assert.Contains(t, part(r, "Priority").Why, "Your alternative's 15 s TTL sits in the lower half: choosing yours over it follows the brief.")

	swapped := long.Clone() // 15 s chosen over 25 s
	swapped.Numbers["ttl"], swapped.Numbers["renew"], swapped.Numbers["alt-ttl"], swapped.Numbers["alt-renew"] = 15, 3, 25, 5
	swapped.Numbers["per-hour"] = 1200
	swapped.Defence = "Duplicates are expensive, so I chose the longer TTL."
	r, err = exCompaction.Check(swapped)
	require.NoError(t, err)
	assert.False(t, r.Pass)
	pr := part(r, "Priority")
	assert.False(t, pr.OK)
	assert.Contains(t, pr.Why, "Your alternative's 25 s TTL sits in the upper half: by the brief's priority, you chose the wrong one of the two.")
	for _, p := range []string{"Failover", "Duplicates", "Policy rule", "Renewal load", "Keepalives per hour"} {
		assert.True(t, part(r, p).OK, "15 s / 3 s keeps %s", p)
	}

	same := long.Clone()
	same.Numbers["alt-ttl"], same.Numbers["alt-renew"] = 25, 5
	r, err = exCompaction.Check(same)
	require.NoError(t, err)
	require.Len(t, r.Parts, 1)
	assert.Equal(t, "Alternative", r.Parts[0].Part)
	assert.Contains(t, r.Parts[0].Why, "is your design")
	assert.False(t, exCompaction.RealAttempt(Answer{Numbers: map[string]float64{"ttl": 30, "renew": 10, "alt-ttl": 20, "alt-renew": 4, "per-hour": 360, "est-failover": 12}}),
		"a prediction alone, the design at its defaults, is no attempt")
}

// Exercise 2: the learner predicts the coordinator's load and the worst
// failover before the simulation runs; the verdict shows both beside what
// the simulation measured and is the same whatever they are.
func TestShardPredictionsAreShownBesideTheMeasurementAndNeverDecide(t *testing.T) {
	for _, design := range []Answer{exShards.Reference, shardAnswer(40, 2)} {
		bare := design.Clone()
		delete(bare.Numbers, "predict-load")
		delete(bare.Numbers, "predict-failover")
		base, err := exShards.Check(bare)
		require.NoError(t, err)
		require.Len(t, base.Predictions, 2)
		for _, p := range base.Predictions {
			assert.False(t, p.Given)
			assert.Contains(t, p.Line(), "no prediction")
		}
		for name, ps := range map[string][2]float64{"right": {208, 19.5}, "wrong": {8, 5}, "absurd": {5000, 300}, "unset": {-1, -1}} {
			a := design.Clone()
			a.Numbers["predict-load"], a.Numbers["predict-failover"] = ps[0], ps[1]
			r, err := exShards.Check(a)
			require.NoError(t, err)
			assert.Equal(t, verdictOf(base), verdictOf(r), "%s predictions change the verdict", name)
			require.Len(t, r.Predictions, 2)
			load, fo := r.Predictions[0], r.Predictions[1]
			assert.Equal(t, ps[0] != -1, load.Given, name)
			assert.Equal(t, loadRound(mustMeasure(t, a).RenewRate), load.Measured, "%s: the load beside the prediction is the run's", name)
			assert.Equal(t, mustMeasure(t, a).WorstCrash().Reassign.Seconds(), fo.Measured, "%s: the failover beside it is the run's", name)
			for _, p := range r.Predictions {
				assert.Contains(t, strings.Join(r.Figures, "\n"), p.Line(), name)
			}
		}
	}
	r, err := exShards.Check(exShards.Reference)
	require.NoError(t, err)
	assert.True(t, r.Predictions[0].Close, "208 a second for 1,040 leases renewed every 5 s: %s", r.Predictions[0].Line())
	assert.Equal(t, "Coordinator load: you predicted 208 per second; measured 208 lease renewals per second (exactly).", r.Predictions[0].Line())
}

// mustMeasure measures the design an answer describes, as the check does.
func mustMeasure(t *testing.T, a Answer) ShardMeasure {
	t.Helper()
	ttl, _ := a.seconds("ttl")
	renew, _ := a.seconds("renew")
	d := ShardDesign{TTL: ttl, Renew: renew, LeasePerShard: a.choice("granularity") != "per-worker", Fenced: a.choice("offsets") == "fenced"}
	m, err := MeasureShardDesign(d)
	require.NoError(t, err)
	return m
}
