package core

import (
	"iter"
	"math/bits"
	"strconv"
	"time"
)

// Kind names one sort of trace event; schema.go declares them all.
type Kind uint8

// String is the kind's name as the encodings write it ("lock.holder").
func (k Kind) String() string {
	if k > kindNone && k < kindCount {
		return kinds[k].name
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// KindNamed returns the kind called name, for names that come from outside
// (a trace file, a command line).
func KindNamed(name string) (Kind, bool) {
	for k := kindNone + 1; k < kindCount; k++ {
		if kinds[k].name == name {
			return k, true
		}
	}
	return kindNone, false
}

// FieldID names one field of an event; schema.go declares them all, each
// with its key and type.
type FieldID uint8

// Key is the field's key as the encodings write it ("owner", "until_ms").
func (f FieldID) Key() string {
	if f > fieldNone && f < fieldCount {
		return fields[f].key
	}
	return "field(" + strconv.Itoa(int(f)) + ")"
}

// IsText reports whether the field holds text rather than a number.
func (f FieldID) IsText() bool { return f < fieldCount && fields[f].typ == text }

type fieldType uint8

const (
	text   fieldType = iota // a string
	number                  // a whole number
	millis                  // a length or an instant, in whole milliseconds
)

type kindDef struct {
	name   string
	fields []FieldID
	// pos is the index of each field in fields, -1 for a field the kind
	// does not carry.
	pos [fieldCount]int8
}

type fieldDef struct {
	key string
	typ fieldType
}

func init() {
	for k := range kinds {
		d := &kinds[k]
		for f := range d.pos {
			d.pos[f] = -1
		}
		if len(d.fields) > 16 {
			panic("core: kind " + d.name + " declares more than 16 fields")
		}
		for i, f := range d.fields {
			d.pos[f] = int8(i)
		}
	}
}

// Field is one value given to an event as it is recorded: S, I and D make
// them.
type Field struct {
	ID  FieldID
	Str string
	Int int64
}

// S makes a text field.
func S(id FieldID, v string) Field { return Field{ID: id, Str: v} }

// I makes a number field.
func I(id FieldID, v int64) Field { return Field{ID: id, Int: v} }

// D makes a length field, stored in milliseconds.
func D(id FieldID, v time.Duration) Field { return Field{ID: id, Int: v.Milliseconds()} }

// Event is one entry of the trace. Its fields live in a chunk of the
// trace's storage, shared by many events and holding no per-event slices:
// read them with the accessors in schema.go.
type Event struct {
	Seq int
	// At is when the event happened. Read it, do not change it: its time
	// fields a little after it (an arrival, an expiry) are read as the
	// distance from it (see chunk.number).
	At    time.Duration
	Actor string
	Kind  Kind
	// byAction marks an action's direct effect, recorded while it applied.
	// (It sits beside Kind and mask, in bytes they leave free: an event is
	// 56 bytes, not 64, and a long trace is thousands of them.)
	byAction bool
	// mask has bit i set when the event carries its kind's field i; the
	// values of the fields it carries are c.vals[off:], in the kind's order.
	mask uint16
	off  uint32
	c    *chunk
	// cause and also are the Seq+1 of the events that caused this one (0:
	// none). See Causes.
	cause, also int32
}

// Causes returns the Seq of each event that caused e, the first being the
// one whose handling emitted it: a message's arrival is caused by its
// send, a timer's work by what armed it, an expiry by the last renewal the
// lease got, a store's verdict by the write's send and by the write that
// set the highest token it compared with. An event with no cause is a
// root: a learner's action, the world's script or its start.
func (e *Event) Causes() []int {
	switch {
	case e.cause == 0 && e.also == 0:
		return nil
	case e.also == 0:
		return []int{int(e.cause) - 1}
	case e.cause == 0:
		return []int{int(e.also) - 1}
	}
	return []int{int(e.cause) - 1, int(e.also) - 1}
}

// NewEvent builds an event outside any trace, for tests and for views that
// make an event of their own.
func NewEvent(at time.Duration, actor string, kind Kind, fs ...Field) Event {
	t := Trace{blocks: [][]rec{make([]rec, 0, 1)}}
	t.add(at, actor, kind, fs...)
	return *t.At(0)
}

// index is where field f's value sits in the event's chunk, or -1.
func (e *Event) index(f FieldID) int {
	if e.Kind >= kindCount || f >= fieldCount {
		return -1
	}
	p := kinds[e.Kind].pos[f]
	if p < 0 || e.mask&(1<<p) == 0 {
		return -1
	}
	return int(e.off) + bits.OnesCount16(e.mask&(1<<p-1))
}

// Has reports whether the event carries field f.
func (e *Event) Has(f FieldID) bool { return e.index(f) >= 0 }

// Str returns text field f ("" if absent or not text).
func (e *Event) Str(f FieldID) string {
	i := e.index(f)
	if i < 0 || fields[f].typ != text {
		return ""
	}
	return e.c.strs[e.c.vals[i]]
}

// Num returns number or length field f (0 if absent or text); a length is
// in milliseconds.
func (e *Event) Num(f FieldID) int64 {
	i := e.index(f)
	if i < 0 || fields[f].typ == text {
		return 0
	}
	return e.c.num(i, f, e.At.Milliseconds())
}

// Format returns field f as the text encoding writes it: the text itself,
// or the number in decimal ("" if absent).
func (e *Event) Format(f FieldID) string {
	if !e.Has(f) {
		return ""
	}
	if f.IsText() {
		return e.Str(f)
	}
	return strconv.FormatInt(e.Num(f), 10)
}

// Each calls fn with every field the event carries, in the kind's order.
func (e *Event) Each(fn func(f FieldID)) {
	if e.Kind >= kindCount {
		return
	}
	for i, f := range kinds[e.Kind].fields {
		if e.mask&(1<<i) != 0 {
			fn(f)
		}
	}
}

// Detached returns a copy of the event with its fields in a chunk of its
// own, for keeping it after its trace's storage is reused.
func (e Event) Detached() Event {
	var fs []Field
	e.Each(func(f FieldID) { fs = append(fs, Field{ID: f, Str: e.Str(f), Int: e.Num(f)}) })
	d := NewEvent(e.At, e.Actor, e.Kind, fs...)
	d.Seq, d.cause, d.also, d.byAction = e.Seq, e.cause, e.also, e.byAction
	return d
}

// Trace is the ordered record of a run. Read its events with Len, At,
// All and Span. They are recorded compactly (rec), in blocks that are
// never moved once full, so a long run's trace is never copied as it
// grows; the Events a reader gets are built on first read, block by
// block, and an *Event stays valid while the trace lives.
type Trace struct {
	// blocks hold the records in order. Every block but the last is full
	// and holds eventBlock records, so event i is blocks[i/eventBlock][i%
	// eventBlock]. The last may be shorter, and its capacity smaller (the
	// first block of a small trace, or a block a clone shares: see grow).
	blocks [][]rec
	// views[b] holds the Events of block b read so far, in order (nil:
	// none yet); see view.
	views [][]Event
	// chunks are the chunks the records' fields and actors sit in, in
	// the order of their starts.
	chunks []*chunk
	// alsos are the events' second causes, in the order of their Seq.
	alsos []secondCause
	// far holds, in the order of their Seq, the times and causes the
	// records have no room for, and the time of each block's first
	// record; lastAt is the time of the last record.
	far    []farRec
	lastAt time.Duration
	n      int
	// Quiet drops message send events (the bulk of a large run) when true.
	// Benchmarks and large searches set it; lessons never do.
	Quiet bool
	// only, if set, holds the kinds recorded: the explorer's worlds keep
	// just what their invariant reads (Invariant.Kinds).
	only *kindSet
	// cause is the Seq+1 of the event that caused what happens now (0:
	// the start): each event recorded gets it as its cause and becomes
	// it, so the events one handler emits form a chain from its trigger.
	// The simulator sets it when it fires a task (to the event that
	// scheduled the task) and when a learner acts (to 0). also is a second
	// cause for the next event recorded only.
	cause, also int32
	// caused says an event recorded now must have a cause: the task being
	// fired is neither the world's start nor an action. Orphans counts
	// those recorded without one, which would be a cause lost on its way
	// (the property tests require none).
	caused, inAction bool
	Orphans          int
	// cur is the chunk new events' fields go to (nil: start one). It is
	// append-only except in explorer worlds, which drop checked events
	// (run.check); a clone starts its own and makes its source start a
	// new one, so no two traces ever append to one chunk.
	cur *chunk
	// actor is the actor of the last event recorded, a text of chunk
	// actorIn at actorAt.
	actor   string
	actorIn *chunk
	actorAt int32
}

// kindSet is a set of kinds, one bit each.
type kindSet [(kindCount + 63) / 64]uint64

func (s *kindSet) has(k Kind) bool { return s[k/64]&(1<<(k%64)) != 0 }

// Keep records only events of the given kinds from now on: a check that
// reads three kinds out of a thousand runs need not build the rest. The
// run itself is the same; only its record is smaller.
func (t *Trace) Keep(ks ...Kind) {
	var s kindSet
	for _, k := range ks {
		s[k/64] |= 1 << (k % 64)
	}
	t.only = &s
}

// on reports whether events of kind are recorded. Callers that build
// costly fields (formatted strings) ask first.
func (t *Trace) on(kind Kind) bool {
	if t.Quiet && kind == KindSend {
		return false
	}
	return t.only == nil || t.only.has(kind)
}

// aside records an event that does not move the chain on: a message's
// send, drop or wait is an effect of what the handler does, not a cause of
// what it does next (its delivery, scheduled by the send, is caused by it).
// It returns the event's Seq+1, or 0 if it was not recorded.
func (t *Trace) aside(at time.Duration, actor string, kind Kind, fs ...Field) int32 {
	c := t.cause
	t.add(at, actor, kind, fs...)
	id := t.cause
	if id == c {
		id = 0
	}
	t.cause = c
	return id
}

func (t *Trace) add(at time.Duration, actor string, kind Kind, fs ...Field) {
	if !t.on(kind) {
		return
	}
	k := &kinds[kind]
	c, off := t.reserve(len(fs))
	// The values sit in the order the kind declares its fields: given in
	// that order (as nearly every caller does), each goes where it comes;
	// else each is put in its place once all are stored. Each is stored
	// once either way, so a chunk holds no more texts and large numbers
	// than values.
	var mask uint16
	var byPlace [16]uint16
	inOrder, last := true, int8(-1)
	atMs := at.Milliseconds()
	for j, f := range fs {
		p := k.pos[f.ID]
		if p < 0 || mask&(1<<p) != 0 {
			panic("core: event " + k.name + " given field " + f.ID.Key() + " it does not declare, or twice")
		}
		mask |= 1 << p
		inOrder = inOrder && p > last
		last = p
		v := c.value(f, atMs)
		c.vals[off+j], byPlace[p] = v, v
	}
	if !inOrder {
		for j, m := off, mask; m != 0; j, m = j+1, m&(m-1) {
			c.vals[j] = byPlace[bits.TrailingZeros16(m)]
		}
	}
	t.commit(at, actor, kind, c, off, mask)
}

// reserve makes room for n values in the current chunk and returns it
// and where the room starts.
func (t *Trace) reserve(n int) (*chunk, int) {
	c := t.cur
	// The event's off must lie inside its chunk, even with no fields: a
	// chunk keeps a value's room free past the last event's.
	// It also keeps room for the event's texts (n fields and the actor)
	// below chunkTexts, so the actor's index fits its record.
	if c == nil || cap(c.vals)-len(c.vals) < max(n, 1) || len(c.strs)+n+1 > chunkTexts {
		c = t.newChunk(max(n, 1))
	}
	off := len(c.vals)
	c.vals = c.vals[:off+n]
	return c, off
}

// commit records the event whose fields reserve made room for at off of
// c, mask saying which of its kind's fields it carries.
func (t *Trace) commit(at time.Duration, actor string, kind Kind, c *chunk, off int, mask uint16) {
	if t.cause == 0 && t.also == 0 && t.caused {
		t.Orphans++
	}
	n := t.n
	// The same actor records several events in a row (a handler's
	// chain): its text in this chunk is remembered.
	if c != t.actorIn || actor != t.actor {
		t.actor, t.actorIn, t.actorAt = actor, c, c.text(actor)
	}
	r := rec{off: c.start + uint32(off), actor: uint16(t.actorAt), mask: mask, meta: uint32(kind)}
	if t.inAction {
		r.meta |= metaAction
	}
	far := farRec{seq: int32(n), at: at}
	// A block's first time is kept whole, so a block is read without
	// the one before it.
	if dt := at - t.lastAt; n%eventBlock != 0 && dt >= 0 && dt < farDT {
		r.dt = uint32(dt)
	} else {
		r.dt = farDT
	}
	if t.cause != 0 {
		if back := int64(n) + 1 - int64(t.cause); back > 0 && back < farBack {
			r.setBack(uint32(back))
		} else {
			r.setBack(farBack)
			far.cause = t.cause
		}
	}
	if r.dt == farDT || r.back() == farBack {
		t.far = append(t.far, far)
	}
	*t.next() = r
	t.lastAt = at
	if t.also != 0 {
		t.alsos = append(t.alsos, secondCause{seq: int32(n), also: t.also})
	}
	t.cause, t.also = int32(n+1), 0
}

// newChunk starts the chunk the next fields go in, with room for at
// least n.
func (t *Trace) newChunk(n int) *chunk {
	last := 0
	if t.cur != nil {
		last = cap(t.cur.vals)
	}
	size := max(fieldChunk(last), n)
	c := &chunk{vals: make([]uint16, 0, size), strs: make([]string, 0, size/32)}
	if k := len(t.chunks); k > 0 {
		prev := t.chunks[k-1]
		c.start = prev.start + uint32(cap(prev.vals))
	}
	t.cur = c
	t.chunks = append(t.chunks, c)
	return c
}

// Len returns the number of events.
func (t *Trace) Len() int { return t.n }

// At returns event i (0 <= i < Len()), which is also the event whose Seq
// is i. It stays valid as the trace grows.
func (t *Trace) At(i int) *Event {
	b, j := uint(i)/eventBlock, uint(i)%eventBlock
	if b < uint(len(t.views)) {
		if v := t.views[b]; j < uint(len(v)) {
			return &v[j]
		}
	}
	return &t.view(int(b))[j]
}

// Last returns the latest event, or nil if there is none.
func (t *Trace) Last() *Event {
	if t.n == 0 {
		return nil
	}
	return t.At(t.n - 1)
}

// All yields every event, in order.
func (t *Trace) All() iter.Seq[*Event] { return t.Span(0, t.n) }

// Span yields the events from from up to but not including to, in
// order; bounds outside the trace are clamped to it.
func (t *Trace) Span(from, to int) iter.Seq[*Event] {
	from, to = max(from, 0), min(to, t.n)
	return func(yield func(*Event) bool) {
		for i := from; i < to; {
			b := t.view(i / eventBlock)
			for j := uint(i) % eventBlock; j < uint(len(b)) && i < to; j++ {
				if !yield(&b[j]) {
					return
				}
				i++
			}
		}
	}
}

// Filter returns the events of the given kind, in order.
func (t *Trace) Filter(kind Kind) []Event {
	var out []Event
	for e := range t.All() {
		if e.Kind == kind {
			out = append(out, *e)
		}
	}
	return out
}
