package core

// How a trace stores its events: each event's fields in a chunk, two
// bytes a field; its record (time, actor, kind, causes, where its fields
// sit) in fixed blocks of 16-byte records with no pointers; the Events a
// reader sees built from the records the first time they are read; and
// how a trace is cloned, dropped and forgotten over that storage.

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// rec is how a trace records an event: 16 bytes and no pointer, so a
// block of them costs the collector nothing to scan and recording one
// needs no write barrier. off is where its fields start in the trace's
// values, counted across its chunks (see chunk.start): its chunk is the
// one that holds off, and its actor a text of that chunk. Its time and
// cause are kept short, as the distance from the record before and back
// to the cause; the few that do not fit, and every block's first time,
// are kept aside (Trace.far), as is its second cause, which few events
// have (Trace.alsos). An Event is built from it when first read.
type rec struct {
	// dt is the time since the record before, in nanoseconds (farDT:
	// the time is in far).
	dt  uint32
	off uint32
	// actor is the index of the actor's text in strs of the chunk.
	actor uint16
	mask  uint16
	// meta holds the kind (its low eight bits), whether an action made
	// the event (metaAction) and, above backShift, back: Seq+1 minus the
	// cause (0: no cause; farBack: the cause is in far).
	meta uint32
}

func (r *rec) kind() Kind       { return Kind(r.meta) }
func (r *rec) byAction() bool   { return r.meta&metaAction != 0 }
func (r *rec) back() uint32     { return r.meta >> backShift }
func (r *rec) setBack(b uint32) { r.meta = r.meta&(1<<backShift-1) | b<<backShift }

// How a record keeps its time, kind and cause, and the most texts a chunk
// holds (an actor's index fits a record's actor). A run's trace holds at
// most MaxTraceEvents (the simulator's budget), so back reaches any cause
// before the event; a cause farther back, or after the event (left by
// Drop), is kept in far.
const (
	farDT      = math.MaxUint32
	metaAction = 1 << 8
	backShift  = 9
	farBack    = 1<<(32-backShift) - 1
	chunkTexts = math.MaxUint16
)

// farRec holds the time and the cause of event seq where its record
// has no room for them.
type farRec struct {
	seq, cause int32
	at         time.Duration
}

// secondCause is an event's second cause (Event.also), by its Seq.
type secondCause struct{ seq, also int32 }

// chunk stores the fields of events, two bytes each: a text field's
// index into strs, or a number field's value (see number). Its vals are
// never grown or moved (a full chunk is left to its events and a new one
// started), so events may point into it. strs holds each text once per
// chunk, as far as recent remembers it: a trace repeats a few names and
// words thousands of times.
type chunk struct {
	// start is where vals[0] sits in the trace's values, counted across
	// its chunks: the chunks before it took start values' room.
	start uint32
	vals  []uint16
	big   []int64
	strs  []string
	// recent holds, by a hash of the text (see textSlots), 1 + the index
	// in strs of a text stored lately (0: none).
	recent [256]int32
	// bases holds, for each field in based, the base its numbers are
	// kept from (see number).
	bases [fieldCount]int64
	based fieldSet
}

// textSlots are the two places recent may remember v: the top two bytes
// of a multiplicative hash of its length and its last eight bytes, read
// as one word (the trace's texts are short names and words, told apart
// by their ends: worker-07, shard-042).
func textSlots(v string) (int, int) {
	var x uint64
	if n := len(v); n >= 8 {
		e := v[n-8:]
		x = uint64(e[0]) | uint64(e[1])<<8 | uint64(e[2])<<16 | uint64(e[3])<<24 |
			uint64(e[4])<<32 | uint64(e[5])<<40 | uint64(e[6])<<48 | uint64(e[7])<<56
	} else {
		for i := range n {
			x = x<<8 | uint64(v[i])
		}
	}
	h := (x ^ uint64(len(v))<<59) * 0x9e3779b97f4a7c15
	return int(h >> 56), int(h>>48) & 0xff
}

// text stores v in the chunk (once) and returns its index in strs.
func (c *chunk) text(v string) int32 {
	a, b := textSlots(v)
	if i := c.recent[a] - 1; i >= 0 && c.strs[i] == v {
		return i
	}
	if i := c.recent[b] - 1; i >= 0 && c.strs[i] == v {
		return i
	}
	c.strs = append(c.strs, v)
	if c.recent[a] == 0 {
		b = a
	}
	c.recent[b] = int32(len(c.strs))
	return int32(len(c.strs) - 1)
}

// How vals holds a number:
//   - below valBased, the number itself (shards, counts, small ids);
//   - from valBased to valNear, the number less its field's base in the
//     chunk (the first number of that field the chunk could not hold
//     as it is): counters that only grow (message ids, revisions,
//     tokens) stay within a few thousand of it in one chunk;
//   - from valNear to valBig, a time a little after the event's own (a
//     message's arrival, a lease's expiry: the event's time in
//     milliseconds plus the value less valNear, up to 24.5 s later);
//   - from valBig, the index in big of the whole number (a chunk holds at
//     most maxChunk values, each stored once, so the index fits).
const (
	valBased = 0x6000
	valNear  = 0x8000
	valBig   = 0xE000
)

// number stores v, field f of an event at atMs milliseconds, in the
// chunk and returns the value for vals.
func (c *chunk) number(f FieldID, v, atMs int64) uint16 {
	if v >= 0 && v < valBased {
		return uint16(v)
	}
	if d := v - atMs; d >= 0 && d < valBig-valNear {
		return uint16(valNear + d)
	}
	if !c.based.has(f) {
		c.based.add(f)
		c.bases[f] = v
	}
	if d := v - c.bases[f]; d >= 0 && d < valNear-valBased {
		return uint16(valBased + d)
	}
	c.big = append(c.big, v)
	return uint16(valBig + len(c.big) - 1)
}

// value stores field f's value, of an event at atMs milliseconds, and
// returns what vals holds for it.
func (c *chunk) value(f Field, atMs int64) uint16 {
	if fields[f.ID].typ == text {
		return uint16(c.text(f.Str))
	}
	return c.number(f.ID, f.Int, atMs)
}

// num reads back number field f stored at vals[i], of an event at atMs
// milliseconds.
func (c *chunk) num(i int, f FieldID, atMs int64) int64 {
	switch v := c.vals[i]; {
	case v < valBased:
		return int64(v)
	case v < valNear:
		return c.bases[f] + int64(v-valBased)
	case v < valBig:
		return atMs + int64(v-valNear)
	default:
		return c.big[v-valBig]
	}
}

// fieldSet is a set of fields, one bit each.
type fieldSet [(fieldCount + 63) / 64]uint64

func (s *fieldSet) has(f FieldID) bool { return s[f/64]&(1<<(f%64)) != 0 }
func (s *fieldSet) add(f FieldID)      { s[f/64] |= 1 << (f % 64) }

// fieldChunk sizes the next chunk after one of capacity last: doubling
// from 64 up to maxChunk values, so a short run's trace stays small and a
// long one allocates in large steps.
func fieldChunk(last int) int { return min(max(2*last, 64), maxChunk) }

// maxChunk is the most values a chunk holds: 16 KiB, well under the 32
// KiB past which an object goes back to the system after every run, and
// few enough that an index in big fits a value (see number).
const maxChunk = 0x10000 - valBig

// eventBlock is how many events a full block of a trace holds: 512
// records of 16 bytes is 8 KiB, and 512 Events of 56 bytes 28 KiB, both
// Go size classes, below the 32 KiB past which an object goes back to the
// system after every run.
const eventBlock = 512

// chunkOf returns the index of the chunk that holds the value at off.
func (t *Trace) chunkOf(off uint32) int {
	i, _ := slices.BinarySearchFunc(t.chunks, off, func(c *chunk, off uint32) int {
		if off < c.start {
			return 1
		}
		if off >= c.start+uint32(cap(c.vals)) {
			return -1
		}
		return 0
	})
	return i
}

// next returns room for one more record, at the end of the last block.
func (t *Trace) next() *rec {
	nb := len(t.blocks)
	if nb == 0 || len(t.blocks[nb-1]) == cap(t.blocks[nb-1]) {
		t.grow()
		nb = len(t.blocks)
	}
	b := &t.blocks[nb-1]
	i := len(*b)
	*b = (*b)[:i+1]
	t.n++
	return &(*b)[i]
}

// grow makes room in the last block, which is full: a new block after a
// full-sized one, else a larger copy of it. A trace's first block starts
// full-sized, except for a trace that keeps only some kinds (an explorer's
// world: a short record), whose first block starts at 16 events and
// doubles; a block shared with a clone (clone clips it) is copied before
// either trace appends to it.
func (t *Trace) grow() {
	nb := len(t.blocks)
	if nb == 0 {
		first := eventBlock
		if t.only != nil {
			first = 16
		}
		t.blocks = append(t.blocks, make([]rec, 0, first))
		return
	}
	last := t.blocks[nb-1]
	if cap(last) == eventBlock {
		t.blocks = append(t.blocks, make([]rec, 0, eventBlock))
		return
	}
	size := eventBlock
	if nb == 1 {
		size = min(max(2*cap(last), 16), eventBlock)
	}
	b := make([]rec, len(last), size)
	copy(b, last)
	t.blocks[nb-1] = b
}

// view returns the Events of block b, built from its records up to the
// last one recorded. A view is extended in place while it has room; when
// it has none (its block grew, or a clone shares it) it is extended in a
// copy, and the Events already handed out stay valid in the old one.
func (t *Trace) view(b int) []Event {
	for len(t.views) <= b {
		t.views = append(t.views, nil)
	}
	v, rs := t.views[b], t.blocks[b]
	if len(v) == len(rs) {
		return v
	}
	if cap(v) < len(rs) {
		v = append(make([]Event, 0, cap(rs)), v...)
	}
	base := b * eventBlock
	ci, ai, fi := -1, -1, -1
	// The time of the event before, read from the records, not from an
	// Event handed out: a reader's change to one would move the rest.
	var prev time.Duration
	if len(v) > 0 {
		prev = t.recordTime(b, len(v)-1)
	}
	for j := len(v); j < len(rs); j++ {
		r := &rs[j]
		if ci < 0 || r.off >= t.chunks[ci].start+uint32(cap(t.chunks[ci].vals)) {
			ci = t.chunkOf(r.off)
		}
		c := t.chunks[ci]
		seq := base + j
		if ai < 0 {
			ai = seqIndex(t.alsos, seq, func(a secondCause) int32 { return a.seq })
			fi = seqIndex(t.far, seq, func(f farRec) int32 { return f.seq })
		}
		var also int32
		if ai < len(t.alsos) && t.alsos[ai].seq == int32(seq) {
			also = t.alsos[ai].also
			ai++
		}
		var far farRec
		if fi < len(t.far) && t.far[fi].seq == int32(seq) {
			far = t.far[fi]
			fi++
		}
		at, cause := far.at, far.cause
		if r.dt != farDT {
			at = prev + time.Duration(r.dt) // a block's first time is in far
		}
		prev = at
		if back := r.back(); back != farBack {
			cause = 0
			if back != 0 {
				cause = int32(seq + 1 - int(back))
			}
		}
		v = append(v, Event{
			Seq: seq, At: at, Actor: c.strs[r.actor], Kind: r.kind(), byAction: r.byAction(),
			mask: r.mask, off: r.off - c.start, c: c, cause: cause, also: also,
		})
	}
	t.views[b] = v
	return v
}

// recordTime returns the time of record j of block b: the last time kept
// whole in far at or before it (a block's first is), plus the distances
// after it.
func (t *Trace) recordTime(b, j int) time.Duration {
	rs := t.blocks[b]
	var sum time.Duration
	for ; rs[j].dt != farDT; j-- {
		sum += time.Duration(rs[j].dt)
	}
	return t.far[seqIndex(t.far, b*eventBlock+j, func(f farRec) int32 { return f.seq })].at + sum
}

// seqIndex returns the index in xs (entries in the order of their Seq) of
// the first entry for seq or a later event.
func seqIndex[T any](xs []T, seq int, seqOf func(T) int32) int {
	i, _ := slices.BinarySearchFunc(xs, int32(seq), func(x T, s int32) int { return cmp.Compare(seqOf(x), s) })
	return i
}

// clone returns a copy of the trace that shares its events' storage; both
// start new chunks for what they record next.
func (t *Trace) clone() Trace {
	t.cur = nil
	var blocks [][]rec
	var views [][]Event
	var chunks []*chunk
	if t.n > 0 {
		// The full blocks are shared as they are; the clone's last is
		// clipped, so it copies that block before it appends (grow),
		// while the source appends in place past what the clone reads.
		// The lists of blocks and chunks are the
		// clone's own: nothing the source does (Drop) writes into them.
		blocks = clipLast(t.blocks)
		// Every view is clipped, not only the last: a view of a full
		// block may be partly built, and the two traces (an explorer's
		// clones run on several goroutines) would otherwise build its
		// rest in one array.
		views = make([][]Event, len(t.views))
		for i, v := range t.views {
			views[i] = slices.Clip(v)
		}
		chunks = slices.Clone(t.chunks)
	}
	return Trace{blocks: blocks, views: views, chunks: chunks, alsos: slices.Clip(t.alsos), far: slices.Clip(t.far), lastAt: t.lastAt, n: t.n, Quiet: t.Quiet, only: t.only, cause: t.cause, also: t.also, caused: t.caused, Orphans: t.Orphans}
}

// clipLast returns a copy of bs whose last slice is clipped.
func clipLast[T any](bs [][]T) [][]T {
	if len(bs) == 0 {
		return nil
	}
	out := append(make([][]T, 0, len(bs)+1), bs...)
	last := &out[len(out)-1]
	*last = slices.Clip(*last)
	return out
}

// Drop forgets every event and reuses the first block and the current
// chunk: only for a trace no one else reads (an explorer world's, after
// its check).
func (t *Trace) Drop() {
	if len(t.blocks) > 0 {
		t.blocks = t.blocks[:1]
		t.blocks[0] = t.blocks[0][:0]
	}
	if len(t.views) > 0 {
		t.views = t.views[:1]
		t.views[0] = t.views[0][:0]
	}
	t.n = 0
	t.chunks, t.alsos, t.far = t.chunks[:0], t.alsos[:0], t.far[:0]
	if t.cur != nil {
		t.cur.vals, t.cur.big, t.cur.strs, t.cur.recent, t.cur.start = t.cur.vals[:0], t.cur.big[:0], t.cur.strs[:0], [256]int32{}, 0
		t.cur.based = fieldSet{}
		t.actorIn = nil // its texts are gone
		t.chunks = append(t.chunks, t.cur)
	}
}

// Forget drops every event and leaves their storage to whoever else reads
// it (a clone's source): the trace starts again, empty, from Seq 0.
func (t *Trace) Forget() {
	t.blocks, t.views, t.chunks, t.alsos, t.far, t.cur, t.n = nil, nil, nil, nil, nil, nil, 0
}
