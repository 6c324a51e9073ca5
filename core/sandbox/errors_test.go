package sandbox

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

// Callers test what went wrong by errors.Is and errors.As, never by the
// message's words; the messages stay what the learner has always read.
func TestAnUnknownPresetOrScenarioIsANamedError(t *testing.T) {
	_, err := FindPreset("nomad")
	require.ErrorIs(t, err, ErrUnknownPreset)
	assert.Equal(t, `unknown preset "nomad" (known: `, err.Error()[:len(`unknown preset "nomad" (known: `)])
	_, err = FindScenario("nowhere")
	require.ErrorIs(t, err, ErrUnknownScenario)
	assert.Contains(t, err.Error(), `unknown scenario "nowhere" (known: hands-on-lab, `)
}

func TestAnInvalidConfigurationCarriesEveryFieldError(t *testing.T) {
	c := Default()
	c.TTL, c.Procs = 0, 0
	_, err := c.World()
	require.ErrorIs(t, err, ErrInvalid)
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
	assert.Equal(t, c.Validate(), inv.Fields)
	assert.Equal(t, []string{FieldProcs, FieldTTL}, []string{inv.Fields[0].Field, inv.Fields[1].Field})
	assert.Equal(t, "sandbox: invalid configuration: procs: want 1 to 12 processes, got 0; ttl: the TTL must be at least 1 ms, got 0 s", err.Error())
	_, err = c.Build()
	assert.ErrorAs(t, err, &inv, "Build refuses with the same error")
}

// Every setting a system may refuse comes back under a sandbox field, so
// the setup panel shows it beside the right control.
func TestEverySystemSettingHasASandboxField(t *testing.T) {
	for id := core.SettingSystem; id <= core.SettingShards; id++ {
		assert.NotEmpty(t, settingFields[id], "setting %d", id)
	}
	c := Default()
	c.System, c.TTL = core.SystemConsul, 5*time.Second
	errs := c.Validate()
	require.Len(t, errs, 1)
	assert.Equal(t, FieldTTL, errs[0].Field, "Consul's refusal of the TTL, under the TTL field")
}
