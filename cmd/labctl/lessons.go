package main

import (
	"fmt"
	"io"

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

func runLesson(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("lesson", stderr)
	solve := fs.Bool("solve", false, "")
	seed := fs.Uint64("seed", 1, "")
	pos, help, err := parseFlags(fs, args)
	if help {
		fmt.Fprint(stdout, `usage: labctl lesson ID [--solve] [--seed N]

Without --solve, prints the lesson: intro, goals and hints.
With --solve, runs the lesson's solution headless, prints the trace summary
and each goal as met or unmet.

Exit 0: the lesson printed, or every goal met; 1: a goal unmet; 2: bad input.
`)
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
	if !*solve {
		fmt.Fprintf(stdout, "%s\n\nObjective: %s\n\n", l.Title, l.Objective)
		for _, p := range l.Intro {
			fmt.Fprintf(stdout, "%s\n\n", p)
		}
		fmt.Fprintln(stdout, "Goals:")
		for i, g := range l.Goals {
			fmt.Fprintf(stdout, "  %d. %s\n", i+1, g.Text)
		}
		fmt.Fprintln(stdout, "\nHints (from a nudge to the answer):")
		for i, h := range l.Hints {
			fmt.Fprintf(stdout, "  %d. %s\n", i+1, h)
		}
		return 0
	}
	w, err := l.EvaluateWith(*seed, l.SolutionKnobs, l.Solution)
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

func countResult(t *core.Trace, result string) int {
	n := 0
	for _, e := range core.Writes(t) {
		if e.Result() == result {
			n++
		}
	}
	return n
}
