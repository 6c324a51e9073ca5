package lab

import (
	"leaselab/core/sandbox"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every preset either maps onto a search small enough for a browser tab
// or says why not.
func TestSandboxSearchForEveryPreset(t *testing.T) {
	offered := 0
	for _, p := range sandbox.Presets() {
		spec, why := SandboxSearch(p.Config)
		if why != "" {
			t.Logf("%s: %s", p.Name, why)
			continue
		}
		offered++
		require.NoError(t, spec.Bounds.Validate(), p.Name)
		assert.Contains(t, spec.Given, "the setup as it is", "%s: a break with no fault added is the setup's own, not a lesson's", p.Name)
		assert.LessOrEqual(t, spec.Bounds.Count(), 5000.0, "%s: schedules to search", p.Name)
	}
	assert.GreaterOrEqual(t, offered, len(sandbox.Presets())/2, "presets that can be searched")
	c := sandbox.Default()
	c.Shards, c.Workers = 8, 1
	_, why := SandboxSearch(c)
	assert.Equal(t, "one worker: nobody else can take its shards", why)
}
