package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every system the engine names has an implementation of the seam, and
// each process gets a client of its own: two processes never share one.
func TestEverySystemHasItsRulesAndEachProcessItsOwnClient(t *testing.T) {
	require.Len(t, systems, len(SystemNames()), "one implementation per system")
	for _, name := range SystemNames() {
		s, err := ParseSystem(name)
		require.NoError(t, err)
		rules := s.rules()
		require.NotNil(t, rules, name)
		a, b := rules.newClient(), rules.newClient()
		assert.NotSame(t, a, b, "%s: each process has its own client state", name)
		assert.NotSame(t, a, a.clone(), "%s: a clone has its own client state", name)
	}
}
