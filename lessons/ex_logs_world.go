package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"leaselab/core"
)

// Exercise 5's logs: each incident simulated and written as an operator's
// log, each line read as a check reads it, and the hidden variants the
// checks also run on.

// logKinds are the trace kinds an operator's logs would show.
var logKinds = []core.Kind{
	core.KindLeaseGrant, core.KindLeaseExpire, core.KindLeaseRevoke, core.KindHolder, core.KindFree,
	core.KindLeaseLost, core.KindState, core.KindPause, core.KindResume, core.KindCrash, core.KindWrite,
	core.KindPartition, core.KindHeal,
}

// logLine is one line of an incident's log, the trace event it shows, and
// the line as checks read it.
type logLine struct {
	text string
	ev   core.Event
	q    logEvent
}

// run simulates a case and renders its trace as log lines.
func (c logCase) run() []logLine { return simulateLog(c.id, c.cfg, c.log, c.until) }

// simulateLog runs a world and renders its trace as log lines.
func simulateLog(id string, cfg core.ContentionConfig, log core.ActionLog, until time.Duration) []logLine {
	s, err := core.BuildWorld(cfg.World(1))
	if err != nil {
		panic(fmt.Sprintf("exercise 5 %s: %v", id, err)) // fixed data: a bug, caught by tests
	}
	s.Schedule(log)
	s.RunUntil(until)
	var out []logLine
	// held is the token each worker's last state line gave it, which its
	// lease.lost line reports: a worker's log says what it lost.
	held := map[string]int64{}
	for e := range s.Trace.All() {
		// A worker's log shows the writes it sends, so the reader can tell
		// a write sent before the worker noticed its lease had gone from
		// one sent after.
		if e.Kind == core.KindSend && e.Msg() == "Write" {
			text := fmt.Sprintf("%s %s send write to=%s token=%s", core.FormatTime(e.At), e.Actor, e.To(), e.Format(core.FToken))
			out = append(out, logLine{text: text, ev: *e})
			continue
		}
		if !slices.Contains(logKinds, e.Kind) {
			continue
		}
		if e.Kind == core.KindState {
			held[e.Actor] = e.Token()
		}
		text := strings.TrimPrefix(e.Text(), "t=")
		if e.Kind == core.KindLeaseLost {
			extra := fmt.Sprintf(" token=%d", held[e.Actor])
			if i := strings.Index(text, " cause="); i >= 0 {
				text = text[:i] + extra + text[i:]
			} else {
				text += extra
			}
		}
		out = append(out, logLine{text: text, ev: *e})
	}
	for i := range out {
		out[i].q = readLine(i+1, out[i].text)
	}
	return out
}

// readLine reads a log line as checks see it: at, line, actor, its kind,
// and every name=value it prints but cause; a write's request id.
func readLine(n int, text string) logEvent {
	f := map[string]qval{"line": {num: float64(n), typ: tNum}}
	at, rest, _ := strings.Cut(text, " ")
	if v, err := strconv.ParseFloat(strings.TrimSuffix(at, "s"), 64); err == nil {
		f["at"] = qval{num: v, typ: tNum}
	}
	actor, rest, _ := strings.Cut(rest, " ")
	f["actor"] = qval{text: actor, typ: tText}
	kind, rest, _ := strings.Cut(rest, " ")
	for rest != "" {
		var word string
		if k, v, ok := strings.Cut(rest, "="); ok && !strings.Contains(k, " ") {
			if q, err := strconv.QuotedPrefix(v); err == nil {
				u, _ := strconv.Unquote(q)
				word, rest = u, strings.TrimPrefix(v[len(q):], " ")
			} else {
				word, rest, _ = strings.Cut(v, " ")
			}
			if k == "cause" {
				continue
			}
			if n, err := strconv.ParseFloat(word, 64); err == nil && !slices.Contains(textFields, k) {
				f[k] = qval{num: n, typ: tNum}
			} else {
				f[k] = qval{text: word, typ: tText}
			}
			continue
		}
		_, rest, _ = strings.Cut(rest, " ") // a bare word ("send write")
	}
	if v, ok := f["value"]; ok && kind == "write" {
		if i := strings.LastIndex(v.text, "(req-"); i >= 0 {
			f["request"] = qval{text: strings.TrimSuffix(v.text[i+1:], ")"), typ: tText}
		}
	}
	return logEvent{kind: kind, fields: f}
}

// textFields are the fields that hold text even when they read as a
// number (a lease id may be all digits).
var textFields = []string{"lease", "key", "value", "owner", "was", "lock", "why", "from", "to", "result", "dir", "a", "b"}

// logRuns are the three incidents' logs, simulated once when first read.
var logRuns = sync.OnceValue(func() [][]logLine {
	out := make([][]logLine, len(logCases))
	for i, c := range logCases {
		out[i] = c.run()
	}
	return out
})

func texts(ls []logLine) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// find returns the index of the first line at or after from that ok
// accepts (-1: none).
func find(ls []logLine, from int, ok func(e core.Event) bool) int {
	for i := max(from, 0); i < len(ls); i++ {
		if ok(ls[i].ev) {
			return i
		}
	}
	return -1
}

func isSend(proc string, tok int64) func(core.Event) bool {
	return func(e core.Event) bool {
		return e.Kind == core.KindSend && e.Actor == proc && e.Token() == tok
	}
}

func isWrite(from string, tok int64, result string) func(core.Event) bool {
	return func(e core.Event) bool {
		return e.Kind == core.KindWrite && e.From() == from && e.Token() == tok && e.Result() == result
	}
}

func isKind(proc string, kind core.Kind) func(core.Event) bool {
	return func(e core.Event) bool { return e.Kind == kind && e.Actor == proc }
}

// logVariant is a hidden variant of an incident: the same story with
// other numbers, or with one thing changed that changes the verdict or
// must not.
type logVariant struct {
	base int
	// what says how it differs from the incident, for the feedback.
	what  string
	cfg   core.ContentionConfig
	log   core.ActionLog
	until time.Duration
	// gap names what a set of checks that misjudges it probably reads
	// (without a query).
	gap string
}

const (
	gapTime = "a check that reads a time of the visible logs holds only at those times"
	gapName = "a check that names a worker, a token or a request id of the visible logs holds only for those"
	gapMean = "the signs your checks read do not separate a bug from an expected retry here"
)

// logVariants are the hidden variants: each incident 7 s later; each with
// workers P and Q, tokens from 41 and other request ids; and four that
// change the story (storage fencing incident 1's late write, incident 3's
// without fencing, incident 2's second write a new request, incident 2's
// worker retrying the same request under the token it knew it had lost).
var logVariants = sync.OnceValue(func() []logVariant {
	var out []logVariant
	for i, c := range logCases {
		shift := 7 * time.Second
		var log core.ActionLog
		for _, t := range c.log {
			t.At += core.Duration(shift)
			log = append(log, t)
		}
		out = append(out, logVariant{base: i, what: "every time 7 s later", cfg: c.cfg, log: log, until: c.until + shift, gap: gapTime})
	}
	for i, c := range logCases {
		cfg := c.cfg
		cfg.Names = []string{"P", "Q"}
		cfg.FirstToken = 41
		rename := map[string]string{"A": "P", "B": "Q"}
		var log core.ActionLog
		for _, t := range c.log {
			if n, ok := rename[t.Proc]; ok {
				t.Proc = n
			}
			if n, ok := rename[t.Peer]; ok {
				t.Peer = n
			}
			t.Value = strings.Replace(t.Value, "(req-", "(req-9", 1)
			log = append(log, t)
		}
		out = append(out, logVariant{base: i, what: "workers P and Q, tokens 41 and 42, other request ids", cfg: cfg, log: log, until: c.until, gap: gapName})
	}
	fenced := logCases[0].cfg
	fenced.Fencing = true
	out = append(out, logVariant{base: 0, what: "storage compares tokens", cfg: fenced, log: logCases[0].log, until: logCases[0].until, gap: gapMean})
	open := logCases[2].cfg
	open.Fencing = false
	out = append(out, logVariant{base: 2, what: "storage does not compare tokens", cfg: open, log: logCases[2].log, until: logCases[2].until, gap: gapMean})
	fresh := slices.Clone(logCases[1].log)
	fresh[len(fresh)-1] = writeAt(26*time.Second, "A", "order-9 total=48 (req-42)")
	out = append(out, logVariant{base: 1, what: "the second write is a new request", cfg: logCases[1].cfg, log: fresh, until: logCases[1].until, gap: gapMean})
	zombie := logCases[1].cfg
	zombie.IgnoreLeaseLoss = true
	out = append(out, logVariant{base: 1, what: "A ignores its lost lease and resends the same request under token 15", cfg: zombie, log: logCases[1].log, until: logCases[1].until, gap: gapMean})
	return out
})

// variantRuns are the variants' logs, simulated once when first read.
var variantRuns = sync.OnceValue(func() [][]logLine {
	vs := logVariants()
	out := make([][]logLine, len(vs))
	for i, v := range vs {
		out[i] = simulateLog(fmt.Sprintf("variant %d", i+1), v.cfg, v.log, v.until)
	}
	return out
})

// checkLogs is every log the checks run on, incidents first, as checks
// read them.
var checkedLogs = sync.OnceValue(func() []*qlog {
	var out []*qlog
	for _, ls := range append(slices.Clone(logRuns()), variantRuns()...) {
		evs := make([]logEvent, len(ls))
		for i, l := range ls {
			evs[i] = l.q
		}
		out = append(out, newQLog(evs))
	}
	return out
})

// logSchema is the kinds and fields of every log the checks run on.
var logSchema = sync.OnceValue(func() *qschema { return newSchema(checkedLogs()) })
