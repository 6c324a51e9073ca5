package conform

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Result is one scenario run on both sides and compared.
type Result struct {
	Scenario  *Scenario
	Etcd, Sim *Run
	Diffs     []string
}

// Conforms reports whether the two sides agreed.
func (r *Result) Conforms() bool { return len(r.Diffs) == 0 }

// MaxSlip is the worst timer lateness a real run may show and still count
// as evidence: beyond it the machine, not etcd, decided the timings.
const MaxSlip = 100 * time.Millisecond

// Attempts is how many times a scenario runs on etcd before a difference
// counts, when every differing run was starved of CPU (Slip > MaxSlip). A
// difference in a run that was not starved fails at once.
const Attempts = 3

// Conform runs sc on a real etcd (started by start, stopped by the
// function it returns) and in the simulator, and compares them; a
// differing run on a starved machine is tried again, up to Attempts runs.
// It returns every attempt's result, the last one deciding.
func Conform(ctx context.Context, sc *Scenario, start func() ([]string, func(), error), opt SimOptions) ([]*Result, error) {
	var out []*Result
	for range Attempts {
		eps, stop, err := start()
		if err != nil {
			return out, err
		}
		rctx, cancel := context.WithTimeout(ctx, sc.Until+time.Minute)
		real, err := RunEtcd(rctx, sc, eps)
		cancel()
		stop()
		if err != nil {
			return out, err
		}
		res, err := Compare(sc, real, opt)
		if err != nil {
			return out, err
		}
		out = append(out, res)
		if res.Conforms() || real.Slip <= MaxSlip {
			break
		}
	}
	return out, nil
}

// Compare runs the simulator side of sc and compares it with a real run.
func Compare(sc *Scenario, real *Run, opt SimOptions) (*Result, error) {
	sim, err := RunSim(sc, opt)
	if err != nil {
		return nil, err
	}
	return &Result{Scenario: sc, Etcd: real, Sim: sim, Diffs: Diff(sc, real, sim)}, nil
}

// Report renders a result: the side-by-side trace, the figures table when
// the scenario has one, and the verdict.
func (r *Result) Report() string {
	var b strings.Builder
	b.WriteString(SideBySide(r.Scenario, r.Etcd, r.Sim))
	if t := Figures(r.Scenario, r.Etcd, r.Sim); t != "" {
		b.WriteString(t)
	}
	if r.Etcd.Slip > MaxSlip {
		fmt.Fprintf(&b, "  (this machine's timers slipped by up to %s during the real run)\n", secs(r.Etcd.Slip))
	}
	if r.Conforms() {
		fmt.Fprintf(&b, "  conforms: same events in the same order, same tokens and revisions (offsets from %d and %d), times within %s\n\n",
			r.Etcd.Base, r.Sim.Base, secs(tolerance(r.Scenario)))
	} else {
		fmt.Fprintf(&b, "  DIFFERS (%d):\n", len(r.Diffs))
		for _, d := range r.Diffs {
			b.WriteString("    " + d + "\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func tolerance(sc *Scenario) time.Duration {
	if sc.Tolerance == 0 {
		return DefaultTolerance
	}
	return sc.Tolerance
}

// figure is one measured quantity of a run, or ok false if the run does
// not show it.
type figure struct {
	name string
	get  func(r *Run) (string, bool)
}

// stalled reads a run of the stalled-connection scenario, whose
// connection stalls at at.
type stalled struct{ at time.Duration }

// find is who's first observation what at or after after.
func (stalled) find(r *Run, who, what string, after time.Duration) (Obs, bool) {
	for _, o := range r.Obs {
		if o.Who == who && o.What == what && o.At >= after {
			return o, true
		}
	}
	return Obs{}, false
}

// keepalives are A's keepalive answers before the stall.
func (st stalled) keepalives(r *Run) []time.Duration {
	var ka []time.Duration
	for _, o := range r.Obs {
		if o.Who == "A" && o.What == "keepalive" && o.At < st.at {
			ka = append(ka, o.At)
		}
	}
	return ka
}

// since is a figure: who's what after the stall, from A's last keepalive
// answer before it.
func (st stalled) since(who, what string) func(r *Run) (string, bool) {
	return func(r *Run) (string, bool) {
		ka := st.keepalives(r)
		o, found := st.find(r, who, what, st.at)
		if len(ka) == 0 || !found {
			return "", false
		}
		return fmt.Sprintf("+%.3f s", (o.At - ka[len(ka)-1]).Seconds()), true
	}
}

func (st stalled) keepaliveInterval(r *Run) (string, bool) {
	ka := st.keepalives(r)
	if len(ka) < 2 {
		return "", false
	}
	return fmt.Sprintf("%.3f s", (ka[len(ka)-1]-ka[0]).Seconds()/float64(len(ka)-1)), true
}

func (st stalled) firstKeepalive(r *Run) (string, bool) {
	g, ok1 := st.find(r, "A", "granted", 0)
	k, ok2 := st.find(r, "A", "keepalive", 0)
	return fmt.Sprintf("+%.3f s", (k.At - g.At).Seconds()), ok1 && ok2
}

func (st stalled) learnsBesideB(r *Run) (string, bool) {
	l, ok1 := st.find(r, "A", "lost", st.at)
	b, ok2 := st.find(r, "B", "acquired", st.at)
	d := (l.At - b.At).Seconds()
	word := "after"
	if d < 0 {
		word, d = "before", -d
	}
	return fmt.Sprintf("%.2f s %s", d, word), ok1 && ok2
}

func (st stalled) tokens(r *Run) (string, bool) {
	a, ok1 := st.find(r, "A", "acquired", 0)
	b, ok2 := st.find(r, "B", "acquired", 0)
	return fmt.Sprintf("%d / %d", a.Token, b.Token), ok1 && ok2
}

// Figures is the table of the stalled-connection scenario (A holds, its
// connection stalls, B is queued), times from A's last keepalive response
// before the stall; "" for other scenarios.
func Figures(sc *Scenario, real, sim *Run) string {
	if sc.Name != "stalled-connection" {
		return ""
	}
	var st stalled
	for _, step := range sc.Steps {
		if step.Do == "stall" {
			st.at = step.At
		}
	}
	figs := []figure{
		{"keepalive interval", st.keepaliveInterval},
		{"first keepalive after grant", st.firstKeepalive},
		{"server deletes A's key", st.since("A", "deleted")},
		{"B acquires", st.since("B", "acquired")},
		{"A learns it lost the lease", st.since("A", "lost")},
		{"A learns, relative to B holding", st.learnsBesideB},
		{"tokens A / B", st.tokens},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n  %-34s %-16s %-16s\n", "measure (from A's last keepalive)", "real etcd", "simulator")
	for _, f := range figs {
		x, ok1 := f.get(real)
		y, ok2 := f.get(sim)
		if !ok1 {
			x = "-"
		}
		if !ok2 {
			y = "-"
		}
		fmt.Fprintf(&b, "  %-34s %-16s %-16s\n", f.name, x, y)
	}
	b.WriteString("\n")
	return b.String()
}
