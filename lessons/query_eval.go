package lessons

import (
	"fmt"
)

// Evaluation: a parsed check run over one log, within a step budget.

// qrun evaluates a check on one log within a step budget.
type qrun struct {
	log   *qlog
	env   [maxQueryDepth]*logEvent
	steps int
	over  bool
}

// errTooMuchWork is a check that needs more than maxQuerySteps on a log.
var errTooMuchWork = fmt.Errorf("needs more than %d steps on one log: nest fewer some/every/no/count", maxQuerySteps)

// evalCheck runs c on log l: whether it calls the log a bug, and the value
// of its condition.
func evalCheck(c *Check, l *qlog) (holds bool, err error) {
	r := &qrun{log: l}
	v := r.cond(c.cond)
	if r.over {
		return false, errTooMuchWork
	}
	return v, nil
}

// callsBug is what the check says of a log whose condition is v.
func (c *Check) callsBug(v bool) bool { return v != c.Unless }

func (r *qrun) step() bool {
	r.steps++
	if r.steps > maxQuerySteps {
		r.over = true
	}
	return !r.over
}

// each calls f with every event of s that passes its filters, in log
// order, until f returns false.
func (r *qrun) each(s qsel, f func(*logEvent) bool) {
	for _, i := range r.log.byKind[s.kind] {
		if !r.step() {
			return
		}
		e := &r.log.events[i]
		r.env[s.depth] = e
		pass := true
		for _, c := range s.filters {
			if !r.cond(c) {
				pass = false
				break
			}
		}
		if pass && !f(e) {
			return
		}
	}
}

func (r *qrun) cond(c qcond) bool {
	if r.over {
		return false
	}
	switch c := c.(type) {
	case qAnd:
		return r.cond(c.l) && r.cond(c.r)
	case qOr:
		return r.cond(c.l) || r.cond(c.r)
	case qNot:
		return !r.cond(c.c)
	case qOrder:
		a, b := r.env[c.a].fields["line"].num, r.env[c.b].fields["line"].num
		if c.after {
			return a > b
		}
		return a < b
	case qQuant:
		found := false
		all := true
		r.each(c.sel, func(*logEvent) bool {
			ok := c.body == nil || r.cond(c.body)
			found = found || ok
			all = all && ok
			return c.q == "every" && all || c.q != "every" && !found
		})
		switch c.q {
		case "some":
			return found
		case "no":
			return !found
		}
		return all
	case qCmp:
		return compare(r.expr(c.l), c.op, r.expr(c.r))
	}
	return false
}

func compare(l qval, op string, rv qval) bool {
	if !l.ok() || !rv.ok() || l.typ != rv.typ {
		return false
	}
	if l.typ == tText {
		switch op {
		case "=":
			return l.text == rv.text
		case "!=":
			return l.text != rv.text
		}
		return false
	}
	if op == "=" {
		op = "=="
	}
	return Claim{L: l.num, Op: op, R: rv.num}.Holds()
}

func (r *qrun) expr(e qexpr) qval {
	if r.over {
		return qval{}
	}
	switch e := e.(type) {
	case qLit:
		return e.v
	case qField:
		return r.env[e.depth].fields[e.name]
	case qPath:
		var v qval
		r.each(e.sel, func(ev *logEvent) bool {
			v = ev.fields[e.field]
			return false
		})
		return v
	case qCount:
		n := 0
		r.each(e.sel, func(*logEvent) bool {
			if e.body == nil || r.cond(e.body) {
				n++
			}
			return true
		})
		return qval{num: float64(n), typ: tNum}
	case qDistinct:
		seen := map[qval]bool{}
		r.each(e.sel, func(ev *logEvent) bool {
			if v := ev.fields[e.field]; v.ok() {
				seen[v] = true
			}
			return true
		})
		return qval{num: float64(len(seen)), typ: tNum}
	case qArith:
		l, rv := r.expr(e.l), r.expr(e.r)
		if l.typ != tNum || rv.typ != tNum {
			return qval{}
		}
		if e.op == "+" {
			return qval{num: l.num + rv.num, typ: tNum}
		}
		return qval{num: l.num - rv.num, typ: tNum}
	}
	return qval{}
}
