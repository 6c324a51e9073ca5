package permalink

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// A sandbox link holds a sandbox run: the preset it started from (Name,
// SandboxDefault for the default setup), every setting that differs from that preset
// (Params, one per sandbox.Config field, written by sandboxParams), the
// seed and the learner's log. The preset's own scripted actions come back
// from the preset by name; the setup panel cannot change them.

// sandboxParam is one sandbox.Config setting as link text.
type sandboxParam struct {
	key string
	get func(c *sandbox.Config) string
	set func(c *sandbox.Config, v string) error
}

func durParam(key string, f func(c *sandbox.Config) *time.Duration) sandboxParam {
	return sandboxParam{key, func(c *sandbox.Config) string { return f(c).String() },
		func(c *sandbox.Config, v string) (err error) { *f(c), err = time.ParseDuration(v); return err }}
}

func intParam(key string, f func(c *sandbox.Config) *int) sandboxParam {
	return sandboxParam{key, func(c *sandbox.Config) string { return strconv.Itoa(*f(c)) },
		func(c *sandbox.Config, v string) (err error) { *f(c), err = strconv.Atoi(v); return err }}
}

func floatParam(key string, f func(c *sandbox.Config) *float64) sandboxParam {
	return sandboxParam{key, func(c *sandbox.Config) string { return strconv.FormatFloat(*f(c), 'g', -1, 64) },
		func(c *sandbox.Config, v string) (err error) { *f(c), err = strconv.ParseFloat(v, 64); return err }}
}

func boolParam(key string, f func(c *sandbox.Config) *bool) sandboxParam {
	return sandboxParam{key, func(c *sandbox.Config) string { return strconv.FormatBool(*f(c)) },
		func(c *sandbox.Config, v string) (err error) { *f(c), err = strconv.ParseBool(v); return err }}
}

func wordParam(key string, f func(c *sandbox.Config) *string) sandboxParam {
	return sandboxParam{key, func(c *sandbox.Config) string { return *f(c) },
		func(c *sandbox.Config, v string) error { *f(c) = v; return nil }}
}

// sandboxParams are every setting of a sandbox.Config but its seed (the
// link's own) and its scripted actions (the preset's).
var sandboxParams = []sandboxParam{
	{"system", func(c *sandbox.Config) string { return c.System.String() },
		func(c *sandbox.Config, v string) (err error) { c.System, err = core.ParseSystem(v); return err }},
	intParam("procs", func(c *sandbox.Config) *int { return &c.Procs }),
	{"names", func(c *sandbox.Config) string { return strings.Join(c.Names, ",") },
		func(c *sandbox.Config, v string) error {
			c.Names = nil
			if v != "" {
				c.Names = strings.Split(v, ",")
			}
			return nil
		}},
	{"recipe", func(c *sandbox.Config) string { return strconv.Itoa(int(c.Recipe)) },
		func(c *sandbox.Config, v string) error {
			n, err := strconv.Atoi(v)
			c.Recipe = core.Recipe(n)
			return err
		}},
	{"token_source", func(c *sandbox.Config) string { return strconv.Itoa(int(c.TokenSource)) },
		func(c *sandbox.Config, v string) error {
			n, err := strconv.Atoi(v)
			c.TokenSource = core.TokenSource(n)
			return err
		}},
	{"first_token", func(c *sandbox.Config) string { return strconv.FormatInt(c.FirstToken, 10) },
		func(c *sandbox.Config, v string) (err error) {
			c.FirstToken, err = strconv.ParseInt(v, 10, 64)
			return err
		}},
	durParam("ttl", func(c *sandbox.Config) *time.Duration { return &c.TTL }),
	durParam("renew", func(c *sandbox.Config) *time.Duration { return &c.RenewEvery }),
	durParam("retry", func(c *sandbox.Config) *time.Duration { return &c.RetryBase }),
	floatParam("retry_jitter", func(c *sandbox.Config) *float64 { return &c.RetryJitter }),
	wordParam("pauses", func(c *sandbox.Config) *string { return &c.Pauses.Kind }),
	durParam("pause_every", func(c *sandbox.Config) *time.Duration { return &c.Pauses.Every }),
	durParam("pause_length", func(c *sandbox.Config) *time.Duration { return &c.Pauses.Length }),
	durParam("pause_scale", func(c *sandbox.Config) *time.Duration { return &c.Pauses.Scale }),
	floatParam("pause_alpha", func(c *sandbox.Config) *float64 { return &c.Pauses.Alpha }),
	durParam("pause_max", func(c *sandbox.Config) *time.Duration { return &c.Pauses.Max }),
	durParam("delay", func(c *sandbox.Config) *time.Duration { return &c.Delay }),
	floatParam("jitter", func(c *sandbox.Config) *float64 { return &c.Jitter }),
	{"links", linksText, parseLinks},
	durParam("lock_delay", func(c *sandbox.Config) *time.Duration { return &c.LockDelay }),
	boolParam("fencing", func(c *sandbox.Config) *bool { return &c.Fencing }),
	boolParam("idempotency", func(c *sandbox.Config) *bool { return &c.Idempotency }),
	wordParam("workload", func(c *sandbox.Config) *string { return &c.Workload }),
	durParam("work_every", func(c *sandbox.Config) *time.Duration { return &c.WorkEvery }),
	durParam("write_latency", func(c *sandbox.Config) *time.Duration { return &c.WriteLatency }),
	intParam("shards", func(c *sandbox.Config) *int { return &c.Shards }),
	intParam("workers", func(c *sandbox.Config) *int { return &c.Workers }),
	durParam("duration", func(c *sandbox.Config) *time.Duration { return &c.Duration }),
	durParam("renew_deadline", func(c *sandbox.Config) *time.Duration { return &c.RenewDeadline }),
	intParam("redis_nodes", func(c *sandbox.Config) *int { return &c.RedisNodes }),
	intParam("members", func(c *sandbox.Config) *int { return &c.Members }),
}

// linksText writes the per-link overrides as "A>B:delay:jitter;...".
func linksText(c *sandbox.Config) string {
	parts := make([]string, len(c.Links))
	for i, l := range c.Links {
		parts[i] = l.A + ">" + l.B + ":" + l.Delay.String() + ":" + strconv.FormatFloat(l.Jitter, 'g', -1, 64)
	}
	return strings.Join(parts, ";")
}

func parseLinks(c *sandbox.Config, v string) error {
	c.Links = nil
	if v == "" {
		return nil
	}
	for _, part := range strings.Split(v, ";") {
		ends, rest, ok1 := strings.Cut(part, ">")
		b, rest, ok2 := strings.Cut(rest, ":")
		delay, jitter, ok3 := strings.Cut(rest, ":")
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("link %q is not A>B:delay:jitter", part)
		}
		d, err := time.ParseDuration(delay)
		if err != nil {
			return err
		}
		j, err := strconv.ParseFloat(jitter, 64)
		if err != nil {
			return err
		}
		c.Links = append(c.Links, sandbox.LinkConfig{A: ends, B: b, Delay: d, Jitter: j})
	}
	return nil
}

// SandboxDefault is the name a sandbox link gives the default setup (no
// preset is called that).
const SandboxDefault = "default"

// sandboxBase is the configuration a sandbox link's settings apply to:
// the named preset's as the sandbox opens it (its story's length), or the
// default setup's.
func sandboxBase(preset string) (sandbox.Config, error) {
	if preset == "" || preset == SandboxDefault {
		return sandbox.Default(), nil
	}
	p, err := sandbox.FindPreset(preset)
	if err != nil {
		return sandbox.Config{}, err
	}
	return p.Open(), nil
}

// SandboxLink is the permalink of a sandbox run: the setup c, started
// from preset ("" for the default setup), and the learner's log. It fails
// when c could not be read back the same from the link (a preset that
// does not exist, scripted actions that are not the preset's).
func SandboxLink(preset string, c sandbox.Config, log core.ActionLog) (RunLink, error) {
	base, err := sandboxBase(preset)
	if err != nil {
		return RunLink{}, err
	}
	if !slices.Equal(c.Actions, base.Actions) {
		return RunLink{}, fmt.Errorf("%w: the run's scripted actions are not those of its preset", ErrPermalink)
	}
	name := preset
	if name == "" {
		name = SandboxDefault
	}
	l := RunLink{Kind: LinkSandbox, Name: name, Seed: c.Seed, Log: log}
	for _, p := range sandboxParams {
		if v := p.get(&c); v != p.get(&base) {
			l.Params = append(l.Params, Param{p.key, v})
		}
	}
	return l, nil
}

// Sandbox turns a sandbox link back into the preset name and the setup,
// refusing an unknown, repeated or malformed setting and a setup the
// sandbox itself would refuse.
func (l RunLink) Sandbox() (preset string, c sandbox.Config, err error) {
	fail := func(format string, a ...any) (string, sandbox.Config, error) {
		return "", sandbox.Config{}, fmt.Errorf("%w: %s", ErrPermalink, fmt.Sprintf(format, a...))
	}
	if l.Kind != LinkSandbox {
		return fail("this link is a %s, not a sandbox run", l.Kind)
	}
	c, err = sandboxBase(l.Name)
	if err != nil {
		return fail("%v", err)
	}
	c.Names = slices.Clone(c.Names)
	c.Links = slices.Clone(c.Links)
	seen := map[string]bool{}
	for _, kv := range l.Params {
		i := slices.IndexFunc(sandboxParams, func(p sandboxParam) bool { return p.key == kv.Key })
		switch {
		case i < 0:
			return fail("unknown sandbox setting %q", kv.Key)
		case seen[kv.Key]:
			return fail("sandbox setting %q given twice", kv.Key)
		}
		seen[kv.Key] = true
		if err := sandboxParams[i].set(&c, kv.Value); err != nil {
			return fail("sandbox setting %s=%q: %v", kv.Key, kv.Value, err)
		}
	}
	c.Seed = l.Seed
	if errs := c.Validate(); len(errs) > 0 {
		return fail("the sandbox refuses this setup: %v", errs[0])
	}
	if l.Name == SandboxDefault {
		return "", c, nil
	}
	return l.Name, c, nil
}
