package core

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A lease ID prints as fmt's %016x does (etcdctl's form), for every shape
// of ID: small, a member's real IDs, the extremes and negatives.
func TestLeaseIDStringIsFixedWidthHex(t *testing.T) {
	for _, id := range []LeaseID{0, 1, 0xabc, 0x694d7a3c1b2e8804, math.MaxInt64, -1, math.MinInt64, -0x1234} {
		assert.Equal(t, fmt.Sprintf("%016x", int64(id)), id.String(), "%d", int64(id))
	}
	s := NewSim(3)
	for range 5 {
		id := s.Coord.Grant("A", 10e9).ID
		assert.Equal(t, fmt.Sprintf("%016x", int64(id)), id.String())
	}
}
