package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/explore"
	"leaselab/core/permalink"
	"leaselab/lessons"
)

func exploreHelp() string {
	var b strings.Builder
	b.WriteString(`usage: labctl explore TARGET [flags]

Searches the timing of faults (when a pause starts, how long it lasts, when
a process crashes, how long the network holds what it sends) for the
simplest schedule that breaks the target's invariant: fewest faults, then
earliest, then shortest. Prints it as an action log with the violating
trace lines and exits 1; or prints "no violation within bounds" with what
was covered and exits 0. Exit 2: bad usage.

targets:
`)
	for _, t := range lessons.Targets() {
		prot := t.Protection()
		if t.Belief() {
			prot += " (defuses a break, cannot prevent one)"
		}
		fmt.Fprintf(&b, "  %-14s %s\n                 invariant: %s; protection: %s\n", t.Name, t.Title, t.Invariant.Name, prot)
	}
	b.WriteString(`
flags:
  --no-fencing         switch fencing off (fenced-writes, shards, shard-owners)
  --no-idempotency     switch idempotency off (scheduler)
  --bounds B           narrow or widen the search; B is ` + strings.Replace(explore.BoundsSyntax, "\n", "\n                       ", -1) + `
  --random N           seeded random search of N schedules instead of all
  --seed S             seed of the world and of the random search (default 1)
  --progress           force the progress bar (default: only on a terminal)
  --long               run a search estimated at over an hour (refused without it)
`)
	return b.String()
}

func runExplore(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explore", stderr)
	noFencing := fs.Bool("no-fencing", false, "")
	noIdem := fs.Bool("no-idempotency", false, "")
	bounds := fs.String("bounds", "", "")
	random := fs.Int("random", 0, "")
	seed := fs.Uint64("seed", 1, "")
	progress := fs.Bool("progress", isTerminal(stdout), "")
	long := fs.Bool("long", false, "")
	pos, help, err := parseFlags(fs, args)
	if help {
		fmt.Fprint(stdout, exploreHelp())
		return 0
	}
	if err != nil {
		return fail(stderr, "labctl explore: %v", err)
	}
	if len(pos) != 1 {
		return fail(stderr, "labctl explore: want exactly one target (labctl explore --help lists them)")
	}
	tg, err := lessons.FindTarget(pos[0])
	if err != nil {
		return fail(stderr, "labctl explore: %v", err)
	}
	off, msg := protectionOff(tg, *noFencing, *noIdem)
	if msg != "" {
		return fail(stderr, "%s", msg)
	}
	if *random < 0 || (*random == 0 && flagSet(fs, "random")) || *random > 10_000_000 {
		return fail(stderr, "labctl explore: --random wants 1 to 10000000 schedules, got %d", *random)
	}
	b, err := explore.ParseBounds(*bounds, tg.Bounds)
	if err != nil {
		return fail(stderr, "labctl explore: %v", err)
	}
	p := tg.Problem(*seed, off, b)
	if err := p.Validate(); err != nil {
		return fail(stderr, "labctl explore: %v", err)
	}
	n := b.Count()
	if *random > 0 {
		n = float64(*random)
	}
	if !warnLong(stderr, p, n, *seed, *long) {
		return exitBadInput
	}
	x, err := newExplorer(p, *random, *seed)
	if err != nil {
		return fail(stderr, "labctl explore: %v", err)
	}
	search(x, *progress, stdout)
	if err := x.Err(); err != nil {
		return fail(stderr, "labctl explore %s: %v", tg.Name, err)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	sw := "on"
	if off {
		sw = "off"
	}
	fmt.Fprintf(w, "# explore %s (seed %d, %s %s): invariant %q\n", tg.Name, *seed, tg.Protection(), sw, p.Invariant.Name)
	r := x.Result()
	if !r.Found {
		fmt.Fprintln(w, r.Summary())
		return 0
	}
	return printBreak(w, found{tg: tg, p: p, r: r, b: b, seed: *seed, off: off})
}

// protectionOff reads --no-fencing and --no-idempotency against the
// target's protection: whether it is switched off, or why the switch
// given does not apply ("" when it does).
func protectionOff(tg *explore.Target, noFencing, noIdem bool) (off bool, msg string) {
	for _, sw := range []struct {
		set  bool
		name string
	}{{noFencing, "fencing"}, {noIdem, "idempotency"}} {
		if !sw.set {
			continue
		}
		if sw.name != tg.Protection() {
			return false, fmt.Sprintf("labctl explore %s: --no-%s does not apply: this target's protection is %s (use --no-%s)", tg.Name, sw.name, tg.Protection(), tg.Protection())
		}
		off = true
	}
	return off, ""
}

// newExplorer searches p exhaustively, or random schedules of it.
func newExplorer(p explore.Problem, random int, seed uint64) (*explore.Explorer, error) {
	if random > 0 {
		return explore.NewRandom(p, random, seed, time.Now)
	}
	return explore.New(p, time.Now)
}

// search runs x to its end, drawing a progress bar on stdout if asked.
func search(x *explore.Explorer, progress bool, stdout io.Writer) {
	if progress {
		bar := progressBar{w: stdout}
		for !x.Step(500) {
			bar.draw(x.Progress())
		}
		bar.clear()
		return
	}
	// Without a bar to redraw, an exhaustive search runs on every
	// core (the result is the same as stepped).
	x.Run()
}

// found is a search that broke its target's invariant.
type found struct {
	tg   *explore.Target
	p    explore.Problem
	r    explore.Result
	b    explore.Bounds
	seed uint64
	off  bool
}

// printBreak prints the break: its action log, the violating trace
// replayed, what the protection did, and the links that replay it; exit
// 1 (a break was found).
func printBreak(w io.Writer, f found) int {
	tg, p, r := f.tg, f.p, f.r
	fmt.Fprintln(w, "VIOLATION:", p.Invariant.Name)
	fmt.Fprintln(w, r.Summary())
	fmt.Fprintln(w, "\naction log:")
	for _, a := range r.Log {
		fmt.Fprintf(w, "  t=%s %s\n", core.FormatTime(a.At.D()), a.Action)
	}
	js, _ := json.Marshal(r.Log)
	fmt.Fprintf(w, "  as JSON (labctl run --actions): %s\n", js)
	s, bad, err := p.Replay(r.Faults)
	if err != nil {
		fmt.Fprintln(w, "replay failed:", err)
		return 1
	}
	fmt.Fprintln(w, "\nviolating trace (replayed from time zero):")
	for _, e := range violationLines(s.Trace, p, r.Faults, bad) {
		fmt.Fprintln(w, " ", e.Text())
	}
	if !f.off {
		// Protection on and still broken: an invariant of belief, which
		// the protection defuses rather than prevents.
		why := ""
		if tg.Belief() {
			why = ": it cannot stop a stalled owner believing, only refuse what it sends"
		}
		fmt.Fprintf(w, "\n%s was on all along%s (%s in this run)\n", tg.Protection(), why, explore.Refusals(s.Trace))
	} else if fixed, still, err := tg.Problem(f.seed, false, f.b).Replay(r.Faults); err == nil {
		// The same schedule beside its fix.
		if still == nil {
			fmt.Fprintf(w, "\nwith %s on, the same schedule keeps the invariant: %s\n", tg.Protection(), explore.Refusals(fixed.Trace))
		} else {
			fmt.Fprintf(w, "\nwith %s on, the same schedule still breaks it: %s\n", tg.Protection(), still.Text())
		}
	}
	fmt.Fprintln(w, "\nreplay: labctl run --load", tg.Link(f.seed, r.Log, f.b.Horizon).Encode())
	if tg.Lesson != "" {
		ll := permalink.LessonLink(tg.Lesson, f.seed, nil, r.Log)
		fmt.Fprintf(w, "in the lesson player: leaselab --load %s\n  or the browser build at /%s\n", ll.Encode(), ll.Fragment())
	}
	return 1
}

// longSearch is the longest search labctl explore starts without --long:
// past it, a learner who widened the bounds by a digit too many is told
// before the hours go, not after.
const longSearch = time.Hour

// warnLong says up front how long a large search may take: n schedules at
// the cost of a few random ones, measured now. Random schedules share no
// prefix, so they are the dearest; an exhaustive search is often faster
// (and a settled world costs nothing), hence "up to". A search that may
// take longer than longSearch is refused unless long is set: it returns
// false, having said why.
func warnLong(stderr io.Writer, p explore.Problem, n float64, seed uint64, long bool) bool {
	const sample = 20
	if n < 1e5 {
		return true
	}
	x, err := explore.NewRandom(p, sample, seed, time.Now)
	if err != nil {
		return true
	}
	start := time.Now()
	x.Run()
	per := time.Since(start) / sample
	total := time.Duration(n * float64(per))
	if total > longSearch && !long {
		fmt.Fprintf(stderr, "labctl explore: %.3g schedules at up to %s each (measured on %d) may take up to %d h %d min, more than %s: narrow --bounds, sample them with --random N, or give --long to run it all\n",
			n, per.Round(time.Microsecond), sample, int(total.Hours()), int(total.Minutes())%60, core.Span(longSearch))
		return false
	}
	if total > 10*time.Second {
		fmt.Fprintf(stderr, "labctl explore: %.3g schedules at up to %s each (measured on %d): up to %s; --progress shows how far, Ctrl+C stops\n",
			n, per.Round(time.Microsecond), sample, total.Round(time.Second))
	}
	return true
}

// violationLines picks the trace lines that tell the story: the faults,
// the faulted processes' state changes, every decision of the protected
// resource, and the violating event.
func violationLines(t *core.Trace, p explore.Problem, faults []explore.Fault, bad *core.Event) []core.Event {
	procs := map[string]bool{}
	for _, f := range faults {
		procs[f.Proc] = true
	}
	matched := map[int]bool{}
	for _, i := range p.Invariant.Matches(t) {
		matched[i] = true
	}
	// An ownership overlap is told by who took and dropped that shard.
	shard := ""
	if bad != nil && bad.Kind == core.KindShardOwn {
		shard = bad.Format(core.FShard)
	}
	var out []core.Event
	for e := range t.All() {
		if bad != nil && e.Seq > bad.Seq {
			break
		}
		switch {
		case e.Kind == core.KindAction, e.Kind == core.KindHolder, matched[e.Seq],
			shard != "" && (e.Kind == core.KindShardOwn || e.Kind == core.KindShardDrop) && e.Format(core.FShard) == shard,
			procs[e.Actor] && (e.Kind == core.KindPause || e.Kind == core.KindResume || e.Kind == core.KindCrash || e.Kind == core.KindState || e.Kind == core.KindLeaseLost),
			e.Kind == core.KindWrite && e.Result() != core.Accepted,
			e.Kind == core.KindEnqueue && e.Result() != core.JobAccepted:
			out = append(out, *e)
		}
	}
	// The resource's last decisions before the violation show what it had
	// already accepted.
	if bad != nil {
		out = append(out, contextBefore(t, bad, 3, out)...)
	}
	slices.SortFunc(out, func(a, b core.Event) int { return a.Seq - b.Seq })
	return out
}

func contextBefore(t *core.Trace, bad *core.Event, n int, have []core.Event) []core.Event {
	seen := map[int]bool{}
	for _, e := range have {
		seen[e.Seq] = true
	}
	var out []core.Event
	for i := bad.Seq - 1; i >= 0 && len(out) < n; i-- {
		e := t.At(i)
		if (e.Kind == core.KindWrite || e.Kind == core.KindEnqueue || e.Kind == core.KindOffset) && !seen[e.Seq] {
			out = append(out, *e)
		}
	}
	return out
}

// progressBar redraws one line with \r while a search runs.
type progressBar struct {
	w     io.Writer
	drawn bool
	last  time.Time
}

func (b *progressBar) draw(tried int, total float64) {
	if time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(tried)/total)
	}
	const width = 30
	n := int(frac * width)
	fmt.Fprintf(b.w, "\r[%s%s] %3.0f%% %d of %.0f schedules", strings.Repeat("#", n), strings.Repeat(".", width-n), frac*100, tried, total)
	b.drawn = true
}

func (b *progressBar) clear() {
	if b.drawn {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", 72))
	}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
