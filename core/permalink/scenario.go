package permalink

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// What a scenario link and a lesson link carry besides the seed and the
// log: a scenario's parameters, a lesson's knobs. (A sandbox link's
// settings are sandbox.go's; a target link's horizon is explore.Target's.)

// ScenarioLink is the permalink of a named scenario run with p (p.Actions
// become the link's log).
func ScenarioLink(name string, p sandbox.Params) RunLink {
	l := RunLink{Kind: LinkScenario, Name: name, Seed: p.Seed, Log: p.Actions}
	add := func(k, v string) {
		if v != "" && v != "0" && v != "0s" {
			l.Params = append(l.Params, Param{k, v})
		}
	}
	add("ttl", p.TTL.String())
	add("renew", p.RenewEvery.String())
	add("fencing", p.Fencing)
	add("idempotency", p.Idempotency)
	add("procs", strconv.Itoa(p.Procs))
	add("recipe", p.Recipe)
	add("token-source", p.TokenSource)
	add("duration", p.Duration.String())
	for _, k := range slices.Sorted(maps.Keys(p.Own)) {
		add(k, strconv.FormatInt(p.Own[k], 10))
	}
	return l
}

// ScenarioParams turns a scenario link back into Params, refusing unknown
// or malformed parameters.
func (l RunLink) ScenarioParams() (sandbox.Params, error) {
	if l.Kind != LinkScenario {
		return sandbox.Params{}, fmt.Errorf("%w: this link is a %s, not a scenario", ErrPermalink, l.Kind)
	}
	p := sandbox.Params{Seed: l.Seed, Actions: l.Log}
	sc, _ := sandbox.FindScenario(l.Name) // an unknown name is the caller's to report; it has no settings of its own
	for _, kv := range l.Params {
		var err error
		switch kv.Key {
		case "ttl":
			p.TTL, err = time.ParseDuration(kv.Value)
		case "renew":
			p.RenewEvery, err = time.ParseDuration(kv.Value)
		case "duration":
			p.Duration, err = time.ParseDuration(kv.Value)
		case "fencing":
			p.Fencing = kv.Value
		case "idempotency":
			p.Idempotency = kv.Value
		case "recipe":
			p.Recipe = kv.Value
		case "token-source":
			p.TokenSource = kv.Value
		case "procs":
			p.Procs, err = strconv.Atoi(kv.Value)
		default:
			// A setting of the scenario's own (Scenario.Own).
			if sc == nil || !slices.ContainsFunc(sc.Own, func(st sandbox.Setting) bool { return st.Name == kv.Key }) {
				return sandbox.Params{}, fmt.Errorf("%w: unknown scenario parameter %q", ErrPermalink, kv.Key)
			}
			if _, dup := p.Own[kv.Key]; dup {
				return sandbox.Params{}, fmt.Errorf("%w: parameter %s given twice", ErrPermalink, kv.Key)
			}
			var v int64
			if v, err = strconv.ParseInt(kv.Value, 10, 64); err == nil {
				if p.Own == nil {
					p.Own = map[string]int64{}
				}
				p.Own[kv.Key] = v
			}
		}
		if err != nil {
			return sandbox.Params{}, fmt.Errorf("%w: parameter %s=%q: %v", ErrPermalink, kv.Key, kv.Value, err)
		}
	}
	if sc != nil {
		if err := sc.CheckOwn(p.Own); err != nil {
			return sandbox.Params{}, fmt.Errorf("%w: %v", ErrPermalink, err)
		}
	}
	return p, nil
}

// LessonLink is the permalink of a lesson run: its knob values and log.
func LessonLink(id string, seed uint64, knobs map[string]float64, log core.ActionLog) RunLink {
	l := RunLink{Kind: LinkLesson, Name: id, Seed: seed, Log: log}
	keys := make([]string, 0, len(knobs))
	for k := range knobs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		l.Params = append(l.Params, Param{k, strconv.FormatFloat(knobs[k], 'g', -1, 64)})
	}
	return l
}

// Knobs returns a lesson link's knob values; the lesson checks their ids
// and ranges.
func (l RunLink) Knobs() (map[string]float64, error) {
	if l.Kind != LinkLesson {
		return nil, fmt.Errorf("%w: this link is a %s, not a lesson", ErrPermalink, l.Kind)
	}
	k := make(map[string]float64, len(l.Params))
	for _, p := range l.Params {
		v, err := strconv.ParseFloat(p.Value, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: knob %s=%q is not a number", ErrPermalink, p.Key, p.Value)
		}
		k[p.Key] = v
	}
	return k, nil
}
