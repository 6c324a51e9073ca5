package explore

import "leaselab/core"

// OneBelieverPerLock: no process becomes leader while another still
// believes it leads. It is about belief, which no coordinator enforces: a
// holder frozen past its lease wakes up still believing. Where the
// coordinator issues a fencing token the store can refuse what the stale
// believer sends; Redlock issues none (every token is 0), so on Redlock
// this overlap is the break itself, and the stale holder's writes land.
var OneBelieverPerLock = Invariant{
	Name:  "no two processes believe they hold the lock at once",
	Kinds: []core.Kind{core.KindState},
	MatchIn: func(s *core.Sim, e *core.Event) bool {
		if e.Kind != core.KindState || e.To() != core.Leader.String() {
			return false
		}
		for _, p := range s.Processes() {
			if p.Name() != e.Actor && p.State() == core.Leader {
				return true
			}
		}
		return false
	},
	Scan: func(t *core.Trace) []int {
		var out []int
		leading := map[string]bool{}
		for e := range t.All() {
			if e.Kind != core.KindState {
				continue
			}
			switch {
			case e.To() == core.Leader.String():
				for who := range leading {
					if who != e.Actor {
						out = append(out, e.Seq)
						break
					}
				}
				leading[e.Actor] = true
			case e.From() == core.Leader.String():
				delete(leading, e.Actor)
			}
		}
		return out
	},
}
