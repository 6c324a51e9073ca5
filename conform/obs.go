package conform

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Obs is one thing a learner would see happen, on either side.
type Obs struct {
	At  time.Duration // since the scenario started
	Who string        // a client, or the key's owner for server events
	// What is one of: granted (N = TTL in seconds), keepalive, acquired
	// (Token = create revision), lost (the client learned its session
	// ended: Session.Done), session-expired (Lock said so), refused (Lock
	// failed: Note), write-accepted, write-rejected (Token), write-refused
	// (not leader), deleted (Token = the delete's revision, N = keys),
	// put (Token = revision), leader (election: Note = value, Token = the
	// leader key's mod revision).
	What  string
	Token int64
	N     int64
	Note  string
}

func (o Obs) label() string {
	s := o.Who + " " + o.What
	switch o.What {
	case "granted":
		s += fmt.Sprintf(" ttl %ds", o.N)
	case "connected":
		s += fmt.Sprintf(" timeout %dms", o.N)
	case "created":
		s += fmt.Sprintf(" seq %d czxid %d", o.N, o.Token)
	case "acquired", "write-accepted", "write-rejected":
		s += fmt.Sprintf(" token %d", o.Token)
	case "deleted":
		s += fmt.Sprintf(" %d key(s) at rev %d", o.N, o.Token)
	case "put":
		s += fmt.Sprintf(" at rev %d", o.Token)
	case "leader":
		s += fmt.Sprintf(" %q rev %d", o.Note, o.Token)
	case "refused":
		s += ": " + o.Note
	}
	return s
}

// Run is one side's observations of a scenario.
type Run struct {
	Side string // "etcd" or "sim"
	// Base is the store's revision when the scenario started: tokens and
	// revisions are compared as offsets from it (a fresh etcd is at 1).
	Base int64
	Obs  []Obs
	// Slip is how late the real side's own timers fired at worst during
	// the run: a machine starved of CPU delays etcd's timers as much, and
	// such a run is no evidence either way (see Attempts).
	Slip time.Duration
}

func (r *Run) sort() {
	sort.SliceStable(r.Obs, func(i, j int) bool { return r.Obs[i].At < r.Obs[j].At })
}

// compared are the events whose order and tokens must match exactly:
// all but keepalives (unless the scenario is about them) and what happens
// in the last second, where one side may stop watching just before an
// event the other saw just in time.
func compared(sc *Scenario, o Obs) bool {
	if o.At >= sc.Until-time.Second {
		return false
	}
	return o.What != "keepalive" || sc.Keepalives
}

// Race is how close two events of independent actors may be and still
// come in either order: under it, neither side's order means anything
// (two clients' events a millisecond apart race on a real machine).
const Race = 50 * time.Millisecond

// Diff compares a real run with a simulated one. Events are matched by
// actor, kind and occurrence (the second "A acquired" with the second):
// both sides must show the same events, with the same tokens and
// revisions (as offsets from each side's base), at times within the
// scenario's tolerance, and any two events more than Race apart on both
// sides must come in the same order. It returns one line per difference
// (none: they conform).
func Diff(sc *Scenario, real, sim *Run) []string {
	tol := tolerance(sc)
	type key struct{ who, what string }
	index := func(r *Run) (map[key][]Obs, []key) {
		m := map[key][]Obs{}
		var order []key
		for _, o := range r.Obs {
			if !compared(sc, o) {
				continue
			}
			k := key{o.Who, o.What}
			if _, ok := m[k]; !ok {
				order = append(order, k)
			}
			m[k] = append(m[k], o)
		}
		return m, order
	}
	a, ka := index(real)
	b, kb := index(sim)
	var out []string
	type pair struct {
		x, y  Obs
		label string
	}
	var pairs []pair
	for _, k := range append(ka, kb...) {
		xs, ys := a[k], b[k]
		if xs == nil && ys == nil {
			continue
		}
		for i := 0; i < max(len(xs), len(ys)); i++ {
			switch {
			case i >= len(xs):
				out = append(out, fmt.Sprintf("only the simulator: %s at %s", ys[i].label(), secs(ys[i].At)))
				continue
			case i >= len(ys):
				out = append(out, fmt.Sprintf("only %s: %s at %s", real.Side, xs[i].label(), secs(xs[i].At)))
				continue
			}
			x, y := xs[i], ys[i]
			pairs = append(pairs, pair{x, y, x.label()})
			switch {
			case x.N != y.N:
				out = append(out, fmt.Sprintf("%s: %s %s, simulator %s", x.Who+" "+x.What, real.Side, x.label(), y.label()))
			case x.What == "refused" && !strings.Contains(x.Note, y.Note):
				out = append(out, fmt.Sprintf("%s: %s refused %q, simulator %q", x.Who, real.Side, x.Note, y.Note))
			case x.What == "leader" && x.Note != y.Note:
				out = append(out, fmt.Sprintf("leader: %s %q, simulator %q", real.Side, x.Note, y.Note))
			}
			if (x.Token != 0 || y.Token != 0) && x.Token-real.Base != y.Token-sim.Base {
				out = append(out, fmt.Sprintf("%s: %s token/revision %d (base %d), simulator %d (base %d)", x.Who+" "+x.What, real.Side, x.Token, real.Base, y.Token, sim.Base))
			}
			if d := x.At - y.At; d > tol || d < -tol {
				out = append(out, fmt.Sprintf("%s: %s at %s, simulator at %s: %s apart, tolerance %s", x.label(), real.Side, secs(x.At), secs(y.At), secs(abs(d)), secs(tol)))
			}
		}
		delete(a, k)
		delete(b, k)
	}
	for i := range pairs {
		for j := i + 1; j < len(pairs); j++ {
			p, q := pairs[i], pairs[j]
			dr, ds := q.x.At-p.x.At, q.y.At-p.y.At
			if dr > Race && ds < -Race || dr < -Race && ds > Race {
				first, then := p, q
				if dr < 0 {
					first, then = q, p
				}
				out = append(out, fmt.Sprintf("order: on %s %s (%s) comes before %s (%s); in the simulator after it (%s, %s)", real.Side,
					first.label, secs(first.x.At), then.label, secs(then.x.At), secs(first.y.At), secs(then.y.At)))
			}
		}
	}
	return out
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

// SideBySide renders both runs' events in time order, one per line, etcd
// on the left and the simulator on the right, matched by position among
// the compared events.
func SideBySide(sc *Scenario, real, sim *Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", sc.Name, sc.Title)
	title := "real etcd 3.7.3"
	if real.Side != "etcd" {
		title = "real " + real.Side
	}
	fmt.Fprintf(&b, "  %-3s %-44s %10s   %-44s %10s %8s\n", "#", title, "at", "simulator", "at", "Δ")
	a, s := real.Obs, sim.Obs
	i, j, n := 0, 0, 0
	for i < len(a) || j < len(s) {
		n++
		var left, right, la, ra, delta string
		var x, y *Obs
		if i < len(a) {
			x = &a[i]
		}
		if j < len(s) {
			y = &s[j]
		}
		// Pair events that are the same kind for the same actor; print
		// an unpaired one alone, earliest first.
		switch {
		case x != nil && y != nil && x.Who == y.Who && x.What == y.What:
			i, j = i+1, j+1
			delta = fmt.Sprintf("%+.3f", (y.At - x.At).Seconds())
		case y == nil || x != nil && x.At <= y.At:
			y = nil
			i++
		default:
			x = nil
			j++
		}
		if x != nil {
			left, la = x.label(), secs(x.At)
		}
		if y != nil {
			right, ra = y.label(), secs(y.At)
		}
		fmt.Fprintf(&b, "  %-3d %-44s %10s   %-44s %10s %8s\n", n, clip(left, 44), la, clip(right, 44), ra, delta)
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
