package core

import "time"

// The fenced-writes world (A then B, the leader writing every 2 s, a
// 10 s session) on ZooKeeper and on Consul, for Find a break: the same
// pause of A breaks an unfenced register on every system, only the
// length it takes differs. ZooKeeper expires the session a tick after
// its 10 s timeout; Consul invalidates it at 2 x TTL and then holds the
// lock free for its 15 s lock-delay, so only a far longer pause lets B
// in while A sleeps. With fencing on, czxid and LockIndex tokens refuse
// A's late write.
func init() {
	targets = append(targets,
		systemTarget("zookeeper-pause", SystemZooKeeper, "ZooKeeper: the holder pauses; does its late write land after B's?", 30*time.Second, 60*time.Second),
		systemTarget("consul-pause", SystemConsul, "Consul: the holder pauses; does its late write land after B's?", 60*time.Second, 90*time.Second),
	)
}

func systemTarget(name string, sys System, title string, maxLen, horizon time.Duration) *Target {
	cfg := FencedWritesConfig
	cfg.System, cfg.FirstToken = sys, 0
	if sys == SystemConsul {
		cfg.LockDelay = ConsulDefaultLockDelay
	}
	return &Target{
		Name: name, protects: "fencing", Title: title,
		Invariant: settled(NoStaleWrite, FencedForGood),
		Bounds: Bounds{Procs: []string{"A"}, Kinds: []string{FaultPause}, From: 0, To: 30 * time.Second, Step: time.Second,
			MinLen: time.Second, MaxLen: maxLen, LenStep: time.Second, MaxFaults: 1, Horizon: horizon},
		build: func(seed uint64) (*Sim, error) { return NewContention(seed, cfg) },
	}
}
