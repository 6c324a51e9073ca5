package lessons

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"leaselab/core"
)

// An explanation is only as good as the numbers in it. Feedback that cites
// a time, a count or a rate builds its text with a because, which records
// where every number came from (an event of the learner's run, the brief,
// the learner's answer, a measurement of their design) and every comparison
// the sentence states. The property test reads those records back: each
// number in the text must be one of them, and each comparison must hold.
// Nothing is read from a template that could contradict the run.

// Cite is one number an explanation gives, and where it came from.
type Cite struct {
	// Text is the number as the explanation writes it ("22.016 s").
	Text string
	// From is "trace" (Event's time, or its Field), "given" (the brief or
	// the learner's answer), "run" (a measurement of the learner's design)
	// or "derived" (arithmetic on other cites).
	From  string
	Event *core.Event
	Field core.FieldID
}

// Claim is a comparison an explanation states: L Op R, with Op one of
// < <= == >= > !=.
type Claim struct {
	L, R float64
	Op   string
}

// Holds reports whether the comparison is true.
func (c Claim) Holds() bool {
	switch c.Op {
	case "<":
		return c.L < c.R
	case "<=":
		return c.L <= c.R
	case "==":
		return c.L == c.R
	case ">=":
		return c.L >= c.R
	case ">":
		return c.L > c.R
	case "!=":
		return c.L != c.R
	}
	return false
}

// because collects the cites and claims of one explanation.
type because struct {
	cites  []Cite
	claims []Claim
}

func (b *because) cite(text, from string, e *core.Event, field core.FieldID) string {
	b.cites = append(b.cites, Cite{Text: text, From: from, Event: e, Field: field})
	return text
}

// at is the time of event e, as "12.016 s".
func (b *because) at(e core.Event) string { return b.cite(instant(e.At), "trace", &e, 0) }

// instant writes a time of the run as the trace and its log lines do:
// cut, not rounded, to the millisecond, so the feedback quotes the very
// number the learner can find in the log.
func instant(t time.Duration) string {
	return core.Seconds(t.Truncate(time.Millisecond))
}

// ms is the millisecond field key of event e as a time.
func (b *because) ms(e core.Event, key core.FieldID) string {
	return b.cite(secs(time.Duration(e.Num(key))*time.Millisecond), "trace", &e, key)
}

// given is a duration the brief or the answer states.
func (b *because) given(d time.Duration) string { return b.cite(secs(d), "given", nil, 0) }

// givenN is a count or rate the brief or the answer states.
func (b *because) givenN(v float64) string { return b.cite(num(v), "given", nil, 0) }

// run is a duration measured from a run of the learner's design.
func (b *because) run(d time.Duration) string { return b.cite(secs(d), "run", nil, 0) }

// moment is an instant of a run of the learner's design (a fault's time),
// written as the trace writes times.
func (b *because) moment(t time.Duration) string { return b.cite(instant(t), "run", nil, 0) }

// runN is a count or rate measured from a run of the learner's design.
func (b *because) runN(v float64) string { return b.cite(num(v), "run", nil, 0) }

// diff is to - from, derived from two cited times.
func (b *because) diff(to, from time.Duration) string {
	return b.cite(secs(to-from), "derived", nil, 0)
}

// derived is a duration computed from cited numbers.
func (b *because) derived(d time.Duration) string { return b.cite(secs(d), "derived", nil, 0) }

// derivedN is a count computed from cited numbers.
func (b *because) derivedN(v float64) string { return b.cite(num(v), "derived", nil, 0) }

// claim tests l op r, so the caller picks its words from the truth, and
// records it as stated when it holds (the branch it guards says so). A
// branch taken when it does not hold states its own relation with state.
func (b *because) claim(l float64, op string, r float64) bool {
	c := Claim{L: l, Op: op, R: r}
	if c.Holds() {
		b.claims = append(b.claims, c)
	}
	return c.Holds()
}

// state records that the text states l op r (true or not: the property
// test checks).
func (b *because) state(l float64, op string, r float64) {
	b.claims = append(b.claims, Claim{L: l, Op: op, R: r})
}

// claimD is claim on durations.
func (b *because) claimD(l time.Duration, op string, r time.Duration) bool {
	return b.claim(l.Seconds(), op, r.Seconds())
}

// stateD is state on durations.
func (b *because) stateD(l time.Duration, op string, r time.Duration) {
	b.state(l.Seconds(), op, r.Seconds())
}

// feedback makes the part's verdict from the text and what it rests on.
func (b *because) feedback(part string, ok bool, format string, args ...any) Feedback {
	return Feedback{Part: part, OK: ok, Why: fmt.Sprintf(format, args...), Cites: b.cites, Claims: b.claims}
}

// num writes a count or rate without trailing zeros.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// pluralS picks the singular or the plural for a count of n.
func pluralS(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// roundTo rounds v to the nearest multiple of unit.
func roundTo(v, unit float64) float64 {
	if unit < 1 {
		// Divide by the inverse: 5193 / 10 prints as 519.3, while
		// 5193 * 0.1 does not.
		return math.Round(v/unit) / math.Round(1/unit)
	}
	return math.Round(v/unit) * unit
}

// joinAnd lists items as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
