package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

func open(t *testing.T, id string) *Lab {
	t.Helper()
	l, err := lessons.Find(id)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := New(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

func TestElectionOrderHasTwoLockGroupsAndCountsWakeUps(t *testing.T) {
	lb := open(t, "election-order")
	lb.Advance(3 * time.Second)
	for _, p := range []string{"H1", "Q1"} {
		if err := lb.Do(core.Crash(p)); err != nil {
			t.Fatal(err)
		}
	}
	lb.Advance(15 * time.Second)
	v := lb.World()
	if len(v.Groups) != 2 || v.Groups[0].Lock.Name != "locks/herd" || len(v.Groups[1].Procs) != 5 {
		t.Fatalf("groups %+v", v.Groups)
	}
	herd, queue := v.Groups[0], v.Groups[1]
	if herd.Handovers != 1 || herd.Woken != 4 || herd.Waiting != 4 {
		t.Errorf("herd handover woke %d of %d (%d handovers)", herd.Woken, herd.Waiting, herd.Handovers)
	}
	if queue.Handovers != 1 || queue.Woken != 1 {
		t.Errorf("queue handover woke %d (%d handovers)", queue.Woken, queue.Handovers)
	}
	if len(queue.Keys) != 4 || !v.Procs[queue.Procs[1]].Holder || queue.Lock.Holder != "Q2" {
		t.Errorf("queue lock %+v keys %+v", queue.Lock, queue.Keys)
	}
	tl := lb.Timeline()
	if len(tl.Lanes) != MaxLanes || !strings.HasPrefix(tl.Lanes[MaxLanes-1].Name, "+3") || tl.LaneOf("Q5") != MaxLanes-1 {
		t.Errorf("lanes %d, last %q", len(tl.Lanes), tl.Lanes[len(tl.Lanes)-1].Name)
	}
	for _, o := range tl.Overlaps {
		if o.Lock != "locks/herd" && o.Lock != "locks/queue" {
			t.Errorf("overlap on %q", o.Lock)
		}
	}
}

func TestShardWorldSnapshot(t *testing.T) {
	lb := open(t, "shards")
	lb.Advance(30 * time.Second)
	if err := lb.Do(core.Pause("worker-03", 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	lb.Advance(25 * time.Second)
	v := lb.World()
	if len(v.Workers) != 12 || len(v.Shards) != 128 || v.Offsets == nil || !v.Offsets.Fencing {
		t.Fatalf("workers %d shards %d offsets %+v", len(v.Workers), len(v.Shards), v.Offsets)
	}
	held := 0
	for _, w := range v.Workers {
		held += w.Holds
	}
	if held < 120 || v.Workers[3].Holds != 0 || v.Workers[3].Owned == 0 || !v.Workers[3].Paused {
		t.Errorf("held %d; worker-03 holds %d owns %d paused %v", held, v.Workers[3].Holds, v.Workers[3].Owned, v.Workers[3].Paused)
	}
	if v.Peak == 0 || len(v.Load) == 0 {
		t.Error("no coordinator load")
	}
	tl := lb.Timeline()
	if len(tl.Lanes) != MaxLanes || len(tl.Lanes[3].Paused) != 1 || len(tl.Lanes[3].Truth) != 1 || tl.Lanes[3].Truth[0].To > 50*time.Second {
		t.Fatalf("lane 3 %+v", tl.Lanes[3])
	}
	fit := tl.Fit(4)
	if len(fit.Lanes) != 4 || fit.Lanes[3].Name != "+9 more" || fit.LaneOf("worker-11") != 3 || fit.LaneOf("worker-02") != 2 {
		t.Fatalf("fit to 4: %d lanes, last %q", len(fit.Lanes), fit.Lanes[len(fit.Lanes)-1].Name)
	}
	lb.Advance(10 * time.Second)
	rejected := false
	for _, m := range lb.Timeline().Writes {
		rejected = rejected || (m.Kind == MarkOffset && m.From == "worker-03" && !m.Accepted)
	}
	if !rejected || lb.World().Offsets.Rejected == 0 {
		t.Error("worker-03's stale offset commits should be rejected and marked")
	}
}

func TestSchedulerQueueAndSecurityNotes(t *testing.T) {
	lb := open(t, "scheduler")
	lb.Advance(5 * time.Second)
	v := lb.World()
	if v.Queue == nil || v.Queue.Idempotency || v.Queue.Jobs == 0 || !strings.HasPrefix(v.Queue.LastKey, "invoice:") {
		t.Fatalf("queue %+v", v.Queue)
	}
	jobs := 0
	for _, m := range lb.Timeline().Writes {
		if m.Kind == MarkJob {
			jobs++
		}
	}
	if jobs != v.Queue.Jobs {
		t.Errorf("%d job marks for %d jobs", jobs, v.Queue.Jobs)
	}

	lb = open(t, "security")
	lb.Advance(2 * time.Second)
	if err := lb.Do(core.Action{Do: "delete", Proc: "worker-00", Key: "migrations/leader/lock-0000000001"}); err != nil {
		t.Fatal(err)
	}
	lb.Advance(time.Second)
	if err := lb.Do(core.Action{Do: "put", Proc: "migrator", Key: "migrations/status", Value: "migrator on host"}); err != nil {
		t.Fatal(err)
	}
	lb.Advance(time.Second)
	v = lb.World()
	if v.Denied != 1 || !strings.Contains(v.LastDenied, "worker-00") {
		t.Errorf("denied %d %q", v.Denied, v.LastDenied)
	}
	if len(v.Notes) != 1 || v.Notes[0].Key != "migrations/status" || len(v.Groups) != 1 || len(v.Workers) != 3 {
		t.Errorf("notes %+v groups %d workers %d", v.Notes, len(v.Groups), len(v.Workers))
	}
}

func TestKnobWords(t *testing.T) {
	for _, tt := range []struct {
		lesson, knob string
		v            float64
		want         string
	}{
		{"election-order", "recipe", 1, "ZooKeeper (watch predecessor)"},
		{"election-order", "recipe", 2, "herd (watch the lock)"},
		{"state-machine", "boolean", 0, "state machine"},
		{"leases", "ttl", 12, "12 s"},
		{"shards", "jitter", 0.3, "0.3"},
	} {
		l, _ := lessons.Find(tt.lesson)
		for _, k := range l.Knobs {
			if k.ID == tt.knob {
				if got := KnobValue(k, tt.v); got != tt.want {
					t.Errorf("%s %s=%v: %q, want %q", tt.lesson, tt.knob, tt.v, got, tt.want)
				}
				if KnobLabel(k) == "" || strings.Contains(KnobLabel(k), "(0") {
					t.Errorf("label %q", KnobLabel(k))
				}
			}
		}
	}
}

func TestSweepOnlyForTTLTradeoff(t *testing.T) {
	if open(t, "leases").Sweep() != nil {
		t.Fatal("leases has no chart")
	}
	lb := open(t, "ttl-tradeoff")
	pts := lb.Sweep()
	if len(pts) != 39 || pts[0].FalseFailovers == 0 || pts[len(pts)-1].FalseFailovers != 0 {
		t.Fatalf("sweep %+v", pts)
	}
	// The lesson's solution TTL is inside both bounds.
	for _, p := range pts {
		if p.TTL == 16*time.Second && (p.FalseFailovers != 0 || p.Failover > 20*time.Second) {
			t.Fatalf("16 s: %+v", p)
		}
	}
}

// A cut link to the coordinator is a connection that loses nothing: the
// world view says it is cut, how much waits in it, that it is
// reconnecting after the heal, and nothing once it is back.
func TestWorldViewShowsAConnectionThatIsDown(t *testing.T) {
	lb := open(t, "fenced-writes")
	a := func() ProcView {
		for _, p := range lb.World().Procs {
			if p.Name == "A" {
				return p
			}
		}
		require.FailNow(t, "no process A")
		return ProcView{}
	}
	lb.Advance(time.Second)
	assert.Equal(t, "", a().ConnTag())
	require.NoError(t, lb.Do(core.Partition("A", core.CoordinatorName)))
	lb.Advance(4 * time.Second) // 5 s
	require.True(t, a().Cut)
	assert.Equal(t, "link cut · 1 waiting", a().ConnTag(), "one keepalive waits, not a backlog")
	lb.Advance(time.Second) // 6 s
	require.NoError(t, lb.Do(core.Heal("A", core.CoordinatorName)))
	lb.Advance(100 * time.Millisecond)
	assert.Equal(t, "reconnecting · 1 waiting", a().ConnTag(), "gRPC's next attempt is 5.16 s after the cut, at 6.16 s")
	lb.Advance(100 * time.Millisecond)
	assert.Equal(t, "", a().ConnTag(), "reconnected")
}

// A process crashed while paused is crashed, not paused, from then on:
// its lane's pause ends at the crash (the sandbox's herd and election
// presets drew "paused" to the end of the run), and the world shows it
// crashed and not paused.
func TestACrashEndsThePause(t *testing.T) {
	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	lb, err := New(l, 1)
	require.NoError(t, err)
	lb.Seek(4 * time.Second)
	require.NoError(t, lb.Do(core.Pause("A", 20*time.Second)))
	lb.Seek(6 * time.Second)
	require.NoError(t, lb.Do(core.Crash("A")))
	lb.Seek(15 * time.Second)

	lane := lb.Timeline().Lanes[0]
	require.Equal(t, "A", lane.Name)
	require.Len(t, lane.Paused, 1)
	assert.Equal(t, 6*time.Second, lane.Paused[0].To, "the pause ends at the crash")
	require.Len(t, lane.Crashed, 1)
	assert.Equal(t, 6*time.Second, lane.Crashed[0].From)

	a := lb.World().Procs[0]
	require.Equal(t, "A", a.Name)
	assert.True(t, a.Crashed)
	assert.False(t, a.Paused)
}
