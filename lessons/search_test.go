package lessons

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// What a lesson declares for the front end must name real things: a
// preset that exists, a search over processes its world has, a sweep of
// a knob it has.
func TestLessonDeclarationsNameRealThings(t *testing.T) {
	for _, l := range All() {
		if l.SandboxPreset != "" {
			_, err := sandbox.FindPreset(l.SandboxPreset)
			assert.NoError(t, err, "%s: sandbox preset", l.ID)
		}
		if s := l.Search; s != nil {
			assert.NoError(t, s.Bounds.Validate(), "%s: search bounds", l.ID)
			assert.LessOrEqual(t, s.Bounds.Count(), 5000.0, "%s: a search must take seconds in a browser tab", l.ID)
			assert.Contains(t, []core.Verb{core.VerbFencing, core.VerbIdempotency}, s.Protects, l.ID)
			w, err := l.Start(1, nil)
			require.NoError(t, err, l.ID)
			for _, name := range s.Bounds.Procs {
				found := w.Sim.Process(name) != nil || slices.ContainsFunc(w.Sim.Workers(), func(x *core.ShardWorker) bool { return x.Name() == name })
				assert.True(t, found, "%s: the search faults %q, which the world does not have", l.ID, name)
			}
		}
		if sw := l.Sweep; sw != nil {
			assert.True(t, slices.ContainsFunc(l.Knobs, func(k Knob) bool { return k.ID == sw.Knob }), "%s: sweeps knob %q", l.ID, sw.Knob)
		}
	}
}

func TestSearchSwitchIsTheVerbsName(t *testing.T) {
	assert.Equal(t, "idempotency", (&Search{Protects: core.VerbIdempotency}).Switch())
}
