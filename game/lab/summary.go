package lab

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// Summary is the world at the play head in a few plain sentences, for a
// learner who cannot see the canvas: who holds each lock and with which
// token, each process's state and its lease as it and as the coordinator
// count it, and what the store last accepted.
type Summary struct {
	// Lines are the sentences, one per lock, per process and for the store.
	Lines []string `json:"lines"`
	// Key is the part of the world a listener is told of when it changes
	// (the holders, their tokens, the store's highest token and the
	// processes' states), a sentence each; leases running down and values
	// written are not in it, so the run does not speak every second.
	Key []string `json:"key"`
}

// Changed returns the sentences of s's key that were not in since's: what
// to tell a listener who last heard since.
func (s Summary) Changed(since Summary) []string {
	var out []string
	for _, k := range s.Key {
		if !slices.Contains(since.Key, k) {
			out = append(out, k)
		}
	}
	return out
}

// Summary summarises v: its Redis nodes, its locks, its coordinator's
// members, its processes, its workers, its store and its offset store.
func (v WorldView) Summary() Summary {
	var s Summary
	v.redisSummary(&s)
	v.lockSummary(&s)
	lines, members := v.memberSummary()
	s.Lines, s.Key = append(s.Lines, lines...), append(s.Key, members...)
	v.procSummary(&s)
	v.workerSummary(&s)
	v.storeSummary(&s)
	v.offsetSummary(&s)
	return s
}

// add adds a line, and key as its part of the key.
func (s *Summary) add(line, key string) {
	s.Lines = append(s.Lines, line)
	s.Key = append(s.Key, key)
}

// redisSummary tells of each Redis node (Redlock: no coordinator, each
// node holds the key or not).
func (v WorldView) redisSummary(s *Summary) {
	for _, r := range v.Redis {
		line := r.Name + ": holds no key"
		switch {
		case r.Down:
			line = r.Name + ": down"
		case r.Owner != "":
			line = r.Name + ": key held by " + r.Owner
		}
		s.add(line, line)
	}
}

// lockSummary tells who holds each lock (none in a Redlock world).
func (v WorldView) lockSummary(s *Summary) {
	groups := v.Groups
	if len(v.Redis) > 0 {
		groups = nil
	} else if len(groups) == 0 && (v.Lock.Name != "" || v.Lock.Holder != "") {
		groups = []LockGroup{{Lock: v.Lock}}
	}
	for _, g := range groups {
		name := "Lock"
		if len(groups) > 1 && g.Lock.Name != "" {
			name = "Lock " + g.Lock.Name
		}
		line := name + ": free"
		if g.Lock.Holder != "" {
			line = fmt.Sprintf("%s: held by %s%s", name, g.Lock.Holder, withToken(v, g.Lock.Token))
		}
		s.add(line, line)
	}
}

// procSummary tells each process's state and, in its line only, its
// lease.
func (v WorldView) procSummary(s *Summary) {
	for _, p := range v.Procs {
		state := procState(p, v)
		line := p.Name + ": " + state
		if lease := leaseLeft(p); lease != "" {
			line += "; " + lease
		}
		s.add(line, p.Name+": "+state)
	}
}

// workerSummary tells the shards each worker owns by its own count and
// by the coordinator's.
func (v WorldView) workerSummary(s *Summary) {
	for _, w := range v.Workers {
		state := fmt.Sprintf("owns %d shards by its own count, %d by the coordinator's", w.Owned, w.Holds)
		switch {
		case w.Crashed:
			state = "crashed"
		case w.Paused:
			state = "paused; " + state
		}
		s.add(w.Name+": "+state, w.Name+": "+state)
	}
}

// storeSummary tells what the store last accepted and whether it checks
// tokens.
func (v WorldView) storeSummary(s *Summary) {
	st := v.Store
	if st == nil {
		return
	}
	name := core.Capitalise(st.Name)
	if name == "" {
		name = "Store"
	}
	check := "checks tokens"
	if !st.Fencing {
		check = "does not check tokens"
	}
	line := fmt.Sprintf("%s: nothing accepted yet (%s)", name, check)
	said := line
	if st.Highest != 0 || st.Value != "" {
		// Every write changes the value: the key has the token only.
		said = fmt.Sprintf("%s: highest %s accepted %d (%s)", name, tokenWord(v), st.Highest, check)
		line = fmt.Sprintf("%s: highest %s accepted %d, value %q (%s)", name, tokenWord(v), st.Highest, st.Value, check)
	}
	s.add(line, said)
}

// offsetSummary tells the offset store's commits and refusals (the key
// leaves the commits out: they come every moment).
func (v WorldView) offsetSummary(s *Summary) {
	if o := v.Offsets; o != nil {
		refused := fmt.Sprintf("%d rejected, %d stale accepted", o.Rejected, o.StaleAccepted)
		s.add(fmt.Sprintf("%s: %d commits, %s", o.Name, o.Commits, refused), o.Name+": "+refused)
	}
}

// tokenWord is the world's name for a fencing token ("token", "zxid").
func tokenWord(v WorldView) string {
	if w := v.Words.Token; w != "" {
		return w
	}
	return "token"
}

// withToken is " with token n", or "" in a world whose holders get no
// token.
func withToken(v WorldView, n int64) string {
	if n == 0 && v.Words.Token == "" {
		return ""
	}
	return fmt.Sprintf(" with %s %d", tokenWord(v), n)
}

// procState says what process p is doing, in plain words.
func procState(p ProcView, v WorldView) string {
	var parts []string
	switch {
	case p.Crashed:
		return "crashed"
	case p.Believes:
		parts = append(parts, "acts as leader"+withToken(v, p.Token))
	case p.Holder:
		parts = append(parts, "holds the lock but does not know it yet")
	default:
		parts = append(parts, "not leader")
	}
	if p.Believes && !p.Holder && p.TruthLeft == 0 {
		parts = append(parts, "the coordinator no longer counts it as holder")
	}
	if p.Paused {
		parts = append(parts, "paused")
	}
	if p.Cut {
		parts = append(parts, "its link to the coordinator is cut")
	}
	return strings.Join(parts, ", ")
}

// leaseLeft says how long p's lease has, by its own clock and by the
// coordinator's, in whole seconds rounded up ("" without a lease).
func leaseLeft(p ProcView) string {
	if p.BeliefLeft == 0 && p.TruthLeft == 0 {
		return ""
	}
	return fmt.Sprintf("lease left %s by its own clock, %s by the coordinator's", wholeSeconds(p.BeliefLeft), wholeSeconds(p.TruthLeft))
}

func wholeSeconds(d time.Duration) string {
	return fmt.Sprintf("%d s", (d+time.Second-1)/time.Second)
}
