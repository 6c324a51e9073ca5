package lessons

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// The property every explanation must have: each number it gives is one it
// read from the learner's run (or the brief, or the answer), and each
// comparison it states is true. The grids below are the answers a learner
// tries; the test checks every part of every verdict.

var numberRE = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// identifierRE matches names that contain digits but are not numbers.
var identifierRE = regexp.MustCompile(`\b(?:worker|req|line|case|shard|token|order)-\d+\b|\bA-\d+\b|\bB-\d+\b`)

// givenNumbers are the numbers an exercise states to the learner.
func givenNumbers(e *Exercise) []string {
	// The lease policy rule is taught in the lessons and named in the
	// exercises by its formula.
	text := "2 × renew + pause budget ≤ TTL " + strings.Join(e.Brief, " ") + " " + e.Format + " " + e.Title
	for _, q := range e.Questions {
		text += " " + q.Text
		for _, o := range q.Options {
			text += " " + o.Label
		}
	}
	if e.Lab != nil {
		text += " " + strings.Join(e.Lab.Intro, " ")
	}
	return numberRE.FindAllString(identifierRE.ReplaceAllString(text, " "), -1)
}

// checkExplanation asserts the property for one part of a verdict.
func checkExplanation(t *testing.T, e *Exercise, answer string, f Feedback) {
	t.Helper()
	for _, c := range f.Claims {
		assert.True(t, c.Holds(), "%s %s: %q states %v %s %v, which is false", e.ID, answer, f.Why, c.L, c.Op, c.R)
	}
	for _, c := range f.Cites {
		if c.From != "trace" {
			continue
		}
		require.NotNil(t, c.Event, "%s: a trace cite without its event", e.ID)
		want := instant(c.Event.At)
		if c.Field != 0 {
			want = c.Event.Format(c.Field)
			if strings.HasSuffix(c.Field.Key(), "_ms") {
				want = secs(time.Duration(c.Event.Num(c.Field)) * time.Millisecond)
			}
		}
		assert.Equal(t, want, c.Text, "%s %s: cites %q as %s of %s", e.ID, answer, c.Text, c.Field, c.Event.Text())
		assert.Contains(t, f.Why, c.Text)
	}
	// Take out every name with digits and every cited number (longest
	// first, so 22.016 s goes before 2 s); what is left must be a number the
	// exercise itself states.
	// Names go first, so a cited 13 is not taken out of "worker-13".
	rest := identifierRE.ReplaceAllString(f.Why, " ")
	cites := slices.Clone(f.Cites)
	slices.SortFunc(cites, func(a, b Cite) int { return len(b.Text) - len(a.Text) })
	for _, c := range cites {
		rest = strings.Replace(rest, c.Text, " ", 1)
	}
	given := givenNumbers(e)
	for _, n := range numberRE.FindAllString(rest, -1) {
		assert.Contains(t, given, n, "%s %s: %q gives %s, which neither the run nor the brief supplies", e.ID, answer, f.Why, n)
	}
}

func checkAll(t *testing.T, e *Exercise, answers map[string]Answer) {
	t.Helper()
	for name, a := range answers {
		r, err := e.Check(a)
		require.NoError(t, err, "%s %s", e.ID, name)
		for _, p := range r.Parts {
			checkExplanation(t, e, name, p)
		}
	}
}

func TestExplanationsRestOnTheRunRenewal(t *testing.T) {
	answers := map[string]Answer{}
	for ms := 0; ms <= 60000; ms += 700 {
		for _, d := range []time.Duration{3 * time.Second, 5 * time.Second, 7500 * time.Millisecond, 9 * time.Second, 10 * time.Second} {
			for _, p := range []string{"A", "B"} {
				at := time.Duration(ms) * time.Millisecond
				answers[fmt.Sprintf("pause %s at %s for %s", p, at, d)] = Answer{
					Choices:  map[string][]string{"verdict": {"safe"}},
					Numbers:  map[string]float64{"left": float64(ms%12000) / 1000, "min-ttl": float64(ms%39000)/1000 + 1},
					Chain:    []int{ms % 50, ms%50 + 3, ms%70 + 10},
					Schedule: pauseAt(at, d, p),
				}
			}
		}
	}
	// Ties: waking in the millisecond of the handover, or of the expiry,
	// and a renewal that arrives after the expiry.
	for _, c := range [][2]time.Duration{{3500, 9000}, {4950, 7550}, {3004, 9000}, {3005, 9000}, {3000, 9000}, {3500, 8999}} {
		for _, verdict := range []string{"safe", "unsafe"} {
			answers[fmt.Sprintf("%s, pause A at %d ms for %d ms", verdict, c[0], c[1])] = Answer{
				Choices:  map[string][]string{"verdict": {verdict}},
				Schedule: pauseAt(c[0]*time.Millisecond, c[1]*time.Millisecond, "A"),
			}
		}
	}
	// The thresholds, each judged by runs with the learner's own number
	// (TestThresholdFeedback has the borderline ones).
	for v := 0.5; v <= 12; v += 1.7 {
		answers[fmt.Sprintf("thresholds %v", v)] = Answer{Numbers: map[string]float64{"pause-max": v, "ttl-safe": float64(int(v) + 9), "renew-safe": v}}
	}
	answers["two pauses"] = Answer{Schedule: append(pauseAt(2*time.Second, 4*time.Second, "A"), pauseAt(14900*time.Millisecond, 7500*time.Millisecond, "A")...)}
	answers["reference"] = exRenewal.Reference
	checkAll(t, exRenewal, answers)
}

// TestExplanationsRestOnTheRunTwoPauses (issue 31): two pauses of the
// leader, the second starting as the first ends or a little later. Every
// comparison stated is true, and a schedule that broke the lease is
// credited to the pause during which the lease ran out.
func TestExplanationsRestOnTheRunTwoPauses(t *testing.T) {
	answers := map[string]Answer{}
	for ms := 500; ms <= 30000; ms += 1300 {
		for _, d1 := range []time.Duration{2 * time.Second, 9 * time.Second} {
			for _, gap := range []time.Duration{0, 5 * time.Millisecond, 1200 * time.Millisecond} {
				first := time.Duration(ms) * time.Millisecond
				log := append(pauseAt(first, d1, "A"), pauseAt(first+d1+gap, 9*time.Second, "A")...)
				answers[fmt.Sprintf("A at %s for %s, then after %s for 9s", first, d1, gap)] = Answer{Schedule: log}
				w, err := exRenewal.Lab.Evaluate(1, log)
				require.NoError(t, err)
				if p, _, broke := leaderPauseBreak(w, exRenewPause); broke {
					g, ok := leaseDuring(w, p)
					require.True(t, ok)
					assert.LessOrEqual(t, expiryOf(g), p.wake(w)+10*time.Millisecond,
						"%s: credited the pause at %s, whose lease outlived it", log, p.From)
				}
			}
		}
	}
	checkAll(t, exRenewal, answers)
}

func TestExplanationsRestOnTheRunNoFencing(t *testing.T) {
	answers := map[string]Answer{}
	for _, cause := range [][]int{nil, {31, 34, 48, 52, 63, 83, 88}, {31, 34, 40, 67, 71, 87, 96}, {3, 1}} {
		for s := 1; s <= 40; s += 3 {
			at := time.Duration(s) * time.Second
			for _, d := range []time.Duration{5 * time.Second, 12 * time.Second, 20 * time.Second} {
				answers[fmt.Sprintf("%v pause %s %s", cause, at, d)] = Answer{Chain: cause, Schedule: pauseAt(at, d, "A")}
				answers[fmt.Sprintf("%v delay %s %s", cause, at, d)] = Answer{Chain: cause,
					Schedule: core.ActionLog{core.At(at, core.Delay("A", d))}}
			}
		}
	}
	checkAll(t, exNoFencing, answers)
}

func TestExplanationsRestOnTheRunCompaction(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 nights per design")
	}
	answers := map[string]Answer{}
	for _, d := range [][2]float64{{2, 0.5}, {9, 0.5}, {12, 4}, {18, 5}, {25, 5}, {30, 10}, {10, 15}, {13, 2.45}, {13, 2.46}, {14, 4}, {22, 9}, {28, 12}, {60, 30}} {
		a := compaction(d[0], d[1])
		answers[fmt.Sprintf("%v", d)] = a
		b := a.Clone()
		b.Numbers["est-failover"], b.Numbers["per-hour"] = 3, 7
		answers[fmt.Sprintf("%v wrong estimates", d)] = b
	}
	answers["ttl only"] = Answer{Numbers: map[string]float64{"ttl": 25}}
	checkAll(t, exCompaction, answers)
}

func TestExplanationsRestOnTheRunShards(t *testing.T) {
	if testing.Short() {
		t.Skip("a sweep of pause and crash moments over 1,000 shards per design")
	}
	answers := map[string]Answer{"empty": {}}
	for _, d := range [][2]float64{{2, 0.5}, {9, 2}, {15, 5}, {30, 10}, {120, 40}, {120, 60}} {
		answers[fmt.Sprintf("%v", d)] = shardAnswer(d[0], d[1])
	}
	// One lease per worker, at the edges of the pause and the failover
	// budget.
	for _, d := range [][2]float64{{2.4, 0.5}, {3, 0.5}, {3, 1}, {25, 8}, {26, 5}, {20, 19}, {2.9, 0.5}, {23, 20}, {45, 41}} {
		answers[fmt.Sprintf("per-worker %v", d)] = perWorker(d[0], d[1])
	}
	for _, ch := range []struct{ q, o string }{{"assignment", "greedy"}, {"assignment", "static"}, {"offsets", "plain"}, {"granularity", "per-worker"}} {
		a := exShards.Reference.Clone()
		a.Choices[ch.q] = []string{ch.o}
		answers[ch.o] = a
	}
	checkAll(t, exShards, answers)
}

func TestExplanationsRestOnTheRunLogs(t *testing.T) {
	answers := map[string]Answer{"empty": {}, "reference": exLogs.Reference}
	for name, checks := range checkSetsTried {
		a := exLogs.Reference.Clone()
		a.Checks = checks.checks
		answers[name] = a
	}
	checkAll(t, exLogs, answers)
}
