package setup

import (
	"fmt"
	"math"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
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
	Choices        func(c *sandbox.Config) []string
	Min, Max, Step float64
	Unit           string
	// Zero, if set, is shown instead of a zero value (which means a
	// default, not nothing).
	Zero string
	Get  func(c *sandbox.Config) float64
	Set  func(c *sandbox.Config, v float64)
	// Applies reports whether the field means anything for this config;
	// fields that do not are disabled and say so.
	Applies func(c *sandbox.Config) bool
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
func (f *Field) Value(c *sandbox.Config) string {
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
func durField(id, name, label string, min, max, step float64, get func(c *sandbox.Config) *time.Duration) *Field {
	return &Field{ID: id, Name: name, Label: label, Min: min, Max: max, Step: step, Unit: "s",
		Get: func(c *sandbox.Config) float64 { return secondsOf(*get(c)) },
		Set: func(c *sandbox.Config, v float64) { *get(c) = fromSeconds(v) }}
}

func withZero(text string, f *Field) *Field {
	f.Zero = text
	return f
}

// onOffField is a choice between off and on.
func onOffField(id, name, label string, get func(c *sandbox.Config) *bool) *Field {
	return &Field{ID: id, Name: name, Label: label,
		Choices: func(*sandbox.Config) []string { return []string{"off", "on"} },
		Get: func(c *sandbox.Config) float64 {
			if *get(c) {
				return 1
			}
			return 0
		},
		Set: func(c *sandbox.Config, v float64) { *get(c) = v == 1 }}
}

func fixed(words ...string) func(*sandbox.Config) []string {
	return func(*sandbox.Config) []string { return words }
}

func singleLock(c *sandbox.Config) bool { return c.Shards == 0 }
func pausing(c *sandbox.Config) bool {
	return c.Pauses.Kind == sandbox.PauseFixed || c.Pauses.Kind == sandbox.PauseHeavyTail
}
func heavyTail(c *sandbox.Config) bool { return c.Pauses.Kind == sandbox.PauseHeavyTail }

// nameSchemes are the ways the setup panel names processes.
var nameSchemes = []struct{ label, prefix string }{{"A, B, C...", ""}, {"api-1, api-2...", "api-"}, {"node-1, node-2...", "node-"}}

func nameScheme(c *sandbox.Config) int {
	for i, s := range nameSchemes {
		if s.prefix != "" && len(c.Names) > 0 && strings.HasPrefix(c.Names[0], s.prefix) {
			return i
		}
	}
	return 0
}

func applyNames(c *sandbox.Config, scheme int) {
	c.Names = nil
	if p := nameSchemes[scheme].prefix; p != "" && c.Procs > 0 && c.Procs <= sandbox.MaxProcs {
		for i := range c.Procs {
			c.Names = append(c.Names, fmt.Sprintf("%s%d", p, i+1))
		}
	}
}

// pauseKinds are the pause distributions in choice order.
var pauseKinds = []string{sandbox.PauseNone, sandbox.PauseFixed, sandbox.PauseHeavyTail}

// fields returns the setup panel's fields in reading order. slow is
// the delay a newly slowed link gets.
func fields(slow *time.Duration) []*Field {
	all := func(*sandbox.Config) bool { return true }
	fs := []*Field{
		systemField(), redisNodesField(), renewDeadlineField(), membersField(),
		{ID: sandbox.FieldProcs, Name: "procs", Label: "Processes", Min: 1, Max: sandbox.MaxProcs, Step: 1, Applies: singleLock,
			Get: func(c *sandbox.Config) float64 { return float64(c.Procs) },
			Set: func(c *sandbox.Config, v float64) { s := nameScheme(c); c.Procs = int(v); applyNames(c, s) }},
		// Workers take the processes' cell: a world has one or the other.
		{ID: sandbox.FieldWorkers, Name: "workers", Label: "Workers", Min: 1, Max: sandbox.MaxProcs, Step: 1, SharesCell: true,
			Applies: func(c *sandbox.Config) bool { return c.Shards > 0 },
			Get:     func(c *sandbox.Config) float64 { return float64(c.Workers) },
			Set:     func(c *sandbox.Config, v float64) { c.Workers = int(v); c.Links = nil }},
		{ID: sandbox.FieldNames, Name: "names", Label: "Names", Applies: singleLock,
			Choices: func(*sandbox.Config) []string {
				out := make([]string, len(nameSchemes))
				for i, s := range nameSchemes {
					out[i] = s.label
				}
				return out
			},
			Get: func(c *sandbox.Config) float64 { return float64(nameScheme(c)) },
			Set: func(c *sandbox.Config, v float64) { applyNames(c, int(v)) }},
		{ID: sandbox.FieldRecipe, Name: "recipe", Label: "Recipe", Applies: singleLock,
			Choices: fixed("etcd fair queue", "ZooKeeper sequential", "herd (all watch)"),
			Get:     func(c *sandbox.Config) float64 { return float64(c.Recipe) },
			Set:     func(c *sandbox.Config, v float64) { c.Recipe = core.Recipe(v) }},
		{ID: sandbox.FieldTokenSource, Name: "token_source", Label: "Tokens", Applies: singleLock,
			Choices: fixed("per-lock generation", "global revision"),
			Get:     func(c *sandbox.Config) float64 { return float64(c.TokenSource) },
			Set: func(c *sandbox.Config, v float64) {
				c.TokenSource = core.TokenSource(v)
				if c.TokenSource == core.TokenRevision {
					c.FirstToken = 0 // revisions come from the coordinator
				}
			}},
		durField(sandbox.FieldTTL, "ttl", "TTL", 1, 120, 1, func(c *sandbox.Config) *time.Duration { return &c.TTL }),
		withZero("TTL/3", durField(sandbox.FieldRenew, "renew", "Renew every", 0.5, 120, 0.5, func(c *sandbox.Config) *time.Duration { return &c.RenewEvery })),
		withZero("1 s", durField(sandbox.FieldRetry, "retry", "Retry wait", 0, 10, 0.5, func(c *sandbox.Config) *time.Duration { return &c.RetryBase })),
		{ID: sandbox.FieldJitter, Name: "retry_jitter", Label: "Retry jitter", Min: 0, Max: 2, Step: 0.1,
			Get: func(c *sandbox.Config) float64 { return c.RetryJitter },
			Set: func(c *sandbox.Config, v float64) { c.RetryJitter = v }},
		{ID: sandbox.FieldPause, Name: "pauses", Label: "Pauses", Choices: fixed("none", "fixed", "heavy tail"),
			Get: func(c *sandbox.Config) float64 {
				for i, k := range pauseKinds {
					if k == c.Pauses.Kind {
						return float64(i)
					}
				}
				return 0
			},
			Set: func(c *sandbox.Config, v float64) {
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
		durField(sandbox.FieldPause, "pause_every", "Pause every", 5, 600, 5, func(c *sandbox.Config) *time.Duration { return &c.Pauses.Every }),
		{ID: sandbox.FieldPause, Name: "pause_length", Label: "Pause / scale", Min: 0.1, Max: 60, Step: 0.1, Unit: "s", Applies: pausing,
			Get: func(c *sandbox.Config) float64 {
				if heavyTail(c) {
					return secondsOf(c.Pauses.Scale)
				}
				return secondsOf(c.Pauses.Length)
			},
			Set: func(c *sandbox.Config, v float64) {
				if heavyTail(c) {
					c.Pauses.Scale = fromSeconds(v)
				} else {
					c.Pauses.Length = fromSeconds(v)
				}
			}},
		{ID: sandbox.FieldPause, Name: "pause_alpha", Label: "Tail alpha", Min: 0.5, Max: 5, Step: 0.1, Applies: heavyTail,
			Get: func(c *sandbox.Config) float64 { return c.Pauses.Alpha },
			Set: func(c *sandbox.Config, v float64) { c.Pauses.Alpha = v }},
		durField(sandbox.FieldPause, "pause_max", "Longest pause", 1, 120, 1, func(c *sandbox.Config) *time.Duration { return &c.Pauses.Max }),
		{ID: sandbox.FieldDelay, Name: "delay", Label: "Link delay", Min: 0, Max: 2000, Step: 5, Unit: "ms",
			Get: func(c *sandbox.Config) float64 { return float64(c.Delay.Milliseconds()) },
			Set: func(c *sandbox.Config, v float64) { c.Delay = time.Duration(v) * time.Millisecond }},
		{ID: sandbox.FieldDelay, Name: "jitter", Label: "Link jitter", Min: 0, Max: 2, Step: 0.1,
			Get: func(c *sandbox.Config) float64 { return c.Jitter },
			Set: func(c *sandbox.Config, v float64) { c.Jitter = v }},
		{ID: sandbox.FieldLinks, Name: "slow_link", Label: "Slow link to coordinator",
			Choices: func(c *sandbox.Config) []string { return append([]string{"none"}, c.ProcNames()...) },
			Get: func(c *sandbox.Config) float64 {
				if len(c.Links) > 0 {
					for i, n := range c.ProcNames() {
						if n == c.Links[0].A {
							return float64(i + 1)
						}
					}
				}
				return 0
			},
			Set: func(c *sandbox.Config, v float64) {
				c.Links = nil
				if names := c.ProcNames(); v > 0 && int(v) <= len(names) {
					c.Links = []sandbox.LinkConfig{{A: names[int(v)-1], B: core.CoordinatorName, Delay: *slow, Jitter: c.Jitter}}
				}
			}},
		{ID: sandbox.FieldLinks, Name: "slow_delay", Label: "Slow link delay", Min: 50, Max: 10000, Step: 50, Unit: "ms",
			Applies: func(c *sandbox.Config) bool { return len(c.Links) > 0 },
			Get: func(c *sandbox.Config) float64 {
				if len(c.Links) > 0 {
					return float64(c.Links[0].Delay.Milliseconds())
				}
				return float64(slow.Milliseconds())
			},
			Set: func(c *sandbox.Config, v float64) {
				*slow = time.Duration(v) * time.Millisecond
				if len(c.Links) > 0 {
					c.Links[0].Delay = *slow
				}
			}},
		{ID: sandbox.FieldLockDelay, Name: "lock_delay", Label: "Lock-delay", Choices: fixed("off", "on (15 s)"),
			Get: func(c *sandbox.Config) float64 { return math.Min(1, float64(c.LockDelay)) },
			Set: func(c *sandbox.Config, v float64) { c.LockDelay = time.Duration(v) * 15 * time.Second }},
		onOffField("fencing", "fencing", "Fencing", func(c *sandbox.Config) *bool { return &c.Fencing }),
		onOffField(sandbox.FieldIdempotency, "idempotency", "Idempotency", func(c *sandbox.Config) *bool { return &c.Idempotency }),
		{ID: sandbox.FieldWorkload, Name: "workload", Label: "Workload", Choices: fixed("fenced writes", "invoice jobs"), Applies: singleLock,
			Get: func(c *sandbox.Config) float64 {
				if c.Workload == sandbox.WorkloadJobs {
					return 1
				}
				return 0
			},
			Set: func(c *sandbox.Config, v float64) {
				c.Workload = sandbox.WorkloadWrites
				if v == 1 {
					c.Workload = sandbox.WorkloadJobs
				}
			}},
		withZero("on demand", durField(sandbox.FieldWorkload, "work_every", "Work every", 0, 10, 0.5, func(c *sandbox.Config) *time.Duration { return &c.WorkEvery })),
		{ID: sandbox.FieldShards, Name: "shards", Label: "Shards (0: one lock)", Min: 0, Max: sandbox.MaxShards, Step: 1,
			Get: func(c *sandbox.Config) float64 { return float64(c.Shards) },
			Set: func(c *sandbox.Config, v float64) {
				c.Shards = int(v)
				c.Links = nil // the process names change
			}},
		{ID: "seed", Name: "seed", Label: "Seed", Min: 1, Max: 999, Step: 1,
			Get: func(c *sandbox.Config) float64 { return float64(c.Seed) },
			Set: func(c *sandbox.Config, v float64) { c.Seed = uint64(v) }},
		{ID: sandbox.FieldDuration, Name: "duration", Label: "Run length", Min: 1, Max: 60, Step: 1, Unit: "min",
			Get: func(c *sandbox.Config) float64 { return c.Duration.Minutes() },
			Set: func(c *sandbox.Config, v float64) { c.Duration = time.Duration(v) * time.Minute }},
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
