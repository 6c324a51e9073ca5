package core

import (
	"fmt"
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

// An event is 56 bytes: its one-byte fields share a word instead of each
// padding one of its own. A trace of a three-minute shards run holds
// about six thousand of them, grown by copying.
func TestAnEventIsSevenWords(t *testing.T) {
	assert.EqualValues(t, 56, reflect.TypeFor[Event]().Size())
}
