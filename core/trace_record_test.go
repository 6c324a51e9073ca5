package core

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A record keeps its time as the distance from the one before and its
// cause as the distance back to it; whatever does not fit (a gap of more
// than four seconds, a time before the last, a cause far back or ahead)
// is kept aside, and every event reads back the time and cause it was
// recorded with, in the trace, in its clone and after a drop.
func TestTimesAndCausesReadBackWholeHoweverFarTheyLie(t *testing.T) {
	gaps := []time.Duration{0, 1, farDT - 1, farDT, farDT + 1, time.Hour, -time.Second, 3}
	var tr Trace
	var wantAt []time.Duration
	var wantCause []int32
	at, wantFar := time.Duration(0), 0
	for i := range 3*eventBlock + 100 {
		gap := gaps[i%len(gaps)]
		at += gap
		switch {
		case i%7 == 0:
			tr.cause = 0 // no cause
		case i%11 == 0 && i > farBack:
			tr.cause = int32(i - farBack) // exactly the farthest a record holds
		case i%13 == 0:
			tr.cause = int32(i + 5) // ahead: only after a drop, but kept whole
		}
		wantAt, wantCause = append(wantAt, at), append(wantCause, tr.cause)
		back := i + 1 - int(tr.cause)
		if i%eventBlock == 0 || gap < 0 || gap >= farDT || tr.cause != 0 && (back <= 0 || back >= farBack) {
			wantFar++
		}
		tr.add(at, "net", KindDrop, I(FID, int64(i)))
	}
	cl := tr.clone()
	for _, got := range []*Trace{&tr, &cl} {
		require.Equal(t, len(wantAt), got.Len())
		for i := range got.Len() {
			e := got.At(i)
			require.Equal(t, wantAt[i], e.At, "event %d's time", i)
			require.Equal(t, wantCause[i], e.cause, "event %d's cause", i)
		}
	}
	assert.Len(t, tr.far, wantFar, "what does not fit, and each block's first time, is kept aside")
	tr.Drop()
	assert.Empty(t, tr.far, "a dropped trace forgets what it kept aside")
	tr.cause = 0
	tr.add(time.Minute, "net", KindDrop, I(FID, 0))
	tr.add(time.Minute+time.Millisecond, "net", KindDrop, I(FID, 1))
	assert.Equal(t, []time.Duration{time.Minute, time.Minute + time.Millisecond}, []time.Duration{tr.At(0).At, tr.At(1).At})
	assert.Equal(t, []int{0}, tr.At(1).Causes())
}

// A cause more than a record's reach back (65,534 events) is kept aside
// too: a long run's lease may end an hour of events after its grant.
func TestACauseFarBackReadsBack(t *testing.T) {
	var tr Trace
	n := farBack + 10
	for i := range n {
		tr.cause = int32(i) // each caused by the one before: back 1
		if i == n-1 {
			tr.cause = 1 // event 0, n-1 back
		}
		tr.add(time.Duration(i), "net", KindDrop, I(FID, int64(i)))
	}
	assert.Equal(t, []int{0}, tr.At(n-1).Causes())
	assert.Equal(t, []int{n - 3}, tr.At(n-2).Causes())
	assert.Equal(t, int32(n-1), tr.far[len(tr.far)-1].seq, "kept aside")
}

// A chunk holds no more texts than a record's actor index reaches: a
// run whose every event has an actor of its own starts new chunks, and
// every actor reads back.
func TestActorsReadBackWhenEveryEventHasItsOwn(t *testing.T) {
	var tr Trace
	n := math.MaxUint16 + 1000
	for i := range n {
		tr.add(time.Duration(i), fmt.Sprintf("a%d", i), KindCrash)
	}
	for i := range n {
		require.Equal(t, fmt.Sprintf("a%d", i), tr.At(i).Actor, "event %d", i)
	}
	assert.Greater(t, len(tr.chunks), 1, "a new chunk before the texts outgrow a record")
	for _, c := range tr.chunks {
		assert.LessOrEqual(t, len(c.strs), chunkTexts)
	}
}
