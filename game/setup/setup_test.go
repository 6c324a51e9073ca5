package setup

import (
	"leaselab/core/sandbox"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.Equal(t, sandbox.PauseFixed, s.Config.Pauses.Kind)
	s.Next(pauses)
	s.Next(pauses)
	assert.Equal(t, sandbox.PauseNone, s.Config.Pauses.Kind, "round to the first")
	assert.False(t, field(t, s, "pause_alpha").Applies(&s.Config), "no tail without heavy-tailed pauses")
}

func TestTheSummaryNamesTheWorld(t *testing.T) {
	c := sandbox.Default()
	sum := Summary(c)
	assert.True(t, strings.Contains(sum, "processes") && strings.Contains(sum, "fencing"), sum)
	c.Shards, c.Workers = 8, 3
	assert.Contains(t, Summary(c), "8 shards over 3 workers")
}

// Each preset opens in the sandbox with a length that fits its story
// (one to five minutes): its last scripted action falls in the timeline's
// first three quarters, and the real systems' pause (60 s to 80 s) ends
// past the middle, not at 13 % as with ten minutes; labctl keeps running
// the preset's own ten minutes.
func TestEachPresetOpensWithALengthThatFitsItsStory(t *testing.T) {
	for _, p := range sandbox.Presets() {
		s := New()
		require.NoError(t, s.UsePreset(p.Name))
		d := s.Config.Duration
		assert.Less(t, d, p.Config.Duration, "%s: shorter than ten minutes", p.Name)
		assert.False(t, s.Changed, "%s: the story's length is the preset's own", p.Name)
		assert.Empty(t, s.Errs, "%s: valid", p.Name)
		if acts := p.Config.Actions.Sorted(); len(acts) > 0 {
			last := acts[len(acts)-1].At.D()
			assert.Less(t, float64(last)/float64(d), 0.75, "%s: room to watch what follows", p.Name)
			if acts[len(acts)-1].Action == sandbox.SystemPause.Action {
				assert.GreaterOrEqual(t, float64(80*time.Second)/float64(d), 0.5, "%s: the pause's story fills the timeline", p.Name)
			}
		}
		assert.GreaterOrEqual(t, d, time.Minute, p.Name)
		assert.LessOrEqual(t, d, 5*time.Minute, p.Name)
		assert.Equal(t, 10*time.Minute, p.Config.Duration, "%s: labctl's run is unchanged", p.Name)
	}
}
