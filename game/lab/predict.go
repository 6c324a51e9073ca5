package lab

import (
	"fmt"
	"time"

	"leaselab/lessons"
)

// Predict before you play: while the learner's own run plays forward
// (Play, the player's AdvanceBy, and Step), the lab stops at a lesson's key moment (see
// lessons.Predict) and asks; the player shows the question until the
// learner answers or plays on (Skip). Seeking and Advance never ask (a scrub is no
// play, and labctl and the tests run without stopping), nor does a run of another kind (the solution). Each question is
// asked once in the lab's life, and its answer is kept with the run's
// outcome for the recap. Nothing in the world depends on it.

// Prediction is one asked question and what the learner did with it.
type Prediction struct {
	ID       string
	Question string
	// At is the play head when it was asked.
	At time.Duration
	// Choice is the option picked; Skipped is set when the learner played
	// on without one. Both are empty while the question is open.
	Choice  string
	Skipped bool
	// Outcome is the option the run showed happened, and Happened that
	// in words, once the learner's run showed it ("" before).
	Outcome, Happened string
}

// Ask is the question open now.
type Ask struct {
	ID       string
	Question string
	Options  []lessons.Option
	At       time.Duration
}

// Asking returns the question open now, if any.
func (lb *Lab) Asking() (Ask, bool) {
	if lb.asking < 0 {
		return Ask{}, false
	}
	r := lb.predictions[lb.asking]
	p := lb.Lesson.Prediction(r.ID)
	return Ask{ID: r.ID, Question: r.Question, Options: p.Options, At: r.At}, true
}

// Predict answers the open question with option opt; it reports whether
// there was one that has that option.
func (lb *Lab) Predict(opt string) bool {
	a, ok := lb.Asking()
	if !ok || lb.Lesson.Prediction(a.ID).Option(opt) == "" {
		return false
	}
	lb.predictions[lb.asking].Choice = opt
	lb.asking = -1
	return true
}

// SkipPrediction closes the open question without an answer, recorded as
// skipped.
func (lb *Lab) SkipPrediction() {
	if lb.asking >= 0 {
		lb.predictions[lb.asking].Skipped = true
		lb.asking = -1
	}
}

// Predictions returns the questions asked so far, in order.
func (lb *Lab) Predictions() []Prediction { return append([]Prediction(nil), lb.predictions...) }

// askDue opens the first question of the lesson whose key moment has
// come in the learner's run and that was never asked; it reports whether
// one is open.
func (lb *Lab) askDue() bool {
	if lb.asking >= 0 {
		return true
	}
	if lb.shown != RunMine {
		return false
	}
	for i := range lb.Lesson.Predictions {
		p := &lb.Lesson.Predictions[i]
		if lb.wasAsked(p.ID) || !lb.world.Asking(p) {
			continue
		}
		lb.predictions = append(lb.predictions, Prediction{ID: p.ID, Question: p.Question(lb.world), At: lb.Now()})
		lb.asking = len(lb.predictions) - 1
		return true
	}
	return false
}

func (lb *Lab) wasAsked(id string) bool {
	for _, r := range lb.predictions {
		if r.ID == id {
			return true
		}
	}
	return false
}

// seeOutcomes records the outcome of each question asked, the first
// time the learner's run shows it. A question still open when its answer
// shows (the learner scrubbed on past it) closes as skipped.
func (lb *Lab) seeOutcomes() {
	if lb.shown != RunMine {
		return
	}
	for i := range lb.predictions {
		r := &lb.predictions[i]
		if r.Outcome != "" {
			continue
		}
		r.Outcome, r.Happened = lb.Lesson.Prediction(r.ID).Outcome(lb.world)
		if r.Outcome != "" && i == lb.asking {
			r.Skipped, lb.asking = true, -1
		}
	}
}

// forgetUnseen drops the questions whose outcome the run has not shown
// yet: the run they were about is about to go (new knobs, a restart), and
// each is asked again at its moment in the next.
func (lb *Lab) forgetUnseen() {
	var kept []Prediction
	for _, r := range lb.predictions {
		if r.Outcome != "" {
			kept = append(kept, r)
		}
	}
	lb.predictions, lb.asking = kept, -1
}

// PredictionRecap is each question asked, the learner's prediction beside
// what the run showed, one line each, for the lesson's recap.
func (lb *Lab) PredictionRecap() []string {
	var out []string
	for _, r := range lb.predictions {
		p := lb.Lesson.Prediction(r.ID)
		said := "You skipped it."
		switch {
		case r.Choice != "":
			said = fmt.Sprintf("You predicted %q.", p.Option(r.Choice))
		case !r.Skipped:
			said = "It is still open."
		}
		opt, what := r.Outcome, r.Happened
		line := fmt.Sprintf("At %s you were asked: %s %s", ClockTime(r.At), r.Question, said)
		switch {
		case opt == "":
			line += " Your run has not shown the answer yet."
		case r.Choice == opt:
			line += fmt.Sprintf(" What happened: %s, as you predicted.", what)
		case r.Choice != "":
			line += fmt.Sprintf(" What happened: %s, not what you predicted.", what)
		default:
			line += fmt.Sprintf(" What happened: %s.", what)
		}
		out = append(out, line)
	}
	return out
}
