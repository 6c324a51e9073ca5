package lessons

import "testing"

// BenchmarkCompactionCheck is exercise 4's whole check of the model
// answer's design (a passing design runs every night: 1,000 checked
// nights and 100 at each trade-off point), the work the browser does while
// the learner waits (issue 14, defect 10).
func BenchmarkCompactionCheck(b *testing.B) {
	for b.Loop() {
		r, err := exCompaction.Check(exCompaction.Reference.Clone())
		if err != nil || !r.Pass {
			b.Fatalf("the model answer does not pass: %v\n%s", err, r.Text())
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/check")
}
