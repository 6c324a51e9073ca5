package core

// SystemWords are what a system calls the parts a front end draws: the
// server, the number it stamps on every write, and the lock's token. A
// learner who switches systems sees each in its own terms, not etcd's.
type SystemWords struct {
	Server  string // the coordinator box's title
	Version string // the number every write bumps ("" when there is none)
	Token   string // what a holder's token is ("" when it gets none)
	Created string // a key's creation number, as its queue is listed
	// Recipe is how contenders queue for the lock, in a few words.
	Recipe string
	// LeaseEnds says who ends a lease that is not renewed, and how; Takes
	// says who takes the lock from a holder that lost it.
	LeaseEnds, Takes string
}

// Words returns the system's words for what the lab draws.
func (s System) Words() SystemWords {
	switch s {
	case SystemZooKeeper:
		// Every transaction gets the next zxid; a lock node's czxid is the
		// zxid of its create (zookeeper.go).
		// The server expires a session a whole session timeout after it
		// last heard from the client (zookeeper.go).
		return SystemWords{Server: "ZooKeeper", Version: "zxid", Token: "czxid", Created: "czxid",
			Recipe:    "ZooKeeper's lock recipe (sequential nodes, each watching the one before)",
			LeaseEnds: "ZooKeeper expires the session", Takes: "ZooKeeper will give the lock to the next in line"}
	case SystemConsul:
		// The store's Raft index; the key's LockIndex counts acquisitions
		// (consul.go).
		// The server invalidates a session its TTL lapsed on (consul.go).
		return SystemWords{Server: "Consul", Version: "index", Token: "LockIndex", Created: "index",
			Recipe:    "one key per lock (every waiter woken, and they race)",
			LeaseEnds: "Consul invalidates the session", Takes: "another session will take the lock key"}
	case SystemKubernetes:
		// The API server's resourceVersion; leaseTransitions is a number
		// nothing checks (kubernetes.go).
		// Nothing expires on the server: each candidate judges the Lease
		// expired by its own clock, LeaseDuration after it last saw it
		// change (kubernetes.go).
		return SystemWords{Server: "Kubernetes API", Version: "resourceVersion", Token: "leaseTransitions", Created: "rv",
			Recipe:    "a Lease object every candidate polls (no queue)",
			LeaseEnds: "another candidate, timing the Lease by its own clock, takes it as expired (nothing expires on the server)",
			Takes:     "another candidate will take the Lease"}
	case SystemRedlock:
		// Independent Redis servers: no shared version, no token
		// (redlock.go).
		// Each key expires on its node by its PX (redlock.go).
		return SystemWords{Server: "Redis servers (majority)",
			Recipe:    "SET NX on every Redis node, won with a majority",
			LeaseEnds: "the keys expire on the Redis nodes", Takes: "another client will win a majority of the nodes"}
	}
	return SystemWords{Server: "Coordinator", Version: "revision", Token: "token", Created: "rev",
		Recipe:    "etcd's fair queue (each waiter watches the key before it)",
		LeaseEnds: "the coordinator expires the lease", Takes: "the coordinator will hand the lock to someone else"}
}
