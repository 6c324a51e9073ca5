package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"leaselab/core"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

func runExercises(args []string, stdout, stderr io.Writer) int {
	if isHelp(args) {
		fmt.Fprintln(stdout, "usage: labctl exercises\n\nLists the assessment exercises; show one with labctl exercise ID.")
		return 0
	}
	if len(args) > 0 {
		return fail(stderr, "labctl exercises: takes no arguments (did you mean labctl exercise %s?)", args[0])
	}
	for i, e := range lessons.Exercises() {
		fmt.Fprintf(stdout, "%d. %-16s %s\n   %-16s %s (about %d min)\n", i+1, e.ID, e.Title, "", e.Summary, e.Minutes)
	}
	return 0
}

const exerciseUsage = `usage: labctl exercise ID [--answer FILE [--share] | --events FILE | --reference | --hint N | --verify SHARE] [--progress FILE]

Without a flag, prints the exercise: the problem, the questions and their
options, the number fields, and the material to read.
--answer FILE  checks a JSON answer (FILE, or - for stdin), prints the verdict
               with an explanation for every part; exit 0 pass, 1 fail,
               2 a malformed answer. The attempt is recorded in the
               progress file.
--events FILE  prints the events of the run your answer's schedule makes
               (FILE, or - for stdin: an answer, complete or not), each
               with the number a chain takes; for an exercise that asks
               for a chain of your run's events
--reference    checks the built-in model answer and prints the worked
               answer: only after a real attempt (an answer of your own
               checked with every part answered, not the format example
               below), here or on the desktop; before that, exit 2.
--share        with --answer: also prints the answer as a share (#share=...),
               holding the answer (its schedule is your run), the verdict
               and what your progress file records about help taken, for an
               instructor to check with --verify
--verify SHARE grades a shared answer again from scratch (SHARE: the
               #share= link or its code, a share file, or - for stdin) and
               says whether the model answer had been shown before the
               pass; exit 0 pass, 1 fail (or a share whose claimed verdict
               is not the answer's), 2 not a share of this exercise
--hint N       prints the exercise's hints up to rung N (1: a nudge, up to
               the last: the key step), one rung more at a time; the last
               only after a real attempt.
` + progressFlag + `
`

// notYet is the one line that refuses the model answer or the last hint
// before a real attempt.
func notYet(e *lessons.Exercise, what string) string {
	return fmt.Sprintf("labctl exercise %s: %s opens after a real attempt: check an answer of your own first (labctl exercise %s --answer FILE, every part answered; the format example in --help does not count)", e.ID, what, e.ID)
}

func runExercise(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("exercise", stderr)
	answer := fs.String("answer", "", "")
	reference := fs.Bool("reference", false, "")
	hint := fs.Int("hint", 0, "")
	progressPath := fs.String("progress", "", "")
	share := fs.Bool("share", false, "")
	verify := fs.String("verify", "", "")
	events := fs.String("events", "", "")
	pos, help, err := parseFlags(fs, args)
	if help {
		printExerciseHelp(args, stdout)
		return 0
	}
	if err != nil {
		return fail(stderr, "labctl exercise: %v", err)
	}
	if len(pos) != 1 {
		return fail(stderr, "labctl exercise: want exactly one exercise id (labctl exercises lists them)")
	}
	e, err := lessons.FindExercise(pos[0])
	if err != nil {
		return fail(stderr, "labctl exercise: %v", err)
	}
	hintSet := false
	fs.Visit(func(f *flag.Flag) { hintSet = hintSet || f.Name == "hint" })
	switch {
	case btoi(*answer != "")+btoi(*reference)+btoi(hintSet)+btoi(*verify != "")+btoi(*events != "") > 1:
		return fail(stderr, "labctl exercise: give one of --answer, --events, --reference, --hint and --verify, not both")
	case *share && *answer == "":
		return fail(stderr, "labctl exercise %s: --share goes with --answer FILE (it shares that answer)", e.ID)
	case *verify != "":
		return verifyShare(e, *verify, stdin, stdout, stderr)
	case hintSet:
		return showHints(e, *hint, *progressPath, stdout, stderr)
	case *reference:
		return showReference(e, *progressPath, stdout, stderr)
	case *events != "":
		return printRunEvents(e, *events, stdin, stdout, stderr)
	case *answer != "":
		return checkAnswerFile(e, *answer, *share, *progressPath, stdin, stdout, stderr)
	}
	printExercise(e, stdout)
	return 0
}

// printExerciseHelp prints the usage, and the answer format of the
// exercise named in args (the id may come before --help, which the flag
// parser would swallow).
func printExerciseHelp(args []string, stdout io.Writer) {
	var id string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			id = a
			break
		}
	}
	fmt.Fprint(stdout, exerciseUsage)
	if e, err := lessons.FindExercise(id); err == nil {
		fmt.Fprintf(stdout, "\nAnswer format for %s.\n%s\n", e.ID, e.FormatText())
		printQuestions(stdout, e)
	} else {
		fmt.Fprintln(stdout, "\nlabctl exercise ID --help shows that exercise's answer format.")
	}
}

// showHints prints the hints up to rung hint, one rung more than those
// seen at a time, the last only after a real attempt, and records them.
func showHints(e *lessons.Exercise, hint int, progressPath string, stdout, stderr io.Writer) int {
	if hint < 1 || hint > len(e.Hints) {
		return fail(stderr, "labctl exercise %s: --hint: want a rung from 1 to %d, got %d", e.ID, len(e.Hints), hint)
	}
	l, err := openProgress(progressPath, stderr)
	if err != nil {
		return fail(stderr, "labctl exercise %s: %v", e.ID, err)
	}
	saved := l.exercise(e.ID)
	if seen := saved.HintsSeen; hint > seen+1 {
		return fail(stderr, "labctl exercise %s: --hint %d: the hints come one rung at a time; see rung %d first (labctl exercise %s --hint %d)", e.ID, hint, seen+1, e.ID, seen+1)
	}
	if hint == len(e.Hints) && !saved.Complete && !saved.Revealed {
		return fail(stderr, "%s", notYet(e, "the last hint, the key step,"))
	}
	for i, h := range e.Hints[:hint] {
		fmt.Fprintf(stdout, "Hint %d of %d: %s\n", i+1, len(e.Hints), h)
	}
	if hint < len(e.Hints) {
		fmt.Fprintf(stdout, "(labctl exercise %s --hint %d for the next)\n", e.ID, hint+1)
	}
	if err := l.recordExercise(e.ID, func(p *progress.Progress) { p.SeeHints(e.ID, hint) }); err != nil {
		fmt.Fprintf(stderr, "labctl: the hints seen are not recorded: %v\n", err)
	}
	return 0
}

// showReference checks the model answer and prints it worked, only
// after a real attempt, and records that it was shown.
func showReference(e *lessons.Exercise, progressPath string, stdout, stderr io.Writer) int {
	l, err := openProgress(progressPath, stderr)
	if err != nil {
		return fail(stderr, "labctl exercise %s: %v", e.ID, err)
	}
	if saved := l.exercise(e.ID); !saved.Complete && !saved.Revealed {
		return fail(stderr, "%s", notYet(e, "the model answer"))
	}
	if err := l.recordExercise(e.ID, func(p *progress.Progress) { p.Reveal(e.ID) }); err != nil {
		fmt.Fprintf(stderr, "labctl: that the model answer was shown is not recorded: %v\n", err)
	}
	code := checkAnswer(e, e.Reference, stdout, stderr)
	fmt.Fprintln(stdout, "\nModel answer:")
	for _, p := range e.Worked {
		fmt.Fprintf(stdout, "  %s\n", p)
	}
	printKeyPoints(stdout, e)
	return code
}

// checkAnswerFile checks the answer in path (- for stdin), prints its
// verdict and the defence, records the attempt and, with share, prints
// the answer as a share: exit 0 pass, 1 fail, 2 a malformed answer.
// printRunEvents prints the events of the run an answer's schedule makes,
// numbered as its chain names them: what the page and the desktop list to
// pick from, for a learner in a terminal.
func printRunEvents(e *lessons.Exercise, path string, stdin io.Reader, stdout, stderr io.Writer) int {
	if e.ChainRun == nil {
		return fail(stderr, "labctl exercise %s: this exercise asks for no chain of your run's events", e.ID)
	}
	b, err := readInput(path, stdin, lessons.MaxAnswerSize)
	if err != nil {
		return fail(stderr, "labctl exercise: reading the answer: %v", err)
	}
	a, err := e.ParseAnswer(b)
	if err != nil {
		return fail(stderr, "labctl exercise %s: %v", e.ID, err)
	}
	w, err := e.ChainRun(a.Schedule)
	if err != nil {
		return fail(stderr, "labctl exercise %s: your schedule: %v", e.ID, err)
	}
	fmt.Fprintf(stdout, "Your run (%d actions), event by event: give a chain as these numbers, in order.\n", len(a.Schedule))
	for ev := range w.Sim.Trace.All() {
		if ev.Kind != core.KindSend {
			fmt.Fprintf(stdout, "  #%d %s\n", ev.Seq, ev.Text())
		}
	}
	return 0
}

func checkAnswerFile(e *lessons.Exercise, path string, share bool, progressPath string, stdin io.Reader, stdout, stderr io.Writer) int {
	b, err := readInput(path, stdin, lessons.MaxAnswerSize)
	if err != nil {
		return fail(stderr, "labctl exercise: reading the answer: %v", err)
	}
	a, err := e.ParseAnswer(b)
	if err != nil {
		return fail(stderr, "labctl exercise %s: %v", e.ID, err)
	}
	r, err := e.Check(a)
	if err != nil {
		return fail(stderr, "labctl exercise %s: %v", e.ID, err)
	}
	fmt.Fprint(stdout, r.Text())
	if a.Defence != "" {
		fmt.Fprintf(stdout, "\nYour defence (kept with your answer):\n  %s\n", a.Defence)
		if r.Pass {
			// Only after a pass: the key points are the answer.
			printKeyPoints(stdout, e)
		} else {
			fmt.Fprintln(stdout, "Once your answer passes, compare it with the model's key points.")
		}
	}
	recordAttempt(e, a, r.Pass, progressPath, stdout, stderr)
	if share {
		if code := printShare(e, a, r, progressPath, stdout, stderr); code != 0 {
			return code
		}
	}
	if r.Pass {
		return 0
	}
	return 1
}

// printExercise prints the exercise: its brief, questions, materials and
// how to answer it.
func printExercise(e *lessons.Exercise, stdout io.Writer) {
	fmt.Fprintf(stdout, "%s\n\n", e.Title)
	for _, p := range e.Brief {
		fmt.Fprintf(stdout, "%s\n\n", p)
	}
	printQuestions(stdout, e)
	for _, m := range e.Materials {
		fmt.Fprintf(stdout, "\n%s (%s):\n", m.Title, m.ID)
		for i, l := range m.Lines() {
			fmt.Fprintf(stdout, "  line-%-3d %s\n", i+1, l)
		}
	}
	if e.Lab != nil {
		fmt.Fprintf(stdout, "\nThe schedule is a run of the simulator (up to %s); the lab builds it interactively.\n", e.Lab.Duration)
	}
	fmt.Fprintf(stdout, "\nCheck an answer: labctl exercise %s --answer FILE (format: labctl exercise %s --help)\n", e.ID, e.ID)
	fmt.Fprintf(stdout, "Stuck? labctl exercise %s --hint 1 (%d rungs, from a nudge to the key step)\n", e.ID, len(e.Hints))
}

// printKeyPoints lists what a good defence says, as a checklist.
func printKeyPoints(w io.Writer, e *lessons.Exercise) {
	fmt.Fprintln(w, "\nKey points (tick the ones your defence makes):")
	for _, k := range e.KeyPoints {
		fmt.Fprintf(w, "  [ ] %s\n", k)
	}
}

func printQuestions(w io.Writer, e *lessons.Exercise) {
	for _, n := range e.Numbers {
		whole := ""
		if n.Whole != "" {
			whole = " (whole numbers only: " + n.Whole + ")"
		}
		fmt.Fprintf(w, "number %q: %s, %g to %g %s%s\n", n.ID, n.Label, n.Min, n.Max, n.Unit, whole)
	}
	for _, q := range e.Questions {
		kind := "one of"
		if q.Multi {
			kind = "any of"
		}
		fmt.Fprintf(w, "question %q (%s): %s\n", q.ID, kind, q.Text)
		for _, o := range q.Options {
			fmt.Fprintf(w, "    %-18s %s\n", o.ID, o.Label)
		}
	}
}

// recordAttempt counts a checked answer in the progress file and says
// whether it opened the model answer and the last hint.
func recordAttempt(e *lessons.Exercise, a lessons.Answer, pass bool, path string, stdout, stderr io.Writer) {
	counts := e.RealAttempt(a)
	switch {
	case e.IsFormatExample(a):
		fmt.Fprintln(stdout, "\n(This is the format example, not an attempt of your own: it opens nothing.)")
	case !counts:
		fmt.Fprintln(stdout, "\n(Not every part is answered, so this check opens neither the model answer nor the last hint.)")
	}
	l, err := openProgress(path, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "labctl: the attempt is not recorded: %v\n", err)
		return
	}
	opened := counts && !l.exercise(e.ID).Complete
	if err := l.recordExercise(e.ID, func(p *progress.Progress) { p.RecordAttempt(e.ID, counts, pass) }); err != nil {
		fmt.Fprintf(stderr, "labctl: the attempt is not recorded: %v\n", err)
		return
	}
	if opened {
		fmt.Fprintf(stdout, "\nA real attempt, recorded: labctl exercise %s --reference shows the model answer, and the last hint is open.\n", e.ID)
	}
}

func checkAnswer(e *lessons.Exercise, a lessons.Answer, stdout, stderr io.Writer) int {
	r, err := e.Check(a)
	if err != nil {
		return fail(stderr, "labctl exercise %s: %v", e.ID, err)
	}
	fmt.Fprint(stdout, r.Text())
	if r.Pass {
		return 0
	}
	return 1
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
