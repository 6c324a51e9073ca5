package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/permalink"
	"leaselab/core/sandbox"

	"boot.leaselab/inputfile"
)

// newFlags returns a flag set that reports errors itself, once, in one line.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args, allowing flags after positional arguments, and
// returns the positionals. help reports -h/--help.
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, help bool, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, true, nil
			}
			return nil, false, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, false, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func scenarioHelp() string {
	var b strings.Builder
	b.WriteString(`usage: labctl run NAME [flags]

Runs a built-in scenario in virtual time and prints its trace and summary.

scenarios:
`)
	for _, s := range sandbox.Scenarios() {
		fmt.Fprintf(&b, "  %-16s %s\n", s.Name, s.Title)
	}
	b.WriteString(`
usage: labctl run --preset NAME [flags]

Runs a sandbox preset (10 virtual minutes unless --duration) and prints its
trace, its lease-policy verdict and which invariants held.

presets:
`)
	for _, p := range sandbox.Presets() {
		fmt.Fprintf(&b, "  %-16s %s\n", p.Name, p.Title)
	}
	b.WriteString("\nscenario settings (--set NAME=N):\n")
	for _, sc := range sandbox.Scenarios() {
		for _, st := range sc.Own {
			fmt.Fprintf(&b, "  %-16s %s: %s\n", sc.Name, st.Name, st.Help)
		}
	}
	b.WriteString(`
flags:
  --seed N               random seed (default 1); same seed, same trace
  --format F             text (trace + summary), jsonl (trace as JSON Lines), summary,
                         mermaid (sequence diagram; presets only)
  --ttl D --renew D      lease TTL and renewal interval, e.g. 10s and 3s
  --fencing on|off       switch the fenced store's token check
  --idempotency on|off   switch the job queue's idempotency (scheduler)
  --procs N              number of contenders / instances / workers
  --recipe R             etcd, zookeeper or herd
  --system S             with --preset: run its world on etcd, zookeeper, consul,
                         kubernetes or redlock
  --renew-deadline D     with --preset on kubernetes: client-go's RenewDeadline
                         (default two thirds of the TTL, 10 s of 15 s)
  --redis-nodes N        with --preset on redlock: how many Redis nodes (default 3)
  --members N            with --preset on etcd, zookeeper, consul or kubernetes: a coordinator of N
                         members (3 or 5; default 1); act on member-1... with
                         --actions: crash, restart, pause, partition with
                         "peer":"peers" or "clients", slow-disk, read
  --token-source S       generation (41, 42...) or revision (create revision)
  --duration D           virtual time to run (default: the scenario's)
  --set NAME=N           a setting of the scenario's own (repeatable)
  --stale-token N        the same as --set stale-token=N
  --actions FILE         extra actions, a JSON array ("-" for stdin), e.g.
                         [{"at":"5s","do":"pause","proc":"A","for":"20s"}]
  --trace                with --format summary, also print the trace (text is
                         the trace and the summary; jsonl is the trace)
  --load LINK            reproduce a run from its permalink (the text after #run=
                         in a browser link, or a whole link); NAME may be omitted

Exit 0: the run broke no invariant; 1: it broke one (a stale write or commit
accepted, a job done twice, two holders of one lock), as the runs with fencing
or idempotency switched off are meant to; 2: bad input, or a run too large
to make.
`)
	return b.String()
}

// ownSettings is --set NAME=N, repeatable: a scenario's own settings
// (sandbox.Scenario.Own), which the scenario checks when it builds.
type ownSettings map[string]int64

func (o ownSettings) String() string { return "" }

func (o ownSettings) Set(v string) error {
	name, num, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=N, got %q", v)
	}
	if _, dup := o[name]; dup {
		return fmt.Errorf("setting %s given twice", name)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return fmt.Errorf("setting %s=%q is not a whole number", name, num)
	}
	o[name] = n
	return nil
}

func runScenario(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	f := runFlagsOn(fs)
	pos, help, err := parseFlags(fs, args)
	if help {
		fmt.Fprint(stdout, scenarioHelp())
		return 0
	}
	if err != nil {
		return fail(stderr, "labctl run: %v", err)
	}
	if err := f.checkFormat(); err != nil {
		return fail(stderr, "labctl run: %v", err)
	}
	var link *permalink.RunLink
	if *f.load != "" {
		if *f.preset != "" {
			return fail(stderr, "labctl run: give --load or --preset, not both")
		}
		if link, err = loadLink(*f.load, pos, fs); err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		if link.Kind != permalink.LinkScenario {
			return runLink(*link, *f.format, stdout, stderr)
		}
		pos = []string{link.Name}
	}
	var log core.ActionLog
	if *f.actions != "" {
		if log, err = readActions(*f.actions, stdin); err != nil {
			return fail(stderr, "labctl run: %v", err)
		}
	}
	if err := f.checkRun(fs); err != nil {
		return fail(stderr, "labctl run: %v", err)
	}
	if *f.preset != "" {
		return f.runPreset(fs, pos, log, stdout, stderr)
	}
	if len(pos) != 1 {
		return fail(stderr, "labctl run: want exactly one scenario name (labctl run --help lists them)")
	}
	for _, name := range []string{"system", "renew-deadline", "redis-nodes", "members"} {
		if flagSet(fs, name) {
			return fail(stderr, "labctl run: --%s applies to presets (labctl run --preset NAME --system kubernetes --renew-deadline 8s)", name)
		}
	}
	sc, err := sandbox.FindScenario(pos[0])
	if err != nil {
		return fail(stderr, "labctl run: %v", err)
	}
	p := f.params()
	if len(f.own) > 0 {
		p.Own = f.own
	}
	if link != nil {
		if p, err = link.ScenarioParams(); err != nil {
			return fail(stderr, "labctl run --load: %v", err)
		}
		*f.seed = p.Seed
	}
	if log != nil {
		p.Actions = log
	}
	return f.printScenario(sc, p, stdout, stderr)
}

// runFlags are labctl run's flags.
type runFlags struct {
	seed                                    *uint64
	format, fencing, idem, recipe, tokenSrc *string
	actions, preset, system, load, event    *string
	ttl, renew, duration, renewDeadline     *time.Duration
	procs, redisNodes, members              *int
	withTrace                               *bool
	own                                     ownSettings
}

func runFlagsOn(fs *flag.FlagSet) *runFlags {
	f := &runFlags{
		seed:     fs.Uint64("seed", 1, ""),
		format:   fs.String("format", "text", ""),
		ttl:      fs.Duration("ttl", 0, ""),
		renew:    fs.Duration("renew", 0, ""),
		fencing:  fs.String("fencing", "", ""),
		idem:     fs.String("idempotency", "", ""),
		procs:    fs.Int("procs", 0, ""),
		recipe:   fs.String("recipe", "", ""),
		tokenSrc: fs.String("token-source", "", ""),
		duration: fs.Duration("duration", 0, ""),
		own:      ownSettings{},
	}
	fs.Var(f.own, "set", "")
	fs.Func("stale-token", "", func(v string) error { return f.own.Set("stale-token=" + v) })
	f.actions = fs.String("actions", "", "")
	f.preset = fs.String("preset", "", "")
	f.system = fs.String("system", "", "")
	f.renewDeadline = fs.Duration("renew-deadline", 0, "")
	f.redisNodes = fs.Int("redis-nodes", 0, "")
	f.members = fs.Int("members", 0, "")
	f.load = fs.String("load", "", "")
	f.withTrace = fs.Bool("trace", false, "")
	f.event = fs.String("event", "", "")
	return f
}

// checkFormat refuses a format, --event or --trace the run cannot give;
// --trace turns the summary into the text format.
func (f *runFlags) checkFormat() error {
	if *f.format != "mermaid" || *f.preset == "" {
		if err := checkFormat(*f.format); err != nil {
			return err
		}
	}
	if *f.event != "" && *f.format != "why" {
		return errors.New("--event belongs to labctl why")
	}
	if *f.withTrace {
		switch *f.format {
		case "summary":
			*f.format = "text"
		case "jsonl", "mermaid":
			return fmt.Errorf("--trace adds the trace to --format summary; --format %s has no summary to add it to", *f.format)
		}
	}
	return nil
}

// checkRun refuses settings out of range.
func (f *runFlags) checkRun(fs *flag.FlagSet) error {
	switch {
	case *f.ttl < 0 || (*f.ttl == 0 && flagSet(fs, "ttl")):
		return fmt.Errorf("--ttl must be positive, got %s", *f.ttl)
	case *f.renew < 0 || (*f.renew == 0 && flagSet(fs, "renew")):
		return fmt.Errorf("--renew must be positive, got %s", *f.renew)
	case *f.procs < 0 || (*f.procs == 0 && flagSet(fs, "procs")):
		return fmt.Errorf("--procs must be at least 1, got %d", *f.procs)
	case *f.duration < 0 || (*f.duration == 0 && flagSet(fs, "duration")):
		return fmt.Errorf("--duration must be positive, got %s", *f.duration)
	case *f.preset == "" && flagSet(fs, "preset"):
		return errors.New("--preset needs a name (labctl presets lists them)")
	case *f.duration > 24*time.Hour:
		return fmt.Errorf("--duration %s is more than a day of virtual time", *f.duration)
	}
	return nil
}

// params are a scenario's parameters as the flags set them.
func (f *runFlags) params() sandbox.Params {
	return sandbox.Params{Seed: *f.seed, TTL: *f.ttl, RenewEvery: *f.renew, Fencing: *f.fencing, Idempotency: *f.idem,
		Procs: *f.procs, Recipe: *f.recipe, TokenSource: *f.tokenSrc, Duration: *f.duration}
}

// runPreset runs --preset NAME with the flags' settings.
func (f *runFlags) runPreset(fs *flag.FlagSet, pos []string, log core.ActionLog, stdout, stderr io.Writer) int {
	if len(pos) > 0 {
		return fail(stderr, "labctl run: give a scenario name or --preset, not both")
	}
	if len(f.own) > 0 {
		return fail(stderr, "labctl run: --set and --stale-token are a scenario's own settings, not a preset's")
	}
	p := f.params()
	p.Actions, p.System = log, *f.system
	if *f.renewDeadline < 0 || (*f.renewDeadline == 0 && flagSet(fs, "renew-deadline")) {
		return fail(stderr, "labctl run: --renew-deadline must be positive, got %s", *f.renewDeadline)
	}
	if *f.redisNodes < 0 || (*f.redisNodes == 0 && flagSet(fs, "redis-nodes")) {
		return fail(stderr, "labctl run: --redis-nodes must be at least 1, got %d", *f.redisNodes)
	}
	if *f.members < 0 || (*f.members == 0 && flagSet(fs, "members")) {
		return fail(stderr, "labctl run: --members must be at least 1, got %d", *f.members)
	}
	sf := systemFlags{renewDeadline: *f.renewDeadline, redisNodes: *f.redisNodes, members: *f.members}
	return runPreset(*f.preset, p, sf, flagSet(fs, "seed"), *f.format, *f.event, stdout, stderr)
}

// printScenario runs scenario sc and writes it in the flags' format.
func (f *runFlags) printScenario(sc *sandbox.Scenario, p sandbox.Params, stdout, stderr io.Writer) int {
	r, err := sc.Run(p)
	if err != nil {
		return fail(stderr, "labctl run %s: %v", sc.Name, err)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	switch *f.format {
	case "why":
		return explain(w, stderr, r.Sim.Trace, *f.event, "labctl why "+sc.Name)
	case "jsonl":
		r.Sim.Trace.WriteJSONL(w)
		return verdict(afterRun(io.Discard, stderr, r.Sim, p.Actions, r.End, "labctl run "+sc.Name), r.Report)
	case "text":
		fmt.Fprintf(w, "# %s (seed %d, %s of virtual time)\n", sc.Title, *f.seed, core.FormatTime(r.End))
		r.Sim.Trace.WriteText(w)
		fmt.Fprintln(w)
	}
	for _, l := range r.Summary() {
		fmt.Fprintln(w, l)
	}
	for _, v := range r.Report.Violations {
		fmt.Fprintln(w, "VIOLATION", v)
	}
	for _, v := range r.Report.Stale {
		fmt.Fprintln(w, "stale write accepted:", v)
	}
	code := afterRun(w, stderr, r.Sim, p.Actions, r.End, "labctl run "+sc.Name)
	printLink(w, permalink.ScenarioLink(sc.Name, p))
	return verdict(code, r.Report)
}

// verdict is a finished run's exit code: exitNo when it broke an
// invariant (the lab's meaning of exit 1 for every command: a verdict of
// no), else code, which afterRun gave.
func verdict(code int, rep core.Report) int {
	if code == exitOK && rep.Broken() {
		return exitNo
	}
	return code
}

// afterRun prints what a run left undone: actions the world refused,
// actions after its end (never applied), and a run the budget stopped,
// which is also an error (exit 2) on stderr. It returns the exit code.
func afterRun(w, stderr io.Writer, s *core.Sim, log core.ActionLog, end time.Duration, cmd string) int {
	for _, err := range s.ActionErrors() {
		fmt.Fprintln(w, "action not applied:", err)
	}
	for _, a := range log {
		if a.At.D() > end {
			fmt.Fprintf(w, "action not applied: %s at %s is after the run ends at %s\n", a.Action, core.FormatTime(a.At.D()), core.FormatTime(end))
		}
	}
	if err := s.Exhausted(); err != nil {
		return fail(stderr, "%s: %v", cmd, err)
	}
	return 0
}

// printLink prints the run's permalink, or why it has none: a run with
// more than a link holds would print a link that --load refuses.
func printLink(w io.Writer, l permalink.RunLink) {
	if err := l.Check(); err != nil {
		fmt.Fprintln(w, "permalink: none, the run does not fit in a link:", permalink.LinkProblem(err))
		return
	}
	fmt.Fprintln(w, "permalink:", l.Encode())
}

func checkFormat(f string) error {
	switch f {
	case "text", "jsonl", "summary", "why":
		return nil
	}
	return fmt.Errorf("unknown format %q (want text, jsonl or summary; mermaid with --preset)", f)
}

func readActions(path string, stdin io.Reader) (core.ActionLog, error) {
	b, err := readInput(path, stdin, core.MaxActionLogSize)
	if err != nil {
		return nil, fmt.Errorf("reading actions: %w", err)
	}
	return core.ParseActionLog(b)
}

// readInput reads the file at path ("-": stdin), at most limit bytes: more
// is refused with a message saying so, rather than read until memory runs
// out (/dev/zero) or cut short into a confusing parse error. A path that is
// not a regular file (a FIFO would block until killed) is refused at once.
func readInput(path string, stdin io.Reader, limit int) ([]byte, error) {
	if path != "-" {
		return inputfile.Read(path, int64(limit))
	}
	return inputfile.ReadLimited(stdin, "stdin", int64(limit))
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// fail prints a one-line error and returns the bad-input exit code.
func fail(stderr io.Writer, format string, a ...any) int {
	msg := fmt.Sprintf(format, a...)
	msg = strings.ReplaceAll(msg, "\n", " ")
	fmt.Fprintln(stderr, msg)
	return exitBadInput
}

func runPolicy(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("policy", stderr)
	ttl := fs.Duration("ttl", 0, "")
	renew := fs.Duration("renew", 0, "")
	pause := fs.Duration("pause", 0, "")
	pos, help, err := parseFlags(fs, args)
	if help {
		fmt.Fprint(stdout, `usage: labctl policy --ttl D --renew D --pause D

Checks the lease-policy rule 2 x renew + pause budget < ttl (room for the
worst pause and one missed renewal, with time to spare: a renewal that
reaches the coordinator at the expiry is refused) and explains the margin.
Exit 0: the policy leaves renewal margin; 1: it does not; 2: the parameters
are impossible (a renewal later than two thirds of the ttl is one).
`)
		return 0
	}
	if err != nil {
		return fail(stderr, "labctl policy: %v", err)
	}
	if len(pos) > 0 {
		return fail(stderr, "labctl policy: unexpected argument %q", pos[0])
	}
	p := core.LeasePolicy{TTL: *ttl, RenewEvery: *renew, PauseBudget: *pause}
	if err := p.Validate(); err != nil {
		return fail(stderr, "labctl policy: %v", err)
	}
	v := p.Check()
	fmt.Fprintln(stdout, v.Explanation)
	if !v.OK {
		return 1
	}
	return 0
}
