package conform

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// ZKScenario is one experiment on ZooKeeper, run on a real server by
// RunZooKeeper and in the simulator by RunZooKeeperSim. Clients connect
// Stagger apart asking for Timeout and run the lock recipe on zkLock.
type ZKScenario struct {
	Name, Title string
	Timeout     time.Duration
	Clients     []string
	Stagger     time.Duration
	// Steps: stall (hold Proc's connection both ways for For), partition
	// (cut it off for For: the lab's partition action, a silent path on
	// the real side) and release (Proc deletes its lock node).
	Steps     []Step
	Until     time.Duration
	Tolerance time.Duration
}

// zkLock is the lock's path (the simulator's lock name without the
// leading slash).
const zkLock = "/locks/leader"

// zkLinkDelay is each client's one-way delay to the server on both sides.
const zkLinkDelay = 5 * time.Millisecond

// ZKSide names the real side in reports.
const ZKSide = "ZooKeeper 3.8.0"

// ZKScenarios are the ZooKeeper experiments.
var ZKScenarios = []*ZKScenario{
	{
		Name:  "zk-stalled-holder",
		Title: "A holds; its connection stalls for 8 s (session 4 s); B takes over, C keeps waiting, B releases to C",
		// Timeouts on both sides depend on where the server's 2 s expiry
		// ticks fall (the real server's phase is its JVM's clock): the
		// takeover may differ by up to a tick.
		Timeout: 4 * time.Second, Clients: []string{"A", "B", "C"}, Stagger: 500 * time.Millisecond,
		Steps: []Step{
			{At: 3 * time.Second, Do: "stall", Proc: "A", For: 8 * time.Second},
			{At: 14 * time.Second, Do: "release", Proc: "B"},
		},
		Until: 17 * time.Second, Tolerance: ZKExpiryTolerance,
	},
	{
		Name:  "zk-partitioned-holder",
		Title: "A holds; it is cut off from the server for 8 s (session 4 s), the lab's partition: B takes over, A learns Expired on reconnecting",
		// The lab's cut link on one side, a path where nothing moves on
		// the other: the same story as the stall, told by the partition
		// action a learner uses.
		Timeout: 4 * time.Second, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Steps: []Step{{At: 3 * time.Second, Do: "partition", Proc: "A", For: 8 * time.Second}},
		Until: 14 * time.Second, Tolerance: ZKExpiryTolerance,
	},
	{
		Name:  "zk-partitioned-waiter",
		Title: "A holds, B waits; B is cut off for 8 s (session 4 s): its session expires and its watch with it, so A's release at 13 s wakes nobody",
		// The server drops an expired session's watches; the waiter
		// learns Expired only on reconnecting, and its own client starts
		// no new contention within the run.
		Timeout: 4 * time.Second, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Steps: []Step{
			{At: 3 * time.Second, Do: "partition", Proc: "B", For: 8 * time.Second},
			{At: 13 * time.Second, Do: "release", Proc: "A"},
		},
		Until: 16 * time.Second, Tolerance: ZKExpiryTolerance,
	},
	{
		Name:  "zk-reconnect",
		Title: "A holds; its connection stalls for 7.5 s, past its read timeout but within its 10 s session: SUSPENDED, then RECONNECTED with its lock",
		// The stall starts just after A's ping at 3.3 s is answered:
		// Disconnected 6.7 s later, back at 11.5 s, at least 1.8 s before
		// the earliest tick the server could expire the session on.
		Timeout: 10 * time.Second, Clients: []string{"A", "B"}, Stagger: 500 * time.Millisecond,
		Steps: []Step{{At: 4 * time.Second, Do: "stall", Proc: "A", For: 7500 * time.Millisecond}},
		Until: 15 * time.Second, Tolerance: ZKExpiryTolerance,
	},
}

// ZKExpiryTolerance is one 2 s tick (where the real server's buckets
// start is not known) plus scheduling noise.
const ZKExpiryTolerance = core.ZKTickTime + 200*time.Millisecond

func (sc *ZKScenario) scenario() *Scenario {
	return &Scenario{Name: sc.Name, Title: sc.Title, Until: sc.Until, Tolerance: sc.Tolerance}
}

func (sc *ZKScenario) check() error {
	for _, st := range sc.Steps {
		switch st.Do {
		case "stall", "partition", "release":
		default:
			return fmt.Errorf("scenario %s: unknown step %q (want stall, partition or release)", sc.Name, st.Do)
		}
	}
	return nil
}

// RunZooKeeperSim runs sc in the simulator with System ZooKeeper.
func RunZooKeeperSim(sc *ZKScenario, seed uint64) (*Run, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	s, err := core.BuildWorld(core.ContentionConfig{
		System: core.SystemZooKeeper, Names: sc.Clients, Lock: zkLock[1:], TTL: sc.Timeout,
		Stagger: sc.Stagger, RetryBase: time.Hour, Fencing: true,
	}.World(seed))
	if err != nil {
		return nil, err
	}
	s.Net.Default.Delay, s.Net.Default.Jitter = zkLinkDelay, 0
	var log core.ActionLog
	for _, st := range sc.Steps {
		switch st.Do {
		case "stall":
			log = append(log,
				core.At(st.At, core.Action{Do: "delay", Proc: st.Proc, Peer: core.CoordinatorName, For: core.Duration(st.For)}),
				core.At(st.At, core.Action{Do: "delay", Proc: core.CoordinatorName, Peer: st.Proc, For: core.Duration(st.For)}))
		case "partition":
			// The lab's own cut: everything between the two is lost until
			// the heal.
			log = append(log,
				core.At(st.At, core.Action{Do: "partition", Proc: st.Proc, Peer: core.CoordinatorName}),
				core.At(st.At+st.For, core.Action{Do: "heal", Proc: st.Proc, Peer: core.CoordinatorName}))
		case "release":
			log = append(log, core.At(st.At, core.Action{Do: "release", Proc: st.Proc}))
		}
	}
	s.Schedule(log)
	s.RunUntil(sc.Until)
	if errs := s.ActionErrors(); len(errs) > 0 {
		return nil, errs[0]
	}
	return &Run{Side: "sim", Obs: zkSimObs(s.Trace)}, nil
}

// zkSimObs turns the simulator's trace into what the real side records.
func zkSimObs(tr *core.Trace) []Obs {
	var out []Obs
	timeout := map[string]int64{}
	for e := range tr.All() {
		o := Obs{At: e.At}
		switch e.Kind {
		case core.KindLeaseGrant:
			timeout[e.Owner()] = e.Num(core.FTTL)
			continue
		case core.KindClientState:
			o.Who = e.Actor
			if e.State() == "disconnected" && e.Curator() == "LOST" {
				continue // Curator's own verdict; go-zookeeper reports nothing then
			}
			switch e.Curator() {
			case "CONNECTED":
				o.What, o.N = "connected", timeout[e.Actor]
			case "SUSPENDED":
				o.What = "disconnected"
			case "LOST":
				o.What = "expired"
			case "RECONNECTED":
				o.What = "reconnected"
			default:
				continue
			}
		case core.KindPut:
			key := e.Key()
			o.Who, o.What, o.Token, o.N, o.Note = e.Value(), "created", e.CreateRev(), core.ZKSequence(key), key[strings.LastIndex(key, "/")+1:]
		case core.KindState:
			switch {
			case e.To() == "leader":
				o.Who, o.What, o.Token = e.Actor, "acquired", e.Token()
			case e.Why() == "released":
				o.Who, o.What = e.Actor, "released"
			default:
				continue
			}
		case core.KindWatchFire:
			o.Who, o.What = e.Watcher(), "woken"
		default:
			continue
		}
		out = append(out, o)
	}
	return out
}

// CompareZooKeeper diffs a real run of sc with the simulator's.
func CompareZooKeeper(sc *ZKScenario, real *Run, seed uint64) (*Result, error) {
	sim, err := RunZooKeeperSim(sc, seed)
	if err != nil {
		return nil, err
	}
	real.sort()
	sim.sort()
	s := sc.scenario()
	return &Result{Scenario: s, Etcd: real, Sim: sim, Diffs: Diff(s, real, sim)}, nil
}
