package lessons

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// A check's syntax: its tokens (the lexer) and the tree the parser
// (query_parse.go) builds of them.

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
