package lessons

import (
	"fmt"
	"slices"
	"strings"

	"leaselab/core"
)

// Exercise 5's check: the lab's own verdict on a log (the model answer),
// the learner's checks run on every log, and the feedback on each
// incident, on the hidden variants and on each check.

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

// logsCheck judges exercise 5's answer: each incident (its verdict and
// its evidence), the hidden variants, and each check on its own.
func logsCheck(a Answer) Job {
	v := runLogChecks(a.Checks)
	parts := v.incidentParts(a)
	return finished(append(parts, v.variantsPart(), v.checksPart()))
}

// logChecks is a learner's set of checks run on every log: holds[c][k]
// whether check c holds on log k, errs[c] the first error it met.
type logChecks struct {
	cs    []*Check
	holds [][]bool
	errs  []error
}

func runLogChecks(srcs []string) logChecks {
	var cs []*Check
	lang := QueryLang{schema: logSchema, shown: func() []*qlog { return checkedLogs()[:len(logCases)] }}
	for _, src := range srcs {
		c, err := lang.Parse(src)
		if err != nil {
			panic(fmt.Sprintf("exercise 5: a validated check does not parse: %v", err)) // Validate parsed it
		}
		cs = append(cs, c)
	}
	holds, errs := checkVerdicts(cs)
	return logChecks{cs: cs, holds: holds, errs: errs}
}

// logIsBug is the lab's own verdict on log k (an incident or a variant).
func logIsBug(k int) bool {
	if k < len(logCases) {
		bug, _ := logTruth(logRuns()[k])
		return bug
	}
	bug, _ := logTruth(variantRuns()[k-len(logCases)])
	return bug
}

// right reports whether the set judges log k as the lab does.
func (v logChecks) right(k int) bool {
	bug, _ := setVerdict(v.cs, v.holds, k)
	return bug == logIsBug(k)
}

// verdictText says what the set calls log k, and by which checks.
func (v logChecks) verdictText(b *because, k int) string {
	bug, by := setVerdict(v.cs, v.holds, k)
	if bug {
		return fmt.Sprintf("your checks call it a bug (%s)", checkNames(b, by))
	}
	return "no check of yours calls it a bug, so your checks call it an expected retry"
}

// incidentParts judge each incident: the set's verdict and the evidence
// cited.
func (v logChecks) incidentParts(a Answer) []Feedback {
	var parts []Feedback
	for i, c := range logCases {
		var b because
		evidence := judgeEvidence(&b, a, i)
		decided := len(v.cs) > 0 && v.right(i)
		f := Feedback{Part: fmt.Sprintf("Incident %d", i+1), OK: decided && evidence == ""}
		var why []string
		switch {
		case len(v.cs) == 0:
			why = append(why, "No checks: write the checks that decide whether this incident is a bug.")
		case !decided:
			why = append(why, fmt.Sprintf("Your checks misjudge it: %s, and that is not what its log shows. %s", v.verdictText(&b, i), c.nudge))
		case f.OK:
			why = append(why, upper(v.verdictText(&b, i))+", rightly. "+c.explain(logRuns()[i], &b))
		default:
			why = append(why, upper(v.verdictText(&b, i))+", rightly; the evidence is not yet right.")
		}
		if evidence != "" {
			why = append(why, evidence)
		}
		f.Why = strings.Join(why, " ")
		f.Cites, f.Claims = b.cites, b.claims
		parts = append(parts, f)
	}
	return parts
}

// variantsPart: which hidden variants the set misjudges, and what a set
// that misjudges them probably reads.
func (v logChecks) variantsPart() Feedback {
	var b because
	var wrong []string
	var gaps []string
	for k := len(logCases); k < len(checkedLogs()); k++ {
		if len(v.cs) == 0 {
			break
		}
		if v.right(k) {
			continue
		}
		vr := logVariants()[k-len(logCases)]
		wrong = append(wrong, fmt.Sprintf("%s: %s, and it is not", upper(logName(&b, k)), v.verdictText(&b, k)))
		// A variant of an incident the set already misjudges says nothing
		// new about other times or names; its incident's part says why.
		if (v.right(vr.base) || vr.gap == gapMean) && !slices.Contains(gaps, vr.gap) {
			gaps = append(gaps, vr.gap)
		}
	}
	vf := Feedback{Part: "Hidden variants", OK: len(v.cs) > 0 && len(wrong) == 0}
	switch {
	case len(v.cs) == 0:
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
	return vf
}

// checksPart judges each check on its own: one that holds everywhere, or
// nowhere, or reads a field its events never have, decides nothing.
func (v logChecks) checksPart() Feedback {
	var notes []string
	var cb because
	for c, ch := range v.cs {
		label := fmt.Sprintf("Check %s (`%s`)", cb.givenN(float64(c+1)), cb.cite(ch.Src, "given", nil, 0))
		for _, is := range ch.Issues {
			if is.Nowhere {
				notes = append(notes, fmt.Sprintf("%s reads %s of %s events, but no event in these logs has a field %s, so it has no value there.", label, is.Field, is.Kind, is.Field))
			} else {
				notes = append(notes, fmt.Sprintf("%s reads %s of %s events, which never have one (other kinds of event do), so it has no value there.", label, is.Field, is.Kind))
			}
		}
		if v.errs[c] != nil {
			notes = append(notes, fmt.Sprintf("%s %s.", label, cb.cite(v.errs[c].Error(), "given", nil, 0)))
			continue
		}
		if slices.Contains(v.holds[c], !v.holds[c][0]) {
			continue
		}
		if v.holds[c][0] {
			notes = append(notes, fmt.Sprintf("%s is true on every incident and every hidden variant: it decides nothing.", label))
		} else {
			notes = append(notes, fmt.Sprintf("%s is false on every incident and every hidden variant: it decides nothing.", label))
		}
	}
	cf := Feedback{Part: "Your checks", OK: len(v.cs) > 0 && len(notes) == 0}
	switch {
	case len(v.cs) == 0:
		cf.Why = "No checks: write at least one (the syntax: labctl exercise token-logs --help)."
	case len(notes) == 0:
		cf.Why = "Each check holds on some logs and not on others: each one tells something apart."
	default:
		cf.Why = strings.Join(notes, " ")
	}
	cf.Cites = cb.cites
	return cf
}
