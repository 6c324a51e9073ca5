package setup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
)

func field(t *testing.T, s *Setup, name string) *Field {
	t.Helper()
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	require.Failf(t, "no field", "%s", name)
	return nil
}

func TestAPresetLoadsAndAChangeMarksTheTitle(t *testing.T) {
	s := New()
	require.NoError(t, s.UsePreset("leases"))
	assert.Equal(t, "Sandbox: leases", s.Title())
	assert.Empty(t, s.Errs)
	ttl := field(t, s, "ttl")
	s.Set(ttl, ttl.Get(&s.Config))
	assert.False(t, s.Changed, "setting the value it has changes nothing")
	s.Set(ttl, 45)
	assert.True(t, s.Changed)
	assert.Equal(t, "Sandbox: leases, changed", s.Title())
	assert.Contains(t, s.Intro()[0], "You changed some of its parameters.")
	assert.Error(t, s.UsePreset("no-such-preset"))
}

func TestAnInvalidSetupSaysWhyUnderItsField(t *testing.T) {
	s := New()
	renew := field(t, s, "renew")
	s.Set(field(t, s, "ttl"), 2)
	s.Set(renew, 10) // renewing after the lease is gone
	s.Check()
	require.NotEmpty(t, s.Errs)
	var msgs []string
	for _, f := range s.Fields {
		if f.Err != "" {
			msgs = append(msgs, f.Name+": "+f.Err)
		}
	}
	assert.NotEmpty(t, msgs, "some field shows the problem")
}

func TestAChoiceStepsRoundItsChoices(t *testing.T) {
	s := New()
	pauses := field(t, s, "pauses")
	assert.Equal(t, "none", pauses.Value(&s.Config))
	s.Next(pauses)
	assert.Equal(t, core.PauseFixed, s.Config.Pauses.Kind)
	s.Next(pauses)
	s.Next(pauses)
	assert.Equal(t, core.PauseNone, s.Config.Pauses.Kind, "round to the first")
	assert.False(t, field(t, s, "pause_alpha").Applies(&s.Config), "no tail without heavy-tailed pauses")
}

func TestTheSummaryNamesTheWorld(t *testing.T) {
	c := core.DefaultSandbox()
	sum := Summary(c)
	assert.True(t, strings.Contains(sum, "processes") && strings.Contains(sum, "fencing"), sum)
	c.Shards, c.Workers = 8, 3
	assert.Contains(t, Summary(c), "8 shards over 3 workers")
}
