package lab

import (
	"time"

	"leaselab/core"
	"leaselab/core/explore"
	"leaselab/lessons"
)

// Comparison is a lab's schedule replayed twice, the search's protection
// switched off in Runs[0] and on in Runs[1], each with the verdict of its
// whole run.
type Comparison struct {
	Spec     *lessons.Search
	Runs     [2]*Lab
	Verdicts [2]string
	Broken   [2]bool // whether each run breaks the invariant
}

// NewComparison builds the two runs from src's seed, knobs and log, at
// src's play head: every switch of the protection is dropped and one at
// time zero decides.
func NewComparison(src *Lab, spec *lessons.Search) (*Comparison, error) {
	c := &Comparison{Spec: spec}
	var log core.ActionLog
	for _, a := range src.Log() {
		if a.Do != spec.Protects {
			log = append(log, a)
		}
	}
	// Without controls the worlds draw no switch that would do nothing:
	// the comparison is a replay to watch.
	watch := *src.Lesson
	watch.Controls = nil
	for i, on := range []bool{false, true} {
		lb, err := New(&watch, src.Seed)
		if err != nil {
			return nil, err
		}
		if err := lb.Resume(src.Knobs(), append(core.ActionLog{core.At(0, core.Action{Do: spec.Protects, On: on})}, log...)); err != nil {
			return nil, err
		}
		lb.Seek(src.Now())
		// The verdict covers the whole run, whatever the play head.
		end := lb.Sim().Clone()
		end.RunUntil(lb.Length())
		c.Verdicts[i], c.Broken[i] = Verdict(end.Trace, spec, on)
		c.Runs[i] = lb
	}
	return c, nil
}

// Verdict says what the trace shows about the spec's invariant: the
// first event that broke it, or what the protection refused.
func Verdict(tr *core.Trace, spec *lessons.Search, on bool) (string, bool) {
	head := core.Capitalise(spec.Switch()) + " " + OnOff(on) + ": "
	if e := spec.Invariant.First(tr); e != nil {
		what := "duplicate job executed"
		if e.Kind == core.KindStale {
			what = "stale write accepted"
			if e.Format(core.FShard) != "" {
				what = "stale offset commit accepted"
			}
		}
		return head + what + " at t=" + core.FormatTime(e.At), true
	}
	if r := explore.Refusals(tr); r != "nothing needed refusing" {
		return head + r, false
	}
	// Short enough for a pane half a world wide: the header says what
	// the invariant is.
	return head + "no break, nothing to refuse", false
}

// AtPlayHead is the checklist of the two runs on screen: for each, the
// invariant and whether it still holds at the play head, or when it
// broke there (a goal's note), so it describes the runs shown, not the
// learner's own.
func (c *Comparison) AtPlayHead() []Check {
	out := make([]Check, len(c.Runs))
	for i, lb := range c.Runs {
		// The row reads "Fencing off: broke “no stale write accepted” at
		// 13.005s": the invariant's name quoted, as "broken at t=13.005s:
		// no stale write accepted" read as if no stale write was accepted.
		name := "“" + c.Spec.Invariant.Name + "”"
		ch := Check{Note: core.Capitalise(c.Spec.Switch()) + " " + OnOff(i == 1), Text: name + " holds so far", Holds: true}
		if e := c.Spec.Invariant.First(lb.Sim().Trace); e != nil && e.At <= lb.Now() {
			ch.Holds, ch.Text = false, "broke "+name+" at "+core.FormatTime(e.At)
		}
		out[i] = ch
	}
	return out
}

// Check is one row of a checklist: what must hold, whether it does, and a
// note on when.
type Check struct {
	Text, Note string
	Holds      bool
}

// PairClock drives both runs with one play head: the first leads, the
// second follows it to the same instant.
type PairClock [2]*Lab

func (c PairClock) Now() time.Duration       { return c[0].Now() }
func (c PairClock) Length() time.Duration    { return c[0].Length() }
func (c PairClock) Apply(cmd Command) string { return SystemsClock(c[:]).Apply(cmd) }
