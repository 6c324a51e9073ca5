// Package mermaid draws a run's trace as a Mermaid sequence diagram
// (labctl run --preset NAME --format mermaid): one participant per actor,
// the requests and decisions that matter as arrows, pauses, crashes and
// expiries as notes.
package mermaid

import (
	"fmt"
	"io"
	"strings"
	"time"

	"leaselab/core"
)

// MaxSteps bounds a diagram: Mermaid renders a few hundred steps
// comfortably, a ten-minute trace has tens of thousands of events.
const MaxSteps = 400

// Write renders the trace up to end as a Mermaid sequence diagram:
// one participant per actor, the requests that decide leadership and
// every write, job and offset decision as arrows, and state changes,
// pauses, crashes, expiries and partitions as notes. Renewals and other
// routine traffic are left out; past MaxSteps steps the diagram
// ends with a note saying how many were left out.
func Write(w io.Writer, t *core.Trace, end time.Duration) error {
	var steps []string
	var order []string
	ids := map[string]string{}
	id := func(actor string) string {
		if v, ok := ids[actor]; ok {
			return v
		}
		v := fmt.Sprintf("P%d", len(ids))
		ids[actor] = v
		order = append(order, actor)
		return v
	}
	note := func(e *core.Event, actor, format string, a ...any) {
		steps = append(steps, fmt.Sprintf("Note over %s: t=%s %s", id(actor), core.FormatTime(e.At), mermaidText(fmt.Sprintf(format, a...))))
	}
	// arrow draws from -> to with a Mermaid arrow: ->> a request, -->> a
	// reply, --x a refusal.
	arrow := func(e *core.Event, from, to, kind, format string, a ...any) {
		steps = append(steps, fmt.Sprintf("%s%s%s: t=%s %s", id(from), kind, id(to), core.FormatTime(e.At), mermaidText(fmt.Sprintf(format, a...))))
	}
	decision := func(e *core.Event, what string) {
		reply, res := "-->>", e.Result()
		if res != core.Accepted {
			reply = "--x"
		}
		arrow(e, e.From(), e.Actor, "->>", "%s token %d", what, e.Token())
		arrow(e, e.Actor, e.From(), reply, "%s", res)
	}
	id(core.CoordinatorName)
	for i := range t.Events {
		e := &t.Events[i]
		if e.At > end {
			break
		}
		switch e.Kind {
		case core.KindSend:
			if m := e.Msg(); m == "Acquire" || m == "LeaseRevoke" {
				arrow(e, e.Actor, e.To(), "->>", "%s", m)
			}
		case core.KindState:
			note(e, e.Actor, "%s -> %s (%s)", e.From(), e.To(), e.Why())
		case core.KindHolder:
			note(e, core.CoordinatorName, "%s holds %s, token %d", e.Owner(), e.Lock(), e.Token())
		case core.KindLeaseExpire:
			note(e, core.CoordinatorName, "lease of %s expired", e.Owner())
		case core.KindLockDelay:
			note(e, core.CoordinatorName, "lock-delay until t=%s", core.FormatTime(e.Until()))
		case core.KindPause:
			note(e, e.Actor, "paused for %s", e.For())
		case core.KindResume:
			note(e, e.Actor, "resumed")
		case core.KindCrash, core.KindRestart:
			note(e, e.Actor, "%s", e.Kind)
		case core.KindLeaseLost:
			note(e, e.Actor, "lost its lease (%s)", e.Why())
		case core.KindHold:
			note(e, e.From(), "what it sends is held until t=%s", core.FormatTime(e.Until()))
		case core.KindPartition, core.KindHeal:
			note(e, e.A(), "link %s - %s %s", e.A(), e.B(), map[core.Kind]string{core.KindPartition: "cut", core.KindHeal: "healed"}[e.Kind])
		case core.KindWrite:
			decision(e, "write")
		case core.KindEnqueue:
			decision(e, "job "+e.Idem())
		case core.KindOffset:
			if e.Format(core.FShard) != "" && e.Result() != core.Accepted {
				decision(e, "offset of shard "+e.Format(core.FShard))
			}
		case core.KindStale:
			note(e, e.Actor, "STALE token %d accepted (highest %d)", e.Token(), e.Highest())
		case core.KindSetting:
			if e.Actor == "learner" {
				note(e, core.CoordinatorName, "learner switched %s %s", e.Name(), e.Value())
			}
		}
	}
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, a := range order {
		fmt.Fprintf(&b, "    participant %s as %s\n", ids[a], mermaidText(a))
	}
	for i, s := range steps {
		if i == MaxSteps {
			fmt.Fprintf(&b, "    Note over %s: %d more steps left out (see the JSON Lines trace)\n", ids[core.CoordinatorName], len(steps)-i)
			break
		}
		b.WriteString("    " + s + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mermaidText keeps a label inside one Mermaid statement: no newlines, no
// semicolons or '#' (statement and entity syntax).
func mermaidText(s string) string {
	return strings.NewReplacer("\n", " ", ";", ",", "#", "no.", "%%", "%").Replace(s)
}
