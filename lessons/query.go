package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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

// --- lexer ---

type qtok struct {
	kind string // "id", "num", "str", "op", "eof"
	text string
	num  float64
	pos  int // 1-based character
}

// QueryError is a check that cannot be read: where, and what was wanted.
type QueryError struct {
	Pos int
	Msg string
}

func (e *QueryError) Error() string {
	if e.Pos <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("at character %d: %s", e.Pos, e.Msg)
}

func qerr(pos int, format string, args ...any) *QueryError {
	return &QueryError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func lexQuery(src string) ([]qtok, error) {
	var out []qtok
	rs := []rune(src)
	isID := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(rs); {
		r := rs[i]
		pos := i + 1
		switch {
		case r == ' ' || r == '\t':
			i++
		case r < ' ' || r == 0x7f:
			return nil, qerr(pos, "a control character (%U) cannot be part of a check", r)
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(rs) && (isID(rs[j]) || rs[j] == '.' && j+1 < len(rs) && (unicode.IsLetter(rs[j+1]) || rs[j+1] == '_')) {
				j++
			}
			out = append(out, qtok{kind: "id", text: string(rs[i:j]), pos: pos})
			i = j
		case unicode.IsDigit(r):
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.') {
				j++
			}
			v, err := strconv.ParseFloat(string(rs[i:j]), 64)
			if err != nil {
				return nil, qerr(pos, "%q is not a number", string(rs[i:j]))
			}
			if j < len(rs) && isID(rs[j]) {
				return nil, qerr(j+1, "a number runs into %q: write numbers bare (14.5, not 14.5s) and text in quotes", string(rs[j]))
			}
			out = append(out, qtok{kind: "num", text: string(rs[i:j]), num: v, pos: pos})
			i = j
		case r == '\'' || r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != r {
				j++
			}
			if j == len(rs) {
				return nil, qerr(pos, "this text has no closing %c", r)
			}
			out = append(out, qtok{kind: "str", text: string(rs[i+1 : j]), pos: pos})
			i = j + 1
		default:
			two := ""
			if i+1 < len(rs) {
				two = string(rs[i : i+2])
			}
			switch {
			case two == "==" || two == "!=" || two == "<=" || two == ">=":
				out = append(out, qtok{kind: "op", text: two, pos: pos})
				i += 2
			case strings.ContainsRune("()[],:.=<>+-", r):
				out = append(out, qtok{kind: "op", text: string(r), pos: pos})
				i++
			default:
				return nil, qerr(pos, "%q has no meaning in a check (want a word, a number, quoted text or one of ( ) [ ] , : = != < <= > >= + -)", string(r))
			}
		}
	}
	return append(out, qtok{kind: "eof", pos: len(rs) + 1}), nil
}

// --- AST ---

type qcond interface{ isCond() }

type (
	qQuant struct {
		q     string // some, every, no
		sel   qsel
		body  qcond // nil: true
		depth int
	}
	qAnd   struct{ l, r qcond }
	qOr    struct{ l, r qcond }
	qNot   struct{ c qcond }
	qOrder struct {
		a, b  int // depths of the two named events
		after bool
	}
	qCmp struct {
		l, r qexpr
		op   string
	}
)

func (qQuant) isCond() {}
func (qAnd) isCond()   {}
func (qOr) isCond()    {}
func (qNot) isCond()   {}
func (qOrder) isCond() {}
func (qCmp) isCond()   {}

type qexpr interface{ isExpr() }

type (
	qLit   struct{ v qval }
	qField struct {
		depth int // the scope's event it reads
		name  string
	}
	qPath struct {
		sel   qsel
		field string
	}
	qCount struct {
		sel  qsel
		body qcond
	}
	qDistinct struct {
		sel   qsel
		field string
	}
	qArith struct {
		l, r qexpr
		op   string
	}
)

func (qLit) isExpr()      {}
func (qField) isExpr()    {}
func (qPath) isExpr()     {}
func (qCount) isExpr()    {}
func (qDistinct) isExpr() {}
func (qArith) isExpr()    {}

// qsel picks events of a kind that pass filters; depth is the scope slot
// the event fills while they run.
type qsel struct {
	kind    string
	filters []qcond
	depth   int
}

// FieldIssue is a field a check reads that its event never has.
type FieldIssue struct {
	Kind, Field string
	// Nowhere: no kind of event has the field at all.
	Nowhere bool
}

// Check is a parsed check.
type Check struct {
	Src string
	// Unless: the check calls an incident a bug when its condition fails.
	Unless bool
	cond   qcond
	// Issues are the fields it reads that their events never have.
	Issues []FieldIssue
}

// --- parser ---

type scope struct {
	name, kind string
}

type qparser struct {
	toks   []qtok
	i      int
	schema *qschema
	scopes []scope
	nodes  int
	issues []FieldIssue
}

func (p *qparser) peek() qtok { return p.toks[p.i] }
func (p *qparser) next() qtok {
	t := p.toks[p.i]
	if t.kind != "eof" {
		p.i++
	}
	return t
}

func (p *qparser) is(text string) bool {
	t := p.peek()
	return (t.kind == "op" || t.kind == "id") && t.text == text
}

func (p *qparser) want(text, what string) error {
	if !p.is(text) {
		return qerr(p.peek().pos, "want %s, found %s", what, describe(p.peek()))
	}
	p.next()
	return nil
}

func describe(t qtok) string {
	switch t.kind {
	case "eof":
		return "the end of the check"
	case "str":
		return fmt.Sprintf("the text '%s'", t.text)
	}
	return "`" + t.text + "`"
}

func (p *qparser) node(pos int) error {
	p.nodes++
	if p.nodes > maxQueryNodes {
		return qerr(pos, "the check has more than %d parts: split it into several checks", maxQueryNodes)
	}
	return nil
}

// parseCheck reads one check against the fields the logs have.
func parseCheck(src string, schema *qschema) (*Check, error) {
	if n := utf8.RuneCountInString(src); n > maxCheckLen {
		return nil, qerr(0, "the check is %d characters long, more than the %d a check may have: split it into several checks", n, maxCheckLen)
	}
	if !utf8.ValidString(src) {
		return nil, qerr(0, "the check is not text")
	}
	toks, err := lexQuery(src)
	if err != nil {
		return nil, err
	}
	p := &qparser{toks: toks, schema: schema}
	c := &Check{Src: src}
	if err := p.want("bug", "`bug if` or `bug unless` to start the check"); err != nil {
		return nil, err
	}
	switch {
	case p.is("if"):
		p.next()
	case p.is("unless"):
		p.next()
		c.Unless = true
	default:
		return nil, qerr(p.peek().pos, "want `if` or `unless` after `bug`, found %s", describe(p.peek()))
	}
	cond, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != "eof" {
		return nil, qerr(t.pos, "want `and`, `or` or the end of the check, found %s", describe(t))
	}
	c.cond, c.Issues = cond, p.issues
	return c, nil
}

func (p *qparser) or() (qcond, error) {
	l, err := p.and()
	for err == nil && p.is("or") {
		p.next()
		var r qcond
		if r, err = p.and(); err == nil {
			l = qOr{l, r}
		}
	}
	return l, err
}

func (p *qparser) and() (qcond, error) {
	l, err := p.unary()
	for err == nil && p.is("and") {
		p.next()
		var r qcond
		if r, err = p.unary(); err == nil {
			l = qAnd{l, r}
		}
	}
	return l, err
}

var quantWords = map[string]string{"some": "some", "any": "some", "every": "every", "all": "every", "no": "no"}

func (p *qparser) unary() (qcond, error) {
	t := p.peek()
	if err := p.node(t.pos); err != nil {
		return nil, err
	}
	if t.kind == "id" {
		if t.text == "not" {
			p.next()
			c, err := p.unary()
			return qNot{c}, err
		}
		if q, ok := quantWords[t.text]; ok {
			p.next()
			return p.quant(q, t)
		}
	}
	if p.is("(") && !p.parenIsValue() {
		p.next()
		c, err := p.or()
		if err != nil {
			return nil, err
		}
		return c, p.want(")", "`)` to close the `(` at character "+strconv.Itoa(t.pos))
	}
	// NAME after NAME, NAME before NAME
	if t.kind == "id" && isName(t.text) && !strings.Contains(t.text, ".") {
		if n := p.toks[p.i+1]; n.kind == "id" && (n.text == "after" || n.text == "before") {
			a, err := p.nameDepth(t)
			if err != nil {
				return nil, err
			}
			p.next()
			p.next()
			bt := p.next()
			if bt.kind != "id" || !isName(bt.text) {
				return nil, qerr(bt.pos, "want the NAME of an event after `%s`, found %s", n.text, describe(bt))
			}
			b, err := p.nameDepth(bt)
			if err != nil {
				return nil, err
			}
			return qOrder{a: a, b: b, after: n.text == "after"}, nil
		}
	}
	l, lt, err := p.sum()
	if err != nil {
		return nil, err
	}
	op := p.peek()
	switch op.text {
	case "=", "==", "!=", "<", "<=", ">", ">=":
		if op.kind != "op" {
			break
		}
		p.next()
		r, rt, err := p.sum()
		if err != nil {
			return nil, err
		}
		o := op.text
		if o == "==" {
			o = "="
		}
		if lt != tUnknown && rt != tUnknown && lt != rt {
			return nil, qerr(op.pos, "`%s` compares %s with %s: they are never equal", op.text, lt, rt)
		}
		if o != "=" && o != "!=" && (lt == tText || rt == tText) {
			return nil, qerr(op.pos, "`%s` orders numbers; text takes only = and !=", op.text)
		}
		return qCmp{l: l, r: r, op: o}, nil
	}
	return nil, qerr(op.pos, "want a comparison (= != < <= > >=) after the value, found %s", describe(op))
}

// parenIsValue reports whether the "(" ahead opens a value ("(at - 3) >
// 5") rather than a condition: what follows its closing ")" says, a
// comparison or + or - for a value.
func (p *qparser) parenIsValue() bool {
	depth := 0
	for j := p.i; j < len(p.toks); j++ {
		t := p.toks[j]
		switch {
		case t.kind == "op" && t.text == "(":
			depth++
		case t.kind == "op" && t.text == ")":
			depth--
			if depth == 0 {
				n := p.toks[j+1]
				return n.kind == "op" && strings.Contains("= == != < <= > >= + -", n.text)
			}
		case t.kind == "eof":
			return false
		}
	}
	return false
}

// isKeyword reports whether s is a word of the language.
func isKeyword(s string) bool {
	switch s {
	case "and", "or", "not", "some", "every", "no", "all", "any", "bug", "if", "unless", "after", "before", "count", "distinct":
		return true
	}
	return false
}

func isName(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

func (p *qparser) nameDepth(t qtok) (int, error) {
	for d := len(p.scopes) - 1; d >= 0; d-- {
		if p.scopes[d].name == t.text {
			return d, nil
		}
	}
	return 0, qerr(t.pos, "`%s` names no event here: name one first (some KIND %s: ...)", t.text, t.text)
}

func (p *qparser) kind(t qtok) (string, error) {
	if t.kind == "id" && p.schema.fields[t.text] != nil {
		return t.text, nil
	}
	return "", qerr(t.pos, "want a kind of event (%s), found %s", strings.Join(p.schema.kinds, ", "), describe(t))
}

// sel reads KIND [NAME] [[CONDITION, ...]] and opens its scope (the
// caller closes it).
func (p *qparser) sel(named bool) (qsel, error) {
	t := p.next()
	kind, err := p.kind(t)
	if err != nil {
		return qsel{}, err
	}
	s := qsel{kind: kind, depth: len(p.scopes)}
	if len(p.scopes) >= maxQueryDepth {
		return s, qerr(t.pos, "some/every/no/count/distinct are nested more than %d deep here: split the check", maxQueryDepth)
	}
	sc := scope{kind: kind}
	if n := p.peek(); named && n.kind == "id" && isName(n.text) && !strings.Contains(n.text, ".") {
		for _, o := range p.scopes {
			if o.name == n.text {
				return s, qerr(n.pos, "`%s` already names an event here: pick another name", n.text)
			}
		}
		sc.name = n.text
		p.next()
	}
	if n := p.peek(); named && sc.name == "" && n.kind == "id" && !isName(n.text) && !isKeyword(n.text) {
		return s, qerr(n.pos, "`%s` cannot name an event: a NAME starts with a capital letter (%s %s)", n.text, kind, strings.ToUpper(n.text[:1])+n.text[1:])
	}
	p.scopes = append(p.scopes, sc)
	if p.is("[") {
		open := p.next()
		for {
			c, err := p.or()
			if err != nil {
				return s, err
			}
			s.filters = append(s.filters, c)
			if p.is(",") {
				p.next()
				continue
			}
			if err := p.want("]", "`,` or `]` to close the `[` at character "+strconv.Itoa(open.pos)); err != nil {
				return s, err
			}
			break
		}
	}
	return s, nil
}

func (p *qparser) quant(q string, t qtok) (qcond, error) {
	s, err := p.sel(true)
	if err != nil {
		return nil, err
	}
	defer func() { p.scopes = p.scopes[:s.depth] }()
	n := qQuant{q: q, sel: s, depth: s.depth}
	if p.is(":") {
		p.next()
		if n.body, err = p.or(); err != nil {
			return nil, err
		}
	} else if q == "every" {
		return nil, qerr(p.peek().pos, "want `:` and what every %s must satisfy, found %s", s.kind, describe(p.peek()))
	}
	return n, nil
}

func (p *qparser) sum() (qexpr, qtype, error) {
	l, lt, err := p.value()
	for err == nil && (p.is("+") || p.is("-")) {
		op := p.next()
		var r qexpr
		var rt qtype
		if r, rt, err = p.value(); err != nil {
			break
		}
		if lt == tText || rt == tText {
			return nil, 0, qerr(op.pos, "`%s` adds or subtracts numbers, not text", op.text)
		}
		l, lt = qArith{l, r, op.text}, tNum
	}
	return l, lt, err
}

func (p *qparser) value() (qexpr, qtype, error) {
	t := p.next()
	if err := p.node(t.pos); err != nil {
		return nil, 0, err
	}
	switch t.kind {
	case "num":
		return qLit{qval{num: t.num, typ: tNum}}, tNum, nil
	case "str":
		return qLit{qval{text: t.text, typ: tText}}, tText, nil
	case "op":
		if t.text == "(" {
			e, et, err := p.sum()
			if err != nil {
				return nil, 0, err
			}
			return e, et, p.want(")", "`)` to close the `(` at character "+strconv.Itoa(t.pos))
		}
		if t.text == "-" {
			if n := p.peek(); n.kind == "num" {
				p.next()
				return qLit{qval{num: -n.num, typ: tNum}}, tNum, nil
			}
		}
		return nil, 0, qerr(t.pos, "want a value (a number, 'text', a field, count(...) or distinct(...)), found %s", describe(t))
	case "eof", "":
		return nil, 0, qerr(t.pos, "want a value (a number, 'text', a field, count(...) or distinct(...)), found %s", describe(t))
	}
	// An identifier: count(, distinct(, NAME.FIELD, KIND[...].FIELD,
	// KIND.FIELD or a bare FIELD.
	switch {
	case (t.text == "count" || t.text == "distinct") && p.is("("):
		p.next()
		if t.text == "count" {
			s, err := p.sel(true)
			if err != nil {
				return nil, 0, err
			}
			c := qCount{sel: s}
			if p.is(":") {
				p.next()
				c.body, err = p.or()
			}
			p.scopes = p.scopes[:s.depth]
			if err != nil {
				return nil, 0, err
			}
			return c, tNum, p.want(")", "`)` to close count(")
		}
		s, f, _, err := p.path()
		if err != nil {
			return nil, 0, err
		}
		return qDistinct{sel: s, field: f}, tNum, p.want(")", "`)` to close distinct(")
	case isName(t.text):
		name, field, ok := strings.Cut(t.text, ".")
		if !ok {
			return nil, 0, qerr(t.pos, "want NAME.FIELD (a field of the event %s), found `%s` alone", name, name)
		}
		d, err := p.nameDepth(qtok{text: name, pos: t.pos})
		if err != nil {
			return nil, 0, err
		}
		return qField{depth: d, name: field}, p.fieldType(p.scopes[d].kind, field), nil
	}
	if _, isKind := p.schema.fields[t.text]; isKind || p.dottedKind(t.text) {
		p.i-- // the path reads the kind again
		s, f, ft, err := p.path()
		if err != nil {
			return nil, 0, err
		}
		return qPath{sel: s, field: f}, ft, nil
	}
	if strings.Contains(t.text, ".") {
		return nil, 0, qerr(t.pos, "`%s` is not KIND.FIELD or NAME.FIELD: %q is no kind of event and no NAME", t.text, t.text[:strings.LastIndex(t.text, ".")])
	}
	if isKeyword(t.text) {
		return nil, 0, qerr(t.pos, "want a value, found the word `%s`", t.text)
	}
	if len(p.scopes) == 0 {
		return nil, 0, qerr(t.pos, "`%s` is read outside some/every/no/count: say which event's field it is (NAME.FIELD or KIND[...].FIELD), or put it inside one", t.text)
	}
	d := len(p.scopes) - 1
	return qField{depth: d, name: t.text}, p.fieldType(p.scopes[d].kind, t.text), nil
}

// dottedKind reports whether id is KIND.FIELD.
func (p *qparser) dottedKind(id string) bool {
	i := strings.LastIndex(id, ".")
	return i > 0 && p.schema.fields[id[:i]] != nil
}

// path reads KIND[...].FIELD or KIND.FIELD (the kind may itself be
// dotted: lease.expire.at).
func (p *qparser) path() (qsel, string, qtype, error) {
	t := p.peek()
	if t.kind == "id" && p.schema.fields[t.text] == nil && p.dottedKind(t.text) {
		p.next()
		i := strings.LastIndex(t.text, ".")
		kind, field := t.text[:i], t.text[i+1:]
		if len(p.scopes) >= maxQueryDepth {
			return qsel{}, "", 0, qerr(t.pos, "some/every/no/count/distinct are nested more than %d deep here: split the check", maxQueryDepth)
		}
		return qsel{kind: kind, depth: len(p.scopes)}, field, p.fieldType(kind, field), nil
	}
	s, err := p.sel(false)
	if err != nil {
		return s, "", 0, err
	}
	p.scopes = p.scopes[:s.depth]
	if err := p.want(".", fmt.Sprintf("`.FIELD` after the %s events: which field", s.kind)); err != nil {
		return s, "", 0, err
	}
	f := p.next()
	if f.kind != "id" || strings.Contains(f.text, ".") {
		return s, "", 0, qerr(f.pos, "want a field name after `.`, found %s", describe(f))
	}
	return s, f.text, p.fieldType(s.kind, f.text), nil
}

// fieldType is the type of field f of kind's events; a field they never
// have is recorded as an issue (the judgement names it) and has no type.
func (p *qparser) fieldType(kind, f string) qtype {
	if t, ok := p.schema.fields[kind][f]; ok {
		return t
	}
	issue := FieldIssue{Kind: kind, Field: f, Nowhere: !p.schema.anyKindHas(f)}
	if !slices.Contains(p.issues, issue) {
		p.issues = append(p.issues, issue)
	}
	return tUnknown
}

// --- evaluation ---

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
