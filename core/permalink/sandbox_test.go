package permalink

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// sandboxVariants are setups a learner can reach from each preset: the
// preset itself and one or several settings changed.
type sandboxVariant struct {
	preset string
	c      sandbox.Config
}

func sandboxVariants() map[string]sandboxVariant {
	out := map[string]sandboxVariant{"default": {"", sandbox.Default()}}
	for _, p := range sandbox.Presets() {
		out[p.Name] = sandboxVariant{p.Name, p.Config}
		c := p.Config
		c.TTL, c.Seed = 17*time.Second, 42
		out[p.Name+" with a 17 s TTL, seed 42"] = sandboxVariant{p.Name, c}
	}
	c := sandbox.Default()
	c.Procs, c.Names = 2, []string{"alpha", "beta"}
	c.Pauses = sandbox.PauseDist{Kind: sandbox.PauseHeavyTail, Every: 20 * time.Second, Scale: 1500 * time.Millisecond, Alpha: 1.7, Max: 12 * time.Second}
	c.Links = []sandbox.LinkConfig{{A: "alpha", B: core.CoordinatorName, Delay: 750 * time.Millisecond, Jitter: 0.3}}
	c.Fencing, c.Workload, c.Idempotency = false, sandbox.WorkloadJobs, true
	c.RetryJitter, c.Jitter, c.WriteLatency = 1.25, 0.05, 80*time.Millisecond
	out["two named contenders, heavy-tailed pauses, a slow link, jobs"] = sandboxVariant{"", c}
	k := sandbox.Default()
	k.System, k.TTL, k.RenewDeadline = core.SystemKubernetes, 15*time.Second, 9*time.Second
	out["kubernetes with its renew deadline"] = sandboxVariant{"", k}
	r := sandbox.Default()
	r.System, r.RedisNodes = core.SystemRedlock, 5
	out["redlock on five nodes"] = sandboxVariant{"", r}
	m := sandbox.Default()
	m.Members = 3
	out["etcd of three members"] = sandboxVariant{"", m}
	return out
}

// A sandbox run's link, opened, is the same setup and log, so it plays the
// same trace: every preset, and setups changed from them.
func TestASandboxLinkReproducesTheRun(t *testing.T) {
	log := core.ActionLog{core.At(3*time.Second, core.Pause("A", 12*time.Second))}
	for name, v := range sandboxVariants() {
		t.Run(name, func(t *testing.T) {
			preset, c := v.preset, v.c
			require.Empty(t, c.Validate(), "the variant is a setup the sandbox accepts")
			l, err := SandboxLink(preset, c, log)
			require.NoError(t, err)
			require.NoError(t, l.Check(), "the link fits the decoder's limits")
			back, err := DecodeLink(l.Encode())
			require.NoError(t, err)
			gotPreset, got, err := back.Sandbox()
			require.NoError(t, err)
			assert.Equal(t, preset, gotPreset)
			assert.Equal(t, c, got, "the setup comes back field for field")
			assert.Equal(t, log, back.Log)

			a, err := c.Build()
			require.NoError(t, err)
			b, err := got.Build()
			require.NoError(t, err)
			for _, s := range []*core.Sim{a, b} {
				s.Schedule(back.Log)
				s.RunUntil(time.Minute)
			}
			assert.Equal(t, a.Trace.Hash(), b.Trace.Hash(), "the same run")
		})
	}
}

// Only what differs from the preset, as the sandbox opens it (with its
// story's length), travels: an unchanged preset's link holds no settings
// at all.
func TestASandboxLinkHoldsOnlyTheChanges(t *testing.T) {
	_, err := sandbox.FindPreset(SandboxDefault)
	require.Error(t, err, "no preset takes the default setup's name")
	p, err := sandbox.FindPreset("etcd")
	require.NoError(t, err)
	l, err := SandboxLink(p.Name, p.Open(), nil)
	require.NoError(t, err)
	assert.Empty(t, l.Params)
	c := p.Open()
	c.TTL = 25 * time.Second
	l, err = SandboxLink(p.Name, c, nil)
	require.NoError(t, err)
	assert.Equal(t, []Param{{"ttl", "25s"}}, l.Params)
}

// A link that names a setting twice, an unknown one, a malformed value or
// a setup the sandbox would refuse is an error that says which; it never
// opens a world.
func TestABadSandboxLinkIsRefusedWithItsReason(t *testing.T) {
	for _, c := range []struct {
		name string
		link RunLink
		want string
	}{
		{"unknown setting", RunLink{Kind: LinkSandbox, Params: []Param{{"colour", "red"}}}, `unknown sandbox setting "colour"`},
		{"twice", RunLink{Kind: LinkSandbox, Params: []Param{{"ttl", "5s"}, {"ttl", "6s"}}}, `"ttl" given twice`},
		{"malformed duration", RunLink{Kind: LinkSandbox, Params: []Param{{"ttl", "soon"}}}, `ttl="soon"`},
		{"malformed link", RunLink{Kind: LinkSandbox, Params: []Param{{"links", "A-coordinator"}}}, "A>B:delay:jitter"},
		{"refused by the sandbox", RunLink{Kind: LinkSandbox, Params: []Param{{"procs", "99"}}}, "the sandbox refuses this setup"},
		{"unknown system", RunLink{Kind: LinkSandbox, Params: []Param{{"system", "chubby"}}}, `unknown system "chubby"`},
		{"unknown preset", RunLink{Kind: LinkSandbox, Name: "nope"}, "nope"},
		{"not a sandbox link", RunLink{Kind: LinkLesson, Name: "leases"}, "not a sandbox run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := c.link.Sandbox()
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrPermalink)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	_, err := SandboxLink("etcd", func() sandbox.Config {
		c := sandbox.Default()
		c.Actions = core.ActionLog{core.At(time.Second, core.Crash("A"))}
		return c
	}(), nil)
	assert.ErrorContains(t, err, "scripted actions are not those of its preset")
}
