package core

import (
	"fmt"
	"time"
)

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
	// re-arms it (cluster.go's promote), and rearmWhy says so in words.
	promoted(c *Coordinator, l *Lease) time.Duration
	rearmWhy() string
	// quorumless is how a member gives up a request it held for a leader
	// (cluster.go's giveUp), in the system's own words.
	quorumless(m Message) string
	// dropsClients reports a server that closes its clients' connections
	// when it leaves its quorum (ZooKeeper's): they reconnect to another
	// member with their session, where otherwise a member holds their
	// requests until a leader serves them or it gives up.
	dropsClients() bool
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
// state (one value per process; etcd's too: etcd_client.go); the
// session's shared state (lease, key, token, local deadline) stays on
// Process.
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
	// ended runs first when the process's session ends (lost or given
	// up): the client forgets the session's own state.
	ended(p *Process)
	// crashed forgets what a crash loses.
	crashed()
	// clone copies the client's state for a cloned world.
	clone() clientRules
}

// sharedClient is the default of the clientRules steps a client may
// leave to process.go's shared code: a client embeds it and overrides
// what its system does its own way. Every client campaigns, runs its
// tasks and takes its replies its own way (exec and handle fall back to
// the shared steps by returning false).
type sharedClient struct{}

func (sharedClient) release(*Process) bool { return false }
func (sharedClient) unlock(*Process) bool  { return false }
func (sharedClient) ended(*Process)        {}
func (sharedClient) crashed()              {}

// system is one coordination system: its server's rules, its
// configuration's and a maker of its clients.
type system interface {
	serverRules
	configRules
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

// rules returns the system's implementation (an unknown one: unmodelled,
// which a world never runs: Validate refuses it first).
func (s System) rules() system {
	if !s.known() {
		return unmodelled{}
	}
	return systems[s]
}

// unmodelled stands for a System value no implementation has: nothing
// of etcd's applies to it, and switching a sandbox to it keeps its
// lock-delay for Validate to refuse along with the rest.
type unmodelled struct {
	etcdServer
	libraryConfig
}

func (unmodelled) newClient() clientRules { return newEtcdClient() }

// check: SystemSettings.Check refuses the system itself first.
func (unmodelled) check(SystemSettings, bool) []SettingError { return nil }

func (unmodelled) onSystem(c *SystemSettings) {
	c.FirstToken, c.Recipe, c.RenewEvery = 0, RecipeEtcd, 0
}

// servedRequest is a request of a system whose server is etcd's with an
// API of its own on top (Kubernetes's Lease objects): the shared server
// answers it by its serve method.
type servedRequest interface {
	Message
	serve(c *Coordinator, from string) Message
}

// configRules is what a system refuses, changes or charges in a
// free-play world's settings before a world is built
// (system_settings.go holds what every system shares; core/sandbox
// writes the settings).
type configRules interface {
	// checkContention refuses what the system cannot run.
	checkContention(c ContentionConfig) error
	// contention makes the world's coordinator, contenders and nodes the
	// system's.
	contention(c *ContentionConfig, w *World)
	// check lists what the system refuses in the settings (ttlOK: the
	// TTL itself passed the shared checks).
	check(c SystemSettings, ttlOK bool) []SettingError
	// contentionOf passes the system's settings on to a contention
	// world.
	contentionOf(c SystemSettings, cc *ContentionConfig)
	// onSystem drops or sets what a world switched to the system must
	// (SystemSettings.OnSystem).
	onSystem(c *SystemSettings)
	// notes says what the system will do otherwise than asked.
	notes(c SystemSettings) []string
	// policy is the lease policy of the settings, in the system's numbers.
	policy(c SystemSettings) LeasePolicy
	// leaderRenewal is the period a leader renews on when the settings
	// set none, if it is not a third of the TTL.
	leaderRenewal(c SystemSettings) (time.Duration, bool)
	// budgetRenewal is the period the run budget charges a process whose
	// cost is not etcd's keepalives (false: it is).
	budgetRenewal(retry time.Duration) (time.Duration, bool)
	// firstToken reports whether a world may set a lock's first token.
	firstToken() bool
	// clustered reports whether a coordinator of several members is
	// modelled for the system.
	clustered() bool
	// ownSetting says in one line why a free-play setting means nothing
	// on the system, which brings its own ("" when the world's value is
	// used).
	ownSetting(id SettingID) string
	// issuesTokens reports whether a holder gets a token a fenced
	// resource can check.
	issuesTokens() bool
}

// known reports a system the engine can run.
func (s System) known() bool { return s >= 0 && int(s) < len(systems) }

// libraryConfig is the configuration rules of every system but etcd:
// its client library renews and numbers its tokens its own way, so no
// first token, no recipe choice and no renewal period of the sandbox's,
// no shard leases and no lock-delay (Consul overrides that).
type libraryConfig struct{}

func (libraryConfig) contention(*ContentionConfig, *World)               {}
func (libraryConfig) firstToken() bool                                   { return false }
func (libraryConfig) clustered() bool                                    { return false }
func (libraryConfig) issuesTokens() bool                                 { return true }
func (libraryConfig) notes(SystemSettings) []string                      { return nil }
func (libraryConfig) leaderRenewal(SystemSettings) (time.Duration, bool) { return 0, false }
func (libraryConfig) budgetRenewal(time.Duration) (time.Duration, bool)  { return 0, false }
func (libraryConfig) checkContention(ContentionConfig) error             { return nil }

// ownSetting: what only one system has, and shard leases, which only
// etcd's are modelled; each system adds what its library does its own way.
func (libraryConfig) ownSetting(id SettingID) string {
	if id == SettingShards {
		return "Shard leases are modelled on etcd only."
	}
	return onlyOneSystemHas(id)
}

// onlyOneSystemHas says why a setting one system alone has means nothing
// on another ("" for a setting every system may use).
func onlyOneSystemHas(id SettingID) string {
	switch id {
	case SettingRedisNodes:
		return "Only Redlock has independent Redis nodes."
	case SettingRenewDeadline:
		return "Only client-go's leader election has a renew deadline."
	}
	return ""
}

// noLockDelay says a system has no lock-delay.
func noLockDelay(s System) string {
	return s.Title() + " has no lock-delay: the next may take the lock at once."
}

func (libraryConfig) contentionOf(c SystemSettings, cc *ContentionConfig) {
	cc.RenewDeadline, cc.RedisNodes = c.renewDeadline(), c.redisNodes()
}

func (libraryConfig) onSystem(c *SystemSettings) {
	c.FirstToken, c.Recipe, c.RenewEvery, c.LockDelay = 0, RecipeEtcd, 0, 0
}

func (libraryConfig) policy(c SystemSettings) LeasePolicy {
	return LeasePolicy{TTL: c.TTL, RenewEvery: c.renew(), PauseBudget: c.PauseBudget}
}

// libraryChecks refuses what no system but etcd has: shard leases, and
// (unless lockDelay: Consul's) a lock-delay; then the system's own
// complaints, unless shards were asked for (they would only repeat it).
func libraryChecks(c SystemSettings, lockDelay bool, own ...SettingError) []SettingError {
	if c.Shards > 0 {
		return []SettingError{{Setting: SettingShards, Msg: "shard leases are modelled on etcd only: use the etcd system, or 0 shards"}}
	}
	var errs []SettingError
	if c.LockDelay > 0 && !lockDelay {
		errs = append(errs, SettingError{Setting: SettingLockDelay, Msg: fmt.Sprintf("%s has no lock-delay (it is Consul's): the next in line may take the lock the moment it is free; switch it off", c.System.Title())})
	}
	return append(errs, own...)
}

// serverOfItsOwn makes a world's coordinator the system's server, with
// its own tokens, and its contenders the system's clients, with its lock
// recipe and its renewals.
func serverOfItsOwn(c *ContentionConfig, w *World, s System, r Recipe, t TokenSource) {
	w.Coordinator.System, w.Coordinator.TokenSource = s, t
	c.Recipe, c.TokenSource, c.RenewEvery = r, t, 0
}

// ownRecipe refuses a recipe other than etcd's default and the system's
// own (ZooKeeper's and Consul's locks).
func ownRecipe(c SystemSettings, own Recipe) []SettingError {
	if c.Recipe != RecipeEtcd && c.Recipe != own {
		return []SettingError{{Setting: SettingRecipe, Msg: fmt.Sprintf("%s runs its own lock recipe (%s); the %s recipe belongs to etcd worlds", c.System.Title(), own, c.Recipe)}}
	}
	return nil
}
