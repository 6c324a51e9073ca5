package core

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kinds of trace events. Views, goals, invariants and exports all read the
// trace and nothing else, so every fact a lesson needs must appear here.
const (
	KindState        = "state"          // process state machine transition (from, to, reason)
	KindPause        = "pause"          // process stopped the world (for)
	KindResume       = "resume"         // process resumed (late = overdue timers fired)
	KindCrash        = "crash"          // process crashed
	KindRestart      = "restart"        // process restarted
	KindLeaseGrant   = "lease.grant"    // coordinator granted a lease (lease, ttl, owner)
	KindLeaseRenew   = "lease.renew"    // coordinator extended a lease (lease, expiry)
	KindLeaseRenewed = "lease.renewed"  // a client received a renewal (lease, deadline)
	KindLeaseExpire  = "lease.expire"   // coordinator expired a lease; keys deleted in one revision
	KindLeaseRevoke  = "lease.revoke"   // lease revoked (by its owner or forced)
	KindLeaseLost    = "lease.lost"     // a client learned its lease is gone
	KindPut          = "put"            // key created or updated (key, rev, create_rev)
	KindDelete       = "delete"         // key deleted (key, rev)
	KindDenied       = "denied"         // the coordinator refused a request (why)
	KindHolder       = "lock.holder"    // coordinator truth: new holder of a lock (lock, owner, token)
	KindFree         = "lock.free"      // coordinator truth: lock has no holder
	KindLockDelay    = "lock.delay"     // lock-delay armed after an invalidated holder (until)
	KindWatchFire    = "watch.fire"     // a watcher woke up (key, watcher)
	KindSend         = "msg.send"       // message sent (id, from, to, msg, arrive, token)
	KindDrop         = "msg.drop"       // message lost (id, why)
	KindWrite        = "write"          // fenced register decided a write (token, value, result)
	KindEnqueue      = "enqueue"        // job queue decided a job (idem, result)
	KindOffset       = "offset.commit"  // offset store decided a commit (shard, offset, token, result)
	KindShardOwn     = "shard.own"      // a worker believes it owns a shard (shard, token)
	KindShardDrop    = "shard.drop"     // a worker stopped owning a shard (shard, reason)
	KindAction       = "action"         // a learner action was applied
	KindActionError  = "action.error"   // a learner action could not be applied
	KindNote         = "note"           // free text from a process (work done, write refused...)
	KindPartition    = "net.partition"  // link cut
	KindHeal         = "net.heal"       // link healed
	KindHold         = "net.hold"       // what a process sends is held back until until_ms (from, to: "" for any)
	KindWait         = "msg.wait"       // a message waits in a client's connection that is down (id, to, msg)
	KindReconnect    = "net.reconnect"  // a client's connection to the coordinator is back (waited, down_ms)
	KindSetting      = "setting"        // a parameter changed (name, value)
	KindSessionLost  = "session.lost"   // a queued contender found its key gone (ErrSessionExpired)
	KindHerdWake     = "herd.wake"      // (unused by recipes that watch predecessors)
	KindStale        = "stale.accepted" // a resource accepted a token below its highest (fencing off)
	KindWorkBusy     = "work.busy"      // a leader's work loop is busy with one unit (for)
	KindRenewal      = "renewal"        // a client that does work ran a renewal (lease, late: how long it waited behind work, result)
)

// Field is one named value of a trace event. Fields keep their order so that
// text and JSON exports are stable.
type Field struct {
	Key   string
	Str   string
	Int   int64
	IsInt bool
}

// S makes a string field.
func S(k, v string) Field { return Field{Key: k, Str: v} }

// I makes an integer field.
func I(k string, v int64) Field { return Field{Key: k, Int: v, IsInt: true} }

// D makes a duration field, stored in milliseconds.
func D(k string, v time.Duration) Field { return Field{Key: k, Int: v.Milliseconds(), IsInt: true} }

// Event is one entry of the trace.
type Event struct {
	Seq    int
	At     time.Duration
	Actor  string
	Kind   string
	Fields []Field
}

// Get returns the string form of field k ("" if absent).
func (e *Event) Get(k string) string {
	for _, f := range e.Fields {
		if f.Key == k {
			if f.IsInt {
				return strconv.FormatInt(f.Int, 10)
			}
			return f.Str
		}
	}
	return ""
}

// Int returns integer field k (0 if absent or not an integer).
func (e *Event) Int(k string) int64 {
	for _, f := range e.Fields {
		if f.Key == k && f.IsInt {
			return f.Int
		}
	}
	return 0
}

// Trace is the ordered record of a run.
type Trace struct {
	Events []Event
	// Quiet drops message send events (the bulk of a large run) when true.
	// Benchmarks and large searches set it; lessons never do.
	Quiet bool
	// only, if set, lists the kinds recorded: the explorer's worlds keep
	// just what their invariant reads (Invariant.Kinds).
	only []string
	// fields holds the Fields of the events, which are clipped windows of
	// it: add copies its arguments here, so building them allocates
	// nothing. It is the current chunk: when full, add starts a new one
	// and leaves the old one to the events in it. It is append-only
	// (clones share it clipped) except in explorer worlds, which drop
	// checked events (run.check).
	fields []Field
}

// Keep records only events of the given kinds from now on: a check that
// reads three kinds out of a thousand runs need not build the rest. The
// run itself is the same; only its record is smaller.
func (t *Trace) Keep(kinds ...string) { t.only = slices.Clone(kinds) }

// on reports whether events of kind are recorded. Callers that build
// costly fields (formatted strings) ask first.
func (t *Trace) on(kind string) bool {
	if t.Quiet && kind == KindSend {
		return false
	}
	return t.only == nil || slices.Contains(t.only, kind)
}

func (t *Trace) add(at time.Duration, actor, kind string, fields ...Field) {
	if !t.on(kind) {
		return
	}
	var fs []Field
	if len(fields) > 0 {
		if cap(t.fields)-len(t.fields) < len(fields) {
			// A fresh chunk, never a grown copy: events keep pointing into
			// the chunks they were written to, so nothing is moved.
			t.fields = make([]Field, 0, max(fieldChunk(cap(t.fields)), len(fields)))
		}
		i := len(t.fields)
		t.fields = append(t.fields, fields...)
		fs = t.fields[i:len(t.fields):len(t.fields)]
	}
	if len(t.Events) == cap(t.Events) {
		// Double (append grows a large slice by a quarter): a long run's
		// trace is copied about once over instead of four times. Start at
		// 1024 events (72 KiB): the ten small steps up to there cost a
		// lesson-sized run (6k events) a fifth of its time. A trace that
		// keeps only some kinds stays small; it starts at 16.
		first := 1024
		if t.only != nil {
			first = 16 // an explorer's world keeps a few kinds: a short record
		}
		t.Events = slices.Grow(t.Events, max(len(t.Events), first))
	}
	t.Events = append(t.Events, Event{Seq: len(t.Events), At: at, Actor: actor, Kind: kind, Fields: fs})
}

// fieldChunk sizes the next chunk of Trace.fields after one of capacity
// last: doubling from 64 up to 8192 fields (384 KiB), so a short run's
// trace stays small and a long one allocates in large steps.
func fieldChunk(last int) int { return min(max(2*last, 64), 8192) }

// Len returns the number of events.
func (t *Trace) Len() int { return len(t.Events) }

// Filter returns the events of the given kind, in order.
func (t *Trace) Filter(kind string) []Event {
	var out []Event
	for _, e := range t.Events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Seconds writes a length for people, in seconds to the millisecond and
// without trailing zeros: "20 s", "5.5 s", "1.118 s". It counts whole
// milliseconds, since d.Seconds() of 1.118 s prints as 1.1179999999999999.
func Seconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Round(time.Millisecond).Milliseconds())/1000, 'f', -1, 64) + " s"
}

// Span writes a length that may run to minutes or hours, for limits and
// refusals: "1 h", "10 min", "90 s", "5 ms". A length that is no whole
// number of hours, minutes or milliseconds is written by Seconds, or as
// Go writes it below a millisecond ("500µs"), so the number said is the
// number given.
func Span(d time.Duration) string {
	if d < 0 {
		return "-" + Span(-d)
	}
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + " h"
	case d >= time.Minute && d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + " min"
	case d >= time.Second || d == 0:
		if d%time.Millisecond == 0 {
			return Seconds(d)
		}
	case d%time.Millisecond == 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return d.String()
}

// Capitalise upper-cases the first letter of s, for a phrase that begins
// a sentence ("not started" -> "Not started").
func Capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// FormatTime renders virtual time as seconds with millisecond precision.
func FormatTime(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%d.%03ds", ms/1000, ms%1000)
}

// Text renders the event as one line: "t=12.500s actor kind k=v ...".
func (e *Event) Text() string {
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(FormatTime(e.At))
	b.WriteByte(' ')
	b.WriteString(e.Actor)
	b.WriteByte(' ')
	b.WriteString(e.Kind)
	for _, f := range e.Fields {
		b.WriteByte(' ')
		b.WriteString(f.Key)
		b.WriteByte('=')
		if f.IsInt {
			b.WriteString(strconv.FormatInt(f.Int, 10))
		} else if f.Str == "" || strings.ContainsAny(f.Str, " =\"") {
			b.WriteString(strconv.Quote(f.Str))
		} else {
			b.WriteString(f.Str)
		}
	}
	return b.String()
}

// WriteText writes one line per event.
func (t *Trace) WriteText(w io.Writer) error {
	for i := range t.Events {
		if _, err := io.WriteString(w, t.Events[i].Text()+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// JSON renders the event as one JSON object with fields in a fixed order:
// seq, t_ms, actor, kind, then the event's own fields.
func (e *Event) JSON() []byte {
	b := make([]byte, 0, 96)
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"t_ms":`...)
	b = strconv.AppendInt(b, e.At.Milliseconds(), 10)
	b = append(b, `,"actor":`...)
	b = appendJSONString(b, e.Actor)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, e.Kind)
	for _, f := range e.Fields {
		b = append(b, ',')
		b = appendJSONString(b, f.Key)
		b = append(b, ':')
		if f.IsInt {
			b = strconv.AppendInt(b, f.Int, 10)
		} else {
			b = appendJSONString(b, f.Str)
		}
	}
	return append(b, '}')
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // cannot fail for a string
	return append(b, q...)
}

// WriteJSONL writes the trace as JSON Lines.
func (t *Trace) WriteJSONL(w io.Writer) error {
	for i := range t.Events {
		line := append(t.Events[i].JSON(), '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// Hash returns a SHA-256 over the text form of every event: two runs have
// the same hash exactly when their traces are identical.
func (t *Trace) Hash() string {
	h := newSHA256()
	for i := range t.Events {
		h.WriteString(t.Events[i].Text())
		h.WriteString("\n")
	}
	sum := h.Sum()
	return hex.EncodeToString(sum[:])
}
