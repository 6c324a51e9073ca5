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
	d := diagram{ids: map[string]string{}}
	d.id(core.CoordinatorName)
	for e := range t.All() {
		if e.At > end {
			break
		}
		d.event(e)
	}
	_, err := io.WriteString(w, d.String())
	return err
}

// diagram is a diagram being drawn: its participants, in order of first
// appearance, and its steps.
type diagram struct {
	steps []string
	order []string
	ids   map[string]string
}

// id returns the actor's participant id, adding the participant on its
// first appearance.
func (d *diagram) id(actor string) string {
	if v, ok := d.ids[actor]; ok {
		return v
	}
	v := fmt.Sprintf("P%d", len(d.ids))
	d.ids[actor] = v
	d.order = append(d.order, actor)
	return v
}

func (d *diagram) note(e *core.Event, actor, format string, a ...any) {
	d.steps = append(d.steps, fmt.Sprintf("Note over %s: t=%s %s", d.id(actor), core.FormatTime(e.At), mermaidText(fmt.Sprintf(format, a...))))
}

// arrow draws from -> to with a Mermaid arrow: ->> a request, -->> a
// reply, --x a refusal.
func (d *diagram) arrow(e *core.Event, from, to, kind, format string, a ...any) {
	d.steps = append(d.steps, fmt.Sprintf("%s%s%s: t=%s %s", d.id(from), kind, d.id(to), core.FormatTime(e.At), mermaidText(fmt.Sprintf(format, a...))))
}

// decision draws a request to a resource and its answer.
func (d *diagram) decision(e *core.Event, what string) {
	reply, res := "-->>", e.Result()
	if res != core.Accepted {
		reply = "--x"
	}
	d.arrow(e, e.From(), e.Actor, "->>", "%s token %d", what, e.Token())
	d.arrow(e, e.Actor, e.From(), reply, "%s", res)
}

// event draws e, if it is one the diagram shows.
func (d *diagram) event(e *core.Event) {
	switch e.Kind {
	case core.KindSend:
		if m := e.Msg(); m == "Acquire" || m == "LeaseRevoke" {
			d.arrow(e, e.Actor, e.To(), "->>", "%s", m)
		}
	case core.KindState:
		d.note(e, e.Actor, "%s -> %s (%s)", e.From(), e.To(), e.Why())
	case core.KindHolder:
		d.note(e, core.CoordinatorName, "%s holds %s, token %d", e.Owner(), e.Lock(), e.Token())
	case core.KindLeaseExpire:
		d.note(e, core.CoordinatorName, "lease of %s expired", e.Owner())
	case core.KindLockDelay:
		d.note(e, core.CoordinatorName, "lock-delay until t=%s", core.FormatTime(e.Until()))
	case core.KindPause:
		d.note(e, e.Actor, "paused for %s", e.For())
	case core.KindResume:
		d.note(e, e.Actor, "resumed")
	case core.KindCrash, core.KindRestart:
		d.note(e, e.Actor, "%s", e.Kind)
	case core.KindLeaseLost:
		d.note(e, e.Actor, "lost its lease (%s)", e.Why())
	case core.KindHold:
		d.note(e, e.From(), "what it sends is held until t=%s", core.FormatTime(e.Until()))
	case core.KindPartition, core.KindHeal:
		d.note(e, e.A(), "link %s - %s %s", e.A(), e.B(), map[core.Kind]string{core.KindPartition: "cut", core.KindHeal: "healed"}[e.Kind])
	case core.KindWrite:
		d.decision(e, "write")
	case core.KindEnqueue:
		d.decision(e, "job "+e.Idem())
	case core.KindOffset:
		if e.Format(core.FShard) != "" && e.Result() != core.Accepted {
			d.decision(e, "offset of shard "+e.Format(core.FShard))
		}
	case core.KindStale:
		d.note(e, e.Actor, "STALE token %d accepted (highest %d)", e.Token(), e.Highest())
	case core.KindSetting:
		if e.Actor == "learner" {
			d.note(e, core.CoordinatorName, "learner switched %s %s", e.Name(), e.Value())
		}
	}
}

// String is the diagram's Mermaid text, cut after MaxSteps steps.
func (d *diagram) String() string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, a := range d.order {
		fmt.Fprintf(&b, "    participant %s as %s\n", d.ids[a], mermaidText(a))
	}
	for i, s := range d.steps {
		if i == MaxSteps {
			fmt.Fprintf(&b, "    Note over %s: %d more steps left out (see the JSON Lines trace)\n", d.ids[core.CoordinatorName], len(d.steps)-i)
			break
		}
		b.WriteString("    " + s + "\n")
	}
	return b.String()
}

// mermaidText keeps a label inside one Mermaid statement: no newlines, no
// semicolons or '#' (statement and entity syntax).
func mermaidText(s string) string {
	return strings.NewReplacer("\n", " ", ";", ",", "#", "no.", "%%", "%").Replace(s)
}
