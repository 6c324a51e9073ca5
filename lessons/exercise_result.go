package lessons

import (
	"fmt"
	"math"
	"strings"
)

// What a check gives back: each part's feedback, the learner's
// predictions beside what the simulator measured, and the job that
// computes them a step at a time.

// Feedback is the verdict on one part of an answer and why.
type Feedback struct {
	Part string
	OK   bool
	Why  string
	// Cites and Claims are what Why rests on (see because): every number
	// it gives and every comparison it states.
	Cites  []Cite  `json:"-"`
	Claims []Claim `json:"-"`
}

// Result is a checked answer.
type Result struct {
	Pass  bool
	Parts []Feedback
	// Figures are measurements of the learner's design (a table's rows,
	// already formatted), shown under the verdict.
	Figures []string
	// Replay, if set, is the worst run of the learner's design, to watch
	// in the lesson player (not saved: it is rebuilt by the next check).
	Replay *Lesson `json:"-"`
	// Predictions are the learner's predictions, each beside what the
	// simulator measured; already written into Figures too. They never
	// decide Pass: their accuracy is feedback.
	Predictions []Prediction `json:"predictions,omitempty"`
}

// Prediction is one number the learner predicted before the simulation
// ran, beside the number the run measured.
type Prediction struct {
	// What is the quantity ("your design: worst failover"); Unit is "s"
	// for seconds, "" for a count.
	What string `json:"what"`
	Unit string `json:"unit,omitempty"`
	// Given is false when the learner made no prediction (skipped).
	Given     bool    `json:"given"`
	Predicted float64 `json:"predicted,omitempty"`
	// Measured is the run's number; Measurable is false when the run
	// has none (no crash, or a crash nobody took over from), and
	// MeasuredText then says why.
	Measured     float64 `json:"measured"`
	Measurable   bool    `json:"measurable"`
	MeasuredText string  `json:"measuredText"`
	// Close reports the prediction within Tolerance of the measurement.
	Close     bool   `json:"close"`
	Tolerance string `json:"tolerance"`
	// Note is the feedback: how far off, and which way.
	Note string `json:"note"`
}

// Line is the prediction beside the measurement, as one line.
func (p Prediction) Line() string {
	said := "no prediction"
	if p.Given {
		said = "you predicted " + num(p.Predicted) + unitSuffix(p.Unit)
	}
	s := fmt.Sprintf("%s: %s; measured %s", p.What, said, p.MeasuredText)
	if p.Note != "" {
		s += " (" + p.Note + ")"
	}
	return s + "."
}

func unitSuffix(unit string) string {
	if unit == "" {
		return ""
	}
	return " " + unit
}

// predictionFigures are the predictions as the lines Figures shows.
func predictionFigures(ps []Prediction) []string {
	if len(ps) == 0 {
		return nil
	}
	out := []string{"Your predictions beside the measurements (feedback: they do not change the verdict):"}
	for _, p := range ps {
		out = append(out, "  "+p.Line())
	}
	return out
}

// Summary is the result's one-line verdict.
func (r Result) Summary() string {
	ok := 0
	for _, p := range r.Parts {
		if p.OK {
			ok++
		}
	}
	verdict := "Not yet"
	if r.Pass {
		verdict = "Passed"
	}
	return fmt.Sprintf("%s: %d of %d parts right.", verdict, ok, len(r.Parts))
}

// Text renders the result for a terminal.
func (r Result) Text() string {
	var b strings.Builder
	b.WriteString(r.Summary() + "\n")
	for _, p := range r.Parts {
		mark := "✗"
		if p.OK {
			mark = "✓"
		}
		fmt.Fprintf(&b, "%s %s: %s\n", mark, p.Part, p.Why)
	}
	for _, f := range r.Figures {
		b.WriteString("  " + f + "\n")
	}
	return b.String()
}

// Job checks an answer in steps, so a front end can spread a long check
// (many simulated nights) over frames and show its progress.
type Job interface {
	// Step does about n units of work and reports whether the check is
	// done.
	Step(n int) bool
	// Progress is the fraction done, 0 to 1.
	Progress() float64
	// Result is the verdict once Step has reported done.
	Result() Result
}

// doneJob is a check that finished when it was made.
type doneJob struct{ r Result }

func (j doneJob) Step(int) bool     { return true }
func (j doneJob) Progress() float64 { return 1 }
func (j doneJob) Result() Result    { return j.r }

// finished wraps a result computed at once as a Job.
func finished(parts []Feedback, figures ...string) Job {
	return doneJob{result(parts, figures...)}
}

// result passes when every part is right.
func result(parts []Feedback, figures ...string) Result {
	pass := len(parts) > 0
	for _, p := range parts {
		pass = pass && p.OK
	}
	return Result{Pass: pass, Parts: parts, Figures: figures}
}

// predicted returns number field id of a as a prediction: its value and
// whether one was given (left out, or the field's "not given" value,
// is none).
func predicted(e *Exercise, a Answer, id string) (float64, bool) {
	v, ok := a.Numbers[id]
	if !ok {
		return 0, false
	}
	for _, k := range e.Numbers {
		if k.ID == id {
			return v, k.Given(v)
		}
	}
	return v, true
}

// predictionAgainst fills p's comparison of a given prediction with a
// measured number: close within tol, otherwise how far and which way,
// with under or over saying what the run did that the prediction missed.
func predictionAgainst(p Prediction, tol float64, under, over string) Prediction {
	if !p.Given || !p.Measurable {
		return p
	}
	off := p.Predicted - p.Measured
	switch {
	case math.Abs(off) <= tol && off == 0:
		p.Close, p.Note = true, "exactly"
	case math.Abs(off) <= tol:
		p.Close, p.Note = true, "close, within "+p.Tolerance
	case off < 0:
		p.Note = num(roundTo(-off, 0.1)) + unitSuffix(p.Unit) + " under: " + under
	default:
		p.Note = num(roundTo(off, 0.1)) + unitSuffix(p.Unit) + " over: " + over
	}
	return p
}
