package lessons

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"leaselab/core"
)

// logCase is one incident of exercise 5: a run whose logs show tokens 15
// and 16 both writing order-9, and what the learner should conclude.
type logCase struct {
	id, title string
	cfg       core.ContentionConfig
	log       core.ActionLog
	until     time.Duration
	// needs are the checks that decide this case; conclusion the right
	// reading; why explains it.
	needs      []string
	conclusion string
	// explain reads the case's conclusion off its own log; proof picks the
	// lines that prove it (indexes into the log).
	explain func(ls []logLine, b *because) string
	proof   func(ls []logLine) []int
	// nudge points a wrong conclusion at the evidence that decides it,
	// without saying what that evidence shows.
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
		until: 35 * time.Second,
		// The evidence includes A's own lines (its pause, its send ahead of
		// its lease check), so reading A's log is one of the checks.
		needs:      []string{"coord-history", "storage-decisions", "worker-log"},
		conclusion: "missing-fence",
		explain:    explainCase1,
		proof:      proofCase1,
		nudge:      "Put three lines side by side: when A sent its token-15 write, when A itself noticed the lease was gone, and what storage did with that write after it had seen 16.",
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
		until:      35 * time.Second,
		needs:      []string{"coord-history", "storage-decisions", "request-ids"},
		conclusion: "retry",
		explain:    explainCase2,
		proof:      proofCase2,
		nudge:      "Compare the request IDs of the writes, and check when each token-15 write landed against when the coordinator ended 15's ownership.",
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
		until:      30 * time.Second,
		needs:      []string{"coord-history", "storage-decisions", "worker-log"},
		conclusion: "client-bug",
		explain:    explainCase3,
		proof:      proofCase3,
		nudge:      "Read A's own log in order: what does it say about its lease, and what does it do afterwards?",
	},
}

// logKinds are the trace kinds an operator's logs would show.
var logKinds = []core.Kind{
	core.KindLeaseGrant, core.KindLeaseExpire, core.KindLeaseRevoke, core.KindHolder, core.KindFree,
	core.KindLeaseLost, core.KindState, core.KindPause, core.KindResume, core.KindCrash, core.KindWrite,
	core.KindPartition, core.KindHeal,
}

// logLine is one line of an incident's log and the trace event it shows.
type logLine struct {
	text string
	ev   core.Event
}

// run simulates a case and renders its trace as log lines.
func (c logCase) run() []logLine {
	s, err := core.BuildWorld(c.cfg.World(1))
	if err != nil {
		panic(fmt.Sprintf("exercise 5 %s: %v", c.id, err)) // fixed data: a bug, caught by tests
	}
	s.Schedule(c.log)
	s.RunUntil(c.until)
	var out []logLine
	for _, e := range s.Trace.Events {
		// A worker's log shows the writes it sends, so the reader can tell
		// a write sent before the worker noticed its lease had gone from
		// one sent after.
		if e.Kind == core.KindSend && e.Msg() == "Write" {
			out = append(out, logLine{fmt.Sprintf("%s %s send write to=%s token=%s", core.FormatTime(e.At), e.Actor, e.To(), e.Format(core.FToken)), e})
			continue
		}
		if slices.Contains(logKinds, e.Kind) {
			out = append(out, logLine{strings.TrimPrefix(e.Text(), "t="), e})
		}
	}
	return out
}

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

var logChecks = map[string]string{
	"coord-history":     "Coordinator history: when 15's lease ended and when 16 was granted",
	"storage-decisions": "Storage's decision on each write, and the highest token it had seen",
	"worker-log":        "The 15-holder's own log: renewal failures, pauses, how it handled lease loss",
	"request-ids":       "The request IDs of the writes: the same request sent twice?",
	"wall-clocks":       "Order the writes by each machine's wall-clock timestamp",
	"lease-ids":         "Compare the lease IDs to see which ownership is newer",
}

var logCheckOrder = []string{"coord-history", "storage-decisions", "worker-log", "request-ids", "wall-clocks", "lease-ids"}

var logCheckWhy = map[string]string{
	"coord-history":     "The coordinator's history is the only authority on whether 15 was still valid when 16 was granted.",
	"storage-decisions": "Storage's decisions show whether a lower token was accepted after a higher one: the actual damage.",
	"worker-log":        "The holder's own log shows whether it knew it had lost the lease and kept going.",
	"request-ids":       "Request IDs tell a retry of the same request from two different writes.",
	"wall-clocks":       "Wall clocks on different machines drift and jump; they cannot order events across machines. Use the coordinator's revisions and the tokens.",
	"lease-ids":         "Lease IDs name sessions, not ownerships of this lock. On one etcd member they even increase, which is why they look like an order, but another member numbers from its own prefix and a lease says nothing about which ownership came later. Tokens do.",
}

var logConclusions = []Option{
	{"retry", "Expected: the same request retried under a new ownership"},
	{"missing-fence", "Bug: storage accepted an older token after a newer one"},
	{"client-bug", "Bug: a worker kept acting after it knew its lease was lost"},
	{"coordinator-bug", "Bug: the coordinator granted 16 while 15 was still valid"},
}

func logsExercise() *Exercise {
	e := &Exercise{
		ID:      "token-logs",
		Title:   "Tokens 15 and 16 both wrote order-9",
		Summary: "Read three incidents' logs and decide what went wrong in each.",
		Minutes: 15,
		Brief: []string{
			"Three incident reports say the same thing: the orders database shows writes to order-9 carrying fencing token 15 and writes carrying token 16. Each came with the logs of the coordinator, the two workers A and B, and the database.",
			"For each incident, pick the checks you would run, decide what happened (a bug, and which one, or expected behaviour), and cite the log lines your conclusion rests on.",
		},
		Format: `Each incident (case-1, case-2, case-3) has three questions: its checks
(any of them), its conclusion (one) and its evidence (the log lines your
conclusion rests on, by id). labctl exercise token-logs lists each incident's
lines with their ids.`,
		Reference: Answer{Choices: map[string][]string{}},
		KeyPoints: []string{
			"Order events by the coordinator's history and the tokens, never by wall clocks or lease IDs.",
			"A lower token accepted after a higher one is storage not fencing.",
			"The same request ID under a rising token is an expected retry.",
			"A write sent after the sender logged its lease lost is a worker that ignores lease loss.",
		},
		Hints: []string{
			"Two tokens on one object is not yet a bug: an ownership can end and a new one begin. What decides it is the order of events, read from sources that can order them.",
			"For each incident, line up three things: when the coordinator ended 15 and granted 16; what storage did with each write, given the highest token it had seen; and whether the token-15 sender knew its lease was gone when it sent.",
			"The key step, for each incident: the same request ID under a rising token is a retry; a lower token accepted after a higher one is storage not fencing; a send after the sender's own lease.lost line is a worker that ignores lease loss. Which of the three does each log show, and in which lines?",
		},
	}
	var checks []Option
	for _, id := range logCheckOrder {
		checks = append(checks, Option{id, logChecks[id]})
	}
	for i, c := range logCases {
		e.Materials = append(e.Materials, Material{ID: c.id, Title: c.title, lines: func() []string { return texts(logRuns()[i]) }})
		e.Questions = append(e.Questions,
			Question{ID: c.id + "-checks", Material: c.id, Multi: true, Text: fmt.Sprintf("Incident %d: which checks would you run?", i+1), Options: checks},
			Question{ID: c.id + "-conclusion", Material: c.id, Text: fmt.Sprintf("Incident %d: what happened?", i+1), Options: logConclusions},
			Question{ID: c.id + "-evidence", Material: c.id, Multi: true, Text: fmt.Sprintf("Incident %d: which log lines prove your conclusion? Pick every one your reading rests on.", i+1), Options: evidenceOptions(i)},
		)
		e.Reference.Choices[c.id+"-checks"] = c.needs
		e.Reference.Choices[c.id+"-conclusion"] = []string{c.conclusion}
		e.Reference.Choices[c.id+"-evidence"] = proofIDs(i)
		var b because
		e.Worked = append(e.Worked, fmt.Sprintf("Incident %d: %s", i+1, c.explain(logRuns()[i], &b)))
	}
	e.Worked = append(e.Worked, "In every case the decisive evidence is the coordinator's history (was 15 still valid when 16 was granted?) and storage's decisions (did a lower token land after a higher one?). Wall clocks and lease IDs cannot order anything.")
	e.start = checkLogs
	return e
}

var exLogs = logsExercise()

func checkLogs(a Answer) Job {
	var parts []Feedback
	for i, c := range logCases {
		part := fmt.Sprintf("Incident %d", i+1)
		got := a.Choices[c.id+"-checks"]
		var bad, missing []string
		for _, g := range got {
			if g == "wall-clocks" || g == "lease-ids" {
				bad = append(bad, logCheckWhy[g])
			}
		}
		for _, n := range c.needs {
			if !slices.Contains(got, n) {
				missing = append(missing, logCheckWhy[n])
			}
		}
		concl := a.choice(c.id + "-conclusion")
		var b because
		evidence := judgeEvidence(&b, a, i)
		f := Feedback{Part: part, OK: len(bad) == 0 && len(missing) == 0 && concl == c.conclusion && evidence == ""}
		var why []string
		switch {
		case concl == "":
			why = append(why, "No conclusion.")
		case concl != c.conclusion:
			why = append(why, "Not \""+optionLabel(logConclusions, concl)+"\". "+c.nudge)
		case f.OK:
			why = append(why, c.explain(logRuns()[i], &b))
		default:
			why = append(why, "The conclusion is right; the checks or the evidence are not yet.")
		}
		if evidence != "" {
			why = append(why, evidence)
		}
		if len(bad) > 0 {
			why = append(why, "Misleading check: "+strings.Join(bad, " "))
		}
		if len(missing) > 0 {
			why = append(why, missingChecks(&b, len(missing)))
		}
		f.Why = strings.Join(why, " ")
		f.Cites, f.Claims = b.cites, b.claims
		parts = append(parts, f)
	}
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

// missingChecks counts the deciding checks left out, without naming them.
func missingChecks(b *because, n int) string {
	if n == 1 {
		return "One check that decides this incident is missing."
	}
	return fmt.Sprintf("%s checks that decide this incident are missing.", b.derivedN(float64(n)))
}

func optionLabel(opts []Option, id string) string {
	for _, o := range opts {
		if o.ID == id {
			return o.Label
		}
	}
	return id
}
