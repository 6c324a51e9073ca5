// Package conform runs the same experiments on a real etcd and in
// LeaseLab's simulator and compares what a learner would see: who
// acquires, who learns it lost, which writes the fenced store accepts,
// which revisions the coordinator hands out, and when.
//
// It is its own Go module so etcd's dependencies never reach the lab's
// main module or its WebAssembly build. The simulator is imported as a
// library (leaselab/core); etcd runs embedded (go.etcd.io/etcd/server/v3)
// or, with --endpoints, is a cluster the user started.
package conform

import "time"

// Scenario is one experiment, described once and run on both sides by
// RunEtcd and RunSim.
type Scenario struct {
	Name  string
	Title string
	// Kind is "lock" (clients run a campaign loop around etcd's Mutex, as
	// core.Process does), "election" (concurrency.Election) or "leases"
	// (raw lease and key operations by one admin client).
	Kind string
	// TTL is the session TTL the clients ask for, in seconds (etcd's unit).
	TTL int
	// Clients campaign in this order, Stagger apart, from time zero.
	Clients []string
	Stagger time.Duration
	// ReuseSession gives every client the expired-session bug: it keeps
	// campaigning with the session it made first.
	ReuseSession bool
	Steps        []Step
	// Until is how long both sides are observed.
	Until time.Duration
	// Tolerance is how far apart the two sides' times of one event may
	// be; zero means DefaultTolerance.
	Tolerance time.Duration
	// Delay is each client's one-way network delay to etcd (the proxy adds
	// it; the simulator's link has it); zero means DefaultDelay. Delays
	// overrides it for some clients.
	Delay  time.Duration
	Delays map[string]time.Duration
	// Keepalives: compare each client's keepalive responses one by one
	// (only the cadence scenario does; elsewhere they are shown, not
	// compared, because a stalled stream delivers them in a burst).
	Keepalives bool
}

// DefaultTolerance is 100 ms of scheduling noise plus etcd's 500 ms lease
// sweep: the server finds an expired lease on its next 500 ms tick, and
// that tick's phase differs between a real server and the simulator.
const DefaultTolerance = 600 * time.Millisecond

// DefaultDelay is the one-way delay between each client and etcd on both
// sides. etcd's client checks its deadline on a 1 s ticker that starts
// with its keepalive loop, so a deadline lands a round trip after a tick.
// On loopback that is a millisecond, less than the ticker's drift, and the
// client learns of its loss at the deadline or a second later by chance;
// 50 ms each way makes the phase plain (as on any real network). Scenarios
// about that phase give the client a longer link still: a busy machine's
// timers drift by tens of milliseconds.
const DefaultDelay = 50 * time.Millisecond

func (sc *Scenario) delay(client string) time.Duration {
	if d, ok := sc.Delays[client]; ok {
		return d
	}
	if sc.Delay == 0 {
		return DefaultDelay
	}
	return sc.Delay
}

// storeDelay is the one-way delay to the fenced store: the simulator's
// default link (5 ms); the real side waits as long before deciding.
const storeDelay = 5 * time.Millisecond

// Step is one thing done at a time in a scenario.
type Step struct {
	At time.Duration
	// Do is, for lock and election scenarios:
	//   pause   stop Proc's world for For: its connection holds every byte
	//           both ways and its application does nothing (etcd's client
	//           library keeps running inside the real process, but what it
	//           learns reaches the application only when it wakes);
	//   stall   hold Proc's connection both ways for For (the application
	//           runs on);
	//   cut     close Proc's connections and refuse new ones for For;
	//   release Proc closes its session (revokes its lease);
	//   write   Proc, if it believes it leads, writes to the fenced store
	//           with its token;
	//   revoke  another client revokes Proc's current lease;
	//   proclaim, resign   Proc, as election leader (election only).
	// For leases scenarios: grant (Lease, TTL), put (Key on Lease), revoke
	// (Lease).
	Do    string
	Proc  string
	For   time.Duration
	Lease string
	Key   string
	TTL   int
	Value string
}

// Scenarios are the suite, in the order the tables print.
var Scenarios = []*Scenario{
	{
		Name: "paused-leader", Kind: "lock", TTL: 5, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Title: "The paused leader: A freezes 12 s mid-work, wakes and writes with its old token",
		Steps: []Step{
			{At: time.Second, Do: "write", Proc: "A"},
			{At: 2500 * time.Millisecond, Do: "pause", Proc: "A", For: 12 * time.Second},
			{At: 3 * time.Second, Do: "write", Proc: "A"}, // decided while frozen: it leaves when A wakes
			{At: 9 * time.Second, Do: "write", Proc: "B"},
		},
		Until: 16 * time.Second,
	},
	{
		Name: "stalled-connection", Kind: "lock", TTL: 5, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Title: "A's connection stalls both ways for 8 s; B is queued",
		Steps: []Step{{At: 3 * time.Second, Do: "stall", Proc: "A", For: 8 * time.Second}},
		Until: 14 * time.Second,
		// A's deadline lands a round trip (200 ms) after a tick of its
		// once-a-second check, well clear of the ticker's drift; B is near
		// etcd, so its takeover is not slowed by the link.
		Delays: map[string]time.Duration{"A": 100 * time.Millisecond, "B": 5 * time.Millisecond},
	},
	{
		Name: "watch-cut", Kind: "lock", TTL: 10, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Title: "B waits on A's key; both connections are cut for 4 s while A releases",
		Steps: []Step{
			{At: 3 * time.Second, Do: "cut", Proc: "A", For: 4 * time.Second},
			{At: 3 * time.Second, Do: "cut", Proc: "B", For: 4 * time.Second},
			{At: 4 * time.Second, Do: "release", Proc: "A"},
		},
		Until: 12 * time.Second,
		// A reconnecting client waits out gRPC's backoff, which jitters
		// each wait by ±20 % (about ±1 s on the third attempt, 5.2 s after
		// the cut); the simulator takes the middle of the band.
		Tolerance: 1600 * time.Millisecond,
	},
	{
		Name: "cut-waiter", Kind: "lock", TTL: 10, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Title: "Only B's connection is cut while A releases: the delete happens meanwhile, and B's watch resumes from its revision",
		Steps: []Step{
			{At: 3 * time.Second, Do: "cut", Proc: "B", For: 4 * time.Second},
			{At: 4 * time.Second, Do: "release", Proc: "A"},
		},
		Until:     12 * time.Second,
		Tolerance: 1600 * time.Millisecond, // gRPC's jittered backoff, as in watch-cut
	},
	{
		Name: "fair-queue", Kind: "lock", TTL: 5, Clients: []string{"A", "B", "C", "D"}, Stagger: 300 * time.Millisecond,
		Title: "A fair queue of four; C's session is revoked while it waits; A, then B release",
		Steps: []Step{
			{At: 2 * time.Second, Do: "revoke", Proc: "C"},
			{At: 4500 * time.Millisecond, Do: "release", Proc: "A"},
			{At: 6500 * time.Millisecond, Do: "release", Proc: "B"},
		},
		Until: 9 * time.Second,
	},
	{
		Name: "queued-session-expires", Kind: "lock", TTL: 5, Clients: []string{"A", "B", "C", "D"}, Stagger: 300 * time.Millisecond,
		Title: "C's session is revoked while it waits; the queue ahead drains before C's next keepalive: Lock says the session is expired",
		Steps: []Step{
			{At: 2 * time.Second, Do: "revoke", Proc: "C"},
			{At: 2100 * time.Millisecond, Do: "release", Proc: "A"},
			{At: 2300 * time.Millisecond, Do: "release", Proc: "B"},
		},
		Until: 5 * time.Second,
	},
	{
		Name: "keepalive-cadence", Kind: "lock", TTL: 5, Clients: []string{"A"},
		Title: "One client, TTL 5 s: when its keepalives are answered",
		Until: 11 * time.Second, Keepalives: true,
	},
	{
		Name: "expired-session-reused", Kind: "lock", TTL: 2, Clients: []string{"A"}, ReuseSession: true,
		Title: "A's session expires in a 4 s stall; A campaigns again with the same session",
		Steps: []Step{{At: time.Second, Do: "stall", Proc: "A", For: 4 * time.Second}},
		Until: 8 * time.Second,
		Delay: 100 * time.Millisecond,
	},
	{
		Name: "leases", Kind: "leases",
		Title: "Grants (TTL 1 s asked), revoke and expiry: each deletes all of a lease's keys in one revision",
		Steps: []Step{
			{At: 0, Do: "grant", Lease: "short", TTL: 1},
			{At: 0, Do: "grant", Lease: "L1", TTL: 10},
			{At: 0, Do: "grant", Lease: "L2", TTL: 3},
			{At: 200 * time.Millisecond, Do: "put", Key: "a", Lease: "L1"},
			{At: 200 * time.Millisecond, Do: "put", Key: "b", Lease: "L1"},
			{At: 200 * time.Millisecond, Do: "put", Key: "c", Lease: "L1"},
			{At: 200 * time.Millisecond, Do: "put", Key: "d", Lease: "L2"},
			{At: 200 * time.Millisecond, Do: "put", Key: "e", Lease: "L2"},
			{At: time.Second, Do: "revoke", Lease: "L1"},
		},
		Until: 5 * time.Second,
	},
	{
		Name: "election", Kind: "election", TTL: 5, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Title: "Election: A campaigns and leads, proclaims a new value, resigns; B leads",
		Steps: []Step{
			{At: 1500 * time.Millisecond, Do: "proclaim", Proc: "A", Value: "A-2"},
			{At: 3 * time.Second, Do: "resign", Proc: "A"},
		},
		Until: 5 * time.Second,
	},
}

// Find returns the named scenario, or nil.
func Find(name string) *Scenario {
	for _, s := range Scenarios {
		if s.Name == name {
			return s
		}
	}
	return nil
}
