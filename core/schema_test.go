package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The schema names every kind and field once, and an event carries only
// the fields its kind declares.
func TestSchemaDeclaresEachKindAndFieldOnce(t *testing.T) {
	names := map[string]Kind{}
	for k := kindNone + 1; k < kindCount; k++ {
		d := kinds[k]
		require.NotEmpty(t, d.name, "kind %d has no name", k)
		assert.NotContains(t, names, d.name, "two kinds are called %q", d.name)
		names[d.name] = k
		got, ok := KindNamed(d.name)
		assert.True(t, ok)
		assert.Equal(t, k, got)
		seen := map[string]bool{}
		for _, f := range d.fields {
			assert.False(t, seen[f.Key()], "%s declares the key %q twice", d.name, f.Key())
			seen[f.Key()] = true
		}
	}
	_, ok := KindNamed("no.such.kind")
	assert.False(t, ok)
	for f := fieldNone + 1; f < fieldCount; f++ {
		assert.Equal(t, fields[f].typ == millis, len(f.Key()) > 3 && f.Key()[len(f.Key())-3:] == "_ms" || f.Key() == "ms",
			"%s: a length's key ends in _ms, and only a length's", f.Key())
	}
}

func TestEventFieldsReadBackByTheirAccessors(t *testing.T) {
	e := NewEvent(1500*time.Millisecond, "coordinator", KindHolder,
		S(FLock, "locks/leader"), S(FOwner, "B"), S(FKey, "locks/leader/b"), I(FToken, 8), I(FCreateRev, 12))
	assert.Equal(t, "locks/leader", e.Lock())
	assert.Equal(t, "B", e.Owner())
	assert.Equal(t, int64(8), e.Token())
	assert.True(t, e.Has(FToken))
	assert.False(t, e.Has(FNodes), "a field not given is absent")
	assert.Zero(t, e.Nodes())
	assert.Equal(t, "8", e.Format(FToken))
	assert.Equal(t, "", e.Format(FNodes))
	assert.Equal(t, `t=1.500s coordinator lock.holder lock=locks/leader owner=B key=locks/leader/b token=8 create_rev=12`, e.Text())
	assert.Equal(t, `{"seq":0,"t_ms":1500,"actor":"coordinator","kind":"lock.holder","lock":"locks/leader","owner":"B","key":"locks/leader/b","token":8,"create_rev":12}`, string(e.JSON()))

	d := NewEvent(0, "A", KindPause, D(FFor, 9*time.Second))
	assert.Equal(t, 9*time.Second, d.For(), "a length reads back as a duration")
	assert.Equal(t, int64(9000), d.Num(FFor))
}

// Fields are written in the kind's order whatever order they are given in,
// so every encoding of an event is the same.
func TestEventFieldsKeepTheKindsOrder(t *testing.T) {
	a := NewEvent(0, "A", KindState, S(FFrom, "follower"), S(FTo, "leader"), S(FWhy, "won"))
	b := NewEvent(0, "A", KindState, S(FWhy, "won"), S(FTo, "leader"), S(FFrom, "follower"))
	assert.Equal(t, a.Text(), b.Text())
}

func TestAFieldTheKindDoesNotDeclareIsAProgrammingError(t *testing.T) {
	assert.Panics(t, func() { NewEvent(0, "A", KindPause, S(FOwner, "A")) })
	assert.Panics(t, func() { NewEvent(0, "A", KindPause, D(FFor, time.Second), D(FFor, time.Second)) })
}

// A detached event keeps its fields when its trace's storage is reused, as
// the explorer's worlds reuse theirs.
func TestDetachedEventOutlivesItsTracesStorage(t *testing.T) {
	var tr Trace
	tr.add(time.Second, "store", KindWrite, S(FFrom, "A"), I(FToken, 7), S(FValue, "x"), S(FResult, Accepted))
	kept := tr.At(0).Detached()
	tr.Drop()
	tr.add(2*time.Second, "store", KindWrite, S(FFrom, "B"), I(FToken, 9), S(FValue, "y"), S(FResult, RejectedStale))
	assert.Equal(t, "A", kept.From())
	assert.Equal(t, int64(7), kept.Token())
	assert.Equal(t, "B", tr.At(0).From())
}

// A clone and its source never write into one chunk: each keeps the other's
// events as they were.
func TestClonedTracesKeepEachOthersEvents(t *testing.T) {
	var tr Trace
	tr.add(0, "A", KindNote, S(FText, "one"))
	c := tr.clone()
	tr.add(0, "A", KindNote, S(FText, "source"))
	c.add(0, "A", KindNote, S(FText, "clone"))
	assert.Equal(t, "one", c.At(0).Words())
	assert.Equal(t, "source", tr.At(1).Words())
	assert.Equal(t, "clone", c.At(1).Words())
}
