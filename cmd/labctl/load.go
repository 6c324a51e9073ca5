package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"time"

	"leaselab/core"
	"leaselab/core/permalink"
	"leaselab/lessons"
)

// loadLink decodes a --load permalink. The link carries the whole run, so
// flags that would change it are refused rather than silently ignored.
func loadLink(s string, pos []string, fs *flag.FlagSet) (*permalink.RunLink, error) {
	l, err := permalink.DecodeLink(s)
	if err != nil {
		return nil, err
	}
	var clash error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "load", "format", "trace":
		default:
			if clash == nil {
				clash = fmt.Errorf("the link holds the whole run: drop --%s", f.Name)
			}
		}
	})
	if clash != nil {
		return nil, clash
	}
	if len(pos) > 1 || (len(pos) == 1 && pos[0] != l.Name) {
		return nil, fmt.Errorf("the link is for %s %q, not %q", l.Kind, l.Name, pos)
	}
	return &l, nil
}

// runLink replays a lesson, explore-target or sandbox link and prints its
// trace (text or jsonl) and verdict: the lesson's goals, the target's
// invariant, or the sandbox's invariants.
func runLink(l permalink.RunLink, format string, stdout, stderr io.Writer) int {
	var r linkRun
	var err error
	switch l.Kind {
	case permalink.LinkLesson:
		r, err = runLessonLink(l)
	case permalink.LinkTarget:
		r, err = runTargetLink(l)
	case permalink.LinkSandbox:
		r, err = runSandboxLink(l)
	default:
		return fail(stderr, "labctl run --load: cannot run a %s link here", l.Kind)
	}
	if err != nil {
		return fail(stderr, "labctl run --load: %v", err)
	}
	s := r.s
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if format == "jsonl" {
		s.Trace.WriteJSONL(w)
		return afterRun(io.Discard, stderr, s, l.Log, r.end, "labctl run --load")
	}
	fmt.Fprintf(w, "# %s (seed %d, %s of virtual time)\n", r.title, l.Seed, core.FormatTime(s.Now()))
	for _, a := range l.Log {
		fmt.Fprintf(w, "# t=%s %s\n", core.FormatTime(a.At.D()), a.Action)
	}
	if format == "text" {
		s.Trace.WriteText(w)
		fmt.Fprintln(w)
	}
	for _, v := range r.verdict {
		fmt.Fprintln(w, v)
	}
	return afterRun(w, stderr, s, l.Log, r.end, "labctl run --load")
}

// linkRun is a link's world run to its end, with a title and the
// verdict lines printed after its trace.
type linkRun struct {
	s       *core.Sim
	end     time.Duration
	title   string
	verdict []string
}

// runLessonLink plays a lesson link; its verdict is each goal met or not.
func runLessonLink(l permalink.RunLink) (linkRun, error) {
	ls, err := lessons.Find(l.Name)
	if err != nil {
		return linkRun{}, err
	}
	knobs, err := l.Knobs()
	if err != nil {
		return linkRun{}, err
	}
	w, err := ls.EvaluateWith(l.Seed, knobs, l.Log)
	if err != nil {
		return linkRun{}, err
	}
	r := linkRun{s: w.Sim, end: ls.Duration, title: "lesson " + ls.Title}
	for _, g := range w.Goals() {
		mark := "met  "
		if !g.Met {
			mark = "UNMET"
		}
		r.verdict = append(r.verdict, fmt.Sprintf("[%s] %s", mark, g.Goal.Text))
	}
	return r, nil
}

// runTargetLink replays an explore target's break to its horizon; its
// verdict is each violation past the allowance, or the invariant kept.
func runTargetLink(l permalink.RunLink) (linkRun, error) {
	tg, err := lessons.FindTarget(l.Name)
	if err != nil {
		return linkRun{}, err
	}
	horizon, err := tg.LinkHorizon(l)
	if err != nil {
		return linkRun{}, err
	}
	s, err := tg.Build(l.Seed)
	if err != nil {
		return linkRun{}, err
	}
	s.Schedule(l.Log)
	s.RunUntil(horizon)
	r := linkRun{s: s, end: horizon, title: "explore target " + tg.Title}
	m := tg.Invariant.Matches(s.Trace)
	for _, i := range m[min(len(m), tg.Invariant.Allow):] { // those past the allowance
		r.verdict = append(r.verdict, "VIOLATION of "+tg.Invariant.Name+": "+s.Trace.At(i).Text())
	}
	if len(m) <= tg.Invariant.Allow {
		r.verdict = append(r.verdict, "invariant kept: "+tg.Invariant.Name)
	}
	return r, nil
}

// runSandboxLink runs a sandbox setup with its actions; its verdict is
// every invariant's status.
func runSandboxLink(l permalink.RunLink) (linkRun, error) {
	preset, c, err := l.Sandbox()
	if err != nil {
		return linkRun{}, err
	}
	s, err := c.Build()
	if err != nil {
		return linkRun{}, err
	}
	s.Schedule(l.Log)
	s.RunUntil(c.Duration)
	r := linkRun{s: s, end: c.Duration, title: "sandbox run on " + c.System.Title()}
	if preset != "" {
		r.title += " from preset " + preset
	}
	for _, st := range s.Statuses(c.Duration) {
		r.verdict = append(r.verdict, fmt.Sprintf("invariant %q: %s", st.Name, st.Summary()))
	}
	return r, nil
}
