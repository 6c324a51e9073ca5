package conform

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The stalled-connection table reads each run from A's last keepalive
// answer before the stall: the interval of A's keepalives, the delete,
// B's acquisition and A learning it lost, each as time since that answer,
// and whether A learned before or after B held; a measure a run lacks is
// "-". Other scenarios have no table.
func TestTheStalledConnectionTableReadsFromTheLastKeepaliveBeforeTheStall(t *testing.T) {
	s := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
	sc := &Scenario{Name: "stalled-connection", Steps: []Step{{At: s(5), Do: "stall"}}}
	real := &Run{Obs: []Obs{
		{At: s(0.1), Who: "A", What: "granted"},
		{At: s(0.2), Who: "A", What: "acquired", Token: 2},
		{At: s(0.3), Who: "A", What: "keepalive"},
		{At: s(2.3), Who: "A", What: "keepalive"},
		{At: s(4.3), Who: "A", What: "keepalive"},
		{At: s(6), Who: "A", What: "keepalive"}, // after the stall: not counted
		{At: s(10.3), Who: "A", What: "deleted"},
		{At: s(10.4), Who: "B", What: "acquired", Token: 3},
		{At: s(11.3), Who: "A", What: "lost"},
	}}
	sim := &Run{Obs: []Obs{{At: s(0.1), Who: "A", What: "granted"}}}
	table := Figures(sc, real, sim)
	for _, row := range []string{
		"keepalive interval                 2.000 s          -",
		"first keepalive after grant        +0.200 s         -",
		"server deletes A's key             +6.000 s         -",
		"B acquires                         +6.100 s         -",
		"A learns it lost the lease         +7.000 s         -",
		"A learns, relative to B holding    0.90 s after     -",
		"tokens A / B                       2 / 3            -",
	} {
		assert.Contains(t, table, row)
	}
	assert.Empty(t, Figures(&Scenario{Name: "pause-expiry"}, real, sim))
}
