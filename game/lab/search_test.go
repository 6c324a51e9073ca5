package lab

import (
	"testing"

	"leaselab/core"
)

// Every preset either maps onto a search small enough for a browser tab
// or says why not.
func TestSandboxSearchForEveryPreset(t *testing.T) {
	offered := 0
	for _, p := range core.Presets() {
		spec, why := SandboxSearch(p.Config)
		if why != "" {
			t.Logf("%s: %s", p.Name, why)
			continue
		}
		offered++
		if err := spec.Bounds.Validate(); err != nil || spec.Bounds.Count() > 5000 {
			t.Errorf("%s: %.0f schedules (%v)", p.Name, spec.Bounds.Count(), err)
		}
	}
	if offered < len(core.Presets())/2 {
		t.Errorf("only %d presets can be searched", offered)
	}
	c := core.DefaultSandbox()
	c.Shards, c.Workers = 8, 1
	if _, why := SandboxSearch(c); why != "one worker: nobody else can take its shards" {
		t.Errorf("one worker: %q", why)
	}
}
