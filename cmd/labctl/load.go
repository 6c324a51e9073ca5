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
	var s *core.Sim
	var end time.Duration
	var title string
	var verdict []string
	switch l.Kind {
	case permalink.LinkLesson:
		ls, err := lessons.Find(l.Name)
		if err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		knobs, err := l.Knobs()
		if err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		w, err := ls.EvaluateWith(l.Seed, knobs, l.Log)
		if err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		s, end, title = w.Sim, ls.Duration, "lesson "+ls.Title
		for _, g := range w.Goals() {
			mark := "met  "
			if !g.Met {
				mark = "UNMET"
			}
			verdict = append(verdict, fmt.Sprintf("[%s] %s", mark, g.Goal.Text))
		}
	case permalink.LinkTarget:
		tg, err := lessons.FindTarget(l.Name)
		if err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		horizon, err := tg.LinkHorizon(l)
		if err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		if s, err = tg.Build(l.Seed); err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		s.Schedule(l.Log)
		s.RunUntil(horizon)
		end = horizon
		title = "explore target " + tg.Title
		m := tg.Invariant.Matches(s.Trace)
		for _, i := range m[min(len(m), tg.Invariant.Allow):] { // those past the allowance
			verdict = append(verdict, "VIOLATION of "+tg.Invariant.Name+": "+s.Trace.Events[i].Text())
		}
		if len(m) <= tg.Invariant.Allow {
			verdict = append(verdict, "invariant kept: "+tg.Invariant.Name)
		}
	case permalink.LinkSandbox:
		preset, c, err := l.Sandbox()
		if err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		if s, err = c.Build(); err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		s.Schedule(l.Log)
		s.RunUntil(c.Duration)
		end = c.Duration
		title = "sandbox run on " + c.System.Title()
		if preset != "" {
			title += " from preset " + preset
		}
		for _, st := range s.Statuses(c.Duration) {
			verdict = append(verdict, fmt.Sprintf("invariant %q: %s", st.Name, st.Summary()))
		}
	default:
		return fail(stderr, "labctl run --load: cannot run a %s link here", l.Kind)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if format == "jsonl" {
		s.Trace.WriteJSONL(w)
		return afterRun(io.Discard, stderr, s, l.Log, end, "labctl run --load")
	}
	fmt.Fprintf(w, "# %s (seed %d, %s of virtual time)\n", title, l.Seed, core.FormatTime(s.Now()))
	for _, a := range l.Log {
		fmt.Fprintf(w, "# t=%s %s\n", core.FormatTime(a.At.D()), a.Action)
	}
	if format == "text" {
		s.Trace.WriteText(w)
		fmt.Fprintln(w)
	}
	for _, v := range verdict {
		fmt.Fprintln(w, v)
	}
	return afterRun(w, stderr, s, l.Log, end, "labctl run --load")
}
