package sandbox

import (
	"leaselab/core"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A scenario declares the settings it alone has; the common Params carry
// no scenario's knowledge. The hands-on lab's late write takes its token
// from its own "stale-token" setting.
func TestTheHandsOnLabsLateWriteTakesItsOwnSetting(t *testing.T) {
	sc, err := FindScenario("hands-on-lab")
	require.NoError(t, err)
	require.Len(t, sc.Own, 1)
	assert.Equal(t, "stale-token", sc.Own[0].Name)

	late := func(own map[string]int64) core.Event {
		r, err := sc.Run(Params{Seed: 1, Own: own})
		require.NoError(t, err)
		for _, e := range core.Writes(r.Sim.Trace) {
			if e.Value() == "late A" {
				return e
			}
		}
		require.FailNow(t, "no late write in the run")
		return core.Event{}
	}
	own, three := late(nil), late(map[string]int64{"stale-token": 3})
	assert.Equal(t, int64(1), own.Token(), "by default A writes with the token it holds")
	assert.Equal(t, core.RejectedStale, own.Result())
	assert.Equal(t, int64(3), three.Token())
	assert.Equal(t, core.Accepted, three.Result(), "3 is above B's 2")
}

func TestAScenarioRefusesSettingsItDoesNotHave(t *testing.T) {
	fenced, err := FindScenario("fenced-register")
	require.NoError(t, err)
	_, err = fenced.Run(Params{Own: map[string]int64{"stale-token": 3}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `scenario fenced-register has no setting "stale-token" (its own settings: none)`)

	lab, err := FindScenario("hands-on-lab")
	require.NoError(t, err)
	_, err = lab.Run(Params{Own: map[string]int64{"warp": 1}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `its own settings: stale-token`)
	_, err = lab.Run(Params{Own: map[string]int64{"stale-token": -1}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "out of range")
}

// A scenario's world carries its script and the caller's actions after it.
func TestAScenarioWritesItsScriptAndTheCallersActions(t *testing.T) {
	sc, err := FindScenario("hands-on-lab")
	require.NoError(t, err)
	extra := core.At(20*time.Second, core.Crash("B"))
	w, err := sc.World(Params{Seed: 1, Actions: core.ActionLog{extra}})
	require.NoError(t, err)
	assert.Equal(t, append(handsOnScript(0), extra), w.Script)
	_, log, err := sc.Build(Params{Seed: 1, Actions: core.ActionLog{extra}})
	require.NoError(t, err)
	assert.Equal(t, w.Script, log)
}
