package permalink

import (
	"leaselab/core/sandbox"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A link carries a scenario's own setting under its name (the name links
// used before settings were the scenario's, so old links still open), and
// refuses one the scenario does not have.
func TestAScenarioLinkCarriesItsOwnSettings(t *testing.T) {
	p := sandbox.Params{Seed: 4, Own: map[string]int64{"stale-token": 3}, Duration: 30 * time.Second}
	l := ScenarioLink("hands-on-lab", p)
	assert.Contains(t, l.Params, Param{"stale-token", "3"})
	back, err := DecodeLink(l.Encode())
	require.NoError(t, err)
	q, err := back.ScenarioParams()
	require.NoError(t, err)
	assert.Equal(t, p.Own, q.Own)

	for _, bad := range []RunLink{
		{Kind: LinkScenario, Name: "fenced-register", Params: []Param{{"stale-token", "3"}}},
		{Kind: LinkScenario, Name: "hands-on-lab", Params: []Param{{"stale-token", "x"}}},
		{Kind: LinkScenario, Name: "hands-on-lab", Params: []Param{{"stale-token", "-2"}}},
		{Kind: LinkScenario, Name: "hands-on-lab", Params: []Param{{"stale-token", "1"}, {"stale-token", "2"}}},
	} {
		_, err := bad.ScenarioParams()
		assert.ErrorIs(t, err, ErrPermalink, "%v", bad.Params)
	}
}
