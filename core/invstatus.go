package core

import (
	"fmt"
	"strings"
	"time"
)

// InvOneBeliever is the belief invariant the sandbox watches: at most one
// process believes it leads (or owns a shard) at a time. Unlike the
// coordinator's safety invariants it can break, and heal, in a correct
// system: a paused holder keeps believing after its lease is gone.
const InvOneBeliever = "at most one believer per lock or shard"

// InvariantStatus is one invariant as the sandbox's invariant panel shows
// it at the play head.
type InvariantStatus struct {
	Name string
	// Holds is false once the invariant has broken at or before the play
	// head; FirstBroke and Detail describe the first break and Breaks
	// counts them.
	Holds      bool
	FirstBroke time.Duration
	Breaks     int
	Detail     string
	// BrokenNow is true while a belief overlap is still open at the play
	// head (the other invariants break at an instant, not over a span).
	BrokenNow bool
}

// Statuses evaluates the invariants that apply to the world up to now:
// the coordinator's (one holder, increasing tokens), the fenced
// resource's, the job queue's, and the belief overlap.
func (s *Sim) Statuses(now time.Duration) []InvariantStatus {
	r := Check(s.Trace, now)
	names := []string{InvOneHolder, InvTokenOrder}
	if s.Register != nil || s.Offsets != nil {
		names = append(names, InvFencing, InvStaleAccepted)
	}
	if s.Queue != nil {
		names = append(names, InvDuplicateJob)
	}
	names = append(names, InvOneBeliever)
	all := append(append(append([]Violation(nil), r.Violations...), r.Stale...), r.Duplicates...)
	out := make([]InvariantStatus, len(names))
	for i, n := range names {
		st := InvariantStatus{Name: n, Holds: true}
		if n == InvOneBeliever {
			for _, iv := range r.Overlaps {
				if st.Breaks == 0 || iv.From < st.FirstBroke {
					st.FirstBroke = iv.From
					all := "both"
					if len(iv.Who) > 2 {
						all = "all"
					}
					st.Detail = fmt.Sprintf("%s %s believed they held %s", strings.Join(iv.Who, " and "), all, iv.What)
				}
				st.Breaks++
				st.BrokenNow = st.BrokenNow || iv.To >= now
			}
		} else {
			for _, v := range all {
				if v.Invariant != n {
					continue
				}
				if st.Breaks == 0 {
					st.FirstBroke, st.Detail = v.At, v.Detail
				}
				st.Breaks++
			}
		}
		st.Holds = st.Breaks == 0
		out[i] = st
	}
	return out
}

// Summary is the status as one line: "holds", "broke at t=..." or
// "broken now, first at t=...".
func (st InvariantStatus) Summary() string {
	switch {
	case st.Holds:
		return "holds"
	case st.BrokenNow:
		return fmt.Sprintf("broken now; first at t=%s (%s)", FormatTime(st.FirstBroke), st.Detail)
	}
	times := ""
	if st.Breaks > 1 {
		times = fmt.Sprintf(", %d times", st.Breaks)
	}
	return fmt.Sprintf("broke at t=%s%s (%s)", FormatTime(st.FirstBroke), times, st.Detail)
}
