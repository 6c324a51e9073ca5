package main

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"leaselab/core"
	"leaselab/core/mermaid"
	"leaselab/core/sandbox"
)

func runPresets(args []string, stdout, stderr io.Writer) int {
	if isHelp(args) {
		fmt.Fprintln(stdout, "usage: labctl presets\n\nLists the sandbox presets and where their numbers come from; run one with labctl run --preset NAME.")
		return 0
	}
	if len(args) > 0 {
		return fail(stderr, "labctl presets: takes no arguments (did you mean labctl run --preset %s?)", args[0])
	}
	for _, p := range sandbox.Presets() {
		fmt.Fprintf(stdout, "%-16s %s\n%-16s   numbers: %s\n", p.Name, p.Title, "", p.Source)
	}
	return 0
}

// presetConfig is preset name with the command line's overrides applied.
// systemFlags are labctl run's settings that only some systems read.
type systemFlags struct {
	renewDeadline time.Duration // Kubernetes
	redisNodes    int           // Redlock
	members       int           // etcd, Kubernetes
}

func presetConfig(name string, p sandbox.Params, sf systemFlags, seedSet bool) (sandbox.Preset, sandbox.Config, error) {
	pr, err := sandbox.FindPreset(name)
	if err != nil {
		return pr, sandbox.Config{}, err
	}
	c := pr.Config
	if p.System != "" {
		sys, err := core.ParseSystem(p.System)
		if err != nil {
			return pr, c, err
		}
		c = c.OnSystem(sys)
	}
	if seedSet {
		c.Seed = p.Seed
	}
	if p.TTL > 0 {
		c.TTL = p.TTL
	}
	if p.RenewEvery > 0 {
		c.RenewEvery = p.RenewEvery
	}
	if p.Duration > 0 {
		c.Duration = p.Duration
	}
	for _, sw := range []struct {
		v  string
		to *bool
	}{{p.Fencing, &c.Fencing}, {p.Idempotency, &c.Idempotency}} {
		switch sw.v {
		case "":
		case "on", "off":
			*sw.to = sw.v == "on"
		default:
			return pr, c, fmt.Errorf("switch value %q: want on or off", sw.v)
		}
	}
	if p.Procs > 0 {
		if c.Shards > 0 {
			c.Workers = p.Procs
		} else {
			c.Procs, c.Names = p.Procs, nil
		}
	}
	if p.Recipe != "" {
		if c.Recipe, err = core.ParseRecipe(p.Recipe); err != nil {
			return pr, c, err
		}
	}
	switch p.TokenSource {
	case "":
	case "generation":
		c.TokenSource = core.TokenGeneration
	case "revision":
		c.TokenSource, c.FirstToken = core.TokenRevision, 0
	default:
		return pr, c, fmt.Errorf("unknown token source %q (want generation or revision)", p.TokenSource)
	}
	if sf.renewDeadline > 0 {
		if c.System.OwnSetting(core.SettingRenewDeadline) != "" {
			return pr, c, fmt.Errorf("--renew-deadline is client-go's: it applies to a world on kubernetes, not on %s", c.System)
		}
		c.RenewDeadline = sf.renewDeadline
	}
	if sf.redisNodes > 0 {
		if c.System.OwnSetting(core.SettingRedisNodes) != "" {
			return pr, c, fmt.Errorf("--redis-nodes applies to a world on redlock, not on %s", c.System)
		}
		c.RedisNodes = sf.redisNodes
	}
	if sf.members > 0 {
		c.Members = sf.members
	}
	c.Actions = append(append(core.ActionLog(nil), c.Actions...), p.Actions...)
	return pr, c, nil
}

func runPreset(name string, p sandbox.Params, sf systemFlags, seedSet bool, format, event string, stdout, stderr io.Writer) int {
	pr, c, err := presetConfig(name, p, sf, seedSet)
	if err != nil {
		return fail(stderr, "labctl run --preset: %v", err)
	}
	if errs := c.Validate(); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(stderr, "labctl run --preset %s: %s\n", name, e)
		}
		return 2
	}
	s, rep, err := c.Run()
	if err != nil {
		return fail(stderr, "labctl run --preset %s: %v", name, err)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	switch format {
	case "why":
		return explain(w, stderr, s.Trace, event, "labctl why --preset "+name)
	case "jsonl":
		s.Trace.WriteJSONL(w)
		return verdict(afterRun(io.Discard, stderr, s, c.Actions, c.Duration, "labctl run --preset "+name), rep)
	case "mermaid":
		mermaid.Write(w, s.Trace, c.Duration)
		return verdict(afterRun(io.Discard, stderr, s, c.Actions, c.Duration, "labctl run --preset "+name), rep)
	case "text":
		fmt.Fprintf(w, "# %s (seed %d, %s of virtual time)\n", pr.Title, c.Seed, core.FormatTime(c.Duration))
		s.Trace.WriteText(w)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "preset %s: %s\nnumbers: %s\n", pr.Name, pr.Title, pr.Source)
	if c.System != pr.Config.System {
		fmt.Fprintf(w, "system: %s (the preset's world and actions, run on %s)\n", c.System.Title(), c.System.Title())
	}
	for _, n := range c.Notes() {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintf(w, "policy: %s\n", c.PolicyVerdict().Explanation)
	fmt.Fprintf(w, "holder changes: %d; writes accepted %d, rejected %d\n", len(core.Holders(s.Trace)), count(s.Trace, core.KindWrite, core.Accepted), count(s.Trace, core.KindWrite, core.RejectedStale))
	if ms := s.Coord.Members(); len(ms) > 0 {
		leader, term := s.Coord.Leader()
		if leader == "" {
			leader = "none"
		}
		fmt.Fprintf(w, "coordinator: %d members; leader at the end %s (term %d); leader elections %d; leases re-armed by a new leader %d; requests given up %d\n",
			len(ms), leader, term, len(s.Trace.Filter(core.KindLeader))-1, len(s.Trace.Filter(core.KindLeaseRearm)), len(s.Trace.Filter(core.KindRefused)))
	}
	for _, st := range s.Statuses(c.Duration) {
		fmt.Fprintf(w, "invariant %q: %s\n", st.Name, st.Summary())
	}
	for _, v := range rep.Violations {
		fmt.Fprintln(w, "VIOLATION", v)
	}
	return verdict(afterRun(w, stderr, s, c.Actions, c.Duration, "labctl run --preset "+name), rep)
}

func count(t *core.Trace, kind core.Kind, result string) int {
	n := 0
	for _, e := range t.Filter(kind) {
		if e.Result() == result {
			n++
		}
	}
	return n
}
