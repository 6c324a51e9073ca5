package permalink

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// A permalink is a whole run in one short string: what was run (a lesson
// or a named scenario), its parameters, the seed and the action log. Same
// seed + same log => same trace, so opening a link reproduces the run
// exactly, in the browser (#run=...), the desktop build and labctl
// (--load).
//
// Format (then base64url without padding):
//
//	version byte (1) | kind byte | name | seed uvarint
//	| n params uvarint, each key, value
//	| n actions uvarint, each: at, do uvarint (index in ActionKinds),
//	  field mask uvarint, then the fields the mask names, in mask order
//	| CRC-32 (IEEE) of everything before, 4 bytes big-endian
//
// Strings are a uvarint length then bytes; durations a uvarint, ms<<1 for
// whole milliseconds, else ns<<1|1. The decoder trusts nothing: each
// length and count is checked against the bytes actually left before
// anything is allocated, so a hostile link costs no more memory than its
// own size.

// LinkKind says what a permalink reproduces.
type LinkKind byte

const (
	// LinkLesson is a lesson (Name is its id; Params are knob values).
	LinkLesson LinkKind = 'L'
	// LinkScenario is a built-in scenario (Params as in labctl run).
	LinkScenario LinkKind = 'S'
	// LinkTarget is an explorer target's world (no params): the replay of
	// a counterexample.
	LinkTarget LinkKind = 'T'
	// LinkSandbox is a sandbox run (Name is the preset it started from,
	// "" for the default setup; Params its settings: SandboxLink).
	LinkSandbox LinkKind = 'X'
)

func (k LinkKind) String() string {
	switch k {
	case LinkLesson:
		return "lesson"
	case LinkScenario:
		return "scenario"
	case LinkTarget:
		return "explore target"
	case LinkSandbox:
		return "sandbox run"
	}
	return fmt.Sprintf("kind %q", byte(k))
}

// Param is one parameter as text (a knob value, a TTL, "off").
type Param struct{ Key, Value string }

// RunLink is what a permalink holds.
type RunLink struct {
	Kind   LinkKind
	Name   string
	Seed   uint64
	Params []Param
	Log    core.ActionLog
}

// Limits of a link. Lessons last minutes and learners click a few dozen
// times, so these are far above any real run.
const (
	linkVersion    = 1
	MaxLinkLen     = 64 << 10 // encoded characters
	maxLinkString  = 256
	maxLinkTime    = 24 * time.Hour
	linkFragment   = "#run="
	maxLinkEntries = core.MaxActions
)

// ErrPermalink wraps every decoding error.
var ErrPermalink = errors.New("permalink")

// LinkProblem is a link's error as a learner reads it after "This link
// could not be opened: ": without the "permalink: " that begins every
// decoding error, as one sentence.
func LinkProblem(err error) string {
	s := strings.TrimPrefix(err.Error(), ErrPermalink.Error()+": ")
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// linkFields are an action's optional text and duration fields, in
// encoding order; bit i of an action's field mask says field i is present.
// Token, On and OneWay follow as the next three bits.
var linkFields = [...]struct {
	name string
	str  func(a *core.Action) *string
	dur  func(a *core.Action) *core.Duration
}{
	{"process", func(a *core.Action) *string { return &a.Proc }, nil},
	{"peer", func(a *core.Action) *string { return &a.Peer }, nil},
	{"pause length", nil, func(a *core.Action) *core.Duration { return &a.For }},
	{"ttl", nil, func(a *core.Action) *core.Duration { return &a.TTL }},
	{"value", func(a *core.Action) *string { return &a.Value }, nil},
	{"key", func(a *core.Action) *string { return &a.Key }, nil},
	{"label", func(a *core.Action) *string { return &a.Label }, nil},
}

const (
	mProc   = 1 << 0 // the first of linkFields
	mToken  = 1 << len(linkFields)
	mOn     = mToken << 1
	mOneWay = mToken << 2
	mAll    = mToken<<3 - 1
)

// Encode returns the link as base64url text (no "#run=" prefix).
func (l RunLink) Encode() string {
	b := []byte{linkVersion, byte(l.Kind)}
	b = appendString(b, l.Name)
	b = binary.AppendUvarint(b, l.Seed)
	b = binary.AppendUvarint(b, uint64(len(l.Params)))
	for _, p := range l.Params {
		b = appendString(b, p.Key)
		b = appendString(b, p.Value)
	}
	b = binary.AppendUvarint(b, uint64(len(l.Log)))
	for _, t := range l.Log {
		a := t.Action
		b = appendDuration(b, t.At)
		b = binary.AppendUvarint(b, uint64(slices.Index(core.ActionKinds, a.Do)))
		mask := 0
		for i, f := range linkFields {
			if f.str != nil && *f.str(&a) != "" || f.dur != nil && *f.dur(&a) != 0 {
				mask |= 1 << i
			}
		}
		if a.Token != 0 {
			mask |= mToken
		}
		if a.On {
			mask |= mOn
		}
		if a.OneWay {
			mask |= mOneWay
		}
		b = binary.AppendUvarint(b, uint64(mask))
		for i, f := range linkFields {
			switch {
			case mask&(1<<i) == 0:
			case f.str != nil:
				b = appendString(b, *f.str(&a))
			default:
				b = appendDuration(b, *f.dur(&a))
			}
		}
		if mask&mToken != 0 {
			b = binary.AppendUvarint(b, uint64(a.Token))
		}
	}
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return base64.RawURLEncoding.EncodeToString(b)
}

// Check reports whether the link, encoded, is one DecodeLink reads back:
// a run with too many actions, too long a value or too long a link in all
// is refused here with the decoder's own reason, so nothing prints or
// shares a link that cannot be loaded.
func (l RunLink) Check() error {
	_, err := DecodeLink(l.Encode())
	return err
}

// Fragment returns the link as a URL fragment, "#run=...".
func (l RunLink) Fragment() string { return linkFragment + l.Encode() }

// appendDuration writes whole milliseconds compactly (ms<<1), anything
// else exactly (ns<<1 | 1). Negative durations never validate; they are
// written as an impossible value the decoder refuses.
func appendDuration(b []byte, d core.Duration) []byte {
	switch {
	case d < 0:
		return binary.AppendUvarint(b, 1<<63|1)
	case time.Duration(d)%time.Millisecond == 0:
		return binary.AppendUvarint(b, uint64(time.Duration(d)/time.Millisecond)<<1)
	}
	return binary.AppendUvarint(b, uint64(d)<<1|1)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// DecodeLink reads a permalink: the bare text, a "#run=..." fragment or a
// whole URL ending in one. Malformed, truncated or altered input gets an
// error saying what is wrong; it never panics and never allocates more
// than the input's size.
func DecodeLink(s string) (RunLink, error) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, linkFragment); i >= 0 {
		s = s[i+len(linkFragment):]
	}
	fail := func(format string, a ...any) (RunLink, error) {
		return RunLink{}, fmt.Errorf("%w: %s", ErrPermalink, fmt.Sprintf(format, a...))
	}
	switch {
	case s == "":
		return fail("empty link")
	case len(s) > MaxLinkLen:
		return fail("%d characters is longer than any LeaseLab link (at most %d)", len(s), MaxLinkLen)
	}
	if i := strings.IndexFunc(s, func(r rune) bool {
		return !('A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '_')
	}); i >= 0 {
		return fail("not a LeaseLab link: character %q at %d (a link uses only A-Z a-z 0-9 - _)", []rune(s[i:])[0], i+1)
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return fail("the link was cut short (%d characters cannot be whole bytes)", len(s))
	}
	if len(b) < 7 {
		return fail("too short to be a link (%d bytes): it was cut off", len(b))
	}
	if b[0] != linkVersion {
		return fail("version %d is not one this LeaseLab reads (it reads version %d)", b[0], linkVersion)
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return fail("checksum mismatch: the link was cut short or altered")
	}
	r := &linkReader{b: body[1:]}
	var l RunLink
	l.Kind = LinkKind(r.byte("kind"))
	if r.err == nil && l.Kind != LinkLesson && l.Kind != LinkScenario && l.Kind != LinkTarget && l.Kind != LinkSandbox {
		return fail("unknown run kind %q", byte(l.Kind))
	}
	l.Name = r.string("name")
	l.Seed = r.uvarint("seed")
	n := r.count("parameters", 2)
	for i := 0; i < n && r.err == nil; i++ {
		l.Params = append(l.Params, Param{Key: r.string("parameter name"), Value: r.string("parameter value")})
	}
	n = r.count("actions", 3)
	for i := 0; i < n && r.err == nil; i++ {
		t, err := r.action(i + 1)
		if err != nil {
			return fail("%v", err)
		}
		l.Log = append(l.Log, t)
	}
	switch {
	case r.err != nil:
		return fail("%v", r.err)
	case len(r.b) > 0:
		return fail("%d unexpected bytes after the action log", len(r.b))
	case l.Name == "":
		return fail("no lesson or scenario name")
	}
	return l, nil
}

// linkReader reads fields, remembering the first error.
type linkReader struct {
	b   []byte
	err error
}

func (r *linkReader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, a...)
	}
}

func (r *linkReader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) == 0 {
		r.fail("truncated before the %s", what)
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *linkReader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("truncated or overlong number in the %s", what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a number of entries, each at least min bytes long, and
// refuses one the remaining bytes cannot hold.
func (r *linkReader) count(what string, min int) int {
	v := r.uvarint("number of " + what)
	if r.err == nil && (v > maxLinkEntries || v*uint64(min) > uint64(len(r.b))) {
		r.fail("%d %s do not fit in the %d bytes left", v, what, len(r.b))
		return 0
	}
	return int(v)
}

func (r *linkReader) string(what string) string {
	n := r.uvarint(what + " length")
	if r.err != nil {
		return ""
	}
	if n > maxLinkString || n > uint64(len(r.b)) {
		r.fail("%s of %d bytes does not fit (at most %d, %d left)", what, n, maxLinkString, len(r.b))
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *linkReader) duration(what string) core.Duration {
	v := r.uvarint(what)
	ns := v >> 1
	if v&1 == 0 {
		ns = min(ns, 1<<53) * uint64(time.Millisecond)
	}
	if r.err == nil && ns > uint64(maxLinkTime) {
		r.fail("%s %s is more than %s", what, time.Duration(ns), maxLinkTime)
	}
	return core.Duration(ns)
}

func (r *linkReader) action(i int) (core.Timed, error) {
	var t core.Timed
	t.At = r.duration(fmt.Sprintf("time of action %d", i))
	do := r.uvarint(fmt.Sprintf("kind of action %d", i))
	mask := r.uvarint(fmt.Sprintf("fields of action %d", i))
	if r.err != nil {
		return t, r.err
	}
	if do >= uint64(len(core.ActionKinds)) {
		return t, fmt.Errorf("action %d: unknown kind number %d", i, do)
	}
	if mask&^mAll != 0 {
		return t, fmt.Errorf("action %d: unknown fields (mask %#x)", i, mask)
	}
	a := &t.Action
	a.Do = core.ActionKinds[do]
	for i, f := range linkFields {
		switch {
		case mask&(1<<i) == 0:
		case f.str != nil:
			*f.str(a) = r.string(f.name)
		default:
			*f.dur(a) = r.duration(f.name)
		}
	}
	if mask&mToken != 0 {
		tok := r.uvarint("token")
		if tok > 1<<62 {
			r.fail("token %d is too large", tok)
		}
		a.Token = int64(tok)
	}
	a.On, a.OneWay = mask&mOn != 0, mask&mOneWay != 0
	if r.err != nil {
		return t, r.err
	}
	if err := a.Validate(); err != nil {
		return t, fmt.Errorf("action %d: %w", i, err)
	}
	return t, nil
}

// Param returns the value of key ("" if absent).
func (l RunLink) Param(key string) string {
	for _, p := range l.Params {
		if p.Key == key {
			return p.Value
		}
	}
	return ""
}
