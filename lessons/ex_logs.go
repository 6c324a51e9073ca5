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
	why        string
}

func object9(tok int64, fencing, zombie bool) core.ContentionConfig {
	return core.ContentionConfig{
		Names: []string{"A", "B"}, FirstToken: tok, TTL: 10 * time.Second, Stagger: 500 * time.Millisecond,
		Fencing: fencing, IgnoreLeaseLoss: zombie, Lock: "locks/order-9", Register: "orders-db",
	}
}

func writeAt(t time.Duration, proc, value string) core.Timed {
	return core.At(t, core.Action{Do: "write", Proc: proc, Value: value})
}

var logCases = []logCase{
	{
		id: "case-1", title: "Incident 1",
		cfg: object9(15, false, false),
		log: core.ActionLog{
			writeAt(3*time.Second, "A", "order-9 total=40 (req-41)"),
			core.At(5*time.Second, core.Action{Do: "pause", Proc: "A", For: core.Duration(20 * time.Second)}),
			writeAt(6*time.Second, "A", "order-9 total=45 (req-44)"),
			writeAt(18*time.Second, "B", "order-9 total=52 (req-47)"),
		},
		until:      35 * time.Second,
		needs:      []string{"coord-history", "storage-decisions"},
		conclusion: "missing-fence",
		why:        "A's write with 15 reached storage at 25 s, after storage had already taken 16 from B, and it was accepted: the newest value went backwards. A had been frozen (its runtime logged a 20 s pause), so A behaved as any paused leader would; the bug is that storage does not compare tokens.",
	},
	{
		id: "case-2", title: "Incident 2",
		cfg: object9(15, true, false),
		log: core.ActionLog{
			core.At(1*time.Second, core.Action{Do: "crash", Proc: "B"}),
			writeAt(3*time.Second, "A", "order-9 total=40 (req-41)"),
			core.At(4*time.Second, core.Action{Do: "partition", Proc: "A", Peer: core.CoordinatorName}),
			core.At(16*time.Second, core.Action{Do: "heal", Proc: "A", Peer: core.CoordinatorName}),
			writeAt(26*time.Second, "A", "order-9 total=40 (req-41)"),
		},
		until:      35 * time.Second,
		needs:      []string{"coord-history", "storage-decisions", "request-ids"},
		conclusion: "retry",
		why:        "Every write with 15 landed while 15 was the live ownership; A then lost its session behind a partition, won the lock back later with 16, and sent the same request req-41 again. Same request ID, tokens increasing, nothing accepted out of order: an expected retry, harmless if the write is idempotent.",
	},
	{
		id: "case-3", title: "Incident 3",
		cfg: object9(15, true, true),
		log: core.ActionLog{
			writeAt(3*time.Second, "A", "order-9 total=40 (req-41)"),
			core.At(4*time.Second, core.Action{Do: "partition", Proc: "A", Peer: core.CoordinatorName}),
			writeAt(19*time.Second, "B", "order-9 total=52 (req-47)"),
			writeAt(21*time.Second, "A", "order-9 total=45 (req-44)"),
			writeAt(25*time.Second, "A", "order-9 total=46 (req-45)"),
		},
		until:      30 * time.Second,
		needs:      []string{"coord-history", "storage-decisions", "worker-log"},
		conclusion: "client-bug",
		why:        "A's own log says its lease was lost at 13.4 s, yet it went on writing with 15 at 21 s and 25 s. Storage refused those writes because it had seen 16, so the data is safe, but the worker treats lease loss as a warning instead of a stop: a real bug that fencing happened to contain.",
	},
}

// logKinds are the trace kinds an operator's logs would show.
var logKinds = []string{
	core.KindLeaseGrant, core.KindLeaseExpire, core.KindLeaseRevoke, core.KindHolder, core.KindFree,
	core.KindLeaseLost, core.KindState, core.KindPause, core.KindResume, core.KindCrash, core.KindWrite,
	core.KindPartition, core.KindHeal,
}

// logLines runs a case and renders its trace as log lines.
func (c logCase) logLines() []string {
	s, err := core.NewContention(1, c.cfg)
	if err != nil {
		panic(fmt.Sprintf("exercise 5 %s: %v", c.id, err)) // fixed data: a bug, caught by tests
	}
	s.Schedule(c.log)
	s.RunUntil(c.until)
	var out []string
	for _, e := range s.Trace.Events {
		if slices.Contains(logKinds, e.Kind) {
			out = append(out, strings.TrimPrefix(e.Text(), "t="))
		}
	}
	return out
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
	"lease-ids":         "Lease IDs are random names; they say nothing about which ownership came later. Tokens do.",
}

var logConclusions = []Option{
	{"retry", "Expected: the same request retried under a new ownership"},
	{"missing-fence", "Bug: storage accepted an older token after a newer one"},
	{"client-bug", "Bug: a worker kept acting after it knew its lease was lost"},
	{"coordinator-bug", "Bug: the coordinator granted 16 while 15 was still valid"},
}

func logsExercise() *Exercise {
	e := &Exercise{
		ID:    "token-logs",
		Title: "Tokens 15 and 16 both wrote order-9",
		Brief: []string{
			"Three incident reports say the same thing: the orders database shows writes to order-9 carrying fencing token 15 and writes carrying token 16. Each came with the logs of the coordinator, the two workers A and B, and the database.",
			"For each incident, pick the checks you would run, and decide what happened: a bug (which one) or expected behaviour.",
		},
		Format: `{
  "choices": {
    "case-1-checks": [any of "coord-history", "storage-decisions", "worker-log",
                      "request-ids", "wall-clocks", "lease-ids"],
    "case-1-conclusion": ["retry" | "missing-fence" | "client-bug" | "coordinator-bug"],
    and the same for case-2 and case-3
  }
}`,
		Reference: Answer{Choices: map[string][]string{}},
	}
	var checks []Option
	for _, id := range logCheckOrder {
		checks = append(checks, Option{id, logChecks[id]})
	}
	for i, c := range logCases {
		e.Materials = append(e.Materials, Material{ID: c.id, Title: c.title, lines: sync.OnceValue(c.logLines)})
		e.Questions = append(e.Questions,
			Question{ID: c.id + "-checks", Material: c.id, Multi: true, Text: fmt.Sprintf("Incident %d: which checks would you run?", i+1), Options: checks},
			Question{ID: c.id + "-conclusion", Material: c.id, Text: fmt.Sprintf("Incident %d: what happened?", i+1), Options: logConclusions},
		)
		e.Reference.Choices[c.id+"-checks"] = c.needs
		e.Reference.Choices[c.id+"-conclusion"] = []string{c.conclusion}
		e.Worked = append(e.Worked, fmt.Sprintf("Incident %d: %s", i+1, c.why))
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
		f := Feedback{Part: part, OK: len(bad) == 0 && len(missing) == 0 && concl == c.conclusion}
		var why []string
		switch {
		case concl == "":
			why = append(why, "No conclusion.")
		case concl != c.conclusion:
			why = append(why, "Not \""+optionLabel(logConclusions, concl)+"\". "+c.why)
		default:
			why = append(why, c.why)
		}
		if len(bad) > 0 {
			why = append(why, "Misleading check: "+strings.Join(bad, " "))
		}
		if len(missing) > 0 {
			why = append(why, "Needed: "+strings.Join(missing, " "))
		}
		f.Why = strings.Join(why, " ")
		parts = append(parts, f)
	}
	return finished(parts)
}

func optionLabel(opts []Option, id string) string {
	for _, o := range opts {
		if o.ID == id {
			return o.Label
		}
	}
	return id
}
