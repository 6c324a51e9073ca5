package sandbox

import (
	"leaselab/core"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A preset whose own script freezes its leader for 20 s is not called
// safe "even after the worst pause": the scripted pause counts as one,
// and the verdict says whose it is. Without the script the same numbers
// pass, in Kubernetes' words (no server expires the Lease).
func TestTheSandboxVerdictCountsTheScriptedPause(t *testing.T) {
	p, err := FindPreset("kubernetes")
	require.NoError(t, err)
	c := p.Config
	require.Contains(t, c.Actions, SystemPause, "the preset scripts a 20 s pause")

	v := c.PolicyVerdict()
	assert.False(t, v.OK, "2 x 2 s + 20 s > 15 s: %s", v.Explanation)
	assert.NotContains(t, v.Explanation, "even after the worst pause")
	assert.Contains(t, v.Explanation, "(the worst pause is the setup's own: A frozen for 20 s at 60 s)")
	assert.Contains(t, v.Explanation, "another candidate will take the Lease")
	assert.NotContains(t, v.Explanation, "coordinator")

	c.Actions = nil
	v = c.PolicyVerdict()
	assert.True(t, v.OK, v.Explanation)
	assert.Contains(t, v.Explanation, "by its own clock")
	assert.NotContains(t, v.Explanation, "setup's own")

	// A scripted pause shorter than the pause model's worst changes
	// nothing.
	c.Actions = core.ActionLog{core.At(0, core.Action{Do: core.VerbPause, Proc: "A", For: core.Duration(c.Pauses.Budget())})}
	assert.Equal(t, c.Policy().Check().OK, c.PolicyVerdict().OK)
	assert.NotContains(t, c.PolicyVerdict().Explanation, "setup's own")
}

// Every preset's verdict speaks its own system's words.
func TestEveryPresetsVerdictIsInItsSystemsWords(t *testing.T) {
	for _, p := range Presets() {
		v := p.Config.PolicyVerdict()
		if p.Config.System != core.SystemEtcd {
			assert.NotContains(t, v.Explanation, "the coordinator", "%s: %s", p.Name, v.Explanation)
		}
		if !v.OK {
			assert.NotContains(t, v.Explanation, "even after the worst pause", p.Name)
		}
	}
}

// Consul's verdict names the TTL the learner set and why the lease lasts
// twice as long: its server expires a session after 2 x TTL (issue 29: a
// bare "ttl 30 s" stood beside the 15 s TTL slider). Every wording says
// it, down to the rule alone; the sums are the server's 30 s.
func TestConsulsVerdictSaysTheTTLSetAndWhyTheLeaseLastsTwice(t *testing.T) {
	p, err := FindPreset("consul")
	require.NoError(t, err)
	c := p.Config
	require.Equal(t, 15*time.Second, c.TTL, "the preset's TTL slider")

	v := c.PolicyVerdict()
	for _, said := range append([]string{v.Explanation}, v.Shorter...) {
		assert.Contains(t, said, "ttl 15 s, expiring after 2 x ttl = 30 s", said)
		assert.NotContains(t, said, "ttl 30 s", said)
	}
	assert.Contains(t, v.Explanation, "finds 2 x ttl - renew = 22.5 s left", "the lease left, in the server's numbers")
	assert.Equal(t, 30*time.Second-v.Need, v.Margin, "the rule judges the server's 30 s")

	// etcd's lease lasts its TTL, and says so as before.
	c.System = core.SystemEtcd
	v = c.PolicyVerdict()
	assert.Contains(t, v.Explanation, "ttl 15 s (")
	assert.NotContains(t, v.Explanation, "expiring after")
}
