package lab

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"leaselab/core"
)

// A ZooKeeper client's states and Consul's lock-delay read as sentences.
func TestNarrateClientStateAndLockDelay(t *testing.T) {
	e := core.NewEvent(0, "A", core.KindClientState, core.S(core.FState, "disconnected"), core.S(core.FCurator, "SUSPENDED"), core.S(core.FWhy, "nothing from the server for 13.333s"))
	assert.Equal(t, "A's client is disconnected (Curator calls it SUSPENDED): nothing from the server for 13.333s", Narrate(&e))
	d := core.NewEvent(0, core.CoordinatorName, core.KindLockDelay, core.S(core.FLock, "locks/leader"), core.D(core.FUntil, 45*time.Second))
	assert.Equal(t, "lock-delay: nobody may take locks/leader until t=45.000s", Narrate(&d))
}
