package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Exercise 5's checks are small queries over an incident's log, written by
// the learner in the language QuerySyntax documents. A check is parsed
// once (parseCheck: a clear error with its position, or a program) and run
// on every incident and hidden variant (evalCheck), with a bounded number
// of steps. Nothing here knows which incident is a bug: that is the
// judgement's business (ex_logs.go).

// QuerySyntax documents the check language; labctl exercise token-logs
// --help prints it, and the page's and desktop's builders write checks in
// it.
const QuerySyntax = `A check is one line that starts with "bug if" or "bug unless":
  bug if CONDITION       the incident is a bug when CONDITION holds
  bug unless CONDITION   the incident is a bug when CONDITION does not hold
An incident is an expected retry when none of your checks calls it a bug.

Every log line is an event. Its kind is the word after the actor (write,
send, lease.lost, lock.holder, lease.expire, lock.free, state, pause, ...);
its fields are at (the time in seconds), line (its line number), actor
(who logged it) and every name=value the line prints (token, highest,
result, lease, owner, ...; not cause). A write also has request, the
request id in its value ("req-41"); a lease.lost line has token, the token
its worker held.

CONDITION is one of
  some KIND [NAME] [[CONDITION, ...]] [: CONDITION]
                      at least one event of KIND that passes the conditions
                      in brackets satisfies the one after the colon
  every KIND [NAME] [[...]] : CONDITION   all of them do (true if none)
  no KIND [NAME] [[...]] [: CONDITION]    none does
  VALUE OP VALUE      OP is = != < <= > >= (text takes only = and !=)
  NAME after NAME     the first event's line comes later in the log (before:
                      earlier)
  CONDITION and CONDITION, CONDITION or CONDITION, not CONDITION, (CONDITION)
VALUE is one of
  15, 14.5            a number; times are seconds, _ms fields milliseconds
  'accepted', "A"     text, in single or double quotes
  FIELD               a field of the innermost event some/every/no/count names
  NAME.FIELD          a field of the event called NAME (a NAME starts with a
                      capital letter: some write W: W.token ...)
  KIND[...].FIELD     the field of the first such event in the log
  count(KIND [NAME] [[...]] [: CONDITION])   how many events match
  distinct(KIND[...].FIELD)                  how many different values
  VALUE + VALUE, VALUE - VALUE               on numbers
A field an event does not have has no value, and a comparison with no value
is false. "all" may be written for every, "any" for some, == for =.

Examples of the form (not of an answer):
  bug if some pause: for_ms > 5000
  bug unless count(lock.holder) = 2
  bug if some state S[S.to = 'leader']: some crash C: C.actor = S.actor and C after S

Limits: at most 8 checks of at most 240 characters each, some/every/no/count
nested at most 3 deep, 64 parts (fields, values, comparisons) per check.`

// Query limits (QuerySyntax states them).
const (
	maxChecks     = 8
	maxCheckLen   = 240
	maxQueryDepth = 3
	maxQueryNodes = 64
	// maxQuerySteps bounds the events one check may visit on one log;
	// three nested quantifiers over a 40-line log take 64,000.
	maxQuerySteps = 200_000
)

// QueryLang is an exercise's check language over its logs: which kinds of
// events and fields there are, for the parser and for the builders' menus.
type QueryLang struct {
	schema func() *qschema
	// shown are the logs the learner reads (not the hidden variants).
	shown func() []*qlog
}

// Parse reads one check.
func (q *QueryLang) Parse(src string) (*Check, error) { return parseCheck(src, q.schema()) }

// Kinds lists the kinds of events the logs have, by name.
func (q *QueryLang) Kinds() []string { return q.schema().kinds }

// Fields lists the fields events of kind have: at, line and actor first.
func (q *QueryLang) Fields(kind string) []string { return q.schema().kindFields(kind) }

// IsNumber reports whether field f of kind holds numbers.
func (q *QueryLang) IsNumber(kind, f string) bool { return q.schema().fields[kind][f] == tNum }

// Values lists, as a check writes them, the values field f of kind takes
// in the logs the learner reads, sorted, at most max of them (a builder's
// menu of values to compare with).
func (q *QueryLang) Values(kind, f string, max int) []string {
	seen := map[qval]bool{}
	var vals []qval
	for _, l := range q.shown() {
		for _, i := range l.byKind[kind] {
			v := l.events[i].fields[f]
			if v.ok() && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
	}
	slices.SortFunc(vals, func(a, b qval) int {
		if a.typ == tNum && b.typ == tNum {
			return cmpFloat(a.num, b.num)
		}
		return strings.Compare(a.text, b.text)
	})
	var out []string
	for _, v := range vals[:min(len(vals), max)] {
		out = append(out, Literal(v.text, v.num, v.typ == tNum))
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Literal writes a value as a check does: a number bare, text in single
// quotes (double quotes if it holds one).
func Literal(text string, num float64, isNum bool) string {
	if isNum {
		return strconv.FormatFloat(num, 'f', -1, 64)
	}
	if strings.Contains(text, "'") {
		return `"` + text + `"`
	}
	return "'" + text + "'"
}

// validateChecks refuses checks that cannot be read, with the check's
// index and the position in it.
func (e *Exercise) validateChecks(cs []string) error {
	if len(cs) == 0 {
		return nil
	}
	if e.Queries == nil {
		return fmt.Errorf("exercise %s takes no checks", e.ID)
	}
	if len(cs) > maxChecks {
		return fmt.Errorf("checks: %d checks, more than the %d an answer may have", len(cs), maxChecks)
	}
	for i, c := range cs {
		if strings.TrimSpace(c) == "" {
			return fmt.Errorf("checks[%d]: an empty check: write one, or leave it out", i)
		}
		if j := slices.Index(cs, c); j < i {
			return fmt.Errorf("checks[%d]: the same check as checks[%d]", i, j)
		}
		if _, err := e.Queries.Parse(c); err != nil {
			return fmt.Errorf("checks[%d]: %v (the syntax: labctl exercise %s --help)", i, err, e.ID)
		}
	}
	return nil
}
