package core

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A chunk keeps each text once as far as it remembers it; whatever it
// remembers or forgets, every event reads back the texts it was given.
func TestEventsReadBackTheirTextsWhenChunksShareThem(t *testing.T) {
	var tr Trace
	var want []string
	for i := range 20000 {
		// A few names repeated thousands of times, among texts seen once.
		to := fmt.Sprintf("worker-%02d", i%12)
		why := "repeat"
		if i%3 == 0 {
			why = fmt.Sprintf("once %d", i)
		}
		tr.add(time.Duration(i), "net", KindDrop, I(FID, int64(i)), S(FTo, to), S(FMsg, "Put"), S(FWhy, why))
		want = append(want, to+" Put "+why)
	}
	require.Equal(t, len(want), tr.Len())
	chunks, texts := map[*chunk]bool{}, 0
	for i := range tr.Len() {
		e := tr.At(i)
		assert.Equal(t, want[i], e.To()+" "+e.Msg()+" "+e.Why(), "event %d", i)
		assert.Equal(t, int64(i), e.ID())
		if c := e.c; !chunks[c] {
			chunks[c] = true
			texts += len(c.strs)
		}
	}
	assert.Less(t, texts, 20000+12, "texts repeated by many events are kept once a chunk, not once an event")
}

// A shard fleet's trace repeats 128 shard keys, a dozen worker names and
// hundreds of lease IDs told apart by their last characters: each chunk
// keeps them nearly once each (textSlots spreads such names over its
// slots), not once every time a slot is taken by another name.
func TestAChunkKeepsAFleetsNamesNearlyOnce(t *testing.T) {
	s, err := BuildWorld(ShardsConfig{Shards: 128, Workers: 12, TTL: 15 * time.Second, LeasePerShard: true,
		ScanEvery: 5 * time.Second, ScanJitter: 0.5, CommitEvery: 5 * time.Second, Fencing: true}.World(1))
	require.NoError(t, err)
	s.RunUntil(3 * time.Minute)
	require.NotEmpty(t, s.Trace.chunks)
	for i, c := range s.Trace.chunks {
		distinct := map[string]bool{}
		for _, v := range c.strs {
			distinct[v] = true
		}
		assert.LessOrEqual(t, 2*len(c.strs), 3*len(distinct), "chunk %d keeps %d texts for %d distinct ones", i, len(c.strs), len(distinct))
	}
}

// Shard keys read as "%03d" writes them, at every width.
func TestShardKeysAreNumberedWithThreeDigitsAtLeast(t *testing.T) {
	keys := shardKeys("stream/shard-", 1002)
	require.Len(t, keys, 1002)
	for i, k := range keys {
		assert.Equal(t, fmt.Sprintf("stream/shard-%03d", i), k)
	}
}

// Hash reads every event field: changing one value changes the hash, and
// the text form it hashes is the one WriteText exports.
func TestTraceHashCoversEveryField(t *testing.T) {
	// The hands-on lab's world (core/sandbox's scenario, written here
	// from core's own configuration): A writes, freezes, writes late.
	w, err := ContentionConfig{Names: []string{"A", "B"}, FirstToken: 1, TTL: 10 * time.Second, Stagger: 500 * time.Millisecond, Fencing: true}.World(1)
	require.NoError(t, err)
	w.Script = ActionLog{At(time.Second, Write("A", "from A")), At(2*time.Second, Pause("A", 30*time.Second)), At(15*time.Second, Write("B", "from B"))}
	s, err := w.Build()
	require.NoError(t, err)
	s.RunUntil(40 * time.Second)
	tr := s.Trace
	base := tr.Hash()
	// Every value an event carries, text or number, is in the hash.
	for _, i := range []int{tr.Len() / 2, tr.Len() / 3} {
		e := tr.At(i)
		require.NotZero(t, e.mask, "event %d carries no field: %s", i, e.Text())
		v := &e.c.vals[e.off]
		old := *v
		if f := kinds[e.Kind].fields[bits.TrailingZeros16(e.mask)]; f.IsText() {
			e.c.strs = append(e.c.strs, e.Str(f)+"x")
			*v = uint16(len(e.c.strs) - 1)
		} else {
			*v = e.c.number(f, e.Num(f)+1, e.At.Milliseconds())
		}
		assert.NotEqual(t, base, tr.Hash(), "changing the first field of %s left the hash unchanged", e.Text())
		*v = old
		assert.Equal(t, base, tr.Hash(), "restoring the field did not restore the hash")
	}
}

// An event is 56 bytes: its one-byte fields share a word instead of each
// padding one of its own. A trace of a three-minute shards run holds
// about six thousand of them, and a full block of them (eventBlock) fills
// one of Go's small size classes exactly.
func TestAnEventIsSevenWords(t *testing.T) {
	assert.EqualValues(t, 56, reflect.TypeFor[Event]().Size())
	assert.EqualValues(t, 28672, eventBlock*reflect.TypeFor[Event]().Size(), "28 KiB, a size class")
}

// A trace records an event in 16 bytes that hold no pointer: a block of
// 512 is 8 KiB (a size class) the collector never scans, written with no
// write barrier.
func TestARecordIsTwoWordsWithNoPointer(t *testing.T) {
	typ := reflect.TypeFor[rec]()
	assert.EqualValues(t, 16, typ.Size())
	assert.EqualValues(t, 8192, eventBlock*typ.Size(), "8 KiB, a size class")
	for i := range typ.NumField() {
		k := typ.Field(i).Type.Kind()
		assert.NotContains(t, []reflect.Kind{reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Interface}, k, "field %s", typ.Field(i).Name)
	}
}

// An Event a reader holds stays valid, and the same, while the trace
// grows, is cloned, and the clone and the source record on: it is built
// once from its record, and a view extended in a copy leaves the Events
// already handed out where they were.
func TestEventsReadEarlyStayValidThroughGrowthAndClones(t *testing.T) {
	var tr Trace
	drops(&tr, 0, 10)
	held := []*Event{tr.At(0), tr.At(9)}
	held = append(held, tr.Last())
	cl := tr.clone()
	drops(&tr, 10, eventBlock+5)
	drops(&cl, 7000, 3)
	require.Equal(t, tr.At(0), held[0])
	assert.Same(t, held[0], tr.At(0), "a full-sized view is extended in place")
	for i, e := range []*Event{held[0], held[1], held[2]} {
		assert.EqualValues(t, []int64{0, 9, 9}[i], e.ID())
		assert.Equal(t, []int{0, 9, 9}[i], e.Seq)
		assert.Equal(t, "net", e.Actor)
	}
	assert.EqualValues(t, 10, tr.At(10).ID())
	assert.EqualValues(t, 7000, cl.At(10).ID())
	assert.EqualValues(t, 9, cl.At(9).ID())
}

// drops adds n drop events numbered from id on.
func drops(tr *Trace, id, n int) {
	for i := range n {
		tr.add(time.Duration(id+i), "net", KindDrop, I(FID, int64(id+i)))
	}
}

// ids reads back the ID of every event from..to through Span.
func ids(tr *Trace, from, to int) []int64 {
	var out []int64
	for e := range tr.Span(from, to) {
		out = append(out, e.ID())
	}
	return out
}

// count returns from, from+1, ... up to but not including to.
func count(from, to int) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, int64(i))
	}
	return out
}

// A trace never moves an event once recorded: a pointer to the first
// event is still the first event after thousands more, across blocks.
func TestEventsStayPutAsTheTraceGrows(t *testing.T) {
	var tr Trace
	drops(&tr, 0, 1)
	first := tr.At(0)
	drops(&tr, 1, 5*eventBlock+7)
	require.Equal(t, 5*eventBlock+8, tr.Len())
	assert.Same(t, first, tr.At(0), "the first event was moved")
	assert.Len(t, tr.blocks, 6, "five full blocks and one begun")
	for i := range tr.Len() {
		require.Equal(t, i, tr.At(i).Seq)
		require.EqualValues(t, i, tr.At(i).ID())
	}
	assert.EqualValues(t, tr.Len()-1, tr.Last().ID())
}

// Span reads any stretch of the trace, across blocks, and clamps bounds
// that fall outside it; All is the whole trace; an early stop stops.
func TestSpanReadsAcrossBlocksAndClampsItsBounds(t *testing.T) {
	var tr Trace
	drops(&tr, 0, 2*eventBlock+10)
	assert.Equal(t, count(eventBlock-3, eventBlock+4), ids(&tr, eventBlock-3, eventBlock+4))
	assert.Equal(t, count(0, tr.Len()), ids(&tr, -5, tr.Len()+5))
	assert.Equal(t, count(2*eventBlock, tr.Len()), ids(&tr, 2*eventBlock, tr.Len()))
	assert.Empty(t, ids(&tr, 7, 7))
	assert.Empty(t, ids(&tr, 9, 3))
	n := 0
	for e := range tr.All() {
		require.Equal(t, n, e.Seq)
		n++
		if n == eventBlock+1 {
			break
		}
	}
	assert.Equal(t, eventBlock+1, n)
	var empty Trace
	assert.Empty(t, ids(&empty, 0, 10))
	assert.Nil(t, empty.Last())
}

// A clone shares its source's events but neither sees what the other
// records next, even when the last block they share is half full.
func TestACloneAndItsSourceRecordApart(t *testing.T) {
	for _, n := range []int{3, eventBlock, eventBlock + 100} {
		var src Trace
		drops(&src, 0, n)
		cl := src.clone()
		assert.Same(t, &src.blocks[0][0], &cl.blocks[0][0], "a clone copies no record")
		drops(&src, 1000, 600)
		drops(&cl, 5000, 700)
		assert.Equal(t, append(count(0, n), count(1000, 1600)...), ids(&src, 0, src.Len()), "source, %d shared", n)
		assert.Equal(t, append(count(0, n), count(5000, 5700)...), ids(&cl, 0, cl.Len()), "clone, %d shared", n)
		if n >= eventBlock {
			assert.Same(t, &src.blocks[0][0], &cl.blocks[0][0], "a full block stays shared")
		}
	}
}

// An explorer's worlds are clones of a world whose checked events were
// dropped; each records, is checked, drops, records again. Neither a
// clone nor its source ever sees the other's events.
func TestClonesOfADroppedTraceRecordAndDropApart(t *testing.T) {
	texts := func(tr *Trace, who string, n int) {
		for i := range n {
			tr.add(time.Duration(i), who, KindDrop, I(FID, int64(i)), S(FTo, fmt.Sprintf("%s-%d", who, i)))
		}
	}
	var src Trace
	drops(&src, 0, 200) // several chunks
	src.Drop()
	cl := src.clone()
	cl.Drop() // an empty check
	for round := range 3 {
		texts(&cl, "clone", 5)
		texts(&src, "source", 5)
		for _, tr := range []*Trace{&cl, &src} {
			who := map[*Trace]string{&cl: "clone", &src: "source"}[tr]
			require.Equal(t, 5, tr.Len(), "round %d", round)
			for i := range tr.Len() {
				assert.Equal(t, who, tr.At(i).Actor, "round %d event %d", round, i)
				assert.Equal(t, fmt.Sprintf("%s-%d", who, i), tr.At(i).To(), "round %d event %d", round, i)
			}
		}
		src.Drop()
		cl.Drop()
	}
}

// A kept-kinds trace (an explorer's world) starts small; Drop empties a
// trace and reuses its first block; Forget empties it and leaves its
// blocks to a clone's source.
func TestDropReusesAndForgetLeavesTheStorage(t *testing.T) {
	var tr Trace
	tr.Keep(KindDrop)
	drops(&tr, 0, 3)
	assert.Equal(t, 16, cap(tr.blocks[0]), "a short record starts short")
	drops(&tr, 3, 600)
	tr.Drop()
	assert.Zero(t, tr.Len())
	assert.Len(t, tr.blocks, 1)
	drops(&tr, 7, 2)
	assert.Equal(t, []int64{7, 8}, ids(&tr, 0, 9))
	assert.Equal(t, 0, tr.At(0).Seq)

	var src Trace
	drops(&src, 0, 10)
	cl := src.clone()
	cl.Forget()
	drops(&cl, 100, 3)
	assert.Equal(t, count(0, 10), ids(&src, 0, 100), "the source keeps its events")
	assert.Equal(t, count(100, 103), ids(&cl, 0, 100))
}

// A number field takes two bytes of its chunk when it is small, near its
// field's first large one in the chunk, or a time a little after its
// event's, and reads back whole when it is not:
// negative, past 2^31, a length of weeks, a time just before its event
// or far after it, at every event time.
func TestNumbersReadBackWholeAtEverySize(t *testing.T) {
	values := []int64{0, 1, valNear - 1, valNear, valBig, 1<<16 - 1, 1 << 16, math.MaxInt32, math.MaxInt32 + 1, -1, math.MinInt32, math.MinInt64, math.MaxInt64, 1 << 40}
	for _, at := range []time.Duration{0, time.Millisecond, 40 * time.Second, time.Hour, -time.Second} {
		atMs := at.Milliseconds()
		near := []int64{atMs, atMs - 1, atMs + 1, atMs + valBig - valNear - 1, atMs + valBig - valNear}
		var tr Trace
		all := append(slices.Clone(values), near...)
		for _, v := range all {
			tr.add(at, "net", KindDrop, I(FID, v), S(FTo, "worker-01"))
		}
		tr.add(at, "p1", KindLeaseGrant, S(FLease, "694d"), D(FTTL, 30*24*time.Hour), D(FExpiry, at+15*time.Second))
		require.Equal(t, len(all)+1, tr.Len())
		for i, v := range all {
			assert.Equal(t, v, tr.At(i).ID(), "value %d of an event at %v", v, at)
			assert.Equal(t, "worker-01", tr.At(i).To())
		}
		g := tr.At(len(all))
		assert.Equal(t, 30*24*time.Hour, g.TTL())
		assert.Equal(t, at+15*time.Second, g.Expiry())
		assert.Equal(t, "694d", g.Lease())
		// The first number too large to hold and not near the event's
		// time (the TTL of 30 days is its field's first) is its field's
		// base; only those neither small, near nor within reach of the
		// base take eight bytes more.
		wide, base, based := 0, int64(0), false
		for _, v := range all {
			if v >= 0 && v < valBased || v-atMs >= 0 && v-atMs < valBig-valNear {
				continue
			}
			if !based {
				base, based = v, true
			}
			if d := v - base; d < 0 || d >= valNear-valBased {
				wide++
			}
		}
		assert.Len(t, tr.cur.big, wide, "at %v", at)
	}
}

// A view of a full block left partly built (only its first events read)
// when the trace is cloned is built on by each trace in arrays of its
// own: an explorer's clones run on several goroutines, and building the
// rest of one shared array from both would be a data race.
func TestAPartlyBuiltViewIsNotSharedByAClone(t *testing.T) {
	var tr Trace
	for i := range 300 {
		tr.add(time.Duration(i), "A", KindDrop, I(FID, int64(i)))
	}
	_ = tr.At(0) // block 0's view is built up to event 299
	for i := 300; i < 600; i++ {
		tr.add(time.Duration(i), "A", KindDrop, I(FID, int64(i)))
	}
	_ = tr.At(599) // block 1's view is built, block 0's is still partial
	c := tr.clone()
	require.Equal(t, 600, c.Len())
	src, cl := tr.At(400), c.At(400)
	assert.Equal(t, *src, *cl, "the clone reads the same event")
	assert.NotSame(t, src, cl, "each built it in an array of its own")
}

// An event's second cause, which few have, is kept beside the records:
// each event reads back its own causes, in a clone as in its source, and
// a dropped trace forgets them.
func TestSecondCausesReadBackByTheirEvents(t *testing.T) {
	var tr Trace
	for i := range 2*eventBlock + 10 {
		if i%300 == 7 {
			tr.also = int32(i) // the event i-1 (Seq+1 = i)
		}
		tr.add(time.Duration(i), "net", KindDrop, I(FID, int64(i)))
	}
	cl := tr.clone()
	cl.also = 3
	cl.add(time.Hour, "net", KindDrop, I(FID, 1))
	for _, got := range []*Trace{&tr, &cl} {
		for i := range 2*eventBlock + 10 {
			want := []int{i - 1} // the chain: each is caused by the one before
			if i == 0 {
				want = nil
			}
			if i%300 == 7 {
				want = append(want, i-1)
			}
			require.Equal(t, want, got.At(i).Causes(), "event %d", i)
		}
	}
	assert.Equal(t, []int{2*eventBlock + 9, 2}, cl.Last().Causes(), "the clone's own second cause")
	assert.Len(t, tr.alsos, 4, "the source has none of the clone's")
	tr.Drop()
	assert.Empty(t, tr.alsos, "a dropped trace forgets its second causes")
	tr.add(0, "net", KindDrop, I(FID, 0))
	assert.Len(t, tr.At(0).Causes(), 1, "its next event has only its chain's cause")
}

// An event with no fields still belongs to one chunk, the one its actor
// is a text of, even when it comes as its chunk fills up.
func TestAnEventWithNoFieldsKeepsItsActorAtAChunksEnd(t *testing.T) {
	var tr Trace
	for i := range 3000 {
		tr.add(time.Duration(i), fmt.Sprintf("actor-%d", i), KindDrop, I(FID, int64(i)))
		tr.add(time.Duration(i), fmt.Sprintf("quiet-%d", i), KindResume)
	}
	for i := range 3000 {
		assert.Equal(t, fmt.Sprintf("actor-%d", i), tr.At(2*i).Actor)
		require.Equal(t, fmt.Sprintf("quiet-%d", i), tr.At(2*i+1).Actor)
		require.Equal(t, int64(i), tr.At(2*i).ID())
	}
	assert.Greater(t, len(tr.chunks), 3, "the events span several chunks")
}

// A dropped trace reuses its chunk: the actor it recorded last must be
// stored again, not read from texts the drop forgot.
func TestAnActorRecordedAgainAfterADropReadsBack(t *testing.T) {
	var tr Trace
	tr.add(0, "worker-07", KindDrop, I(FID, 1))
	tr.add(0, "worker-07", KindDrop, I(FID, 2))
	tr.Drop()
	tr.add(0, "worker-07", KindNote, S(FText, "first after the drop"))
	assert.Equal(t, "worker-07", tr.At(0).Actor)
	assert.Equal(t, "first after the drop", tr.At(0).Words())
}
