package lessons

import (
	"fmt"
	"strings"
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
