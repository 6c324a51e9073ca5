package core_test

import (
	"leaselab/core"
	"leaselab/core/sandbox"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sandbox's Members field makes its coordinator a cluster, refused
// where the model has none, with the field named.
func TestTheSandboxsMembersField(t *testing.T) {
	c := sandbox.Default()
	c.Members = 3
	s, err := c.Build()
	require.NoError(t, err)
	assert.Equal(t, []string{"member-1", "member-2", "member-3"}, s.Coord.Members())
	assert.Zero(t, c.OnSystem(core.SystemRedlock).Members, "the same world on Redlock has no members")
	assert.Equal(t, 3, c.OnSystem(core.SystemZooKeeper).Members)
	c = c.OnSystem(core.SystemRedlock)
	c.Members = 3
	errs := c.Validate()
	require.NotEmpty(t, errs)
	assert.Equal(t, sandbox.FieldMembers, errs[0].Field)
	assert.Contains(t, errs[0].Msg, "Redlock has no coordinator cluster")
}
