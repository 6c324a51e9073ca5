package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A send recorded by Trace.send, the fast way the network records every
// message, is the very event add records from the same fields: the same
// values, the same causes, the same hash; with and without a token, and
// held back or not.
func TestASendRecordsTheEventAddWould(t *testing.T) {
	cases := []struct {
		token int64
		held  time.Duration
	}{{0, 0}, {7, 0}, {0, 250 * time.Millisecond}, {1 << 40, time.Second}}
	for _, c := range cases {
		var fast, slow Trace
		for _, tr := range []*Trace{&fast, &slow} {
			tr.add(time.Second, "A", KindResume)
		}
		arrive := 1500 * time.Millisecond
		gotID := fast.send(time.Second, "A", 42, "coordinator", "lease.keepalive", arrive, c.token, c.held)
		fs := []Field{I(FID, 42), S(FTo, "coordinator"), S(FMsg, "lease.keepalive"), D(FArrive, arrive)}
		if c.token != 0 {
			fs = append(fs, I(FToken, c.token))
		}
		if c.held > 0 {
			fs = append(fs, D(FHeld, c.held))
		}
		wantID := slow.aside(time.Second, "A", KindSend, fs...)
		require.Equal(t, 2, fast.Len())
		assert.Equal(t, wantID, gotID, "the send's Seq+1, and the chain left where it was")
		assert.Equal(t, slow.cause, fast.cause)
		a, b := fast.At(1), slow.At(1)
		assert.Equal(t, b.Causes(), a.Causes())
		assert.Equal(t, b.Actor, a.Actor)
		var got, want []string
		a.Each(func(f FieldID) { got = append(got, f.Key()+"="+a.Format(f)) })
		b.Each(func(f FieldID) { want = append(want, f.Key()+"="+b.Format(f)) })
		assert.Equal(t, want, got, "token %d, held %v", c.token, c.held)
		assert.Equal(t, slow.Hash(), fast.Hash())
	}
	var quiet Trace
	quiet.Quiet = true
	assert.Zero(t, quiet.send(0, "A", 1, "B", "m", 0, 0, 0), "a quiet trace records no send")
	assert.Zero(t, quiet.Len())
}
