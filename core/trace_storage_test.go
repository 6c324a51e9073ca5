package core

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
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
	require.Len(t, tr.Events, len(want))
	chunks, texts := map[*chunk]bool{}, 0
	for i := range tr.Events {
		e := &tr.Events[i]
		assert.Equal(t, want[i], e.To()+" "+e.Msg()+" "+e.Why(), "event %d", i)
		assert.Equal(t, int64(i), e.ID())
		if c := e.c; !chunks[c] {
			chunks[c] = true
			texts += len(c.strs)
		}
	}
	assert.Less(t, texts, 20000+12, "texts repeated by many events are kept once a chunk, not once an event")
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
	for _, i := range []int{len(tr.Events) / 2, len(tr.Events) / 3} {
		e := &tr.Events[i]
		require.NotZero(t, e.mask, "event %d carries no field: %s", i, e.Text())
		v := &e.c.vals[e.off]
		old := *v
		if f := kinds[e.Kind].fields[bits.TrailingZeros16(e.mask)]; f.IsText() {
			e.c.strs = append(e.c.strs, e.Str(f)+"x")
			*v = int32(len(e.c.strs) - 1)
		} else {
			*v = e.c.number(e.Num(f) + 1)
		}
		assert.NotEqual(t, base, tr.Hash(), "changing the first field of %s left the hash unchanged", e.Text())
		*v = old
		assert.Equal(t, base, tr.Hash(), "restoring the field did not restore the hash")
	}
}

// An event is 56 bytes: its one-byte fields share a word instead of each
// padding one of its own. A trace of a three-minute shards run holds
// about six thousand of them, grown by copying.
func TestAnEventIsSevenWords(t *testing.T) {
	assert.EqualValues(t, 56, reflect.TypeFor[Event]().Size())
}

// A number field takes four bytes of its chunk when it fits and reads
// back whole when it does not: negative, past 2^31, a length of weeks.
func TestNumbersReadBackWholeAtEverySize(t *testing.T) {
	var tr Trace
	values := []int64{0, 1, math.MaxInt32, math.MaxInt32 + 1, -1, math.MinInt32, math.MinInt64, math.MaxInt64, 1 << 40}
	for _, v := range values {
		tr.add(0, "net", KindDrop, I(FID, v), S(FTo, "worker-01"))
	}
	tr.add(0, "p1", KindLeaseGrant, S(FLease, "694d"), D(FTTL, 30*24*time.Hour), D(FExpiry, -time.Second))
	require.Len(t, tr.Events, len(values)+1)
	for i, v := range values {
		assert.Equal(t, v, tr.Events[i].ID(), "value %d", v)
		assert.Equal(t, "worker-01", tr.Events[i].To())
	}
	g := &tr.Events[len(values)]
	assert.Equal(t, 30*24*time.Hour, g.TTL())
	assert.Equal(t, -time.Second, g.Expiry())
	assert.Equal(t, "694d", g.Lease())
}
