package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

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
		if tr.Events[i].Kind == k {
			return &tr.Events[i]
		}
	}
	return nil
}

// writeWhy prints why e happened.
func writeWhy(w io.Writer, tr *core.Trace, e *core.Event) {
	chain := tr.Chain(e)
	fmt.Fprintf(w, "Why? %s\n", step(e))
	for _, c := range chain[1:] {
		fmt.Fprintf(w, "  because %s\n", step(c))
	}
	switch root, act := tr.RootOf(e); root {
	case core.RootAction:
		fmt.Fprintf(w, "It all began with an action at %s: %s.\n", core.Seconds(act.At), act.Words())
	default:
		fmt.Fprintf(w, "It all began with the world's start: %s.\n", startOf(chain[len(chain)-1]))
	}
	for _, c := range chain {
		if cs := c.Causes(); len(cs) > 1 {
			if o := tr.Event(cs[1]); o != nil {
				fmt.Fprintf(w, "Also, event %d had a second cause: %s\n", c.Seq, step(o))
			}
		}
	}
}

// step is one event in words: number, time and what happened.
func step(e *core.Event) string {
	words := lab.Narrate(e)
	if words == "" {
		words = plain(e)
	}
	return fmt.Sprintf("[%d] at %s: %s", e.Seq, core.Seconds(e.At), words)
}

// plain says an event the narration leaves out (messages, renewals).
func plain(e *core.Event) string {
	switch e.Kind {
	case core.KindSend:
		return fmt.Sprintf("%s sent %s to %s (it arrives at %s)", e.Actor, e.Msg(), e.To(), core.Seconds(e.Arrive()))
	case core.KindLeaseGrant:
		return fmt.Sprintf("the coordinator granted %s a lease of %s", e.Owner(), core.Seconds(e.TTL()))
	case core.KindLeaseRenew:
		if e.Lease() == "" {
			return fmt.Sprintf("the coordinator renewed %d leases of %s", e.Leases(), e.Owner())
		}
		return fmt.Sprintf("the coordinator renewed the lease of %s until %s", e.Owner(), core.Seconds(e.Expiry()))
	case core.KindLeaseRenewed:
		return fmt.Sprintf("%s heard its lease was renewed", e.Actor)
	case core.KindState:
		return fmt.Sprintf("%s went from %s to %s (%s)", e.Actor, e.From(), e.To(), e.Why())
	}
	return strings.TrimPrefix(e.Text(), "t="+core.FormatTime(e.At)+" ")
}

// startOf says what of the world's start a chain's first event is.
func startOf(e *core.Event) string {
	if e.Actor == "learner" {
		return step(e)
	}
	return fmt.Sprintf("%s, set going when the world was built", step(e))
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
