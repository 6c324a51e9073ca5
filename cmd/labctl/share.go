package main

import (
	"fmt"
	"io"
	"os"

	"leaselab/lessons"
)

// printShare prints answer a, its verdict r and the help the progress file
// records as a share.
func printShare(e *lessons.Exercise, a lessons.Answer, r lessons.Result, path string, stdout, stderr io.Writer) int {
	l, err := openProgress(path, stderr)
	if err != nil {
		return fail(stderr, "labctl exercise %s --share: %v", e.ID, err)
	}
	saved := l.exercise(e.ID)
	s, err := lessons.NewShare(e, a, r, saved.Passed, saved.Revealed, saved.HintsSeen, int(saved.Attempts))
	if err != nil {
		return fail(stderr, "labctl exercise %s --share: %v", e.ID, err)
	}
	fmt.Fprintf(stdout, "\nShare (open it in the lab's page, or: labctl exercise %s --verify '%s'):\n%s\n", e.ID, s.Link(), s.Link())
	return 0
}

// verifyShare grades a shared answer to e again and says what it finds.
func verifyShare(e *lessons.Exercise, arg string, stdin io.Reader, stdout, stderr io.Writer) int {
	text := arg
	if fi, err := os.Stat(arg); arg == "-" || err == nil && !fi.IsDir() {
		b, err := readInput(arg, stdin, lessons.MaxShareSize)
		if err != nil {
			return fail(stderr, "labctl exercise %s --verify: %v", e.ID, err)
		}
		text = string(b)
	}
	s, err := lessons.ParseShare(text)
	if err != nil {
		return fail(stderr, "labctl exercise %s --verify: %v", e.ID, err)
	}
	if s.Exercise != e.ID {
		return fail(stderr, "labctl exercise %s --verify: the share is an answer to %q, not to %s", e.ID, s.Exercise, e.ID)
	}
	v, err := s.Verify()
	if err != nil {
		return fail(stderr, "labctl exercise %s --verify: %v", e.ID, err)
	}
	verdict := map[bool]string{true: "PASS", false: "FAIL"}
	fmt.Fprintf(stdout, "Graded again from scratch: %s.", verdict[v.Result.Pass])
	if v.Agrees {
		fmt.Fprintf(stdout, " The share says %s too.\n", verdict[s.Pass])
	} else {
		fmt.Fprintf(stdout, " The share says %s: it does not hold the verdict its answer gets.\n", verdict[s.Pass])
	}
	fmt.Fprint(stdout, v.Result.Text())
	fmt.Fprintln(stdout, v.Help())
	if v.Result.Pass && v.Agrees {
		return exitOK
	}
	return exitNo
}
