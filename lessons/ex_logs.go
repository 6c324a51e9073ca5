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

// logCase is one incident of exercise 5: a run whose logs show tokens 15
// and 16 both writing order-9.
type logCase struct {
	id, title string
	cfg       core.ContentionConfig
	log       core.ActionLog
	until     time.Duration
	// explain reads the case's conclusion off its own log; proof picks the
	// lines that prove it (indexes into the log).
	explain func(ls []logLine, b *because) string
	proof   func(ls []logLine) []int
	// nudge points a set of checks that misjudges the incident at the
	// evidence that decides it, without saying what that evidence shows.
	nudge string
}

func object9(tok int64, fencing, zombie bool) core.ContentionConfig {
	return core.ContentionConfig{
		Names: []string{"A", "B"}, FirstToken: tok, TTL: 10 * time.Second, Stagger: 500 * time.Millisecond,
		Fencing: fencing, IgnoreLeaseLoss: zombie, Lock: "locks/order-9", Register: "orders-db",
	}
}

func writeAt(t time.Duration, proc, value string) core.Timed {
	return core.At(t, core.Write(proc, value))
}

var logCases = []logCase{
	{
		id: "case-1", title: "Incident 1",
		cfg: object9(15, false, false),
		log: core.ActionLog{
			writeAt(3*time.Second, "A", "order-9 total=40 (req-41)"),
			core.At(5*time.Second, core.Pause("A", 20*time.Second)),
			writeAt(6*time.Second, "A", "order-9 total=45 (req-44)"),
			writeAt(18*time.Second, "B", "order-9 total=52 (req-47)"),
		},
		until:   35 * time.Second,
		explain: explainCase1,
		proof:   proofCase1,
		nudge:   "Put three lines side by side: when A sent its token-15 write, when A itself noticed the lease was gone, and what storage did with that write after it had seen 16.",
	},
	{
		id: "case-2", title: "Incident 2",
		cfg: object9(15, true, false),
		log: core.ActionLog{
			core.At(1*time.Second, core.Crash("B")),
			writeAt(3*time.Second, "A", "order-9 total=40 (req-41)"),
			core.At(4*time.Second, core.Partition("A", core.CoordinatorName)),
			core.At(16*time.Second, core.Heal("A", core.CoordinatorName)),
			writeAt(26*time.Second, "A", "order-9 total=40 (req-41)"),
		},
		until:   35 * time.Second,
		explain: explainCase2,
		proof:   proofCase2,
		nudge:   "Compare the request IDs of the writes, and check when each token-15 write landed against when the coordinator ended 15's ownership.",
	},
	{
		id: "case-3", title: "Incident 3",
		cfg: object9(15, true, true),
		log: core.ActionLog{
			writeAt(3*time.Second, "A", "order-9 total=40 (req-41)"),
			core.At(4*time.Second, core.Partition("A", core.CoordinatorName)),
			writeAt(19*time.Second, "B", "order-9 total=52 (req-47)"),
			writeAt(21*time.Second, "A", "order-9 total=45 (req-44)"),
			writeAt(25*time.Second, "A", "order-9 total=46 (req-45)"),
		},
		until:   30 * time.Second,
		explain: explainCase3,
		proof:   proofCase3,
		nudge:   "Read A's own log in order: what does it say about its lease, and what does it do afterwards?",
	},
}

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
	for _, e := range s.Trace.Events {
		// A worker's log shows the writes it sends, so the reader can tell
		// a write sent before the worker noticed its lease had gone from
		// one sent after.
		if e.Kind == core.KindSend && e.Msg() == "Write" {
			text := fmt.Sprintf("%s %s send write to=%s token=%s", core.FormatTime(e.At), e.Actor, e.To(), e.Format(core.FToken))
			out = append(out, logLine{text: text, ev: e})
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
		out = append(out, logLine{text: text, ev: e})
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

// Incident 1: a paused leader's write, sent on waking, accepted after 16.
func case1Lines(ls []logLine) (pause, send, lost, newer, stale int) {
	pause = find(ls, 0, isKind("A", core.KindPause))
	newer = find(ls, 0, isWrite("B", 16, core.Accepted))
	stale = find(ls, newer, isWrite("A", 15, core.Accepted))
	send = -1
	for i := pause; i >= 0 && i < stale; i++ {
		if isSend("A", 15)(ls[i].ev) {
			send = i
		}
	}
	lost = find(ls, pause, isKind("A", core.KindLeaseLost))
	return
}

func proofCase1(ls []logLine) []int {
	pause, send, lost, newer, stale := case1Lines(ls)
	return []int{pause, send, lost, newer, stale}
}

func explainCase1(ls []logLine, b *because) string {
	pause, send, lost, newer, stale := case1Lines(ls)
	b.stateD(ls[send].ev.At, "<=", ls[lost].ev.At)
	b.stateD(ls[newer].ev.At, "<", ls[stale].ev.At)
	return fmt.Sprintf("A froze at %s for %s. On waking it sent its token-15 write at %s, ahead of its own lease check (logged next, at %s), and storage accepted it at %s although it had taken 16 from B at %s: the newest value went backwards. A behaved as any paused leader would; the bug is that storage does not compare tokens.",
		b.at(ls[pause].ev), b.ms(ls[pause].ev, core.FFor), b.at(ls[send].ev), b.at(ls[lost].ev), b.at(ls[stale].ev), b.at(ls[newer].ev))
}

// Incident 2: the same request sent again under a new ownership.
func case2Lines(ls []logLine) (w15, free, h16, w16 int) {
	w15 = find(ls, 0, isWrite("A", 15, core.Accepted))
	free = find(ls, w15, func(e core.Event) bool { return e.Kind == core.KindFree && e.Token() == 15 })
	h16 = find(ls, free, func(e core.Event) bool { return e.Kind == core.KindHolder && e.Token() == 16 })
	w16 = find(ls, h16, isWrite("A", 16, core.Accepted))
	return
}

func proofCase2(ls []logLine) []int {
	w15, free, h16, w16 := case2Lines(ls)
	return []int{w15, free, h16, w16}
}

func explainCase2(ls []logLine, b *because) string {
	w15, free, h16, w16 := case2Lines(ls)
	b.stateD(ls[w15].ev.At, "<", ls[free].ev.At)
	b.stateD(ls[h16].ev.At, "<", ls[w16].ev.At)
	return fmt.Sprintf("Storage took the token-15 write at %s, while 15 was still the live ownership (the coordinator ended it at %s). A then won the lock back with 16 at %s and sent the same request req-41 again, accepted at %s. Same request ID, tokens rising, nothing accepted out of order: an expected retry, harmless if the write is idempotent.",
		b.at(ls[w15].ev), b.at(ls[free].ev), b.at(ls[h16].ev), b.at(ls[w16].ev))
}

// Incident 3: a worker that knew its lease was gone and kept writing.
func case3Lines(ls []logLine) (lost int, sends, refused []int) {
	lost = find(ls, 0, isKind("A", core.KindLeaseLost))
	for i := lost; i >= 0 && i < len(ls); i++ {
		switch {
		case isSend("A", 15)(ls[i].ev):
			sends = append(sends, i)
		case isWrite("A", 15, core.RejectedStale)(ls[i].ev):
			refused = append(refused, i)
		}
	}
	return
}

func proofCase3(ls []logLine) []int {
	lost, sends, refused := case3Lines(ls)
	out := append([]int{lost}, sends...)
	return append(out, refused...)
}

func explainCase3(ls []logLine, b *because) string {
	lost, sends, _ := case3Lines(ls)
	var at []string
	for _, i := range sends {
		b.stateD(ls[lost].ev.At, "<", ls[i].ev.At)
		at = append(at, b.at(ls[i].ev))
	}
	return fmt.Sprintf("A's own log says its lease was lost at %s, yet it went on sending writes with 15 at %s. Storage refused them because it had seen 16, so the data is safe, but the worker treats lease loss as a warning instead of a stop: a real bug that fencing happened to contain.",
		b.at(ls[lost].ev), strings.Join(at, " and "))
}

// evidenceOptions are the lines offered as evidence for case i: every
// line of its log. Any subset offered would be a tell (the proof lines
// beside routine ones); the whole log makes the learner tell the lines
// that prove the conclusion from the ones that only look relevant.
func evidenceOptions(i int) []Option {
	var out []Option
	for k, l := range logRuns()[i] {
		out = append(out, Option{fmt.Sprintf("line-%d", k+1), l.text})
	}
	return out
}

// bears reports whether line k of case i bears on its conclusion: a line a
// careful reader may cite beside the proof without being marked down. The
// lines that bear on nothing are the routine ones (campaigns, lease
// grants, a follower's crash and its unused lease) and the writes of the
// ownership before it ended, which no reading of the incident rests on.
func bears(i, k int) bool {
	ls := logRuns()[i]
	if slices.Contains(logCases[i].proof(ls), k) {
		return true
	}
	// Token 15's ownership ends at its lease's expiry (or the lock's
	// release): what is written before belongs to the ownership itself.
	end := find(ls, 0, func(e core.Event) bool {
		return e.Kind == core.KindFree && e.Token() == 15 || e.Kind == core.KindHolder && e.Token() == 16
	})
	e := ls[k].ev
	switch e.Kind {
	case core.KindHolder, core.KindFree, core.KindPartition, core.KindHeal, core.KindPause, core.KindResume, core.KindLeaseLost:
		return true
	case core.KindLeaseExpire:
		// The 15-holder's lease, which held the lock.
		return e.Owner() == ls[find(ls, 0, func(e core.Event) bool { return e.Kind == core.KindHolder })].ev.Owner() && e.Keys() > 0
	case core.KindState:
		return e.To() == "leader" || e.To() == "stepping_down" || e.From() == "stepping_down"
	case core.KindSend, core.KindWrite:
		if k >= end {
			return true
		}
		// The send of a write the proof cites.
		next := find(ls, k+1, func(w core.Event) bool {
			return w.Kind == core.KindWrite && w.From() == e.Actor && w.Token() == e.Token()
		})
		return e.Kind == core.KindSend && next >= 0 && slices.Contains(logCases[i].proof(ls), next)
	}
	return false
}

// sameFact reports whether line k of a log proves what line p proves: it
// is line p, or it states the same fact about the same moment in other
// words. The coordinator ends an ownership in two lines of one instant,
// its lease's expiry and the lock's release; a worker logs the loss of
// its lease and steps down in the same instant, for the same reason; and a
// pause is shown as much by the resume that ends it as by its start.
func sameFact(ls []logLine, p, k int) bool {
	if p == k {
		return true
	}
	if p < 0 || k < 0 || p >= len(ls) || k >= len(ls) {
		return false
	}
	a, b := ls[p].ev, ls[k].ev
	switch {
	case a.Kind == core.KindFree && b.Kind == core.KindLeaseExpire:
		return b.At == a.At && b.Owner() == a.Was() && b.Keys() > 0
	case a.Kind == core.KindLeaseExpire && b.Kind == core.KindFree:
		return sameFact(ls, k, p)
	case a.Kind == core.KindLeaseLost && b.Kind == core.KindState:
		return b.At == a.At && b.Actor == a.Actor && b.From() == core.Leader.String() && b.Why() == a.Why()
	case a.Kind == core.KindState && b.Kind == core.KindLeaseLost:
		return sameFact(ls, k, p)
	case a.Kind == core.KindPause && b.Kind == core.KindResume:
		// The first resume of the same process after the pause ends it.
		return b.Actor == a.Actor && find(ls, p+1, isKind(a.Actor, core.KindResume)) == k
	case a.Kind == core.KindResume && b.Kind == core.KindPause:
		return sameFact(ls, k, p)
	}
	return false
}

func proofIDs(i int) []string {
	var out []string
	for _, p := range logCases[i].proof(logRuns()[i]) {
		out = append(out, fmt.Sprintf("line-%d", p+1))
	}
	slices.SortFunc(out, func(a, b string) int { return lineNo(a) - lineNo(b) })
	return out
}

func lineNo(id string) int {
	var n int
	fmt.Sscanf(id, "line-%d", &n)
	return n
}

// formatCheck is the check of the format example: it parses, and it
// misjudges an incident.
const formatCheck = "bug if some pause: for_ms > 5000"

func logsExercise() *Exercise {
	e := &Exercise{
		ID:      "token-logs",
		Title:   "Tokens 15 and 16 both wrote order-9",
		Summary: "Write the checks that tell a bug from an expected retry, and run them on three incidents' logs.",
		Minutes: 20,
		Brief: []string{
			"Three incident reports say the same thing: the orders database shows writes to order-9 carrying fencing token 15 and writes carrying token 16. Each came with the logs of the coordinator, the two workers A and B, and the database.",
			"Write the checks you would run on such logs, as small queries over their lines: each says when an incident is a bug. An incident no check calls a bug is an expected retry. The lab runs your checks on the three incidents and on variants of them you do not see (other times, other names and tokens, other storage settings), and says which ones your checks misjudge. Then cite, for each incident, the log lines your conclusion rests on.",
		},
		Format: `"checks" is a list of up to 8 checks, each one line in the check
language below; "choices" holds, for each incident (case-1, case-2,
case-3), its evidence: the log lines your conclusion rests on, by id.
labctl exercise token-logs lists each incident's lines with their ids.

` + QuerySyntax,
		Reference: Answer{Choices: map[string][]string{}, Checks: modelChecks},
		KeyPoints: []string{
			"Order events by the coordinator's history, the tokens and each log's own order, never by wall clocks or lease IDs.",
			"A lower token accepted after a higher one is storage not fencing.",
			"The same request ID under a rising token is an expected retry; the request ID alone decides nothing.",
			"A write sent with a token after its sender logged losing that token is a worker that ignores lease loss, even when fencing refuses it.",
		},
		Hints: []string{
			"Two tokens on one object is not yet a bug: an ownership can end and a new one begin. What decides it is the order of events, read from sources that can order them.",
			"Line up, in each incident: what storage did with each write, given the highest token it had seen; and whether the sender of a token-15 write had already logged that its lease was gone. A check that names a time, a worker or a token of these three logs will not hold on a log with other numbers.",
			"The key step: a write storage accepted with a token below the highest it had seen is a bug, and so is a send whose token its own worker had logged as lost before it sent (compare the lines' order, not only their times). A stale write that fencing refused, from a worker that did not yet know, is expected; so is the same request resent under a newer token.",
		},
		Queries: &QueryLang{schema: logSchema, shown: func() []*qlog { return checkedLogs()[:len(logCases)] }},
	}
	for i, c := range logCases {
		e.Materials = append(e.Materials, Material{ID: c.id, Title: c.title, lines: func() []string { return texts(logRuns()[i]) }})
		e.Questions = append(e.Questions,
			Question{ID: c.id + "-evidence", Material: c.id, Multi: true, Text: fmt.Sprintf("Incident %d: which log lines prove your conclusion? Pick every one your reading rests on.", i+1), Options: evidenceOptions(i)},
		)
		e.Reference.Choices[c.id+"-evidence"] = proofIDs(i)
		var b because
		e.Worked = append(e.Worked, fmt.Sprintf("Incident %d: %s", i+1, c.explain(logRuns()[i], &b)))
	}
	e.Worked = append(e.Worked,
		"The checks: "+strings.Join(quoted(modelChecks), " and ")+". The first finds storage accepting an older token after a newer one; the second a worker sending under a token it had itself logged as lost. Neither names a time, a worker or a token, so both hold on logs with other numbers; the request ID and the storage's refusals decide nothing alone (a new request under a new token is fine, and fencing refuses a paused leader's write that is no bug).")
	e.start = logsCheck
	return e
}

// modelChecks are the model answer's checks.
var modelChecks = []string{
	"bug if some write[result = 'accepted']: token < highest",
	"bug if some lease.lost L: some send S: S.actor = L.actor and S.token = L.token and S after L",
}

func quoted(cs []string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = "`" + c + "`"
	}
	return out
}

var exLogs = logsExercise()

// logTruth is the lab's own reading of a log: a bug when storage accepted
// a write whose token is below the highest it had seen (no fencing), or
// when a worker sent a write under a token it had already logged losing
// (it ignores lease loss). Anything else is expected: a retry under a newer
// token, a new request, or a stale write fencing refused from a worker
// that did not yet know.
func logTruth(ls []logLine) (bug bool, why string) {
	for _, l := range ls {
		if e := l.ev; e.Kind == core.KindWrite && e.Result() == core.Accepted && e.Token() < e.Highest() {
			return true, "storage accepted an older token after a newer one"
		}
	}
	for i, l := range ls {
		if l.ev.Kind != core.KindLeaseLost {
			continue
		}
		tok := l.q.fields["token"].num
		for _, s := range ls[i+1:] {
			if s.ev.Kind == core.KindSend && s.ev.Actor == l.ev.Actor && float64(s.ev.Token()) == tok {
				return true, "a worker sent under a token it had logged as lost"
			}
		}
	}
	return false, ""
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

// logName names log k (an incident or a variant) for the feedback; the
// numbers it gives are the lab's own (the incident's, the variant's).
func logName(b *because, k int) string {
	if k < len(logCases) {
		return "incident " + b.givenN(float64(k+1))
	}
	v := logVariants()[k-len(logCases)]
	return fmt.Sprintf("a hidden variant of incident %s (%s)", b.givenN(float64(v.base+1)), b.cite(v.what, "given", nil, 0))
}

// checkVerdicts runs each check on each log: verdicts[c][k] is whether
// check c calls log k a bug; errs[c] the first error it met.
func checkVerdicts(cs []*Check) (holds [][]bool, errs []error) {
	logs := checkedLogs()
	holds = make([][]bool, len(cs))
	errs = make([]error, len(cs))
	for c, ch := range cs {
		holds[c] = make([]bool, len(logs))
		for k, l := range logs {
			v, err := evalCheck(ch, l)
			if err != nil && errs[c] == nil {
				errs[c] = err
			}
			holds[c][k] = v
		}
	}
	return holds, errs
}

// setVerdict is what a set of checks says of log k: a bug when one calls
// it so; and which checks do.
func setVerdict(cs []*Check, holds [][]bool, k int) (bug bool, by []int) {
	for c, ch := range cs {
		if ch.callsBug(holds[c][k]) {
			by = append(by, c)
		}
	}
	return len(by) > 0, by
}

func checkNames(b *because, by []int) string {
	var out []string
	for _, c := range by {
		out = append(out, "check "+b.givenN(float64(c+1)))
	}
	return strings.Join(out, ", ")
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func logsCheck(a Answer) Job {
	var cs []*Check
	lang := QueryLang{schema: logSchema, shown: func() []*qlog { return checkedLogs()[:len(logCases)] }}
	for _, src := range a.Checks {
		c, err := lang.Parse(src)
		if err != nil {
			panic(fmt.Sprintf("exercise 5: a validated check does not parse: %v", err)) // Validate parsed it
		}
		cs = append(cs, c)
	}
	holds, errs := checkVerdicts(cs)
	truth := func(k int) bool {
		if k < len(logCases) {
			bug, _ := logTruth(logRuns()[k])
			return bug
		}
		bug, _ := logTruth(variantRuns()[k-len(logCases)])
		return bug
	}
	verdictText := func(b *because, k int) string {
		bug, by := setVerdict(cs, holds, k)
		if bug {
			return fmt.Sprintf("your checks call it a bug (%s)", checkNames(b, by))
		}
		return "no check of yours calls it a bug, so your checks call it an expected retry"
	}

	var parts []Feedback
	for i, c := range logCases {
		var b because
		evidence := judgeEvidence(&b, a, i)
		decided := len(cs) > 0
		if decided {
			bug, _ := setVerdict(cs, holds, i)
			decided = bug == truth(i)
		}
		f := Feedback{Part: fmt.Sprintf("Incident %d", i+1), OK: decided && evidence == ""}
		var why []string
		switch {
		case len(cs) == 0:
			why = append(why, "No checks: write the checks that decide whether this incident is a bug.")
		case !decided:
			why = append(why, fmt.Sprintf("Your checks misjudge it: %s, and that is not what its log shows. %s", verdictText(&b, i), c.nudge))
		case f.OK:
			why = append(why, upper(verdictText(&b, i))+", rightly. "+c.explain(logRuns()[i], &b))
		default:
			why = append(why, upper(verdictText(&b, i))+", rightly; the evidence is not yet right.")
		}
		if evidence != "" {
			why = append(why, evidence)
		}
		f.Why = strings.Join(why, " ")
		f.Cites, f.Claims = b.cites, b.claims
		parts = append(parts, f)
	}

	// The hidden variants: which ones the set misjudges, and what a set
	// that misjudges them probably reads.
	var b because
	var wrong []string
	var gaps []string
	for k := len(logCases); k < len(checkedLogs()); k++ {
		if len(cs) == 0 {
			break
		}
		bug, _ := setVerdict(cs, holds, k)
		if bug == truth(k) {
			continue
		}
		v := logVariants()[k-len(logCases)]
		wrong = append(wrong, fmt.Sprintf("%s: %s, and it is not", upper(logName(&b, k)), verdictText(&b, k)))
		// A variant of an incident the set already misjudges says nothing
		// new about other times or names; its incident's part says why.
		baseRight := false
		if b, _ := setVerdict(cs, holds, v.base); b == truth(v.base) {
			baseRight = true
		}
		if (baseRight || v.gap == gapMean) && !slices.Contains(gaps, v.gap) {
			gaps = append(gaps, v.gap)
		}
	}
	vf := Feedback{Part: "Hidden variants", OK: len(cs) > 0 && len(wrong) == 0}
	switch {
	case len(cs) == 0:
		vf.Why = "No checks to run."
	case len(wrong) == 0:
		vf.Why = fmt.Sprintf("Your checks judge all %s hidden variants right: other times, other names and tokens, fencing on and off, a new request and a stale retry.", b.derivedN(float64(len(logVariants()))))
	default:
		vf.Why = fmt.Sprintf("Your checks misjudge %s of the %s hidden variants. %s.", b.derivedN(float64(len(wrong))), b.derivedN(float64(len(logVariants()))), strings.Join(wrong, ". "))
		if len(gaps) > 0 {
			vf.Why += " (" + upper(strings.Join(gaps, "; ")) + ".)"
		}
	}
	vf.Cites = b.cites
	parts = append(parts, vf)

	// Each check on its own: one that holds everywhere, or nowhere, or
	// reads a field its events never have, decides nothing.
	var notes []string
	var cb because
	for c, ch := range cs {
		label := fmt.Sprintf("Check %s (`%s`)", cb.givenN(float64(c+1)), cb.cite(ch.Src, "given", nil, 0))
		for _, is := range ch.Issues {
			if is.Nowhere {
				notes = append(notes, fmt.Sprintf("%s reads %s of %s events, but no event in these logs has a field %s, so it has no value there.", label, is.Field, is.Kind, is.Field))
			} else {
				notes = append(notes, fmt.Sprintf("%s reads %s of %s events, which never have one (other kinds of event do), so it has no value there.", label, is.Field, is.Kind))
			}
		}
		if errs[c] != nil {
			notes = append(notes, fmt.Sprintf("%s %s.", label, cb.cite(errs[c].Error(), "given", nil, 0)))
			continue
		}
		same := !slices.Contains(holds[c], !holds[c][0])
		if !same {
			continue
		}
		if holds[c][0] {
			notes = append(notes, fmt.Sprintf("%s is true on every incident and every hidden variant: it decides nothing.", label))
		} else {
			notes = append(notes, fmt.Sprintf("%s is false on every incident and every hidden variant: it decides nothing.", label))
		}
	}
	cf := Feedback{Part: "Your checks", OK: len(cs) > 0 && len(notes) == 0}
	switch {
	case len(cs) == 0:
		cf.Why = "No checks: write at least one (the syntax: labctl exercise token-logs --help)."
	case len(notes) == 0:
		cf.Why = "Each check holds on some logs and not on others: each one tells something apart."
	default:
		cf.Why = strings.Join(notes, " ")
	}
	cf.Cites = cb.cites
	parts = append(parts, cf)
	return finished(parts)
}

// judgeEvidence checks the log lines cited for case i: every line that
// proves the conclusion, and none that does not bear on it. It says how
// many are off, not which ("" when right).
func judgeEvidence(b *because, a Answer, i int) string {
	got := a.Choices[logCases[i].id+"-evidence"]
	want := proofIDs(i)
	extra, missing := 0, 0
	for _, g := range got {
		if !slices.Contains(want, g) && !bears(i, lineNo(g)-1) {
			extra++
		}
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return sameFact(logRuns()[i], lineNo(w)-1, lineNo(g)-1) }) {
			missing++
		}
	}
	switch {
	case len(got) == 0:
		return "No log lines cited: pick the lines your conclusion rests on."
	case extra == 0 && missing == 0:
		return ""
	case extra > 0 && missing > 0:
		return fmt.Sprintf("Evidence: %s, and %s.", offLines(b, extra), pluralS(missing, "one line the conclusion rests on is not cited", b.derivedN(float64(missing))+" lines it rests on are not cited"))
	case extra == 1:
		return "Evidence: one of the lines you cited does not bear on the conclusion."
	case extra > 0:
		return fmt.Sprintf("Evidence: %s of the lines you cited do not bear on the conclusion.", b.derivedN(float64(extra)))
	}
	if missing == 1 {
		return "Evidence: one line that the conclusion rests on is not cited."
	}
	return fmt.Sprintf("Evidence: %s lines that the conclusion rests on are not cited.", b.derivedN(float64(missing)))
}

// offLines counts the cited lines that bear on nothing, as a clause.
func offLines(b *because, n int) string {
	if n == 1 {
		return "one of the lines you cited does not bear on the conclusion"
	}
	return b.derivedN(float64(n)) + " of the lines you cited do not bear on the conclusion"
}
