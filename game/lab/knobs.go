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
