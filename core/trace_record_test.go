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
		case i%11 == 0 && i > 1000:
			tr.cause = int32(i - 1000) // a thousand events back
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

// A record reaches any cause before its event in a trace of the most
// events a run may record, and keeps its kind and whether an action made
// it beside that reach: a long run's lease may end a hundred thousand
// events after its grant.
func TestACauseFarBackReadsBack(t *testing.T) {
	require.Greater(t, farBack, MaxTraceEvents, "back reaches across the longest trace")
	var tr Trace
	n := 100_000
	for i := range n {
		tr.cause = int32(i) // each caused by the one before: back 1
		if i == n-1 {
			tr.cause = 1 // event 0, n-1 back
		}
		tr.inAction = i == n-1
		tr.add(time.Duration(i), "net", KindLeaseRenew)
	}
	last := tr.At(n - 1)
	assert.Equal(t, []int{0}, last.Causes())
	assert.Equal(t, KindLeaseRenew, last.Kind)
	assert.True(t, last.byAction)
	assert.Equal(t, []int{n - 3}, tr.At(n-2).Causes())
	assert.False(t, tr.At(n-2).byAction)
	assert.Len(t, tr.far, (n+eventBlock-1)/eventBlock, "only the blocks' first times are kept aside")
	var r rec
	r.meta = uint32(KindNote) | metaAction
	r.setBack(farBack)
	assert.Equal(t, []any{KindNote, true, uint32(farBack)}, []any{r.kind(), r.byAction(), r.back()}, "the kind, the action mark and back share a word")
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

// Counters that only grow (message ids, revisions, tokens) take two bytes
// a value through a long run: in each chunk they stay within reach of
// the first that was too large to hold as it is.
func TestGrowingCountersStayInTwoBytes(t *testing.T) {
	var tr Trace
	n := 60_000
	for i := range n {
		at := time.Duration(i) * 20 * time.Millisecond
		tr.add(at, "w1", KindSend, I(FID, int64(i+1)), S(FTo, "coordinator"), S(FMsg, "Put"), D(FArrive, at+3*time.Millisecond), I(FToken, int64(100_000+i/3)))
	}
	for i := range n {
		e := tr.At(i)
		require.Equal(t, int64(i+1), e.ID(), "event %d", i)
		require.Equal(t, int64(100_000+i/3), e.Token(), "event %d", i)
		require.Equal(t, e.At+3*time.Millisecond, e.Arrive(), "event %d", i)
	}
	for _, c := range tr.chunks {
		assert.Empty(t, c.big, "a chunk starting at %d", c.start)
	}
}

// Fields given out of their kind's order are stored once each, like
// fields in order: a chunk full of such events holds no more large
// numbers or texts than values, and every one reads back.
func TestFieldsOutOfOrderReadBackInFullChunks(t *testing.T) {
	var tr Trace
	n := 12_000
	big := int64(1) << 52
	for i := range n {
		// A send declares its id before its token.
		tr.add(time.Duration(i), "w1", KindSend, I(FToken, big+int64(i)*1_000_003), I(FID, -big-int64(i)))
	}
	for i := range n {
		e := tr.At(i)
		require.Equal(t, []int64{big + int64(i)*1_000_003, -big - int64(i)}, []int64{e.Token(), e.ID()}, "event %d", i)
	}
	for _, c := range tr.chunks {
		assert.LessOrEqual(t, len(c.big), cap(c.vals), "a chunk starting at %d", c.start)
	}
}

// A trace and its clone each record on, at times far apart and past a
// block's end, and each reads back its own times.
func TestACloneAndItsSourceKeepTheirOwnTimes(t *testing.T) {
	var tr Trace
	for i := range eventBlock - 5 {
		at := time.Duration(i) * time.Millisecond
		if i >= 100 {
			at += time.Minute // gaps kept aside, leaving room to spare
		}
		if i >= 200 {
			at += time.Minute
		}
		tr.add(at, "net", KindDrop, I(FID, int64(i)))
	}
	require.Less(t, len(tr.far), cap(tr.far))
	cl := tr.clone()
	for i := range 20 {
		tr.add(time.Hour+time.Duration(i)*time.Second, "net", KindDrop, I(FID, int64(i)))
		cl.add(2*time.Hour+time.Duration(i)*5*time.Second, "net", KindDrop, I(FID, int64(i)))
	}
	for i := range 20 {
		seq := eventBlock - 5 + i
		assert.Equal(t, time.Hour+time.Duration(i)*time.Second, tr.At(seq).At, "the source's event %d", seq)
		assert.Equal(t, 2*time.Hour+time.Duration(i)*5*time.Second, cl.At(seq).At, "the clone's event %d", seq)
	}
	assert.Equal(t, 3*time.Millisecond, cl.At(3).At, "what they share")
}

// The times of the events after one are read from the records: a reader
// that changes an Event's time (which it should not) moves no other event.
func TestChangingAnEventsTimeMovesNoOther(t *testing.T) {
	var tr Trace
	for i := range 10 {
		tr.add(time.Duration(i)*time.Second, "net", KindDrop, I(FID, int64(i)))
	}
	tr.At(9).At += time.Hour
	for i := 10; i < 20; i++ {
		tr.add(time.Duration(i)*time.Second, "net", KindDrop, I(FID, int64(i)))
	}
	for i := 10; i < 20; i++ {
		assert.Equal(t, time.Duration(i)*time.Second, tr.At(i).At, "event %d", i)
	}
}
