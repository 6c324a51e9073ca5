package game

import (
	"fmt"
	"math"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/game/ui"
)

// sbField is one parameter of the sandbox's setup panel: a slider for a
// quantity or a button that steps through choices, with the validation
// message for its core field shown under it.
type sbField struct {
	id    string // the core.Field* its errors are reported under
	name  string // region and focus name
	label string
	// choices, when set, makes this a choice button; the value is the
	// index of the current choice.
	choices        func(c *core.SandboxConfig) []string
	min, max, step float64
	unit           string
	// zero, if set, is shown instead of a zero value (which means a
	// default, not nothing).
	zero string
	get  func(c *core.SandboxConfig) float64
	set  func(c *core.SandboxConfig, v float64)
	// applies reports whether the field means anything for this config;
	// fields that do not are disabled and say so.
	applies func(c *core.SandboxConfig) bool

	slider  ui.Slider
	button  ui.Button
	err     string
	showErr bool // the first field of its id shows the id's errors
}

func (f *sbField) widget() ui.Focusable {
	if f.choices != nil {
		return &f.button
	}
	return &f.slider
}

// value renders the field's current value for people.
func (f *sbField) value(c *core.SandboxConfig) string {
	v := f.get(c)
	if f.choices != nil {
		ch := f.choices(c)
		if i := int(v); i >= 0 && i < len(ch) {
			return ch[i]
		}
		return "?"
	}
	if v == 0 && f.zero != "" {
		return f.zero
	}
	s := fmt.Sprintf("%g", math.Round(v*100)/100)
	if f.unit != "" {
		s += " " + f.unit
	}
	return s
}

func secondsOf(d time.Duration) float64 { return d.Seconds() }

func fromSeconds(v float64) time.Duration {
	return time.Duration(math.Round(v*1000)) * time.Millisecond
}

// durField is a slider over a duration in seconds.
func durField(id, name, label string, min, max, step float64, get func(c *core.SandboxConfig) *time.Duration) *sbField {
	return &sbField{id: id, name: name, label: label, min: min, max: max, step: step, unit: "s",
		get: func(c *core.SandboxConfig) float64 { return secondsOf(*get(c)) },
		set: func(c *core.SandboxConfig, v float64) { *get(c) = fromSeconds(v) }}
}

func withZero(text string, f *sbField) *sbField {
	f.zero = text
	return f
}

// onOffField is a choice between off and on.
func onOffField(id, name, label string, get func(c *core.SandboxConfig) *bool) *sbField {
	return &sbField{id: id, name: name, label: label,
		choices: func(*core.SandboxConfig) []string { return []string{"off", "on"} },
		get: func(c *core.SandboxConfig) float64 {
			if *get(c) {
				return 1
			}
			return 0
		},
		set: func(c *core.SandboxConfig, v float64) { *get(c) = v == 1 }}
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

// sandboxFields returns the setup panel's fields in reading order. slow is
// the delay a newly slowed link gets.
func sandboxFields(slow *time.Duration) []*sbField {
	all := func(*core.SandboxConfig) bool { return true }
	fs := []*sbField{
		{id: core.FieldProcs, name: "procs", label: "Processes", min: 1, max: core.MaxSandboxProcs, step: 1, applies: singleLock,
			get: func(c *core.SandboxConfig) float64 { return float64(c.Procs) },
			set: func(c *core.SandboxConfig, v float64) { s := nameScheme(c); c.Procs = int(v); applyNames(c, s) }},
		{id: core.FieldNames, name: "names", label: "Names", applies: singleLock,
			choices: func(*core.SandboxConfig) []string {
				out := make([]string, len(nameSchemes))
				for i, s := range nameSchemes {
					out[i] = s.label
				}
				return out
			},
			get: func(c *core.SandboxConfig) float64 { return float64(nameScheme(c)) },
			set: func(c *core.SandboxConfig, v float64) { applyNames(c, int(v)) }},
		{id: core.FieldRecipe, name: "recipe", label: "Recipe", applies: singleLock,
			choices: fixed("etcd fair queue", "ZooKeeper sequential", "herd (all watch)"),
			get:     func(c *core.SandboxConfig) float64 { return float64(c.Recipe) },
			set:     func(c *core.SandboxConfig, v float64) { c.Recipe = core.Recipe(v) }},
		{id: core.FieldTokenSource, name: "token_source", label: "Tokens", applies: singleLock,
			choices: fixed("per-lock generation", "global revision"),
			get:     func(c *core.SandboxConfig) float64 { return float64(c.TokenSource) },
			set: func(c *core.SandboxConfig, v float64) {
				c.TokenSource = core.TokenSource(v)
				if c.TokenSource == core.TokenRevision {
					c.FirstToken = 0 // revisions come from the coordinator
				}
			}},
		durField(core.FieldTTL, "ttl", "TTL", 1, 120, 1, func(c *core.SandboxConfig) *time.Duration { return &c.TTL }),
		withZero("TTL/3", durField(core.FieldRenew, "renew", "Renew every", 0.5, 120, 0.5, func(c *core.SandboxConfig) *time.Duration { return &c.RenewEvery })),
		withZero("1 s", durField(core.FieldRetry, "retry", "Retry wait", 0, 10, 0.5, func(c *core.SandboxConfig) *time.Duration { return &c.RetryBase })),
		{id: core.FieldJitter, name: "retry_jitter", label: "Retry jitter", min: 0, max: 2, step: 0.1,
			get: func(c *core.SandboxConfig) float64 { return c.RetryJitter },
			set: func(c *core.SandboxConfig, v float64) { c.RetryJitter = v }},
		{id: core.FieldPause, name: "pauses", label: "Pauses", choices: fixed("none", "fixed", "heavy tail"),
			get: func(c *core.SandboxConfig) float64 {
				for i, k := range pauseKinds {
					if k == c.Pauses.Kind {
						return float64(i)
					}
				}
				return 0
			},
			set: func(c *core.SandboxConfig, v float64) {
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
		{id: core.FieldPause, name: "pause_length", label: "Pause / scale", min: 0.1, max: 60, step: 0.1, unit: "s", applies: pausing,
			get: func(c *core.SandboxConfig) float64 {
				if heavyTail(c) {
					return secondsOf(c.Pauses.Scale)
				}
				return secondsOf(c.Pauses.Length)
			},
			set: func(c *core.SandboxConfig, v float64) {
				if heavyTail(c) {
					c.Pauses.Scale = fromSeconds(v)
				} else {
					c.Pauses.Length = fromSeconds(v)
				}
			}},
		{id: core.FieldPause, name: "pause_alpha", label: "Tail alpha", min: 0.5, max: 5, step: 0.1, applies: heavyTail,
			get: func(c *core.SandboxConfig) float64 { return c.Pauses.Alpha },
			set: func(c *core.SandboxConfig, v float64) { c.Pauses.Alpha = v }},
		durField(core.FieldPause, "pause_max", "Longest pause", 1, 120, 1, func(c *core.SandboxConfig) *time.Duration { return &c.Pauses.Max }),
		{id: core.FieldDelay, name: "delay", label: "Link delay", min: 0, max: 2000, step: 5, unit: "ms",
			get: func(c *core.SandboxConfig) float64 { return float64(c.Delay.Milliseconds()) },
			set: func(c *core.SandboxConfig, v float64) { c.Delay = time.Duration(v) * time.Millisecond }},
		{id: core.FieldDelay, name: "jitter", label: "Link jitter", min: 0, max: 2, step: 0.1,
			get: func(c *core.SandboxConfig) float64 { return c.Jitter },
			set: func(c *core.SandboxConfig, v float64) { c.Jitter = v }},
		{id: core.FieldLinks, name: "slow_link", label: "Slow link to coordinator",
			choices: func(c *core.SandboxConfig) []string { return append([]string{"none"}, c.ProcNames()...) },
			get: func(c *core.SandboxConfig) float64 {
				if len(c.Links) > 0 {
					for i, n := range c.ProcNames() {
						if n == c.Links[0].A {
							return float64(i + 1)
						}
					}
				}
				return 0
			},
			set: func(c *core.SandboxConfig, v float64) {
				c.Links = nil
				if names := c.ProcNames(); v > 0 && int(v) <= len(names) {
					c.Links = []core.LinkConfig{{A: names[int(v)-1], B: core.CoordinatorName, Delay: *slow, Jitter: c.Jitter}}
				}
			}},
		{id: core.FieldLinks, name: "slow_delay", label: "Slow link delay", min: 50, max: 10000, step: 50, unit: "ms",
			applies: func(c *core.SandboxConfig) bool { return len(c.Links) > 0 },
			get: func(c *core.SandboxConfig) float64 {
				if len(c.Links) > 0 {
					return float64(c.Links[0].Delay.Milliseconds())
				}
				return float64(slow.Milliseconds())
			},
			set: func(c *core.SandboxConfig, v float64) {
				*slow = time.Duration(v) * time.Millisecond
				if len(c.Links) > 0 {
					c.Links[0].Delay = *slow
				}
			}},
		{id: core.FieldLockDelay, name: "lock_delay", label: "Lock-delay", choices: fixed("off", "on (15 s)"),
			get: func(c *core.SandboxConfig) float64 { return math.Min(1, float64(c.LockDelay)) },
			set: func(c *core.SandboxConfig, v float64) { c.LockDelay = time.Duration(v) * 15 * time.Second }},
		onOffField("fencing", "fencing", "Fencing", func(c *core.SandboxConfig) *bool { return &c.Fencing }),
		onOffField(core.FieldIdempotency, "idempotency", "Idempotency", func(c *core.SandboxConfig) *bool { return &c.Idempotency }),
		{id: core.FieldWorkload, name: "workload", label: "Workload", choices: fixed("fenced writes", "invoice jobs"), applies: singleLock,
			get: func(c *core.SandboxConfig) float64 {
				if c.Workload == core.WorkloadJobs {
					return 1
				}
				return 0
			},
			set: func(c *core.SandboxConfig, v float64) {
				c.Workload = core.WorkloadWrites
				if v == 1 {
					c.Workload = core.WorkloadJobs
				}
			}},
		withZero("on demand", durField(core.FieldWorkload, "work_every", "Work every", 0, 10, 0.5, func(c *core.SandboxConfig) *time.Duration { return &c.WorkEvery })),
		{id: core.FieldShards, name: "shards", label: "Shards (0: one lock)", min: 0, max: core.MaxSandboxShards, step: 1,
			get: func(c *core.SandboxConfig) float64 { return float64(c.Shards) },
			set: func(c *core.SandboxConfig, v float64) {
				c.Shards = int(v)
				c.Links = nil // the process names change
			}},
		{id: core.FieldWorkers, name: "workers", label: "Workers", min: 1, max: core.MaxSandboxProcs, step: 1,
			applies: func(c *core.SandboxConfig) bool { return c.Shards > 0 },
			get:     func(c *core.SandboxConfig) float64 { return float64(c.Workers) },
			set:     func(c *core.SandboxConfig, v float64) { c.Workers = int(v); c.Links = nil }},
		{id: "seed", name: "seed", label: "Seed", min: 1, max: 999, step: 1,
			get: func(c *core.SandboxConfig) float64 { return float64(c.Seed) },
			set: func(c *core.SandboxConfig, v float64) { c.Seed = uint64(v) }},
		{id: core.FieldDuration, name: "duration", label: "Run length", min: 1, max: 60, step: 1, unit: "min",
			get: func(c *core.SandboxConfig) float64 { return c.Duration.Minutes() },
			set: func(c *core.SandboxConfig, v float64) { c.Duration = time.Duration(v) * time.Minute }},
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if f.applies == nil {
			f.applies = all
			switch f.name {
			case "pause_every":
				f.applies = pausing
			case "pause_max":
				f.applies = heavyTail
			}
		}
		f.showErr = !seen[f.id]
		seen[f.id] = true
		f.slider = ui.Slider{Min: f.min, Max: f.max, Step: f.step}
	}
	return fs
}
