package core_test

import (
	"fmt"
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// The seed's fenced register: the leader with token 7 starts, pauses, and
// comes back after the lock has moved to the holder of token 8. The
// register remembers 8, so the late write with 7 is refused.
func ExampleFencedRegister() {
	s := core.NewSim(1)
	r := s.AddRegister("storage", true)
	fmt.Println(r.Write(7, "leader-a-started"))
	fmt.Println(r.Write(8, "leader-b-committed"))
	fmt.Println(r.Write(7, "leader-a-resumed"))
	fmt.Println("final value:", r.Value)
	// Output:
	// accepted
	// accepted
	// rejected stale token
	// final value: leader-b-committed
}

// The seed's hands-on lab: A writes with token 1, pauses for 30 s, and its
// late write reaches storage after B (token 2) has written.
func ExampleScenario_Run() {
	sc, err := sandbox.FindScenario("hands-on-lab")
	if err != nil {
		panic(err)
	}
	r, err := sc.Run(sandbox.Params{Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, line := range r.Summary()[:4] {
		fmt.Println(line)
	}
	// Output:
	// A 1 ok
	// B 2 ok
	// A late 1 reject
	// final from B
}

// Step 4 of the lab: the late write carries token 3, higher than B's 2, so
// the register cannot tell it is stale and accepts it.
func ExampleScenario_Run_staleToken() {
	sc, err := sandbox.FindScenario("hands-on-lab")
	if err != nil {
		panic(err)
	}
	r, err := sc.Run(sandbox.Params{Seed: 1, Own: map[string]int64{"stale-token": 3}})
	if err != nil {
		panic(err)
	}
	for _, line := range r.Summary()[:4] {
		fmt.Println(line)
	}
	// Output:
	// A 1 ok
	// B 2 ok
	// A late 3 ok
	// final late A
}

// Seed Example 3 played out in the simulator: A (token 7) decides a write,
// stops the world in the middle of it, and B (token 8) commits meanwhile.
func ExampleScenario_Run_fencedRegister() {
	sc, err := sandbox.FindScenario("fenced-register")
	if err != nil {
		panic(err)
	}
	r, err := sc.Run(sandbox.Params{Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, line := range r.Summary()[:4] {
		fmt.Println(line)
	}
	// Output:
	// accepted
	// accepted
	// rejected stale token
	// leader-b-committed
}

// The seed's lease-policy rule, 2 x renew_every + pause_budget <= ttl.
//
// The seed presents ttl 30 s, renew every 10 s, pause budget 12 s as a
// policy that "leaves renewal margin", but its own assertion fails:
// 2 x 10 + 12 = 32 > 30. Check follows the rule, not the prose, so that
// policy is short by 2 s; renewing every 8 s instead leaves 2 s to spare.
func ExampleLeasePolicy_Check() {
	for _, p := range []core.LeasePolicy{
		{TTL: 30 * time.Second, RenewEvery: 10 * time.Second, PauseBudget: 12 * time.Second},
		{TTL: 30 * time.Second, RenewEvery: 8 * time.Second, PauseBudget: 12 * time.Second},
		{TTL: 12 * time.Second, RenewEvery: 5 * time.Second, PauseBudget: 9 * time.Second},
	} {
		v := p.Check()
		fmt.Printf("ttl %s, renew every %s, pause %s: ok=%t need=%s margin=%s\n", p.TTL, p.RenewEvery, p.PauseBudget, v.OK, v.Need, v.Margin)
	}
	// Output:
	// ttl 30s, renew every 10s, pause 12s: ok=false need=32s margin=-2s
	// ttl 30s, renew every 8s, pause 12s: ok=true need=28s margin=2s
	// ttl 12s, renew every 5s, pause 9s: ok=false need=19s margin=-7s
}
