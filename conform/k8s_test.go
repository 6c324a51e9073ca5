package conform

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coordv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	coordclient "k8s.io/client-go/kubernetes/typed/coordination/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"leaselab/core"
)

// The durations both sides run with: whole seconds for the lease (a Lease
// stores leaseDurationSeconds, so 1.5 s would be cut to 1 s), a
// RetryPeriod of a second (so every renewal moves the record's renewTime,
// kept in whole seconds in what a candidate compares, to a new second),
// and client-go's validation passes: 4 s > 2 s > 1.2 x 1 s.
const (
	k8sLease  = 4 * time.Second
	k8sRenew  = 2 * time.Second
	k8sRetry  = time.Second
	k8sCutAt  = 4 * time.Second // the holder's requests start hanging
	k8sUntil  = 16 * time.Second
	k8sJitter = 1.2
)

// k8sDurations are one run's LeaseDuration, RenewDeadline, RetryPeriod.
type k8sDurations struct{ lease, renew, retry time.Duration }

var k8sWhole = k8sDurations{k8sLease, k8sRenew, k8sRetry}

// K8sRun is what one run showed, every time from the run's start.
type K8sRun struct {
	LastRenew   time.Duration // the holder's last successful write of the Lease before the cut
	StoppedAt   time.Duration // the holder stopped leading
	TakeoverAt  time.Duration // the candidate started leading
	NewHolder   string
	Transitions int
}

// fakeAPIServer is client-go's fake clientset with the one API-server
// rule its tracker leaves out: an Update must carry the Lease's current
// resourceVersion (else 409 Conflict), and every write bumps it.
func fakeAPIServer() *fake.Clientset {
	cs := fake.NewClientset()
	var mu sync.Mutex
	var rv int64
	gvr := coordv1.SchemeGroupVersion.WithResource("leases")
	write := func(a k8stesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		obj := a.(k8stesting.CreateAction).GetObject().(*coordv1.Lease).DeepCopy()
		ns := a.GetNamespace()
		if a.GetVerb() == "update" {
			cur, err := cs.Tracker().Get(gvr, ns, obj.Name)
			if err != nil {
				return true, nil, err
			}
			if cur.(*coordv1.Lease).ResourceVersion != obj.ResourceVersion {
				return true, nil, apierrors.NewConflict(gvr.GroupResource(), obj.Name,
					errors.New("the object has been modified; please apply your changes to the latest version and try again"))
			}
		}
		rv++
		obj.ResourceVersion = strconv.FormatInt(rv, 10)
		var err error
		if a.GetVerb() == "create" {
			err = cs.Tracker().Create(gvr, obj, ns)
		} else {
			err = cs.Tracker().Update(gvr, obj, ns)
		}
		if err != nil {
			return true, nil, err
		}
		return true, obj.DeepCopy(), nil
	}
	cs.PrependReactor("create", "leases", write)
	cs.PrependReactor("update", "leases", write)
	return cs
}

// gate is one elector's connection to the API server: once cut, every
// request hangs until its context ends, as an HTTP request to an
// unreachable server does. It records the elector's successful writes.
type gate struct {
	coordclient.LeasesGetter
	cut    *atomic.Bool
	mu     sync.Mutex
	writes []time.Time
}

type gatedLeases struct {
	coordclient.LeaseInterface
	g *gate
}

func (g *gate) Leases(ns string) coordclient.LeaseInterface {
	return gatedLeases{g.LeasesGetter.Leases(ns), g}
}

func (l gatedLeases) hang(ctx context.Context) error {
	if !l.g.cut.Load() {
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

func (l gatedLeases) wrote(err error) {
	if err == nil {
		l.g.mu.Lock()
		l.g.writes = append(l.g.writes, time.Now())
		l.g.mu.Unlock()
	}
}

func (l gatedLeases) Get(ctx context.Context, name string, o metav1.GetOptions) (*coordv1.Lease, error) {
	if err := l.hang(ctx); err != nil {
		return nil, err
	}
	return l.LeaseInterface.Get(ctx, name, o)
}

func (l gatedLeases) Create(ctx context.Context, x *coordv1.Lease, o metav1.CreateOptions) (*coordv1.Lease, error) {
	if err := l.hang(ctx); err != nil {
		return nil, err
	}
	r, err := l.LeaseInterface.Create(ctx, x, o)
	l.wrote(err)
	return r, err
}

func (l gatedLeases) Update(ctx context.Context, x *coordv1.Lease, o metav1.UpdateOptions) (*coordv1.Lease, error) {
	if err := l.hang(ctx); err != nil {
		return nil, err
	}
	r, err := l.LeaseInterface.Update(ctx, x, o)
	l.wrote(err)
	return r, err
}

// RunRealK8s runs two real LeaderElectors, A then B, on one Lease; A's
// requests hang from k8sCutAt on.
func RunRealK8s(t *testing.T, d k8sDurations) K8sRun {
	t.Helper()
	cs := fakeAPIServer()
	ctx, cancel := context.WithTimeout(context.Background(), k8sUntil+5*time.Second)
	defer cancel()
	start := time.Now()
	since := func(at time.Time) time.Duration { return at.Sub(start) }
	var mu sync.Mutex
	var run K8sRun
	gates := map[string]*gate{}
	var wg sync.WaitGroup
	for i, id := range []string{"A", "B"} {
		g := &gate{LeasesGetter: cs.CoordinationV1(), cut: new(atomic.Bool)}
		gates[id] = g
		le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
			Lock: &resourcelock.LeaseLock{
				LeaseMeta:  metav1.ObjectMeta{Namespace: "default", Name: "leader"},
				Client:     g,
				LockConfig: resourcelock.ResourceLockConfig{Identity: id},
			},
			LeaseDuration: d.lease, RenewDeadline: d.renew, RetryPeriod: d.retry,
			Callbacks: leaderelection.LeaderCallbacks{
				OnStartedLeading: func(context.Context) {
					mu.Lock()
					defer mu.Unlock()
					if id == "B" {
						run.TakeoverAt = since(time.Now())
					}
				},
				OnStoppedLeading: func() {
					mu.Lock()
					defer mu.Unlock()
					if id == "A" && run.StoppedAt == 0 {
						run.StoppedAt = since(time.Now())
					}
				},
			},
		})
		require.NoError(t, err)
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 300 * time.Millisecond) // A first
			le.Run(ctx)
		}()
	}
	time.Sleep(k8sCutAt)
	gates["A"].cut.Store(true)
	cutAt := time.Now()
	time.Sleep(k8sUntil - k8sCutAt)
	cancel()
	wg.Wait()

	g := gates["A"]
	g.mu.Lock()
	for _, w := range g.writes {
		if w.Before(cutAt) {
			run.LastRenew = since(w)
		}
	}
	g.mu.Unlock()
	lease, err := cs.CoordinationV1().Leases("default").Get(context.Background(), "leader", metav1.GetOptions{})
	require.NoError(t, err)
	run.NewHolder = *lease.Spec.HolderIdentity
	run.Transitions = int(*lease.Spec.LeaseTransitions)
	return run
}

// RunSimK8s runs the same two electors in the simulator: A's link to the
// coordinator is cut at k8sCutAt (what it sends waits, and its renew
// poll abandons it at the deadline).
func RunSimK8s(t *testing.T, seed uint64, d k8sDurations) K8sRun {
	t.Helper()
	s, err := core.BuildWorld(core.ContentionConfig{
		Names: []string{"A", "B"}, System: core.SystemKubernetes,
		TTL: d.lease, RenewDeadline: d.renew, RetryBase: d.retry, RetryJitter: k8sJitter,
		Stagger: 300 * time.Millisecond,
	}.World(seed))
	require.NoError(t, err)
	s.Schedule(core.ActionLog{core.At(k8sCutAt, core.Action{Do: "partition", Proc: "A", Peer: core.CoordinatorName})})
	s.RunUntil(k8sUntil)
	var run K8sRun
	for e := range s.Trace.All() {
		switch {
		case e.Kind == core.KindPut && e.At < k8sCutAt:
			if r, err := core.ParseLeaseRecord(e.Value()); err == nil && r.HolderIdentity == "A" {
				run.LastRenew = e.At
			}
		case e.Kind == core.KindState && e.Actor == "A" && e.From() == "leader" && run.StoppedAt == 0:
			run.StoppedAt = e.At
		case e.Kind == core.KindState && e.Actor == "B" && e.To() == "leader" && run.TakeoverAt == 0:
			run.TakeoverAt = e.At
		}
	}
	rec, _, ok := s.Coord.LeaseObject("locks/leader")
	require.True(t, ok)
	run.NewHolder, run.Transitions = rec.HolderIdentity, rec.LeaseTransitions
	return run
}

// checkK8sRun holds a run to what client-go's algorithm allows, with
// bounds derived from it rather than fitted to measurements:
//
//   - The holder's renew loop waits exactly RetryPeriod (wait.Until, no
//     jitter) after its last success, then polls with a RenewDeadline
//     timeout: it stops leading RetryPeriod + RenewDeadline after that
//     success, plus timer and scheduling slack (slack).
//   - The candidate's acquire loop waits RetryPeriod x [1, 2.2) between
//     tries (JitterUntil, factor 1.2, sliding). It sees the holder's last
//     record at most one such wait after it was written, and takes over at
//     its first try after that sighting + LeaseDuration, at most one more
//     wait later; never before the last renewal + LeaseDuration.
func checkK8sRun(t checker, who string, r K8sRun, slack time.Duration) {
	t.Helper()
	maxWait := time.Duration(float64(k8sRetry) * (1 + k8sJitter))
	require.NotZero(t, r.LastRenew, "%s: A renewed before the cut", who)
	assert.InDelta(t, (k8sRetry + k8sRenew).Seconds(), (r.StoppedAt - r.LastRenew).Seconds(), slack.Seconds(),
		"%s: A stops leading RetryPeriod + RenewDeadline after its last renewal", who)
	took := r.TakeoverAt - r.LastRenew
	assert.GreaterOrEqual(t, took, k8sLease, "%s: B never takes over before its own clock says the lease is %s old", who, k8sLease)
	assert.LessOrEqual(t, took, k8sLease+2*maxWait+slack, "%s: B takes over within two polls of the lease's end", who)
	assert.Less(t, r.StoppedAt, r.TakeoverAt, "%s: with LeaseDuration > RetryPeriod + RenewDeadline, A stops before B starts", who)
	assert.Equal(t, "B", r.NewHolder, who)
	assert.Equal(t, 1, r.Transitions, "%s: one holder change, leaseTransitions 1", who)
}

// The real LeaderElector and the simulator, on the same numbers and the
// same cut, obey the same bounds; the report gives both sides' figures.
func TestKubernetesLeaderElectionConformsToClientGo(t *testing.T) {
	real := RunRealK8s(t, k8sWhole)
	if !passes(func(c checker) { checkK8sRun(c, "client-go", real, 150*time.Millisecond) }) {
		t.Logf("client-go outside the bounds once (a starved machine?): %+v; running it again", real)
		real = RunRealK8s(t, k8sWhole)
	}
	t.Logf("client-go: last renew %s, A stopped %s (+%s), B leads %s (+%s), leaseTransitions %d",
		real.LastRenew, real.StoppedAt, real.StoppedAt-real.LastRenew, real.TakeoverAt, real.TakeoverAt-real.LastRenew, real.Transitions)
	checkK8sRun(t, "client-go", real, 150*time.Millisecond)
	for seed := uint64(1); seed <= 5; seed++ {
		sim := RunSimK8s(t, seed, k8sWhole)
		t.Logf("simulator seed %d: last renew %s, A stopped %s (+%s), B leads %s (+%s), leaseTransitions %d",
			seed, sim.LastRenew, sim.StoppedAt, sim.StoppedAt-sim.LastRenew, sim.TakeoverAt, sim.TakeoverAt-sim.LastRenew, sim.Transitions)
		checkK8sRun(t, "simulator", sim, 30*time.Millisecond)
	}
}

// The bounds can fail: a model that stopped the holder at RenewDeadline
// after its last renewal (forgetting the RetryPeriod wait before the
// poll), or a candidate that trusted the record's renewTime and took over
// as soon as that was LeaseDuration old, breaks them.
func TestKubernetesBoundsCatchAWrongModel(t *testing.T) {
	ft := &failures{}
	good := K8sRun{LastRenew: time.Second, StoppedAt: time.Second + k8sRetry + k8sRenew, TakeoverAt: time.Second + k8sLease + 100*time.Millisecond, NewHolder: "B", Transitions: 1}
	checkK8sRun(ft, "good", good, 30*time.Millisecond)
	require.Zero(t, ft.n, "a run inside the bounds passes")
	for name, bad := range map[string]K8sRun{
		"stops at renew deadline":     {LastRenew: good.LastRenew, StoppedAt: good.LastRenew + k8sRenew, TakeoverAt: good.TakeoverAt, NewHolder: "B", Transitions: 1},
		"takes over early":            {LastRenew: good.LastRenew, StoppedAt: good.StoppedAt, TakeoverAt: good.LastRenew + k8sLease - 200*time.Millisecond, NewHolder: "B", Transitions: 1},
		"transitions not bumped":      {LastRenew: good.LastRenew, StoppedAt: good.StoppedAt, TakeoverAt: good.TakeoverAt, NewHolder: "B"},
		"takes over three polls late": {LastRenew: good.LastRenew, StoppedAt: good.StoppedAt, TakeoverAt: good.LastRenew + k8sLease + 3*time.Duration(2.2*float64(k8sRetry)), NewHolder: "B", Transitions: 1},
	} {
		ft := &failures{}
		checkK8sRun(ft, name, bad, 30*time.Millisecond)
		assert.NotZero(t, ft.n, "%s passed the bounds", name)
	}
}

// checker is what the checks need of a test: a real one, or failures.
type checker interface {
	Errorf(format string, args ...any)
	FailNow()
	Helper()
}

// failures counts what a check found wrong, to show that it can fail.
type failures struct{ n int }

// passes reports whether check finds nothing wrong, without failing the
// test: a real run outside the bounds once (a starved machine) runs again.
func passes(check func(checker)) bool {
	f := &failures{}
	check(f)
	return f.n == 0
}

func (f *failures) Errorf(string, ...any) { f.n++ }
func (f *failures) FailNow()              { f.n++ }
func (f *failures) Helper()               {}

// Sub-second numbers meet two roundings. client-go writes
// leaseDurationSeconds = int(LeaseDuration / time.Second), and candidates
// judge expiry by the record's value: 1.5 s becomes 1 s. And a candidate
// notices a renewal only when the record's JSON changes, where renewTime
// has whole seconds: with renewals every 0.2 s its sighting of the last
// change can be most of a second older than the last renewal. So
// 1.5 s / 1 s / 0.2 s passes NewLeaderElector's validation, yet B often
// takes over before A stops leading (RetryPeriod + RenewDeadline = 1.2 s
// after its last renewal). Bounds: B's sighting is of the first renewal
// in the last renewal's second (less than 1 s before it), so B takes over
// no sooner than that first renewal + 1 s, and no later than
// the last renewal + 1 s + two jittered polls.
func TestKubernetesLeaseDurationIsCutToWholeSeconds(t *testing.T) {
	d := k8sDurations{1500 * time.Millisecond, time.Second, 200 * time.Millisecond}
	maxWait := time.Duration(float64(d.retry) * (1 + k8sJitter))
	check := func(who string, r K8sRun, slack time.Duration) {
		took := r.TakeoverAt - r.LastRenew
		assert.Greater(t, took, 0*time.Second, "%s: not before A's last renewal", who)
		assert.LessOrEqual(t, took, time.Second+2*maxWait+slack, "%s: within two polls of 1 s, not 1.5 s", who)
		assert.InDelta(t, (d.retry + d.renew).Seconds(), (r.StoppedAt - r.LastRenew).Seconds(), slack.Seconds(), who)
		assert.Equal(t, "B", r.NewHolder, who)
	}
	real := RunRealK8s(t, d)
	t.Logf("client-go: B leads +%s after A's last renewal, A stops +%s (B first: %v)", real.TakeoverAt-real.LastRenew, real.StoppedAt-real.LastRenew, real.TakeoverAt < real.StoppedAt)
	check("client-go", real, 150*time.Millisecond)
	// Whether B beats A's stop depends on where B's polls fall (it needs
	// both of its jittered waits to add up to under 0.2 s), so it is
	// counted over many simulated seeds rather than asserted of one run.
	overlaps := 0
	const seeds = 60
	for seed := uint64(1); seed <= seeds; seed++ {
		sim := RunSimK8s(t, seed, d)
		if seed <= 5 {
			t.Logf("simulator seed %d: B leads +%s, A stops +%s", seed, sim.TakeoverAt-sim.LastRenew, sim.StoppedAt-sim.LastRenew)
		}
		check("simulator", sim, 30*time.Millisecond)
		if sim.TakeoverAt < sim.StoppedAt {
			overlaps++
		}
	}
	t.Logf("simulator: B took over before A stopped in %d of %d seeds", overlaps, seeds)
	assert.Positive(t, overlaps, "with a 1 s lease against a 1.2 s stop, some takeovers come before A stops")
}
