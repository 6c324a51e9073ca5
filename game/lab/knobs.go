package lab

import (
	"fmt"
	"math"

	"leaselab/lessons"
)

// knobWords names the values of knobs that are choices, not quantities,
// with a shorter label than the lesson's (which spells the codes out).
var knobWords = map[string]struct {
	label string
	words []string
}{
	"recipe":  {"Right lane recipe", []string{"etcd (watch predecessor)", "ZooKeeper (watch predecessor)", "herd (watch the lock)"}},
	"boolean": {"A's leadership flag", []string{"state machine", "is_leader boolean"}},
}

// knobShort are shorter labels, longest first, for a slider row too
// narrow for the whole (each still says what 0 and 1 mean).
var knobShort = map[string][]string{
	"task":      {"Renew: loop 0 / task 1", "Loop 0 / task 1"},
	"per-shard": {"Per shard 1 / worker 0", "Shard 1 / worker 0"},
}

// KnobShort is the knob's label in fewer words, longest first (none
// when the label is short).
func KnobShort(k lessons.Knob) []string { return knobShort[k.ID] }

// KnobLabel is the slider's label.
func KnobLabel(k lessons.Knob) string {
	if w, ok := knobWords[k.ID]; ok {
		return w.label
	}
	return k.Label
}

// KnobValue renders a knob value for people: a word for a choice, a
// number with its unit otherwise.
func KnobValue(k lessons.Knob, v float64) string {
	if !k.Given(v) {
		return k.Unset // a prediction not made: "no prediction"
	}
	if w, ok := knobWords[k.ID]; ok {
		if i := int(math.Round(v - k.Min)); i >= 0 && i < len(w.words) {
			return w.words[i]
		}
	}
	s := fmt.Sprintf("%g", math.Round(v*100)/100)
	if k.Unit != "" {
		s += " " + k.Unit
	}
	return s
}

// KnobVerdict is the lesson's judgement of the knob values as the panel
// shows it (has is false for a lesson without one). It follows the
// goals: where the lesson asks the learner to break the rule with the
// sliders (its KnobGoal), a failing rule is what was asked, said so and
// marked as done (Wanted), never a red "Not OK" beside a goal met.
func (lb *Lab) KnobVerdict() (v KnobJudgement, has bool) {
	l := lb.Lesson
	if l.KnobCheck == nil {
		return KnobJudgement{}, false
	}
	ok, why := l.KnobCheck(lb.Knobs())
	v = KnobJudgement{OK: ok, Why: why, Word: "Rule holds"}
	if ok {
		return v, true
	}
	v.Word = "Rule fails"
	for i, g := range l.Goals {
		if g.ID != l.KnobGoal {
			continue
		}
		v.Wanted = true
		if lb.Achieved()[i] {
			v.Word = "Rule fails, as the goal asked (met)"
		} else {
			v.Word = "Rule fails, as the goal asks: play to see what it costs"
		}
	}
	return v, true
}

// KnobJudgement is a knob verdict: whether the rule holds, whether a failing
// rule is what the lesson asked for, and the words.
type KnobJudgement struct {
	OK, Wanted bool
	Word, Why  string
}

// Good reports whether the verdict is drawn as a success: the rule holds,
// or it fails as the lesson asked.
func (v KnobJudgement) Good() bool { return v.OK || v.Wanted }
