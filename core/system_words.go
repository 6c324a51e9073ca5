package core

// SystemWords are what a system calls the parts a front end draws: the
// server, the number it stamps on every write, and the lock's token. A
// learner who switches systems sees each in its own terms, not etcd's.
type SystemWords struct {
	Server  string // the coordinator box's title
	Version string // the number every write bumps ("" when there is none)
	Token   string // what a holder's token is ("" when it gets none)
	Created string // a key's creation number, as its queue is listed
}

// Words returns the system's words for what the lab draws.
func (s System) Words() SystemWords {
	switch s {
	case SystemZooKeeper:
		// Every transaction gets the next zxid; a lock node's czxid is the
		// zxid of its create (zookeeper.go).
		return SystemWords{Server: "ZooKeeper", Version: "zxid", Token: "czxid", Created: "czxid"}
	case SystemConsul:
		// The store's Raft index; the key's LockIndex counts acquisitions
		// (consul.go).
		return SystemWords{Server: "Consul", Version: "index", Token: "LockIndex", Created: "index"}
	case SystemKubernetes:
		// The API server's resourceVersion; leaseTransitions is a number
		// nothing checks (kubernetes.go).
		return SystemWords{Server: "Kubernetes API", Version: "resourceVersion", Token: "leaseTransitions", Created: "rv"}
	case SystemRedlock:
		// Independent Redis servers: no shared version, no token
		// (redlock.go).
		return SystemWords{Server: "Redis servers (majority)"}
	}
	return SystemWords{Server: "Coordinator", Version: "revision", Token: "token", Created: "rev"}
}
