package lessons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parse reads a check against exercise 5's logs.
func parse(src string) (*Check, error) { return exLogs.Queries.Parse(src) }

// TestQueryParsesTheDocumentedForms: every form QuerySyntax documents
// parses, its examples included.
func TestQueryParsesTheDocumentedForms(t *testing.T) {
	for _, src := range append([]string{
		"bug if some pause: for_ms > 5000",
		"bug unless count(lock.holder) = 2",
		"bug if some state S[S.to = 'leader']: some crash C: C.actor = S.actor and C after S",
		"bug if some write[result = 'accepted']: token < highest",
		"bug if some write W[W.result = \"accepted\", W.token < W.highest]",
		"bug unless every write: token >= 0",
		"bug unless all write: token >= 0",
		"bug if any write: token == 15",
		"bug if no write",
		"bug if not some write: token != 15 or (some send: at - 3 > 0.5)",
		"bug if write[token = 15].at > lease.expire.at",
		"bug if lease.expire[owner = 'A'].at + 1 >= 14",
		"bug unless distinct(write.request) = 1",
		"bug unless distinct(write[result = 'accepted'].request) <= 2",
		"bug if count(write W: W.token < W.highest) > -1",
		"bug if some lease.lost L: some send S: S before L",
		"bug if some send: (at - 3) > 5 or some write: (token + 1) > highest",
	}, modelChecks...) {
		_, err := parse(src)
		assert.NoError(t, err, src)
	}
}

// TestQueryErrorsSayWhereAndWhat: a check that cannot be read is refused
// with the character where reading stopped and what was wanted there.
func TestQueryErrorsSayWhereAndWhat(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"count(write) == 2", "at character 1: want `bug if` or `bug unless` to start the check, found `count`"},
		{"bug when some write", "at character 5: want `if` or `unless` after `bug`, found `when`"},
		{"bug if some writes: token < highest", "at character 13: want a kind of event (crash, lease.expire"},
		{"bug if some write: token <", "at character 27: want a value (a number, 'text', a field, count(...) or distinct(...)), found the end of the check"},
		{"bug if some write: token highest", "at character 26: want a comparison (= != < <= > >=) after the value, found `highest`"},
		{"bug if some write: actor < 'B'", "at character 26: `<` orders numbers; text takes only = and !="},
		{"bug if some write: token = 'A'", "at character 26: `=` compares a number with text: they are never equal"},
		{"bug if some write: result = 'accepted", "at character 29: this text has no closing '"},
		{"bug if some write: at > 14s", "at character 27: a number runs into \"s\""},
		{"bug if some write: W.token > 1", "at character 20: `W` names no event here"},
		{"bug if token > 1", "at character 8: `token` is read outside some/every/no/count"},
		{"bug if some write W: some send W: W.at > 1", "at character 32: `W` already names an event here"},
		{"bug if some write[token > 1 : at > 1", "at character 29: want `,` or `]` to close the `[` at character 18"},
		{"bug if some write: token > 1 )", "at character 30: want `and`, `or` or the end of the check, found `)`"},
		{"bug if every write", "at character 19: want `:` and what every write must satisfy"},
		{"bug if some write: token > 1 ; drop", "at character 30: \";\" has no meaning in a check"},
		{"bug if some write: token > 1\n", "at character 29: a control character"},
		{"bug if some write A1: some send B1: some lease.lost C1: some state D1: A1.token = D1.token", "at character 62: some/every/no/count/distinct are nested more than 3 deep"},
		{"bug if some write w: w.token > 1", "at character 19: `w` cannot name an event: a NAME starts with a capital letter (write W)"},
		{"bug if write.nothing.at > 1", "`write.nothing.at` is not KIND.FIELD or NAME.FIELD"},
	} {
		_, err := parse(c.src)
		require.Error(t, err, c.src)
		assert.Contains(t, err.Error(), c.want, c.src)
		assert.NotContains(t, err.Error(), "\n", "one line")
	}
}

// TestQueryLimits: a check longer than the limit, with more parts than
// the limit, or an answer with more checks than the limit is refused with
// a message saying the limit; the limits are what QuerySyntax states.
func TestQueryLimits(t *testing.T) {
	long := "bug if some write: token < highest" + strings.Repeat(" and token < highest", 11)
	require.Greater(t, len(long), maxCheckLen)
	_, err := parse(long)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "more than the 240 a check may have")

	many := "bug if some write: token > 0" + strings.Repeat(" or 1 > 0", 22)
	require.LessOrEqual(t, len(many), maxCheckLen)
	_, err = parse(many)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "more than 64 parts")

	checks := make([]string, maxChecks+1)
	for i := range checks {
		checks[i] = "bug if count(write) > " + strings.Repeat("1", i+1)
	}
	_, err = exLogs.ParseAnswer([]byte(`{"checks":["` + strings.Join(checks, `","`) + `"]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "9 checks, more than the 8 an answer may have")
	for _, limit := range []string{"at most 8 checks", "240 characters", "3 deep", "64 parts"} {
		assert.Contains(t, QuerySyntax, limit)
	}
}

// TestQueryEvaluationIsBounded: the most work a check may ask for (three
// nested quantifiers over every event) finishes within the step budget on
// every log, and a budget overrun is an error, not a hang.
func TestQueryEvaluationIsBounded(t *testing.T) {
	c, err := parse("bug if some state X: some state Y: some state Z: X.line + Y.line + Z.line < 0")
	require.NoError(t, err)
	for k, l := range checkedLogs() {
		_, err := evalCheck(c, l)
		assert.NoError(t, err, "log %d", k)
	}
	big := make([]logEvent, 100)
	for i := range big {
		big[i] = logEvent{kind: "state", fields: map[string]qval{"line": {num: float64(i + 1), typ: tNum}}}
	}
	_, err = evalCheck(c, newQLog(big))
	require.ErrorIs(t, err, errTooMuchWork)
}

// TestQueryEvaluatesOnEachIncident: checks read the incidents' lines as
// printed (fields, times, order, a write's request id, the token a
// lease.lost line reports) and give what each log shows.
func TestQueryEvaluatesOnEachIncident(t *testing.T) {
	for _, c := range []struct {
		src  string
		want [3]bool
	}{
		{modelChecks[0], [3]bool{true, false, false}},
		{modelChecks[1], [3]bool{false, false, true}},
		{"bug if some write: token < highest", [3]bool{true, false, true}},
		{"bug unless distinct(write.request) = 1", [3]bool{false, true, false}},
		{"bug if count(write[request = 'req-41']) = 2", [3]bool{false, true, false}},
		{"bug if some pause", [3]bool{true, false, false}},
		{"bug if some crash", [3]bool{false, true, false}},
		{"bug if lock.holder[token = 16].at > 14", [3]bool{false, true, false}},
		{"bug if some lease.lost L: some send S: S.actor = L.actor and S after L", [3]bool{false, true, true}},
		{"bug if some lease.lost L: some send S: S.actor = L.actor and S.at > L.at", [3]bool{false, true, true}},
		{"bug if some lease.lost L: some send S[S.token = L.token]: S.at >= L.at", [3]bool{true, false, true}},
		{"bug if some write: reqid = 'x'", [3]bool{false, false, false}},
		{"bug unless some write: reqid != 'x'", [3]bool{false, false, false}},
	} {
		ch, err := parse(c.src)
		require.NoError(t, err, c.src)
		for i := range logCases {
			v, err := evalCheck(ch, checkedLogs()[i])
			require.NoError(t, err)
			assert.Equal(t, c.want[i], v, "%s on incident %d", c.src, i+1)
		}
	}
}

// TestQueryReadsTheLinesAsPrinted: a line's fields are its name=value
// pairs (numbers as numbers, quoted text unquoted), at, line and actor;
// cause is not one.
func TestQueryReadsTheLinesAsPrinted(t *testing.T) {
	e := readLine(19, `25.005s orders-db write from=A token=15 value="order-9 total=45 (req-44)" result=accepted highest=16 cause=77,66`)
	assert.Equal(t, "write", e.kind)
	assert.Equal(t, qval{num: 25.005, typ: tNum}, e.fields["at"])
	assert.Equal(t, qval{num: 19, typ: tNum}, e.fields["line"])
	assert.Equal(t, qval{text: "orders-db", typ: tText}, e.fields["actor"])
	assert.Equal(t, qval{text: "order-9 total=45 (req-44)", typ: tText}, e.fields["value"])
	assert.Equal(t, qval{text: "req-44", typ: tText}, e.fields["request"])
	assert.Equal(t, qval{num: 16, typ: tNum}, e.fields["highest"])
	assert.NotContains(t, e.fields, "cause")
	s := readLine(7, "3.000s A send write to=orders-db token=15")
	assert.Equal(t, "send", s.kind)
	assert.Equal(t, qval{num: 15, typ: tNum}, s.fields["token"])
	assert.Equal(t, qval{text: "orders-db", typ: tText}, s.fields["to"])
}
