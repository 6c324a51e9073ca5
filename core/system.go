package core

import (
	"fmt"
	"strings"
)

// System is the coordination system a world runs on. Each one is modelled
// as itself: its own server-side expiry, its own client states and its own
// token (see the file named after each system). The zero value is etcd, the
// model every lesson was written against, so a configuration that never
// names a system keeps its behaviour and its trace.
type System int

const (
	// SystemEtcd is etcd 3.7: leases with a server-side TTL, KeepAlive,
	// concurrency.Mutex/Election, the create revision as the token.
	SystemEtcd System = iota
	// SystemZooKeeper is ZooKeeper 3.8 with the lock recipe: sessions
	// expired in tickTime buckets, ephemeral sequential nodes, czxid.
	SystemZooKeeper
	// SystemConsul is Consul's api.Lock: one key acquired by a session,
	// waiters on blocking queries, lock-delay, LockIndex.
	SystemConsul
	// SystemKubernetes is client-go leader election on a Lease object: no
	// server-side expiry, candidates judge expiry by their own clock.
	SystemKubernetes
	// SystemRedlock is Redlock as redsync implements it: N independent
	// Redis nodes, SET NX PX on each, no fencing token.
	SystemRedlock
)

var systemNames = []string{"etcd", "zookeeper", "consul", "kubernetes", "redlock"}

func (s System) String() string {
	if s < 0 || int(s) >= len(systemNames) {
		return fmt.Sprintf("System(%d)", int(s))
	}
	return systemNames[s]
}

// SystemNames lists the systems' names in order.
func SystemNames() []string { return append([]string(nil), systemNames...) }

// ParseSystem turns a name ("etcd", "zookeeper", "consul", "kubernetes",
// "redlock") into a System.
func ParseSystem(s string) (System, error) {
	for i, n := range systemNames {
		if strings.EqualFold(s, n) {
			return System(i), nil
		}
	}
	return 0, fmt.Errorf("unknown system %q (known: %s)", s, strings.Join(systemNames, ", "))
}
