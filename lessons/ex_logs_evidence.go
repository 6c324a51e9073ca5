package lessons

import (
	"fmt"
	"slices"
	"strings"

	"leaselab/core"
)

// Exercise 5's evidence: which lines of each incident prove its verdict,
// the lab's explanation of it, and the judging of the lines cited.

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
