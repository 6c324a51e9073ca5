package sandbox

import (
	"errors"
	"fmt"
	"leaselab/core"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// Params are the knobs a caller (the CLI, the sandbox) may turn on a named
// scenario. Zero values mean "the scenario's default".
type Params struct {
	Seed       uint64
	TTL        time.Duration
	RenewEvery time.Duration
	// Fencing and Idempotency: "" keeps the default, else "on" or "off".
	Fencing     string
	Idempotency string
	Procs       int
	Recipe      string
	TokenSource string
	Duration    time.Duration
	// Actions are applied on top of the scenario's own.
	Actions core.ActionLog
	// System, for presets only, runs the preset's world on that system
	// ("" keeps the preset's; see Config.OnSystem).
	System string
	// Own holds values of the settings a scenario declares for itself
	// (Scenario.Own), by name; a name the scenario does not declare is
	// refused.
	Own map[string]int64
}

// Setting is an integer setting one scenario has and the others do not:
// the hands-on lab's "stale-token", the token its late write carries.
// The CLI and permalinks take it by name.
type Setting struct {
	Name, Help string
	Min, Max   int64
}

// Run is a finished run of a named scenario.
type Run struct {
	Scenario *Scenario
	Sim      *core.Sim
	Actions  core.ActionLog
	End      time.Duration
	Report   core.Report
}

// Scenario is a named, ready-to-run world with a script of actions and a
// summary of what it shows.
type Scenario struct {
	Name  string
	Title string
	// Duration is how much virtual time a run covers by default.
	Duration time.Duration
	// MaxProcs is the most processes Params.Procs may ask for (zero:
	// MaxContenders). It is checked before the world is written, so a
	// count of billions is refused, not allocated.
	MaxProcs int
	// Own lists the scenario's own settings (Params.Own).
	Own     []Setting
	build   func(p Params) (core.World, error)
	summary func(r *Run) []string
}

// Summary returns the scenario's human-readable outcome lines.
func (r *Run) Summary() []string {
	lines := r.Scenario.summary(r)
	rep := r.Report
	lines = append(lines, fmt.Sprintf("invariants: %d violations, %d stale writes accepted, %d duplicate jobs, belief overlap %s in %d intervals",
		len(rep.Violations), len(rep.Stale), len(rep.Duplicates), core.FormatTime(rep.OverlapTotal), len(rep.Overlaps)))
	return lines
}

// Scenarios lists the built-in scenarios in a stable order.
func Scenarios() []*Scenario { return builtins }

// FindScenario returns the named scenario or an error listing the names.
func FindScenario(name string) (*Scenario, error) {
	for _, s := range builtins {
		if s.Name == name {
			return s, nil
		}
	}
	names := make([]string, len(builtins))
	for i, s := range builtins {
		names[i] = s.Name
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownScenario, name, strings.Join(names, ", "))
}

// ErrUnknownScenario is what FindScenario refuses a name no scenario has
// with.
var ErrUnknownScenario = errors.New("unknown scenario")

// World writes the scenario's world with p's knobs, its script followed
// by p.Actions.
func (sc *Scenario) World(p Params) (core.World, error) {
	if p.TTL < 0 || p.RenewEvery < 0 || p.Duration < 0 || p.Procs < 0 {
		return core.World{}, fmt.Errorf("durations and counts must not be negative")
	}
	if most := pick(sc.MaxProcs, core.MaxContenders); p.Procs > most {
		return core.World{}, fmt.Errorf("processes: want 1 to %d, got %d", most, p.Procs)
	}
	if err := sc.CheckOwn(p.Own); err != nil {
		return core.World{}, err
	}
	if p.RenewEvery > 0 && p.TTL > 0 && p.RenewEvery >= p.TTL {
		return core.World{}, fmt.Errorf("renew interval %s must be shorter than the ttl %s", p.RenewEvery, p.TTL)
	}
	for _, v := range []string{p.Fencing, p.Idempotency} {
		if v != "" && v != "on" && v != "off" {
			return core.World{}, fmt.Errorf("switch value %q: want on or off", v)
		}
	}
	w, err := sc.build(p)
	if err != nil {
		return core.World{}, err
	}
	w.Script = append(w.Script, p.Actions...)
	return w, nil
}

// Build makes the world and returns it with its action log (the
// scenario's script, then p.Actions), without running it.
func (sc *Scenario) Build(p Params) (*core.Sim, core.ActionLog, error) {
	w, err := sc.World(p)
	if err != nil {
		return nil, nil, err
	}
	s, err := w.Build()
	if err != nil {
		return nil, nil, err
	}
	return s, w.Script, nil
}

// CheckOwn refuses a value for a setting the scenario does not declare,
// or outside the setting's range.
func (sc *Scenario) CheckOwn(own map[string]int64) error {
	for _, name := range slices.Sorted(maps.Keys(own)) {
		i := slices.IndexFunc(sc.Own, func(st Setting) bool { return st.Name == name })
		if i < 0 {
			names := "none"
			if len(sc.Own) > 0 {
				var ns []string
				for _, st := range sc.Own {
					ns = append(ns, st.Name)
				}
				names = strings.Join(ns, ", ")
			}
			return fmt.Errorf("scenario %s has no setting %q (its own settings: %s)", sc.Name, name, names)
		}
		if st, v := sc.Own[i], own[name]; v < st.Min || v > st.Max {
			return fmt.Errorf("setting %s=%d is out of range: %s takes %d to %d", name, v, sc.Name, st.Min, st.Max)
		}
	}
	return nil
}

// Run builds the scenario and runs it for its duration (or p.Duration).
func (sc *Scenario) Run(p Params) (*Run, error) {
	s, log, err := sc.Build(p)
	if err != nil {
		return nil, err
	}
	end := sc.Duration
	if p.Duration > 0 {
		end = p.Duration
	}
	if err := s.CheckBudget(end); err != nil {
		return nil, err
	}
	s.RunUntil(end)
	return &Run{Scenario: sc, Sim: s, Actions: log, End: end, Report: core.Check(s.Trace, end)}, nil
}

func pick[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func (p Params) fencing(def bool) bool {
	if p.Fencing == "" {
		return def
	}
	return p.Fencing == "on"
}

// contentionWorld is def's world with p's knobs turned, and script.
func (p Params) contentionWorld(def core.ContentionConfig, script core.ActionLog) (core.World, error) {
	c, err := p.contention(def)
	if err != nil {
		return core.World{}, err
	}
	w, err := c.World(p.Seed)
	w.Script = script
	return w, err
}

func (p Params) contention(def core.ContentionConfig) (core.ContentionConfig, error) {
	def.TTL = pick(p.TTL, def.TTL)
	def.RenewEvery = pick(p.RenewEvery, def.RenewEvery)
	def.Fencing = p.fencing(def.Fencing)
	if p.Procs > 0 {
		def.Names, def.Procs = nil, p.Procs
	}
	if p.Recipe != "" {
		r, err := core.ParseRecipe(p.Recipe)
		if err != nil {
			return def, err
		}
		def.Recipe = r
	}
	switch p.TokenSource {
	case "":
	case "generation":
		def.TokenSource = core.TokenGeneration
	case "revision":
		def.TokenSource = core.TokenRevision
	default:
		return def, fmt.Errorf("unknown token source %q (want generation or revision)", p.TokenSource)
	}
	return def, nil
}

// writeLines renders the register's decisions as the seed's lab prints
// them: "A 1 ok", "A late 1 reject".
func writeLines(r *Run, ok, reject string) []string {
	var out []string
	for _, e := range core.Writes(r.Sim.Trace) {
		who := e.From()
		if l := e.Label(); l != "" {
			who += " " + l
		}
		res := ok
		if e.Result() != core.Accepted {
			res = reject
		}
		out = append(out, fmt.Sprintf("%s %d %s", who, e.Token(), res))
	}
	return out
}

var builtins = []*Scenario{
	{
		Name:     "hands-on-lab",
		Title:    "The hands-on lab: coordinator and storage, a paused A writes late",
		Duration: 40 * time.Second,
		Own: []Setting{{Name: "stale-token", Min: 0, Max: math.MaxInt64,
			Help: "token of A's late write (0: the token A holds; step 4 of the lab uses 3)"}},
		build: func(p Params) (core.World, error) {
			return p.contentionWorld(core.ContentionConfig{Names: []string{"A", "B"}, FirstToken: 1, TTL: 10 * time.Second, Stagger: 500 * time.Millisecond, Fencing: true},
				handsOnScript(p.Own["stale-token"]))
		},
		summary: func(r *Run) []string {
			return append(writeLines(r, "ok", "reject"), "final "+r.Sim.Register.Value)
		},
	},
	{
		Name:     "fenced-register",
		Title:    "Example 3: the paused leader (tokens 7 and 8) against a fenced register",
		Duration: 40 * time.Second,
		build: func(p Params) (core.World, error) {
			return p.contentionWorld(core.ContentionConfig{Names: []string{"A", "B"}, FirstToken: 7, TTL: 10 * time.Second, Stagger: 500 * time.Millisecond, Fencing: true, WriteLatency: 500 * time.Millisecond},
				fencedScript())
		},
		summary: func(r *Run) []string {
			var out []string
			w := core.Writes(r.Sim.Trace)
			slices.SortStableFunc(w, func(a, b core.Event) int { return a.Seq - b.Seq })
			for _, e := range w {
				out = append(out, e.Result())
			}
			return append(out, r.Sim.Register.Value)
		},
	},
	{
		Name:     "scheduler",
		Title:    "Example 1: five API instances, one invoice scheduler, idempotent jobs (tokens 41, 42)",
		Duration: 90 * time.Second,
		build: func(p Params) (core.World, error) {
			w, err := core.SchedulerContention(pick(p.Procs, 5), pick(p.TTL, 10*time.Second), p.Idempotency != "off").World(p.Seed)
			w.Script = schedulerScript()
			return w, err
		},
		summary: func(r *Run) []string {
			var out []string
			for _, e := range core.Holders(r.Sim.Trace) {
				out = append(out, fmt.Sprintf("%s acquired the invoice-scheduler lease with token %d at t=%s", e.Owner(), e.Token(), core.FormatTime(e.At)))
			}
			q := r.Sim.Queue
			out = append(out, fmt.Sprintf("queue: %d jobs run, %d duplicates ignored, %d duplicates executed (idempotency %s)",
				len(q.Jobs), q.DuplicatesIgnored, q.DuplicatesExecuted, onOff(q.Idempotency)))
			return out
		},
	},
	{
		Name:     "shards",
		Title:    "Example 2: 128 shards over 12 workers, one lease per shard; worker-00 stops renewing",
		Duration: 3 * time.Minute,
		MaxProcs: core.MaxShardWorkers,
		build: func(p Params) (core.World, error) {
			c := core.ShardsConfig{Shards: 128, Workers: pick(p.Procs, 12), TTL: pick(p.TTL, 15*time.Second), RenewEvery: p.RenewEvery,
				LeasePerShard: true, ScanEvery: 3 * time.Second, ScanJitter: 0.5, CommitEvery: 2 * time.Second, Fencing: p.fencing(true), Stagger: 200 * time.Millisecond}
			w, err := c.World(p.Seed)
			w.Script = shardsScript()
			return w, err
		},
		summary: func(r *Run) []string {
			st := r.Sim.ShardStats()
			o := r.Sim.Offsets
			return []string{
				fmt.Sprintf("%d of %d shards owned by %d live workers; per worker min %d, max %d", st.Owned, len(o.Offset), st.LiveWorker, st.Min, st.Max),
				fmt.Sprintf("offset commits: %d accepted, %d stale rejected, %d stale accepted (fencing %s)", o.Commits, o.Rejected, o.StaleAccepted, onOff(o.Fencing)),
				fmt.Sprintf("coordinator: %d lease renewals, %d requests", r.Sim.Coord.Renewals, r.Sim.Coord.Requests),
			}
		},
	},
	{
		Name:     "election",
		Title:    "Five contenders in etcd's fair queue; the leader crashes twice",
		Duration: 60 * time.Second,
		build:    twoCrashes(core.ContentionConfig{Procs: 5, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond, Fencing: true, WorkEvery: 2 * time.Second, TokenSource: core.TokenRevision}),
		summary:  electionSummary,
	},
	{
		Name:     "herd",
		Title:    "Ten contenders all watching the lock key: every change wakes every waiter",
		Duration: 60 * time.Second,
		build:    twoCrashes(core.ContentionConfig{Procs: 10, TTL: 10 * time.Second, Stagger: 200 * time.Millisecond, Fencing: true, Recipe: core.RecipeHerd}),
		summary:  electionSummary,
	},
}

// twoCrashes builds an election world whose first two leaders crash, at
// 5 s and 25 s, so the queue hands the lock over twice.
func twoCrashes(def core.ContentionConfig) func(Params) (core.World, error) {
	return func(p Params) (core.World, error) { return p.contentionWorld(def, twoCrashesScript()) }
}

// The built-in scenarios' scripts, shared with the sandbox presets that
// replay them.

// handsOnScript is the seed's lab: A writes, freezes, decides a late write
// (with token stale, 0 for its own) while frozen, and B writes.
func handsOnScript(stale int64) core.ActionLog {
	return core.ActionLog{
		core.At(1*time.Second, core.Write("A", "from A")),
		core.At(2*time.Second, core.Pause("A", 30*time.Second)),
		// Decided while paused: the write leaves when A wakes up.
		core.At(3*time.Second, core.Action{Do: core.VerbWrite, Proc: "A", Value: "late A", Label: "late", Token: stale}),
		core.At(15*time.Second, core.Write("B", "from B")),
	}
}

// fencedScript is seed Example 3: A decides its next write, then stops the
// world mid-write.
func fencedScript() core.ActionLog {
	return core.ActionLog{
		core.At(1*time.Second, core.Write("A", "leader-a-started")),
		core.At(2*time.Second, core.Write("A", "leader-a-resumed")),
		core.At(2100*time.Millisecond, core.Pause("A", 30*time.Second)),
		core.At(15*time.Second, core.Write("B", "leader-b-committed")),
	}
}

// schedulerScript crashes the leader mid-batch, after four invoices.
func schedulerScript() core.ActionLog {
	return core.ActionLog{core.At(4500*time.Millisecond, core.Crash("api-1"))}
}

// shardsScript stops worker-00 renewing for 40 s.
func shardsScript() core.ActionLog {
	return core.ActionLog{core.At(60*time.Second, core.Pause("worker-00", 40*time.Second))}
}

// twoCrashesScript crashes the first two leaders, at 5 s and 25 s.
func twoCrashesScript() core.ActionLog {
	return core.ActionLog{
		core.At(5*time.Second, core.Crash("A")),
		core.At(25*time.Second, core.Crash("B")),
	}
}

func electionSummary(r *Run) []string {
	var out []string
	for _, e := range core.Holders(r.Sim.Trace) {
		out = append(out, fmt.Sprintf("t=%s %s leads with token %d", core.FormatTime(e.At), e.Owner(), e.Token()))
	}
	wake := 0
	procs := r.Sim.Processes()
	for _, p := range procs {
		wake += p.Wakeups
	}
	out = append(out, fmt.Sprintf("watch wake-ups: %d (recipe %s)", wake, procs[0].Config().Recipe))
	return out
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
