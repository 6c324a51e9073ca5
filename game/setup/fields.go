package setup

import (
	"fmt"
	"math"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/game/ui"
)

// Field is one parameter of the sandbox's setup panel: a slider for a
// quantity or a button that steps through choices, with the validation
// message for its core field shown under it.
type Field struct {
	ID    string // the core.Field* its errors are reported under
	Name  string // region and focus name
	Label string
	Help  string // one line on what it changes (fieldHelp)
	Short string // Help in a few words, for a narrow cell (fieldShort)
	// Choices, when set, makes this a choice button; the value is the
	// index of the current choice.
	Choices        func(c *core.SandboxConfig) []string
	Min, Max, Step float64
	Unit           string
	// Zero, if set, is shown instead of a zero value (which means a
	// default, not nothing).
	Zero string
	Get  func(c *core.SandboxConfig) float64
	Set  func(c *core.SandboxConfig, v float64)
	// Applies reports whether the field means anything for this config;
	// fields that do not are disabled and say so.
	Applies func(c *core.SandboxConfig) bool
	// SharesCell puts the field in the panel's cell of the field before
	// it; the two never apply on the same system, and the one that
	// applies is shown (Setup.Hidden).
	SharesCell bool

	Slider  ui.Slider
	Button  ui.Button
	Err     string
	ShowErr bool // the first field of its id shows the id's errors
}

// Widget is the field's slider or choice button.
func (f *Field) Widget() ui.Focusable {
	if f.Choices != nil {
		return &f.Button
	}
	return &f.Slider
}

// Value renders the field's current value for people.
func (f *Field) Value(c *core.SandboxConfig) string {
	v := f.Get(c)
	if f.Choices != nil {
		ch := f.Choices(c)
		if i := int(v); i >= 0 && i < len(ch) {
			return ch[i]
		}
		return "?"
	}
	if v == 0 && f.Zero != "" {
		return f.Zero
	}
	s := fmt.Sprintf("%g", math.Round(v*100)/100)
	if f.Unit != "" {
		s += " " + f.Unit
	}
	return s
}

func secondsOf(d time.Duration) float64 { return d.Seconds() }

func fromSeconds(v float64) time.Duration {
	return time.Duration(math.Round(v*1000)) * time.Millisecond
}

// durField is a slider over a duration in seconds.
func durField(id, name, label string, min, max, step float64, get func(c *core.SandboxConfig) *time.Duration) *Field {
	return &Field{ID: id, Name: name, Label: label, Min: min, Max: max, Step: step, Unit: "s",
		Get: func(c *core.SandboxConfig) float64 { return secondsOf(*get(c)) },
		Set: func(c *core.SandboxConfig, v float64) { *get(c) = fromSeconds(v) }}
}

func withZero(text string, f *Field) *Field {
	f.Zero = text
	return f
}

// onOffField is a choice between off and on.
func onOffField(id, name, label string, get func(c *core.SandboxConfig) *bool) *Field {
	return &Field{ID: id, Name: name, Label: label,
		Choices: func(*core.SandboxConfig) []string { return []string{"off", "on"} },
		Get: func(c *core.SandboxConfig) float64 {
			if *get(c) {
				return 1
			}
			return 0
		},
		Set: func(c *core.SandboxConfig, v float64) { *get(c) = v == 1 }}
}

func fixed(words ...string) func(*core.SandboxConfig) []string {
	return func(*core.SandboxConfig) []string { return words }
}

func singleLock(c *core.SandboxConfig) bool { return c.Shards == 0 }
func pausing(c *core.SandboxConfig) bool {
	return c.Pauses.Kind == core.PauseFixed || c.Pauses.Kind == core.PauseHeavyTail
}
func heavyTail(c *core.SandboxConfig) bool { return c.Pauses.Kind == core.PauseHeavyTail }

// nameSchemes are the ways the setup panel names processes.
var nameSchemes = []struct{ label, prefix string }{{"A, B, C...", ""}, {"api-1, api-2...", "api-"}, {"node-1, node-2...", "node-"}}

func nameScheme(c *core.SandboxConfig) int {
	for i, s := range nameSchemes {
		if s.prefix != "" && len(c.Names) > 0 && strings.HasPrefix(c.Names[0], s.prefix) {
			return i
		}
	}
	return 0
}

func applyNames(c *core.SandboxConfig, scheme int) {
	c.Names = nil
	if p := nameSchemes[scheme].prefix; p != "" && c.Procs > 0 && c.Procs <= core.MaxSandboxProcs {
		for i := range c.Procs {
			c.Names = append(c.Names, fmt.Sprintf("%s%d", p, i+1))
		}
	}
}

// pauseKinds are the pause distributions in choice order.
var pauseKinds = []string{core.PauseNone, core.PauseFixed, core.PauseHeavyTail}

// fields returns the setup panel's fields in reading order. slow is
// the delay a newly slowed link gets.
func fields(slow *time.Duration) []*Field {
	all := func(*core.SandboxConfig) bool { return true }
	fs := []*Field{
		systemField(), redisNodesField(), renewDeadlineField(), membersField(),
		{ID: core.FieldProcs, Name: "procs", Label: "Processes", Min: 1, Max: core.MaxSandboxProcs, Step: 1, Applies: singleLock,
			Get: func(c *core.SandboxConfig) float64 { return float64(c.Procs) },
			Set: func(c *core.SandboxConfig, v float64) { s := nameScheme(c); c.Procs = int(v); applyNames(c, s) }},
		// Workers take the processes' cell: a world has one or the other.
		{ID: core.FieldWorkers, Name: "workers", Label: "Workers", Min: 1, Max: core.MaxSandboxProcs, Step: 1, SharesCell: true,
			Applies: func(c *core.SandboxConfig) bool { return c.Shards > 0 },
			Get:     func(c *core.SandboxConfig) float64 { return float64(c.Workers) },
			Set:     func(c *core.SandboxConfig, v float64) { c.Workers = int(v); c.Links = nil }},
		{ID: core.FieldNames, Name: "names", Label: "Names", Applies: singleLock,
			Choices: func(*core.SandboxConfig) []string {
				out := make([]string, len(nameSchemes))
				for i, s := range nameSchemes {
					out[i] = s.label
				}
				return out
			},
			Get: func(c *core.SandboxConfig) float64 { return float64(nameScheme(c)) },
			Set: func(c *core.SandboxConfig, v float64) { applyNames(c, int(v)) }},
		{ID: core.FieldRecipe, Name: "recipe", Label: "Recipe", Applies: singleLock,
			Choices: fixed("etcd fair queue", "ZooKeeper sequential", "herd (all watch)"),
			Get:     func(c *core.SandboxConfig) float64 { return float64(c.Recipe) },
			Set:     func(c *core.SandboxConfig, v float64) { c.Recipe = core.Recipe(v) }},
		{ID: core.FieldTokenSource, Name: "token_source", Label: "Tokens", Applies: singleLock,
			Choices: fixed("per-lock generation", "global revision"),
			Get:     func(c *core.SandboxConfig) float64 { return float64(c.TokenSource) },
			Set: func(c *core.SandboxConfig, v float64) {
				c.TokenSource = core.TokenSource(v)
				if c.TokenSource == core.TokenRevision {
					c.FirstToken = 0 // revisions come from the coordinator
				}
			}},
		durField(core.FieldTTL, "ttl", "TTL", 1, 120, 1, func(c *core.SandboxConfig) *time.Duration { return &c.TTL }),
		withZero("TTL/3", durField(core.FieldRenew, "renew", "Renew every", 0.5, 120, 0.5, func(c *core.SandboxConfig) *time.Duration { return &c.RenewEvery })),
		withZero("1 s", durField(core.FieldRetry, "retry", "Retry wait", 0, 10, 0.5, func(c *core.SandboxConfig) *time.Duration { return &c.RetryBase })),
		{ID: core.FieldJitter, Name: "retry_jitter", Label: "Retry jitter", Min: 0, Max: 2, Step: 0.1,
			Get: func(c *core.SandboxConfig) float64 { return c.RetryJitter },
			Set: func(c *core.SandboxConfig, v float64) { c.RetryJitter = v }},
		{ID: core.FieldPause, Name: "pauses", Label: "Pauses", Choices: fixed("none", "fixed", "heavy tail"),
			Get: func(c *core.SandboxConfig) float64 {
				for i, k := range pauseKinds {
					if k == c.Pauses.Kind {
						return float64(i)
					}
				}
				return 0
			},
			Set: func(c *core.SandboxConfig, v float64) {
				p := &c.Pauses
				p.Kind = pauseKinds[int(v)]
				// Reasonable starting values the first time a kind is chosen.
				if p.Every == 0 {
					p.Every = 30 * time.Second
				}
				if p.Length == 0 {
					p.Length = 5 * time.Second
				}
				if p.Scale == 0 {
					p.Scale, p.Alpha, p.Max = time.Second, 1.5, 15*time.Second
				}
			}},
		durField(core.FieldPause, "pause_every", "Pause every", 5, 600, 5, func(c *core.SandboxConfig) *time.Duration { return &c.Pauses.Every }),
		{ID: core.FieldPause, Name: "pause_length", Label: "Pause / scale", Min: 0.1, Max: 60, Step: 0.1, Unit: "s", Applies: pausing,
			Get: func(c *core.SandboxConfig) float64 {
				if heavyTail(c) {
					return secondsOf(c.Pauses.Scale)
				}
				return secondsOf(c.Pauses.Length)
			},
			Set: func(c *core.SandboxConfig, v float64) {
				if heavyTail(c) {
					c.Pauses.Scale = fromSeconds(v)
				} else {
					c.Pauses.Length = fromSeconds(v)
				}
			}},
		{ID: core.FieldPause, Name: "pause_alpha", Label: "Tail alpha", Min: 0.5, Max: 5, Step: 0.1, Applies: heavyTail,
			Get: func(c *core.SandboxConfig) float64 { return c.Pauses.Alpha },
			Set: func(c *core.SandboxConfig, v float64) { c.Pauses.Alpha = v }},
		durField(core.FieldPause, "pause_max", "Longest pause", 1, 120, 1, func(c *core.SandboxConfig) *time.Duration { return &c.Pauses.Max }),
		{ID: core.FieldDelay, Name: "delay", Label: "Link delay", Min: 0, Max: 2000, Step: 5, Unit: "ms",
			Get: func(c *core.SandboxConfig) float64 { return float64(c.Delay.Milliseconds()) },
			Set: func(c *core.SandboxConfig, v float64) { c.Delay = time.Duration(v) * time.Millisecond }},
		{ID: core.FieldDelay, Name: "jitter", Label: "Link jitter", Min: 0, Max: 2, Step: 0.1,
			Get: func(c *core.SandboxConfig) float64 { return c.Jitter },
			Set: func(c *core.SandboxConfig, v float64) { c.Jitter = v }},
		{ID: core.FieldLinks, Name: "slow_link", Label: "Slow link to coordinator",
			Choices: func(c *core.SandboxConfig) []string { return append([]string{"none"}, c.ProcNames()...) },
			Get: func(c *core.SandboxConfig) float64 {
				if len(c.Links) > 0 {
					for i, n := range c.ProcNames() {
						if n == c.Links[0].A {
							return float64(i + 1)
						}
					}
				}
				return 0
			},
			Set: func(c *core.SandboxConfig, v float64) {
				c.Links = nil
				if names := c.ProcNames(); v > 0 && int(v) <= len(names) {
					c.Links = []core.LinkConfig{{A: names[int(v)-1], B: core.CoordinatorName, Delay: *slow, Jitter: c.Jitter}}
				}
			}},
		{ID: core.FieldLinks, Name: "slow_delay", Label: "Slow link delay", Min: 50, Max: 10000, Step: 50, Unit: "ms",
			Applies: func(c *core.SandboxConfig) bool { return len(c.Links) > 0 },
			Get: func(c *core.SandboxConfig) float64 {
				if len(c.Links) > 0 {
					return float64(c.Links[0].Delay.Milliseconds())
				}
				return float64(slow.Milliseconds())
			},
			Set: func(c *core.SandboxConfig, v float64) {
				*slow = time.Duration(v) * time.Millisecond
				if len(c.Links) > 0 {
					c.Links[0].Delay = *slow
				}
			}},
		{ID: core.FieldLockDelay, Name: "lock_delay", Label: "Lock-delay", Choices: fixed("off", "on (15 s)"),
			Get: func(c *core.SandboxConfig) float64 { return math.Min(1, float64(c.LockDelay)) },
			Set: func(c *core.SandboxConfig, v float64) { c.LockDelay = time.Duration(v) * 15 * time.Second }},
		onOffField("fencing", "fencing", "Fencing", func(c *core.SandboxConfig) *bool { return &c.Fencing }),
		onOffField(core.FieldIdempotency, "idempotency", "Idempotency", func(c *core.SandboxConfig) *bool { return &c.Idempotency }),
		{ID: core.FieldWorkload, Name: "workload", Label: "Workload", Choices: fixed("fenced writes", "invoice jobs"), Applies: singleLock,
			Get: func(c *core.SandboxConfig) float64 {
				if c.Workload == core.WorkloadJobs {
					return 1
				}
				return 0
			},
			Set: func(c *core.SandboxConfig, v float64) {
				c.Workload = core.WorkloadWrites
				if v == 1 {
					c.Workload = core.WorkloadJobs
				}
			}},
		withZero("on demand", durField(core.FieldWorkload, "work_every", "Work every", 0, 10, 0.5, func(c *core.SandboxConfig) *time.Duration { return &c.WorkEvery })),
		{ID: core.FieldShards, Name: "shards", Label: "Shards (0: one lock)", Min: 0, Max: core.MaxSandboxShards, Step: 1,
			Get: func(c *core.SandboxConfig) float64 { return float64(c.Shards) },
			Set: func(c *core.SandboxConfig, v float64) {
				c.Shards = int(v)
				c.Links = nil // the process names change
			}},
		{ID: "seed", Name: "seed", Label: "Seed", Min: 1, Max: 999, Step: 1,
			Get: func(c *core.SandboxConfig) float64 { return float64(c.Seed) },
			Set: func(c *core.SandboxConfig, v float64) { c.Seed = uint64(v) }},
		{ID: core.FieldDuration, Name: "duration", Label: "Run length", Min: 1, Max: 60, Step: 1, Unit: "min",
			Get: func(c *core.SandboxConfig) float64 { return c.Duration.Minutes() },
			Set: func(c *core.SandboxConfig, v float64) { c.Duration = time.Duration(v) * time.Minute }},
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if f.Applies == nil {
			f.Applies = all
			switch f.Name {
			case "pause_every":
				f.Applies = pausing
			case "pause_max":
				f.Applies = heavyTail
			}
		}
		onSystem(f)
		f.Help, f.Short = fieldHelp[f.Name], fieldShort[f.Name]
		f.ShowErr = !seen[f.ID]
		seen[f.ID] = true
		f.Slider = ui.Slider{Min: f.Min, Max: f.Max, Step: f.Step}
	}
	return fs
}
