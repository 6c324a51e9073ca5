package conform

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"leaselab/core"
	"leaselab/core/sandbox"
)

// freshClient starts an embedded etcd for one test and connects to it;
// both end with the test.
func freshClient(t *testing.T) (context.Context, *clientv3.Client) {
	t.Helper()
	srv, err := StartServer("", "", "")
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cli, err := dial(ctx, []string{srv.Client})
	require.NoError(t, err)
	t.Cleanup(func() { cli.Close() })
	return ctx, cli
}

// parallel bounds how many scenarios run at once: each is mostly waiting,
// but ten etcd members and twenty clients at once starve two cores.
var parallel = make(chan struct{}, 4)

// Every scenario, run on a real etcd 3.7.3 and in the simulator from the
// same description, shows the same events in the same order with the same
// tokens, at times within the tolerance. On a difference the test prints
// both traces side by side (a run on a CPU-starved machine is tried again).
func TestEveryScenarioConformsToRealEtcd(t *testing.T) {
	for _, sc := range Scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			parallel <- struct{}{}
			defer func() { <-parallel }()
			results, err := Conform(context.Background(), sc, Embedded, SimOptions{Seed: 1})
			require.NoError(t, err)
			for _, r := range results {
				t.Log("\n" + r.Report())
			}
			res := results[len(results)-1]
			assert.Empty(t, res.Diffs, "the simulator differs from etcd:\n%s", res.Report())
			assert.NotEmpty(t, res.Etcd.Obs, "etcd showed nothing")

			if sc.Name == "stalled-connection" && res.Conforms() {
				// The suite catches a model that is wrong: a client that
				// checks its deadline at the deadline itself learns of its
				// loss before the rival holds, which etcd's does not.
				wrong, err := Compare(sc, res.Etcd, SimOptions{Seed: 1, DeadlineCheck: -1})
				require.NoError(t, err)
				require.NotEmpty(t, wrong.Diffs, "an exact deadline check went unnoticed")
				assert.Contains(t, strings.Join(wrong.Diffs, "\n"), "A lost", "the diff names A's loss:\n%s", wrong.Report())
			}
		})
	}
}

// The description is checked before anything runs: an unknown step is an
// error, not a silent no-op.
func TestUnknownStepIsRefused(t *testing.T) {
	_, err := RunSim(&Scenario{Name: "bad", Kind: "lock", TTL: 5, Clients: []string{"A"}, Steps: []Step{{Do: "explode", Proc: "A"}}, Until: time.Second}, SimOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown step "explode"`)
}

// Successive grants on one etcd member get increasing lease IDs, two
// apart (each grant takes a request ID and a lease ID from one generator),
// under the member's 16-bit prefix; the simulator's IDs have that shape.
func TestLeaseIDsHaveOneMembersShape(t *testing.T) {
	ctx, cli := freshClient(t)
	var real []int64
	for range 3 {
		resp, err := cli.Grant(ctx, 5)
		require.NoError(t, err)
		real = append(real, int64(resp.ID))
	}
	s := core.NewSim(1)
	var sim []int64
	for range 3 {
		sim = append(sim, int64(s.Coord.Grant("admin", 5*time.Second).ID))
	}
	for _, ids := range [][]int64{real, sim} {
		assert.Equal(t, ids[0]+2, ids[1], "%x", ids)
		assert.Equal(t, ids[1]+2, ids[2], "%x", ids)
		assert.Equal(t, ids[0]>>48, ids[2]>>48, "one member prefix: %x", ids)
		assert.Positive(t, ids[0])
	}
	t.Logf("etcd lease IDs %x, simulator %x", real, sim)
}

// concurrency.NewSession without a TTL asks for 60 s, the TTL of the
// sandbox's etcd preset.
func TestSessionDefaultTTLIsTheEtcdPresets(t *testing.T) {
	ctx, cli := freshClient(t)
	s, err := concurrency.NewSession(cli)
	require.NoError(t, err)
	defer s.Close()
	ttl, err := cli.TimeToLive(ctx, s.Lease())
	require.NoError(t, err)
	p, err := sandbox.FindPreset("etcd")
	require.NoError(t, err)
	assert.Equal(t, int64(p.Config.TTL/time.Second), ttl.GrantedTTL)
	assert.Equal(t, int64(60), ttl.GrantedTTL)
}
