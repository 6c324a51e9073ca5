package explore

import (
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkBreakFinder measures the break finder as the browser runs it:
// one thread, stepping the search a slice at a time (Explorer.Step), on
// each search target's default bounds. "break" switches the protection
// off, so the search stops at the simplest break it finds (the figure the
// learner waits for); "proof" leaves it on and tries every schedule.
//
// Reported per search: schedules/s, the time to the verdict (ms/search),
// bytes allocated (B/op, from ReportAllocs) and the peak of live heap
// objects while it ran (peak-heap-bytes), sampled after every slice.
func BenchmarkBreakFinder(b *testing.B) {
	for _, c := range []struct {
		target string
		off    bool
	}{
		{"fenced-writes", true},
		{"fenced-writes", false},
		{"scheduler", true},
		{"shards", true},
	} {
		name := c.target + "/proof"
		if c.off {
			name = c.target + "/break"
		}
		b.Run(name, func(b *testing.B) {
			tg, err := FindTarget(c.target)
			require.NoError(b, err)
			p := tg.Problem(1, c.off, tg.Bounds)
			b.ReportAllocs()
			tried, peak := 0, uint64(0)
			sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
			for b.Loop() {
				x, err := New(p, time.Now)
				require.NoError(b, err)
				for done := false; !done; {
					done = x.Step(256) // a slice, as between two frames
					metrics.Read(sample)
					peak = max(peak, sample[0].Value.Uint64())
				}
				r := x.Result()
				require.NoError(b, x.Err())
				require.Equal(b, c.off, r.Found, "protection off=%v: found a break (%s)", c.off, r.Summary())
				tried += r.Tried
			}
			b.ReportMetric(float64(tried)/b.Elapsed().Seconds(), "schedules/s")
			b.ReportMetric(float64(tried)/float64(b.N), "schedules/op")
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/search")
			b.ReportMetric(float64(peak), "peak-heap-bytes")
		})
	}
}
