package core

import (
	"testing"
	"time"
)

// What the external tests (package core_test) need of core's insides: they
// take their worlds from core/sandbox, which the internal tests cannot
// import (it imports core).

// SetTraceBudget lowers the trace budget for the test.
func SetTraceBudget(tb testing.TB, n int) {
	old := traceBudget
	traceBudget = n
	tb.Cleanup(func() { traceBudget = old })
}

// EtcdClientOf is p's etcd client (nil on another system).
func EtcdClientOf(p *Process) *etcdClient { return p.etcd() }

// ZKBucket is the ZooKeeper tick an expiry due at t falls on.
func ZKBucket(t time.Duration) time.Duration { return zkBucket(t) }

// The internal tests' helpers the external ones share.
var (
	EventsBy    = eventsBy
	CheckCauses = checkCauses
	RunHash     = runHash
)
