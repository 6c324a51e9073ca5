package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The parser: a check's tokens into its tree (query_syntax.go), each
// field it names checked against the logs' schema (query_log.go).

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
		return p.opValue(t)
	case "eof", "":
		return nil, 0, qerr(t.pos, "want a value (a number, 'text', a field, count(...) or distinct(...)), found %s", describe(t))
	}
	// An identifier: count(, distinct(, NAME.FIELD, KIND[...].FIELD,
	// KIND.FIELD or a bare FIELD.
	if (t.text == "count" || t.text == "distinct") && p.is("(") {
		p.next()
		return p.aggregate(t.text == "count")
	}
	return p.fieldValue(t)
}

// opValue is a value that starts with an operator: a parenthesised sum
// or a negative number.
func (p *qparser) opValue(t qtok) (qexpr, qtype, error) {
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
}

// aggregate reads count(...) or distinct(...) after its "(".
func (p *qparser) aggregate(count bool) (qexpr, qtype, error) {
	if !count {
		s, f, _, err := p.path()
		if err != nil {
			return nil, 0, err
		}
		return qDistinct{sel: s, field: f}, tNum, p.want(")", "`)` to close distinct(")
	}
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

// fieldValue reads a field: NAME.FIELD, KIND[...].FIELD, KIND.FIELD or a
// bare FIELD of the innermost event in scope.
func (p *qparser) fieldValue(t qtok) (qexpr, qtype, error) {
	if isName(t.text) {
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
