package lesson

import (
	"testing"

	"leaselab/lessons"
)

// BenchmarkOpenComparison measures opening the comparison (two labs built
// and each run to its end for the verdicts) in the frame the button is
// pressed: it must not stall the page.
func BenchmarkOpenComparison(b *testing.B) {
	for _, id := range []string{"fenced-writes", "shards", "scheduler"} {
		b.Run(id, func(b *testing.B) {
			l, err := lessons.Find(id)
			if err != nil {
				b.Fatal(err)
			}
			sc, err := New(l, Spec{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := newComparison(sc.finder); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
