package lab

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"leaselab/core"
)

// A ZooKeeper client's states and Consul's lock-delay read as sentences.
func TestNarrateClientStateAndLockDelay(t *testing.T) {
	e := core.Event{Actor: "A", Kind: core.KindClientState, Fields: []core.Field{
		core.S("state", "disconnected"), core.S("curator", "SUSPENDED"), core.S("why", "nothing from the server for 13.333s")}}
	assert.Equal(t, "A's client is disconnected (Curator calls it SUSPENDED): nothing from the server for 13.333s", Narrate(&e))
	d := core.Event{Actor: core.CoordinatorName, Kind: core.KindLockDelay, Fields: []core.Field{core.S("lock", "locks/leader"), core.D("until_ms", 45*time.Second)}}
	assert.Equal(t, "lock-delay: nobody may take locks/leader until t=45.000s", Narrate(&d))
}
