package lessons

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkShardCheck is exercise 2's whole check, the work the browser
// does while the learner waits: the model answer, a design near the
// failover budget with long renewals, and the slowest kind (a static
// hash whose crashed worker's shards are never taken over, so every crash
// moment runs to the end), and the longest renewals.
func BenchmarkShardCheck(b *testing.B) {
	for _, c := range []struct {
		name string
		a    Answer
	}{
		{"model", exShards.Reference},
		{"per-worker 25-8", func() Answer {
			a := shardAnswer(25, 8)
			a.Choices["granularity"] = []string{"per-worker"}
			return a
		}()},
		{"static 60-20", func() Answer {
			a := shardAnswer(60, 20)
			a.Choices["assignment"] = []string{"static"}
			return a
		}()},
		{"fair 120-40", shardAnswer(120, 40)},
		// The longest renewal interval: the pause is tried over 60 s of
		// it, and the crashes come after.
		{"fair 120-60", shardAnswer(120, 60)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_, err := exShards.Check(c.a.Clone())
				require.NoError(b, err)
			}
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/check")
		})
	}
}
