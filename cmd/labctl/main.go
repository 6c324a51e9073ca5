// Command labctl runs LeaseLab headless: scenarios, the lease-policy check,
// and the web server for the browser build. It needs no display and no cgo.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
)

const usage = `labctl: LeaseLab in a terminal

usage:
  labctl run NAME [flags]     run a built-in scenario (labctl run --help lists them)
  labctl run --preset NAME    run a sandbox preset headless (labctl presets lists them)
  labctl presets              list the sandbox presets and where their numbers come from
  labctl policy [flags]       check 2 x renew + pause budget < ttl
  labctl lessons              list the lessons in menu order
  labctl lesson ID [--solve]  show a lesson (--hint N: its hints, a rung at a time), or run its solution
  labctl exercises            list the five assessment exercises
  labctl exercise ID [flags]  show an exercise, check an answer (--answer FILE), hints, the model answer
  labctl explore TARGET       search fault timings for the simplest break (labctl explore --help)
  labctl why NAME [flags]     why one event of a run happened, back to an action (labctl why --help)
  labctl serve [flags]        serve the browser build (web/) on 127.0.0.1:8080
  labctl help                 this text

Exit codes, the same for every command:
  0  ok, and the answer is yes
  1  a verdict of no: a run that broke an invariant (run), an unsafe policy
     (policy), an unmet goal (lesson --solve), a failed answer (exercise),
     a break found (explore)
  2  bad input: a flag, a name, a file or a link that cannot be used
  3  an internal error, a bug in LeaseLab (--debug prints its stack)
`

// Exit codes, the same for every command.
const (
	exitOK       = 0
	exitNo       = 1
	exitBadInput = 2
	exitInternal = 3
)

// reportAt is where an internal error should be reported.
const reportAt = "the LeaseLab issue tracker"

func main() {
	if os.Getenv(childEnv) == "" {
		if code, ok := supervise(os.Args[1:]); ok {
			os.Exit(code)
		}
	}
	os.Exit(guarded(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// guarded is run with --debug taken out of args, turning a panic anywhere
// below into exit 3 and one line (the stack only with --debug): a crash
// must not look like bad input, whose code is 2.
func guarded(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	dbg := slices.Contains(args, "--debug")
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--debug" })
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "labctl: internal error: %v (this is a bug in LeaseLab, not in your input: please report it to %s with the command line)\n", r, reportAt)
			if dbg {
				stderr.Write(debug.Stack())
			} else {
				fmt.Fprintln(stderr, "labctl: run again with --debug for the stack trace")
			}
			code = exitInternal
		}
	}()
	return run(args, stdin, stdout, stderr)
}

// run dispatches a command line and returns the exit code: exitOK,
// exitNo for a verdict of no, exitBadInput for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runScenario(args[1:], stdin, stdout, stderr)
	case "presets":
		return runPresets(args[1:], stdout, stderr)
	case "policy":
		return runPolicy(args[1:], stdout, stderr)
	case "lessons":
		return runLessons(args[1:], stdout, stderr)
	case "lesson":
		return runLesson(args[1:], stdin, stdout, stderr)
	case "exercises":
		return runExercises(args[1:], stdout, stderr)
	case "exercise":
		return runExercise(args[1:], stdin, stdout, stderr)
	case "explore":
		return runExplore(args[1:], stdout, stderr)
	case "why":
		return runWhy(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "labctl: unknown command %q (try labctl help)\n", args[0])
	return exitBadInput
}

// isHelp reports a command line that asks only for help.
func isHelp(args []string) bool {
	return len(args) == 1 && slices.Contains([]string{"-h", "-help", "--help", "help"}, args[0])
}
