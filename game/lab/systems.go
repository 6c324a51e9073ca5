package lab

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// SystemsComparison is one sandbox scenario and one log of actions run on
// several systems (sandbox.Config.OnSystem), one run per system, each
// with the story of its whole run in one line. Systems the scenario does
// not fit (a Consul TTL under 10 s) are left out, with the reason.
type SystemsComparison struct {
	Systems []core.System
	Runs    []*Lab
	Stories []Story
	// Refused are the systems left out, each with why.
	Refused []string
}

// NewSystemsComparison runs cfg and log on each of systems (all of them
// when empty), every run at the play head at. The runs last two minutes,
// or a minute past the last action if later (never longer than cfg's):
// long enough for the story, short enough for the timelines to show it.
func NewSystemsComparison(cfg sandbox.Config, log core.ActionLog, systems []core.System, at time.Duration) (*SystemsComparison, error) {
	if len(systems) == 0 {
		for i := range core.SystemNames() {
			systems = append(systems, core.System(i))
		}
	}
	c := &SystemsComparison{}
	last := time.Duration(0)
	for _, a := range append(append(core.ActionLog(nil), cfg.Actions...), log...) {
		last = max(last, a.At.D()+a.For.D())
	}
	cfg.Duration = min(cfg.Duration, max(2*time.Minute, last+time.Minute))
	for _, sys := range systems {
		on := cfg.OnSystem(sys)
		if errs := on.Validate(); len(errs) > 0 {
			c.Refused = append(c.Refused, sys.Title()+": "+errs[0].Msg)
			continue
		}
		l, err := SandboxLesson(sys.Title(), on)
		if err != nil {
			return nil, err
		}
		l.Controls = nil // a replay to watch, as in the fencing comparison
		lb, err := New(l, on.Seed)
		if err != nil {
			return nil, err
		}
		if err := lb.Resume(lb.Knobs(), log); err != nil {
			return nil, err
		}
		lb.Seek(at)
		end := lb.Sim().Clone()
		end.RunUntil(lb.Length())
		c.Systems = append(c.Systems, sys)
		c.Runs = append(c.Runs, lb)
		c.Stories = append(c.Stories, StoryOf(sys, end.Trace))
	}
	if len(c.Runs) == 0 {
		return nil, fmt.Errorf("no system can run this setup: %s", strings.Join(c.Refused, "; "))
	}
	return c, nil
}

// CompareRun is the comparison of a sandbox run on every system: cfg,
// the scenario lb was started from, with lb's seed and the actions of
// the run it shows, at its play head.
func (lb *Lab) CompareRun(cfg sandbox.Config) (*SystemsComparison, error) {
	cfg.Seed = lb.Seed
	return NewSystemsComparison(cfg, lb.Log(), nil, lb.Now())
}

// Story is what one system did in a run, told from its trace: each
// clause points at the event it reports.
type Story struct {
	System  core.System
	First   string // the first leader, whom the story follows
	Clauses []Clause
	// StaleAccepted: the first leader's late write (sent after the
	// coordinator freed the lock from it) reached storage, with nothing
	// refusing it.
	StaleAccepted bool
}

// Clause is one part of a story and the trace event it comes from.
type Clause struct {
	Seq  int // the event's index in the trace
	At   time.Duration
	Text string
}

// Line is the story in one line: "ZooKeeper: A paused at 2 s; B leads at
// 12 s (A still thinks it leads); ...".
func (s Story) Line() string {
	if len(s.Clauses) == 0 {
		return s.System.Title() + ": nobody took the lock"
	}
	parts := make([]string, len(s.Clauses))
	for i, c := range s.Clauses {
		parts[i] = c.Text
	}
	return s.System.Title() + ": " + strings.Join(parts, "; ")
}

// Outcome is the story's end in a few words, for a checklist row: what
// became of the first leader's late write ("etcd: A's late write refused
// at 23 s"), or that there was none. The whole story is Line.
func (s Story) Outcome() string {
	if len(s.Clauses) == 0 {
		return s.Line()
	}
	for _, c := range s.Clauses {
		if rest, ok := strings.CutPrefix(c.Text, "its late write "); ok {
			return s.System.Title() + ": " + s.First + "'s late write " + rest
		}
	}
	return s.System.Title() + ": no late write"
}

// StoryOf tells what happened to the first leader of tr and to the lock:
// the fault that hit it, who led next (and whether the first still
// believed it led then), what its client learned and when, and what
// became of its late write.
func StoryOf(sys core.System, tr *core.Trace) Story {
	st := Story{System: sys}
	say := func(i int, format string, a ...any) {
		st.Clauses = append(st.Clauses, Clause{Seq: i, At: tr.At(i).At, Text: fmt.Sprintf(format, a...)})
	}
	first, from := "", -1
	for i := range tr.Len() {
		if tr.At(i).Kind == core.KindState && tr.At(i).To() == core.Leader.String() {
			first, from = tr.At(i).Actor, i
			break
		}
	}
	if from < 0 {
		return st
	}
	st.First = first
	fault := -1
	for i := from; i < tr.Len(); i++ {
		e := tr.At(i)
		switch {
		case e.Kind == core.KindPause && e.Actor == first:
			say(i, "%s paused at %s", first, Tenths(e.At))
		case e.Kind == core.KindCrash && e.Actor == first:
			say(i, "%s crashed at %s", first, Tenths(e.At))
		case e.Kind == core.KindPartition && (e.A() == first || e.B() == first):
			say(i, "%s cut off at %s", first, Tenths(e.At))
		default:
			continue
		}
		fault = i
		break
	}
	if fault < 0 {
		say(from, "%s leads at %s, untroubled", first, Tenths(tr.At(from).At))
		return st
	}
	// lost: the coordinator freed the lock from the first leader or gave
	// it to another; a write of the first's after that is a late one.
	believes, lost, next, stopped, cut, learned, late := true, false, -1, -1, -1, -1, -1
	for i := fault; i < tr.Len(); i++ {
		e := tr.At(i)
		switch {
		case e.Kind == core.KindFree && e.Was() == first, e.Kind == core.KindHolder && e.Owner() != first:
			lost = true
		case e.Kind == core.KindState && e.Actor == first && e.From() == core.Leader.String():
			believes = false
			if stopped < 0 && (cut < 0 || tr.At(cut).At != e.At) {
				say(i, "%s stops leading at %s", first, Tenths(e.At))
			}
			stopped = i
		case e.Kind == core.KindState && e.Actor != first && e.To() == core.Leader.String() && next < 0:
			next = i
			if believes {
				say(i, "%s leads at %s (%s still thinks it leads)", e.Actor, Tenths(e.At), first)
			} else {
				say(i, "%s leads at %s", e.Actor, Tenths(e.At))
			}
		case e.Kind == core.KindClientState && e.Actor == first && e.State() == "disconnected" && cut < 0:
			cut = i
			say(i, "%s disconnected (suspended) at %s", first, Tenths(e.At))
		case e.Kind == core.KindClientState && e.Actor == first && e.State() == "expired" && learned < 0:
			learned = i
			say(i, "%s learns it expired on reconnect at %s", first, Tenths(e.At))
		case e.Kind == core.KindWrite && e.From() == first && lost && late < 0:
			late = i
			verdict := "accepted"
			st.StaleAccepted = e.Result() == core.Accepted
			if !st.StaleAccepted {
				verdict = "refused"
			}
			say(i, "its late write %s at %s", verdict, Tenths(e.At))
		}
	}
	sort.SliceStable(st.Clauses, func(a, b int) bool { return st.Clauses[a].Seq < st.Clauses[b].Seq })
	return st
}

// SystemsClock drives every run with one play head: the first leads, the rest
// follow it to the same instant.
type SystemsClock []*Lab

func (c SystemsClock) Now() time.Duration    { return c[0].Now() }
func (c SystemsClock) Length() time.Duration { return c[0].Length() }

// Apply applies a clock command to the first run and brings the others to
// its play head (a fork forks every run). It has no other commands.
func (c SystemsClock) Apply(cmd Command) string {
	op, _ := cmd.Time()
	switch op {
	case NoTime:
		return ""
	case TimeFork:
		for _, lb := range c {
			lb.Apply(cmd)
		}
		return ""
	}
	line := c[0].Apply(cmd)
	c.follow()
	return line
}

func (c SystemsClock) follow() {
	for _, lb := range c[1:] {
		lb.Seek(c[0].Now())
	}
}
