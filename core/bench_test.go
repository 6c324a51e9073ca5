package core

import (
	"testing"
	"time"
)

// BenchmarkEvents measures raw simulator throughput on the shards scenario
// (seed Example 2: 128 shards, 12 workers, three virtual minutes).
func BenchmarkEvents(b *testing.B) {
	sc, err := FindScenario("shards")
	if err != nil {
		b.Fatal(err)
	}
	events := 0
	b.ResetTimer()
	for b.Loop() {
		s, _, err := sc.Build(Params{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		events += s.RunUntil(sc.Duration)
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}

// BenchmarkShardsHour runs one virtual hour of a large shard fleet (1000
// shards, 40 workers, a lease per shard). The target is under a second of
// wall time per virtual hour, so the explorer can search many seeds.
func BenchmarkShardsHour(b *testing.B) {
	for _, quiet := range []bool{true, false} {
		name := "full-trace"
		if quiet {
			name = "quiet"
		}
		b.Run(name, func(b *testing.B) {
			events, traced := 0, 0
			for b.Loop() {
				s, err := NewShards(1, ShardsConfig{
					Shards: 1000, Workers: 40, TTL: 15 * time.Second, LeasePerShard: true,
					ScanEvery: 5 * time.Second, ScanJitter: 0.5, CommitEvery: 5 * time.Second, Fencing: true,
				})
				if err != nil {
					b.Fatal(err)
				}
				s.Trace.Quiet = quiet
				events += s.RunUntil(time.Hour)
				traced += s.Trace.Len()
				if st := s.ShardStats(); st.Owned != 1000 {
					b.Fatalf("after an hour %d of 1000 shards are owned", st.Owned)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/virtual-hour")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(traced)/float64(b.N), "trace-events/op")
		})
	}
}
