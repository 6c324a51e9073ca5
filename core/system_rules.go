package core

import "time"

// The seam between the engine and the coordination systems, as
// database/sql meets its drivers: the coordinator and the processes call
// these two small interfaces and name no system. Each system implements
// them in files of its own (etcd.go, zookeeper*.go, consul*.go,
// kubernetes.go, redlock.go); the implementation is chosen once, where the
// world is built (World.Build configures the coordinator, AddProcess makes
// each process's client). etcd's implementation is the default the others
// embed: a system overrides only the steps it does its own way, so adding
// a system touches that system's files and the table below, not the
// engine.

// serverRules is what a coordination system's server does its own way.
type serverRules interface {
	// configure turns a fresh coordinator into the system's server.
	configure(c *Coordinator, spec CoordinatorSpec)
	// receive answers a request the system's server answers itself;
	// false leaves it to the shared (etcd) requests.
	receive(c *Coordinator, from string, m Message) bool
	// expiry is when a session granted or renewed now with this TTL
	// expires on the server.
	expiry(c *Coordinator, ttl time.Duration) time.Duration
	// promoted is a session's new expiry when a new cluster leader
	// re-arms it (cluster.go's promote).
	promoted(c *Coordinator, l *Lease) time.Duration
	// sessionWrites reports whether ending a session is a write of its
	// own (a new revision) even when it deletes no key.
	sessionWrites() bool
	// ended runs after a session ended and its attached keys were
	// deleted: kind says how (expired or revoked).
	ended(c *Coordinator, l *Lease, kind Kind)
	// nextSweep is when the expiry sweep armed now goes off.
	nextSweep(c *Coordinator) time.Duration
	// pathConnection reports a client connection that dies with its
	// network path: what was in flight is lost and the client reconnects
	// by itself (ZooKeeper's TCP session), where otherwise the requests
	// wait in the connection and go out once the path is back.
	pathConnection() bool
}

// clientRules is a process's client of the system: its campaign, its
// answers to replies and its timers. An implementation keeps its own
// state (one value per process); the session's shared state (lease,
// key, token, local deadline) stays on Process.
type clientRules interface {
	// campaign starts a campaign for the process's lock (the state
	// machine's fnCampaign, and a restart).
	campaign(p *Process)
	// exec runs one of the process's tasks the system runs its own way;
	// false leaves it to the shared steps (process.go).
	exec(p *Process, t task) bool
	// handle takes a reply the system handles its own way; false leaves
	// it to the shared steps.
	handle(p *Process, m Message) bool
	// release gives the lock up the system's own way (Process.Release);
	// false: the shared step-down, which revokes the session.
	release(p *Process) bool
	// unlock ends a held session the system's own way when the process
	// steps down; false: the shared revoke is sent.
	unlock(p *Process) bool
	// crashed forgets what a crash loses.
	crashed()
	// clone copies the client's state for a cloned world.
	clone() clientRules
}

// system is one coordination system: its server's rules and a maker of
// its clients.
type system interface {
	serverRules
	newClient() clientRules
}

// systems is every system the engine can run, by System.
var systems = [...]system{
	SystemEtcd:       etcdSystem{},
	SystemZooKeeper:  zooKeeperSystem{},
	SystemConsul:     consulSystem{},
	SystemKubernetes: kubernetesSystem{},
	SystemRedlock:    redlockSystem{},
}

// rules returns the system's implementation (an unknown one: etcd's,
// which a world never runs: Validate refuses it first).
func (s System) rules() system {
	if s < 0 || int(s) >= len(systems) {
		return etcdSystem{}
	}
	return systems[s]
}

// servedRequest is a request of a system whose server is etcd's with an
// API of its own on top (Kubernetes's Lease objects): the shared server
// answers it by its serve method.
type servedRequest interface {
	Message
	serve(c *Coordinator, from string) Message
}
