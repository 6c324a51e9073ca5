package core

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// How a trace is written out: its times in words, each event as a line of
// text or of JSON, the whole run as JSON Lines, and its hash. Every
// encoding walks the schema (schema.go), so a new field needs no code here.

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
	b.WriteString(e.Kind.String())
	e.Each(func(f FieldID) {
		b.WriteByte(' ')
		b.WriteString(f.Key())
		b.WriteByte('=')
		if !f.IsText() {
			b.WriteString(strconv.FormatInt(e.Num(f), 10))
		} else if v := e.Str(f); v == "" || strings.ContainsAny(v, " =\"") {
			b.WriteString(strconv.Quote(v))
		} else {
			b.WriteString(v)
		}
	})
	if cs := e.Causes(); cs != nil {
		b.WriteString(" cause=")
		for i, c := range cs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(c))
		}
	}
	return b.String()
}

// WriteText writes one line per event.
func (t *Trace) WriteText(w io.Writer) error {
	for e := range t.All() {
		if _, err := io.WriteString(w, e.Text()+"\n"); err != nil {
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
	b = appendJSONString(b, e.Kind.String())
	e.Each(func(f FieldID) {
		b = append(b, ',')
		b = appendJSONString(b, f.Key())
		b = append(b, ':')
		if f.IsText() {
			b = appendJSONString(b, e.Str(f))
		} else {
			b = strconv.AppendInt(b, e.Num(f), 10)
		}
	})
	if cs := e.Causes(); cs != nil {
		b = append(b, `,"cause":[`...)
		for i, c := range cs {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(c), 10)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // cannot fail for a string
	return append(b, q...)
}

// WriteJSONL writes the trace as JSON Lines.
func (t *Trace) WriteJSONL(w io.Writer) error {
	for e := range t.All() {
		line := append(e.JSON(), '\n')
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
	for e := range t.All() {
		h.WriteString(e.Text())
		h.WriteString("\n")
	}
	sum := h.Sum()
	return hex.EncodeToString(sum[:])
}
