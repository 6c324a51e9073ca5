package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/lessons"
)

// playSolution plays lesson l's solution in a lab as a learner would, by
// Play (as the player's Play does), and hands every question that opens
// to answer; it returns the lab at the lesson's end.
func playSolution(t *testing.T, l *lessons.Lesson, answer func(lb *Lab, a Ask)) *Lab {
	t.Helper()
	lb, err := New(l, 1)
	require.NoError(t, err)
	for id, v := range l.SolutionKnobs {
		require.NoError(t, lb.SetKnob(id, v))
	}
	advanceTo := func(at time.Duration) {
		for lb.Now() < at {
			lb.Play(at - lb.Now())
			if a, ok := lb.Asking(); ok {
				answer(lb, a)
			}
		}
	}
	for _, ta := range l.Solution.Sorted() {
		advanceTo(ta.At.D())
		require.NoError(t, lb.Do(ta.Action))
	}
	advanceTo(l.Duration)
	return lb
}

// Which lessons ask, and at which key moment, as the report lists them.
func TestLessonsWithAPredictionAtTheirKeyMoment(t *testing.T) {
	want := map[string]string{
		"fenced-writes":       "late-write",
		"redlock-pause":       "late-write",
		"leases":              "lease-runs-out",
		"election-order":      "herd-wakes",
		"scheduler":           "replay",
		"coordinator-cluster": "lock-after-failover",
	}
	got := map[string]string{}
	for _, l := range lessons.All() {
		for _, p := range l.Predictions {
			got[l.ID] = p.ID
		}
	}
	assert.Equal(t, want, got)
}

// Playing each lesson's solution stops at the key moment before the
// answer shows and asks; the answer is recorded with the outcome the run
// then shows, the recap says both, and every goal is met whatever the
// learner answered or skipped: a prediction changes nothing in the world.
func TestPlayStopsAtTheKeyMomentAndRecordsThePrediction(t *testing.T) {
	for _, l := range lessons.All() {
		if len(l.Predictions) == 0 {
			continue
		}
		for _, how := range []string{"first option", "second option", "skip"} {
			t.Run(l.ID+"/"+how, func(t *testing.T) {
				var asked []Ask
				lb := playSolution(t, l, func(lb *Lab, a Ask) {
					asked = append(asked, a)
					// The run stopped before the answer shows.
					p := l.Prediction(a.ID)
					opt, _ := p.Outcome(lb.world)
					assert.Empty(t, opt, "%s asked after the run showed the answer", a.ID)
					assert.Equal(t, lb.Now(), a.At)
					switch how {
					case "first option":
						require.True(t, lb.Predict(a.Options[0].ID))
					case "second option":
						require.True(t, lb.Predict(a.Options[1].ID))
					default:
						lb.SkipPrediction()
					}
					_, open := lb.Asking()
					assert.False(t, open, "answered or skipped, the question closes")
				})
				require.Len(t, asked, len(l.Predictions), "every question is asked once in the solution's run")
				assert.True(t, lb.AllMet(), "the solution still meets every goal")
				recs := lb.Predictions()
				require.Len(t, recs, len(l.Predictions))
				recap := lb.PredictionRecap()
				require.Len(t, recap, len(recs))
				for i, r := range recs {
					assert.NotEmpty(t, r.Outcome, "%s: the run showed the outcome", r.ID)
					assert.Contains(t, recap[i], r.Question)
					assert.Contains(t, recap[i], "What happened: "+r.Happened)
					switch how {
					case "skip":
						assert.True(t, r.Skipped)
						assert.Empty(t, r.Choice)
						assert.Contains(t, recap[i], "You skipped it.")
					default:
						assert.False(t, r.Skipped)
						label := l.Prediction(r.ID).Option(r.Choice)
						assert.Contains(t, recap[i], "You predicted \""+label+"\".")
						if r.Choice == r.Outcome {
							assert.True(t, strings.HasSuffix(recap[i], "as you predicted."), recap[i])
						} else {
							assert.True(t, strings.HasSuffix(recap[i], "not what you predicted."), recap[i])
						}
					}
				}
			})
		}
	}
}

// The fenced-writes question, answered right and wrong: the recap puts
// the prediction beside what storage did.
func TestFencedWritesRecapPutsThePredictionBesideWhatHappened(t *testing.T) {
	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	for opt, verdict := range map[string]string{"reject": "as you predicted.", "accept": "not what you predicted."} {
		lb := playSolution(t, l, func(lb *Lab, a Ask) {
			assert.Contains(t, a.Question, "What will storage do with it?")
			w := lb.World()
			assert.Equal(t, "B", w.Lock.Holder, "asked once B holds")
			assert.True(t, w.Procs[0].Paused, "and before A wakes")
			require.True(t, lb.Predict(opt))
		})
		recap := lb.PredictionRecap()
		require.Len(t, recap, 1)
		assert.Contains(t, recap[0], "storage rejected A's late write with token 7 at")
		assert.True(t, strings.HasSuffix(recap[0], verdict), recap[0])
	}
}

// Seeking never asks (a scrub is no play), the solution shown as a run of
// its own never asks, and an answer that is no option changes nothing.
func TestOnlyPlayingTheLearnersRunAsks(t *testing.T) {
	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	lb, err := New(l, 1)
	require.NoError(t, err)
	lb.Seek(2 * time.Second)
	require.NoError(t, lb.Do(l.Solution[0].Action))
	lb.Seek(30 * time.Second)
	_, open := lb.Asking()
	assert.False(t, open, "a seek past the moment does not ask")
	assert.Empty(t, lb.Predictions())

	lb, err = New(l, 1)
	require.NoError(t, err)
	lb.LoadSolution()
	for lb.Now() < lb.Length() {
		lb.Play(time.Second)
	}
	_, open = lb.Asking()
	assert.False(t, open)
	assert.Empty(t, lb.Predictions(), "the solution run asks nothing")

	lb, err = New(l, 1)
	require.NoError(t, err)
	lb.Advance(2 * time.Second)
	require.NoError(t, lb.Do(l.Solution[0].Action))
	lb.Advance(40 * time.Second)
	assert.Equal(t, 42*time.Second, lb.Now(), "Advance (labctl, the tests) never stops to ask")
	assert.Empty(t, lb.Predictions())

	lb, err = New(l, 1)
	require.NoError(t, err)
	lb.Play(2 * time.Second)
	require.NoError(t, lb.Do(l.Solution[0].Action))
	for range 40 {
		lb.Play(time.Second)
		if _, ok := lb.Asking(); ok {
			break
		}
	}
	a, ok := lb.Asking()
	require.True(t, ok)
	assert.False(t, lb.Predict("maybe"), "not an option")
	_, open = lb.Asking()
	assert.True(t, open, "still open")
	at := lb.Now()
	lb.Play(time.Second)
	assert.Equal(t, at+time.Second, lb.Now(), "playing on past an open question does not stop again")
	assert.Equal(t, a.At, at)
}

// A prediction field at its "not given" value reads as such on the
// slider, not as -1.
func TestAPredictionNotMadeReadsAsNone(t *testing.T) {
	ex, err := lessons.FindExercise("compaction-ttl")
	require.NoError(t, err)
	for _, k := range ex.Numbers {
		if k.ID == "est-failover" {
			assert.Equal(t, "no prediction", KnobValue(k, k.Default))
			assert.Equal(t, "25.5 s", KnobValue(k, 25.5))
		}
	}
}
