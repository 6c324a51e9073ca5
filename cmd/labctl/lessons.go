package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"leaselab/core"
	"leaselab/lessons"
)

func runLessons(args []string, stdout, stderr io.Writer) int {
	if isHelp(args) {
		fmt.Fprintln(stdout, "usage: labctl lessons\n\nLists the lessons in menu order; show one with labctl lesson ID.")
		return 0
	}
	if len(args) > 0 {
		return fail(stderr, "labctl lessons: takes no arguments (did you mean labctl lesson %s?)", args[0])
	}
	for _, l := range lessons.All() {
		fmt.Fprintf(stdout, "%-16s %s\n%-16s %s (about %d min)\n", l.ID, l.Title, "", l.Summary, l.Minutes)
	}
	return 0
}

// lessonUsage is labctl lesson --help.
const lessonUsage = `usage: labctl lesson ID [--solve | --actions FILE [--knob ID=V]... [--trace] [--chain N,N,...]] [--seed N] [--hint N] [--progress FILE]

Without --solve, prints the lesson: intro, goals and the hints seen so far.
--hint N       prints the hints up to rung N, one rung more at a time (the
               last is the solution); the rungs seen are recorded in the
               progress file, as the desktop's are.
` + progressFlag + `
With --solve, runs the lesson's solution headless, prints the trace summary
and each goal as met or unmet.
With --actions FILE ("-" for stdin), plays the lesson with your own actions,
a JSON array such as [{"at":"4s","do":"pause","proc":"A","for":"20s"}]
(a coordinator member is acted on by its name: {"at":"3s","do":"crash",
"proc":"member-1"}); --knob ID=V sets a slider. It prints what happened,
each goal met (with what it proved) or open, and records the goals met in
the progress file, as the desktop does. --trace lists every event of the
run with its number. Once the run has told the lesson's story, its recap
question asks for that story as a chain of your run's events: answer with
--chain and their numbers, in order (it is not a goal; nothing is lost).

Exit 0: the lesson printed, or every goal met; 1: a goal unmet; 2: bad input.
`

func runLesson(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("lesson", stderr)
	solve := fs.Bool("solve", false, "")
	actions := fs.String("actions", "", "")
	chain := fs.String("chain", "", "")
	withTrace := fs.Bool("trace", false, "")
	knobs := lessonKnobs{}
	fs.Var(knobs, "knob", "")
	seed := fs.Uint64("seed", 1, "")
	hint := fs.Int("hint", 0, "")
	progressPath := fs.String("progress", "", "")
	pos, help, err := parseFlags(fs, args)
	if help {
		fmt.Fprint(stdout, lessonUsage)
		return 0
	}
	if err != nil {
		return fail(stderr, "labctl lesson: %v", err)
	}
	if len(pos) != 1 {
		return fail(stderr, "labctl lesson: want exactly one lesson id (labctl lessons lists them)")
	}
	l, err := lessons.Find(pos[0])
	if err != nil {
		return fail(stderr, "labctl lesson: %v", err)
	}
	hintSet := false
	fs.Visit(func(f *flag.Flag) { hintSet = hintSet || f.Name == "hint" })
	if hintSet && *solve {
		return fail(stderr, "labctl lesson: give one of --hint and --solve, not both")
	}
	if *actions != "" {
		if *solve || hintSet {
			return fail(stderr, "labctl lesson: give one of --actions, --solve and --hint")
		}
		log, err := readActions(*actions, stdin)
		if err != nil {
			return fail(stderr, "labctl lesson %s: %v", l.ID, err)
		}
		picked, msg := parseChain(l, *chain)
		if msg != "" {
			return fail(stderr, "%s", msg)
		}
		return playLesson(l, play{seed: *seed, knobs: lessons.Knobs(knobs), log: log, trace: *withTrace, chain: picked, chainSet: *chain != ""}, *progressPath, stdout, stderr)
	}
	if len(knobs) > 0 || *chain != "" || *withTrace {
		return fail(stderr, "labctl lesson: --knob, --trace and --chain go with --actions")
	}
	if !*solve {
		return printLesson(l, hintSet, *hint, *progressPath, stdout, stderr)
	}
	return solveLesson(l, *seed, stdout, stderr)
}

// parseChain reads --chain's event numbers (at most 64), or says what is
// wrong with them.
func parseChain(l *lessons.Lesson, chain string) (picked []int, msg string) {
	if chain == "" {
		return nil, ""
	}
	for _, f := range strings.Split(chain, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Sprintf("labctl lesson %s: --chain: %q is not an event number", l.ID, f)
		}
		if len(picked) == 64 {
			return nil, fmt.Sprintf("labctl lesson %s: --chain: a chain of at most 64 events", l.ID)
		}
		picked = append(picked, n)
	}
	return picked, ""
}

// solveLesson runs the lesson's solution headless and prints the trace
// summary and each goal as met or unmet: exit 1 if one is unmet.
func solveLesson(l *lessons.Lesson, seed uint64, stdout, stderr io.Writer) int {
	w, err := l.EvaluateWith(seed, l.SolutionKnobs, l.Solution)
	if err != nil {
		return fail(stderr, "labctl lesson: %v", err)
	}
	fmt.Fprintf(stdout, "%s: solution (%d actions), %s of virtual time\n", l.Title, len(l.Solution), core.FormatTime(l.Duration))
	for _, a := range w.Log {
		fmt.Fprintf(stdout, "  t=%s %s\n", core.FormatTime(a.At.D()), a.Action)
	}
	rep := core.Check(w.Sim.Trace, l.Duration)
	fmt.Fprintf(stdout, "trace: %d events; holders:", w.Sim.Trace.Len())
	for _, e := range core.Holders(w.Sim.Trace) {
		fmt.Fprintf(stdout, " %s=%d", e.Owner(), e.Token())
	}
	fmt.Fprintf(stdout, "; writes rejected %d; stale accepted %d; belief overlap %s\n",
		countResult(w.Sim.Trace, core.RejectedStale), len(rep.Stale), core.FormatTime(rep.OverlapTotal))
	code := 0
	for _, g := range w.Goals() {
		mark := "met  "
		if !g.Met {
			mark, code = "UNMET", 1
		}
		fmt.Fprintf(stdout, "[%s] %s\n", mark, g.Goal.Text)
	}
	return code
}

// printLesson prints the lesson's text, goals and hints: the rungs seen so
// far, or with --hint N the rungs up to N, one rung past those seen at most.
func printLesson(l *lessons.Lesson, hintSet bool, hint int, path string, stdout, stderr io.Writer) int {
	if hintSet && (hint < 1 || hint > len(l.Hints)) {
		return fail(stderr, "labctl lesson %s: --hint: want a rung from 1 to %d, got %d", l.ID, len(l.Hints), hint)
	}
	lr, err := openProgress(path, stderr)
	if err != nil {
		return fail(stderr, "labctl lesson %s: %v", l.ID, err)
	}
	seen := min(lr.p.Lesson(l.ID).HintsSeen, len(l.Hints))
	if hintSet {
		if hint > seen+1 {
			return fail(stderr, "labctl lesson %s: --hint %d: the hints come one rung at a time; see rung %d first (labctl lesson %s --hint %d)", l.ID, hint, seen+1, l.ID, seen+1)
		}
		if err := lr.recordLessonHints(l.ID, hint); err != nil {
			fmt.Fprintf(stderr, "labctl: the hints seen are not recorded: %v\n", err)
		}
		seen = max(seen, hint)
	}
	fmt.Fprintf(stdout, "%s\n\nObjective: %s\n\n", l.Title, l.Objective)
	for _, p := range l.Intro {
		fmt.Fprintf(stdout, "%s\n\n", p)
	}
	fmt.Fprintln(stdout, "Goals:")
	for i, g := range l.Goals {
		fmt.Fprintf(stdout, "  %d. %s\n", i+1, g.Text)
	}
	shown := seen
	if hintSet {
		shown = hint
	}
	fmt.Fprintf(stdout, "\nHints (%d rungs, from a nudge to the solution):\n", len(l.Hints))
	for i, h := range l.Hints[:shown] {
		fmt.Fprintf(stdout, "  %d. %s\n", i+1, h)
	}
	if shown < len(l.Hints) {
		fmt.Fprintf(stdout, "  (labctl lesson %s --hint %d shows rung %d)\n", l.ID, shown+1, shown+1)
	}
	return 0
}

func countResult(t *core.Trace, result string) int {
	n := 0
	for _, e := range core.Writes(t) {
		if e.Result() == result {
			n++
		}
	}
	return n
}

// lessonKnobs are --knob ID=V flags.
type lessonKnobs lessons.Knobs

func (k lessonKnobs) String() string { return fmt.Sprint(lessons.Knobs(k)) }

func (k lessonKnobs) Set(v string) error {
	id, val, ok := strings.Cut(v, "=")
	if !ok || id == "" {
		return fmt.Errorf("want ID=V, got %q", v)
	}
	f, err := strconv.ParseFloat(val, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("%s: %q is not a number", id, val)
	}
	k[id] = f
	return nil
}

// play is a learner's own run of a lesson, as labctl lesson --actions
// takes it.
type play struct {
	seed     uint64
	knobs    lessons.Knobs
	log      core.ActionLog
	trace    bool
	chain    []int
	chainSet bool
}

// playLesson runs the lesson with the learner's own log and prints what
// happened and each goal; the goals met are recorded in the progress file.
func playLesson(l *lessons.Lesson, pl play, path string, stdout, stderr io.Writer) int {
	seed, knobs, log := pl.seed, pl.knobs, pl.log
	for _, a := range log {
		if a.At.D() > l.Duration {
			return fail(stderr, "labctl lesson %s: an action at %s is past the lesson's end (%s)", l.ID, core.FormatTime(a.At.D()), core.FormatTime(l.Duration))
		}
	}
	w, err := l.EvaluateWith(seed, knobs, log)
	if err != nil {
		return fail(stderr, "labctl lesson %s: %v", l.ID, err)
	}
	fmt.Fprintf(stdout, "%s: your %d actions, %s of virtual time\n", l.Title, len(w.Log), core.FormatTime(l.Duration))
	for e := range w.Sim.Trace.All() {
		switch {
		case pl.trace && e.Kind != core.KindSend:
		case e.Kind == core.KindAction, e.Kind == core.KindActionError, e.Kind == core.KindHolder, e.Kind == core.KindFree,
			e.Kind == core.KindLeaseExpire, e.Kind == core.KindLeader, e.Kind == core.KindNoLeader, e.Kind == core.KindLeaseRearm,
			e.Kind == core.KindRead, e.Kind == core.KindRefused, e.Kind == core.KindStale, e.Kind == core.KindMember,
			e.Kind == core.KindPause, e.Kind == core.KindResume, e.Kind == core.KindCrash, e.Kind == core.KindRestart:
		case e.Kind == core.KindWrite && e.Result() != core.Accepted:
		default:
			continue
		}
		fmt.Fprintf(stdout, "  #%d %s\n", e.Seq, e.Text())
	}
	code := 0
	var met []string
	for _, g := range w.Goals() {
		if g.Met {
			met = append(met, g.Goal.ID)
			fmt.Fprintf(stdout, "[met  ] %s\n        %s\n", g.Goal.Text, g.Goal.Proved)
			continue
		}
		code = 1
		fmt.Fprintf(stdout, "[OPEN ] %s\n", g.Goal.Text)
		if g.Goal.Measure != nil {
			if m := g.Goal.Measure(w); m != "" {
				fmt.Fprintf(stdout, "        so far: %s\n", m)
			}
		}
	}
	if code == 0 {
		fmt.Fprintf(stdout, "Lesson complete. %s\n", l.Recap)
	}
	recapChain(l, w, pl, stdout)
	if len(met) > 0 {
		lr, err := openProgress(path, stderr)
		if err == nil {
			err = lr.recordGoals(l.ID, met)
		}
		if err != nil {
			fmt.Fprintf(stderr, "labctl: the goals met are not recorded: %v\n", err)
		}
	}
	return code
}

// recapChain asks the lesson's recap question once the run has told its
// story, and judges the learner's chain if they gave one.
func recapChain(l *lessons.Lesson, w *lessons.World, pl play, stdout io.Writer) {
	r := l.RecapChain
	switch {
	case r == nil:
		if pl.chainSet {
			fmt.Fprintf(stdout, "This lesson's recap asks no chain of events.\n")
		}
		return
	case !r.Asks(w):
		if pl.chainSet {
			fmt.Fprintf(stdout, "Recap: your run has not told the story the recap asks about yet; play the lesson until it has.\n")
		}
		return
	}
	fmt.Fprintf(stdout, "Recap question: %s\n", r.Question)
	if !pl.chainSet {
		fmt.Fprintf(stdout, "  (answer with --chain and the numbers of your run's events, in order; --trace lists them all)\n")
		return
	}
	f := r.Judge(w, pl.chain)
	mark := "not yet"
	if f.OK {
		mark = "right"
	}
	fmt.Fprintf(stdout, "Your chain (%s): %s\n", mark, f.Why)
}
