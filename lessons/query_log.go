package lessons

import (
	"slices"
	"strings"
)

// The logs a check reads: a value and its type, an incident's log as
// events, and the schema of their kinds and fields (query.go has the
// language's entry points).

// qtype is a value's type: a number, text, or not known (a field no event
// of the kind has).
type qtype int

const (
	tUnknown qtype = iota
	tNum
	tText
)

func (t qtype) String() string {
	switch t {
	case tNum:
		return "a number"
	case tText:
		return "text"
	}
	return "unknown"
}

// qval is a value while a check runs; ok is false for no value.
type qval struct {
	num  float64
	text string
	typ  qtype
}

func (v qval) ok() bool { return v.typ != tUnknown }

// logEvent is one line of a log as checks read it.
type logEvent struct {
	kind   string
	fields map[string]qval
}

// qlog is one log (an incident or a variant) as checks read it.
type qlog struct {
	events []logEvent
	byKind map[string][]int
}

func newQLog(events []logEvent) *qlog {
	l := &qlog{events: events, byKind: map[string][]int{}}
	for i, e := range events {
		l.byKind[e.kind] = append(l.byKind[e.kind], i)
	}
	return l
}

// qschema is what fields each kind of event has, and their types, over
// every log the checks run on.
type qschema struct {
	kinds  []string
	fields map[string]map[string]qtype
}

func newSchema(logs []*qlog) *qschema {
	s := &qschema{fields: map[string]map[string]qtype{}}
	for _, l := range logs {
		for _, e := range l.events {
			m := s.fields[e.kind]
			if m == nil {
				m = map[string]qtype{}
				s.fields[e.kind] = m
				s.kinds = append(s.kinds, e.kind)
			}
			for k, v := range e.fields {
				m[k] = v.typ
			}
		}
	}
	slices.Sort(s.kinds)
	return s
}

// anyKindHas reports whether some kind of event has field f.
func (s *qschema) anyKindHas(f string) bool {
	for _, m := range s.fields {
		if _, ok := m[f]; ok {
			return true
		}
	}
	return false
}

// Fields lists a kind's fields in order (for the builders' menus).
func (s *qschema) kindFields(kind string) []string {
	var out []string
	for f := range s.fields[kind] {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b string) int {
		if d := fieldOrder(a) - fieldOrder(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}

// fieldOrder puts at, line and actor first, then the rest by name.
func fieldOrder(f string) int {
	switch f {
	case "at":
		return -3
	case "line":
		return -2
	case "actor":
		return -1
	}
	return 0
}
