package core

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The event queue pops events by time, then by order (sequence, with
// late events after every ordinary one due at the same instant), however
// pushes and pops interleave: a world's run depends on nothing else.
func TestTheQueuePopsByTimeThenOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var q eventQueue
	var want []event
	seq := uint64(0)
	push := func(at time.Duration) {
		seq++
		order := seq
		if r.IntN(5) == 0 {
			order |= lateBit
		}
		e := event{at: at, order: order, slot: int32(seq)}
		q.push(e)
		want = append(want, e)
	}
	byKey := func(a, b event) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.order, b.order))
	}
	now := time.Duration(0)
	for range 5000 {
		for range r.IntN(3) {
			push(now + time.Duration(r.IntN(50))*time.Millisecond) // ties at one instant are common
		}
		if len(q) == 0 {
			continue
		}
		slices.SortFunc(want, byKey)
		got := q.pop()
		require.Equal(t, want[0], got)
		want = want[1:]
		now = got.at
	}
	for len(q) > 0 {
		slices.SortFunc(want, byKey)
		assert.Equal(t, want[0], q.pop())
		want = want[1:]
	}
	assert.Empty(t, want)
}
