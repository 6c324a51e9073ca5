package core

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A worker giving shards back says why as it always has, for whatever
// number of live workers and fair share, however often they change.
func TestARebalanceSaysWhyWithTheLiveWorkersAndTheFairShare(t *testing.T) {
	var w ShardWorker
	for _, c := range [][2]int{{3, 43}, {3, 43}, {4, 32}, {3, 43}, {12, 11}, {1, 128}} {
		assert.Equal(t, fmt.Sprintf("rebalance: %d live workers, fair share %d", c[0], c[1]), w.rebalanceWhy(c[0], c[1]))
	}
}
