package main

import (
	"fmt"
	"io"
	"strconv"

	"leaselab/core"
	"leaselab/game/lab"
)

// labctl why runs what labctl run runs and, instead of the whole trace,
// tells why one event happened: the chain of causes back to the learner's
// action or the world's start, each step with its time and its event
// number, so the learner can find it in the trace (labctl run prints the
// numbers as seq in --format jsonl).

const whyHelp = `usage: labctl why NAME [run flags] [--event N|KIND]
       labctl why --preset NAME [run flags] [--event N|KIND]

Runs the scenario or preset as labctl run does and tells why one event
happened: each cause in turn, with its time and its event number, back to
your action, the world's script or its start.

  --event N      the event with sequence number N (labctl run --format jsonl
                 prints each event's seq)
  --event KIND   the last event of that kind (write, lock.holder, lease.expire,
                 stale.accepted, ...)
  (no --event)   the last decision of the protected resource (a write, a job,
                 an offset commit), else the last change of lock holder

Every flag of labctl run works here (--seed, --actions, --ttl, --load, ...).
Exit 0 with the chain printed; 2 for bad input or an event the run does not
have.
`

// runWhy is labctl why: labctl run with the why format.
func runWhy(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if isHelp(args) {
		fmt.Fprint(stdout, whyHelp)
		return 0
	}
	return runScenario(append([]string{"--format", "why"}, args...), stdin, stdout, stderr)
}

// pickEvent finds the event spec names in tr.
func pickEvent(tr *core.Trace, spec string) (*core.Event, error) {
	if spec == "" {
		for _, k := range []core.Kind{core.KindWrite, core.KindEnqueue, core.KindOffset, core.KindHolder} {
			if e := lastOf(tr, k); e != nil {
				return e, nil
			}
		}
		return nil, fmt.Errorf("the run has no write, job, offset commit or change of holder to explain: give --event")
	}
	if n, err := strconv.Atoi(spec); err == nil {
		if e := tr.Event(n); e != nil {
			return e, nil
		}
		return nil, fmt.Errorf("--event %d: the run has events 0 to %d", n, tr.Len()-1)
	}
	k, ok := core.KindNamed(spec)
	if !ok {
		return nil, fmt.Errorf("--event %q is neither an event number nor a kind of event (lock.holder, write, lease.expire, ...)", spec)
	}
	if e := lastOf(tr, k); e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("--event %s: the run has no %s event", spec, spec)
}

func lastOf(tr *core.Trace, k core.Kind) *core.Event {
	for i := tr.Len() - 1; i >= 0; i-- {
		if tr.At(i).Kind == k {
			return tr.At(i)
		}
	}
	return nil
}

// writeWhy prints why e happened.
func writeWhy(w io.Writer, tr *core.Trace, e *core.Event) {
	why := lab.Explain(tr, e)
	fmt.Fprintf(w, "Why? %s\n", why.Steps[0])
	for _, s := range why.Steps[1:] {
		fmt.Fprintf(w, "  because %s\n", s)
	}
	fmt.Fprintf(w, "It all began with %s.\n", why.Root)
	for _, s := range why.Also {
		fmt.Fprintf(w, "Also: %s\n", s)
	}
}

// explain prints why the event spec names happened, or fails with exit 2.
func explain(w io.Writer, stderr io.Writer, tr *core.Trace, spec, cmd string) int {
	e, err := pickEvent(tr, spec)
	if err != nil {
		return fail(stderr, "%s: %v", cmd, err)
	}
	writeWhy(w, tr, e)
	return exitOK
}
