package lesson

import (
	"testing"

	"leaselab/lessons"

	"github.com/stretchr/testify/require"
)

// BenchmarkOpenComparison measures opening the comparison (two labs built
// and each run to its end for the verdicts) in the frame the button is
// pressed: it must not stall the page.
func BenchmarkOpenComparison(b *testing.B) {
	for _, id := range []string{"fenced-writes", "shards", "scheduler"} {
		b.Run(id, func(b *testing.B) {
			l, err := lessons.Find(id)
			require.NoError(b, err)
			sc, err := New(l, Spec{})
			require.NoError(b, err)
			for b.Loop() {
				_, err := newComparison(sc.finder)
				require.NoError(b, err)
			}
		})
	}
}
