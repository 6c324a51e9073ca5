package sandbox

import (
	"errors"
	"leaselab/core"
	"math"
	"strings"
	"testing"
	"time"
)

func TestSandboxValidate(t *testing.T) {
	heavy := PauseDist{Kind: PauseHeavyTail, Every: 10 * time.Second, Scale: time.Second, Alpha: 1.5, Max: 9 * time.Second}
	cases := []struct {
		name  string
		edit  func(c *Config)
		field string // "" = valid
		msg   string // part of the message
	}{
		{"default", func(c *Config) {}, "", ""},
		{"one process", func(c *Config) { c.Procs = 1 }, "", ""},
		{"twelve processes", func(c *Config) { c.Procs = 12 }, "", ""},
		{"no processes", func(c *Config) { c.Procs = 0 }, FieldProcs, "1 to 12"},
		{"thirteen processes", func(c *Config) { c.Procs = 13 }, FieldProcs, "1 to 12"},
		{"negative processes", func(c *Config) { c.Procs = -4 }, FieldProcs, "1 to 12"},
		{"names", func(c *Config) { c.Names = []string{"alice", "bob", "carol"} }, "", ""},
		{"too few names", func(c *Config) { c.Names = []string{"alice", "bob"} }, FieldNames, "2 names for 3"},
		{"name twice", func(c *Config) { c.Names = []string{"a", "b", "a"} }, FieldNames, "twice"},
		{"name with space", func(c *Config) { c.Names = []string{"a", "b c", "d"} }, FieldNames, "without spaces"},
		{"empty name", func(c *Config) { c.Names = []string{"a", "", "d"} }, FieldNames, "1 to 16"},
		{"reserved name", func(c *Config) { c.Names = []string{"a", "storage", "d"} }, FieldNames, "built-in"},
		{"bad recipe", func(c *Config) { c.Recipe = 7 }, FieldRecipe, "etcd"},
		{"bad token source", func(c *Config) { c.TokenSource = 3 }, FieldTokenSource, "generation"},
		{"first token with revisions", func(c *Config) { c.FirstToken, c.TokenSource = 7, core.TokenRevision }, FieldFirstToken, "generation"},
		{"negative first token", func(c *Config) { c.FirstToken = -1 }, FieldFirstToken, "must be 0 to 1000000000000, got -1"},
		{"first token that would wrap", func(c *Config) { c.FirstToken = math.MaxInt64 }, FieldFirstToken, "must be 0 to 1000000000000, got 9223372036854775807"},
		{"zero ttl", func(c *Config) { c.TTL = 0 }, FieldTTL, "at least"},
		{"huge ttl", func(c *Config) { c.TTL = time.Hour }, FieldTTL, "at most"},
		{"renew just below ttl", func(c *Config) { c.RenewEvery = c.TTL - time.Millisecond }, "", ""},
		{"renew equals ttl", func(c *Config) { c.RenewEvery = c.TTL }, FieldRenew, "lapse between renewals"},
		{"renew above ttl", func(c *Config) { c.RenewEvery = 2 * c.TTL }, FieldRenew, "lapse between renewals"},
		{"renew default", func(c *Config) { c.RenewEvery = 0 }, "", ""},
		{"renew negative", func(c *Config) { c.RenewEvery = -time.Second }, FieldRenew, "at least"},
		{"jitter too big", func(c *Config) { c.RetryJitter = 3 }, FieldJitter, "0 to 2"},
		{"kubernetes jitter", func(c *Config) { c.RetryJitter = 1.2 }, "", ""},
		{"fixed pause", func(c *Config) {
			c.Pauses = PauseDist{Kind: PauseFixed, Every: 30 * time.Second, Length: 5 * time.Second}
		}, "", ""},
		{"fixed pause without length", func(c *Config) { c.Pauses = PauseDist{Kind: PauseFixed, Every: 30 * time.Second} }, FieldPause, "fixed pause lasts"},
		{"pauses too often", func(c *Config) {
			c.Pauses = PauseDist{Kind: PauseFixed, Every: time.Millisecond, Length: time.Second}
		}, FieldPause, "1 s to 1 h apart"},
		{"heavy tail", func(c *Config) { c.Pauses = heavy }, "", ""},
		{"heavy tail max below scale", func(c *Config) { h := heavy; h.Max = 500 * time.Millisecond; c.Pauses = h }, FieldPause, "longest pause"},
		{"heavy tail alpha", func(c *Config) { h := heavy; h.Alpha = 0; c.Pauses = h }, FieldPause, "alpha"},
		{"unknown pauses", func(c *Config) { c.Pauses.Kind = "sometimes" }, FieldPause, "unknown"},
		{"negative delay", func(c *Config) { c.Delay = -time.Millisecond }, FieldDelay, "delay"},
		{"link jitter", func(c *Config) { c.Jitter = -0.5 }, FieldDelay, "jitter"},
		{"slow link", func(c *Config) { c.Links = []LinkConfig{{A: "A", B: core.CoordinatorName, Delay: 2 * time.Second}} }, "", ""},
		{"link to nobody", func(c *Config) { c.Links = []LinkConfig{{A: "Z", B: core.CoordinatorName, Delay: time.Second}} }, FieldLinks, "both ends"},
		{"lock-delay", func(c *Config) { c.LockDelay = 15 * time.Second }, "", ""},
		{"lock-delay too long", func(c *Config) { c.LockDelay = 2 * time.Minute }, FieldLockDelay, "60 s"},
		{"idempotency without jobs", func(c *Config) { c.Idempotency = true }, FieldIdempotency, "job queue"},
		{"idempotent jobs", func(c *Config) { c.Idempotency, c.Workload = true, WorkloadJobs }, "", ""},
		{"jobs without interval", func(c *Config) { c.Workload, c.WorkEvery = WorkloadJobs, 0 }, FieldWorkload, "needs a work interval"},
		{"unknown workload", func(c *Config) { c.Workload = "dance" }, FieldWorkload, "writes or jobs"},
		{"shards", func(c *Config) { c.Shards, c.Workers = 16, 4 }, "", ""},
		{"shards without workers", func(c *Config) { c.Shards, c.Workers = 16, 0 }, FieldWorkers, "1 to 12 workers"},
		{"too many shards", func(c *Config) { c.Shards = 100000 }, FieldShards, "256"},
		{"shards with idempotency", func(c *Config) { c.Shards, c.Idempotency = 8, true }, FieldIdempotency, "offsets"},
		{"shards with lock-delay", func(c *Config) { c.Shards, c.LockDelay = 8, 15*time.Second }, FieldLockDelay, "single lock"},
		{"short run", func(c *Config) { c.Duration = time.Second }, FieldDuration, "a run lasts 10 s to 1 h, got 1 s"},
		{"hour of 256 shards renewing twice a second", func(c *Config) {
			c.Shards, c.Workers, c.TTL, c.RenewEvery, c.Duration = 256, 12, time.Second, 500*time.Millisecond, time.Hour
		}, FieldDuration, "renew leases about 1929600 times (268 leases for 1 h, every 500 ms)"},
		{"hour of 12 processes renewing every 100 ms", func(c *Config) {
			c.Procs, c.RenewEvery, c.Duration = 12, 100*time.Millisecond, time.Hour
		}, FieldDuration, "keep it under 250000"},
		{"hour of 12 processes renewing every second", func(c *Config) { c.Procs, c.RenewEvery, c.Duration = 12, time.Second, time.Hour }, "", ""},
		{"bad action", func(c *Config) { c.Actions = core.ActionLog{core.At(time.Second, core.Action{Do: "pause", Proc: "A"})} }, FieldActions, "length must be positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Default()
			tc.edit(&c)
			errs := c.Validate()
			_, buildErr := c.Build()
			if tc.field == "" {
				if len(errs) > 0 || buildErr != nil {
					t.Fatalf("want valid, got %v / %v", errs, buildErr)
				}
				return
			}
			found := false
			for _, e := range errs {
				found = found || (e.Field == tc.field && strings.Contains(e.Msg, tc.msg))
			}
			if !found {
				t.Fatalf("want an error on %s containing %q, got %v", tc.field, tc.msg, errs)
			}
			if !errors.Is(buildErr, ErrInvalid) {
				t.Fatalf("Build accepted an invalid configuration: %v", buildErr)
			}
		})
	}
}

// The live policy verdict: the rule's boundary is strict (at zero margin
// the retry after a missed renewal reaches the coordinator as the lease
// ends, and is refused), and the pause budget comes from the
// distribution's worst pause.
func TestSandboxPolicyBoundary(t *testing.T) {
	for _, tc := range []struct {
		ttl, renew, pause time.Duration
		ok                bool
	}{
		{12 * time.Second, 3 * time.Second, 6 * time.Second, false},                     // 2x3+6 = 12: nothing to spare
		{12 * time.Second, 3 * time.Second, 6*time.Second - 10*time.Millisecond, true},  // 10 ms to spare
		{12 * time.Second, 3 * time.Second, 6*time.Second + 10*time.Millisecond, false}, // 10 ms over
		{12 * time.Second, 3*time.Second + time.Millisecond, 6 * time.Second, false},    // renew 1 ms longer
		{14 * time.Second, 3 * time.Second, 7 * time.Second, true},                      // 2x3+7 = 13 < 14 (etcd TTLs are whole seconds)
	} {
		c := Default()
		c.TTL, c.RenewEvery = tc.ttl, tc.renew
		c.Pauses = PauseDist{Kind: PauseFixed, Every: time.Minute, Length: tc.pause}
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatal(errs)
		}
		if v := c.Policy().Check(); v.OK != tc.ok || v.Need != 2*tc.renew+tc.pause {
			t.Errorf("ttl %s renew %s pause %s: ok %v need %s, want ok %v", tc.ttl, tc.renew, tc.pause, v.OK, v.Need, tc.ok)
		}
	}
	h := Default()
	h.Pauses = PauseDist{Kind: PauseHeavyTail, Every: time.Minute, Scale: time.Second, Alpha: 1, Max: 4 * time.Second}
	if b := h.Policy().PauseBudget; b != 4*time.Second {
		t.Errorf("heavy-tail budget %s, want its cap 4s", b)
	}
	h.RenewEvery = 0
	if r := h.Policy().RenewEvery; r != 3333*time.Millisecond {
		t.Errorf("default renew %s, want TTL/3 to the millisecond", r)
	}
}

func TestPauseDistSchedule(t *testing.T) {
	names := []string{"A", "B"}
	h := PauseDist{Kind: PauseHeavyTail, Every: 10 * time.Second, Scale: 500 * time.Millisecond, Alpha: 1.1, Max: 20 * time.Second}
	log := h.Schedule(3, names, 30*time.Minute)
	if len(log) < 200 {
		t.Fatalf("%d pauses in 30 min at one per ~10 s per process", len(log))
	}
	short, long := 0, 0
	for _, a := range log {
		d := a.For.D()
		if d < h.Scale || d > h.Max {
			t.Fatalf("pause %s outside [%s, %s]", d, h.Scale, h.Max)
		}
		if d < 2*h.Scale {
			short++
		}
		if d >= 5*time.Second {
			long++
		}
	}
	// A Pareto tail: most pauses near the scale, a few ten times longer.
	if short < len(log)/2 || long == 0 {
		t.Errorf("not heavy-tailed: %d of %d short, %d long", short, len(log), long)
	}
	again := h.Schedule(3, names, 30*time.Minute)
	if len(again) != len(log) || again[17] != log[17] {
		t.Error("same seed gave different pauses")
	}
	f := PauseDist{Kind: PauseFixed, Every: 10 * time.Second, Length: 2 * time.Second}
	for _, a := range f.Schedule(1, names, 5*time.Minute) {
		if a.For.D() != 2*time.Second {
			t.Fatalf("fixed pause of %s", a.For.D())
		}
	}
	if n := len((PauseDist{Kind: PauseNone}).Schedule(1, names, time.Hour)); n != 0 {
		t.Errorf("no pauses wanted, got %d", n)
	}
}

// Every preset runs for ten virtual minutes; every safety invariant holds,
// and where fencing is on no stale write is accepted.
func TestPresetsTenMinutes(t *testing.T) {
	if len(Presets()) < 10 {
		t.Fatalf("%d presets", len(Presets()))
	}
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			c := p.Config
			if c.Duration != 10*time.Minute {
				t.Fatalf("preset runs %s, want 10 minutes", c.Duration)
			}
			if errs := c.Validate(); len(errs) > 0 {
				t.Fatal(errs)
			}
			start := time.Now()
			s, rep, err := c.Run()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d events in %s", p.Name, s.Trace.Len(), time.Since(start).Round(time.Millisecond))
			if !rep.OK() {
				t.Errorf("violations: %v", rep.Violations)
			}
			if c.Fencing && len(rep.Stale) > 0 {
				t.Errorf("fencing on, yet stale writes accepted: %v", rep.Stale)
			}
			if errs := s.ActionErrors(); len(errs) > 0 {
				t.Errorf("scripted actions failed: %v", errs)
			}
			if len(core.Holders(s.Trace)) == 0 && len(s.Trace.Filter(core.KindShardOwn)) == 0 {
				t.Error("nobody ever held anything")
			}
		})
	}
}

// The real systems' defaults under the same 20 s pause: Kubernetes (15 s
// lease) and ZooKeeper (20 s session) depose the frozen leader, etcd
// (60 s) and Consul (expired at 30 s) keep it; Kubernetes, with nothing
// checking its token, accepts the woken leader's stale write.
func TestSystemPresetsUnderTheSamePause(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failover bool
		stale    bool
	}{{"etcd", false, false}, {"zookeeper", true, false}, {"consul", false, false}, {"kubernetes", true, true}} {
		p, err := FindPreset(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		c := p.Config
		c.Duration = 2 * time.Minute
		s, rep, err := c.Run()
		if err != nil {
			t.Fatal(err)
		}
		moved := false
		for _, e := range core.Holders(s.Trace) {
			moved = moved || (e.At > SystemPause.At.D() && e.Owner() != "A")
		}
		if moved != tc.failover {
			t.Errorf("%s: failover during A's pause = %v, want %v", tc.name, moved, tc.failover)
		}
		if got := len(rep.Stale) > 0; got != tc.stale {
			t.Errorf("%s: stale write accepted = %v, want %v", tc.name, got, tc.stale)
		}
		st := s.Statuses(c.Duration)
		if last := st[len(st)-1]; last.Name != core.InvOneBeliever || last.Holds == tc.failover {
			t.Errorf("%s: belief overlap status %+v, want holds=%v", tc.name, last, !tc.failover)
		}
	}
	if _, err := FindPreset("nope"); err == nil || !strings.Contains(err.Error(), "kubernetes") {
		t.Errorf("unknown preset: %v", err)
	}
}

func TestStatusesTrackFirstBreak(t *testing.T) {
	p, _ := FindPreset("kubernetes")
	c := p.Config
	c.Actions = core.ActionLog{core.At(10*time.Second, core.Pause("A", 20*time.Second))}
	c.Duration = time.Minute
	s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(9 * time.Second)
	for _, st := range s.Statuses(s.Now()) {
		if !st.Holds || st.Summary() != "holds" {
			t.Fatalf("before the pause: %+v", st)
		}
	}
	s.RunUntil(29 * time.Second)
	byName := map[string]core.InvariantStatus{}
	for _, st := range s.Statuses(s.Now()) {
		byName[st.Name] = st
	}
	b := byName[core.InvOneBeliever]
	if b.Holds || !b.BrokenNow || b.FirstBroke < 20*time.Second || !strings.Contains(b.Detail, "A") {
		t.Fatalf("during the overlap: %+v", b)
	}
	if !byName[core.InvOneHolder].Holds || !byName[core.InvTokenOrder].Holds {
		t.Fatalf("coordinator invariants broke: %+v", byName)
	}
	s.RunUntil(time.Minute)
	for _, st := range s.Statuses(s.Now()) {
		if st.Name == core.InvOneBeliever && (st.BrokenNow || st.FirstBroke != b.FirstBroke || !strings.Contains(st.Summary(), "broke at")) {
			t.Fatalf("after A woke: %+v", st)
		}
		if st.Name == core.InvStaleAccepted && st.Holds {
			t.Fatalf("kubernetes has no fencing: A's late write must be a stale write: %+v", st)
		}
	}
}

// BenchmarkPresetTenMinutes runs each preset for its ten virtual minutes
// and checks the invariants, as labctl run --preset does.
func BenchmarkPresetTenMinutes(b *testing.B) {
	for _, p := range Presets() {
		b.Run(p.Name, func(b *testing.B) {
			events := 0
			for b.Loop() {
				s, _, err := p.Config.Run()
				if err != nil {
					b.Fatal(err)
				}
				events += s.Trace.Len()
			}
			b.ReportMetric(float64(events)/float64(b.N), "trace-events/op")
		})
	}
}

// BenchmarkStatusesAtTenMinutes is the invariant panel's cost per play-head
// position at the end of the busiest single-lock preset.
func BenchmarkStatusesAtTenMinutes(b *testing.B) {
	p, _ := FindPreset("kubernetes")
	s, _, err := p.Config.Run()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s.Statuses(p.Config.Duration)
	}
}
