package permalink

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/sandbox"
)

func sampleLink() RunLink {
	return RunLink{
		Kind: LinkLesson, Name: "fenced-writes", Seed: 1<<63 + 5,
		Params: []Param{{"ttl", "12"}, {"jitter", "0.5"}},
		Log: core.ActionLog{
			core.At(0, core.Fencing(false)),
			core.At(100*time.Millisecond, core.Pause("A", 12500*time.Millisecond)),
			core.At(3*time.Second, core.Action{Do: "write", Proc: "A", Value: "late A", Label: "late", Token: 3}),
			core.At(4*time.Second, core.Action{Do: "partition", Proc: "A", Peer: core.CoordinatorName, OneWay: true}),
			core.At(5*time.Second, core.SetTTL("B", 4*time.Second)),
			core.At(6*time.Second, core.Idempotency(true)),
			core.At(7*time.Second, core.Action{Do: "put", Proc: "B", Key: "config/x", Value: "1"}),
			core.At(8*time.Second, core.Action{Do: "delay", Proc: "A", Peer: "storage", For: core.Duration(2 * time.Second)}),
		},
	}
}

func TestPermalinkRoundTrip(t *testing.T) {
	l := sampleLink()
	s := l.Encode()
	for _, in := range []string{s, " " + s + "\n", l.Fragment(), "http://127.0.0.1:8080/" + l.Fragment()} {
		got, err := DecodeLink(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if !reflect.DeepEqual(got, l) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, l)
		}
	}
	// Compact: eight actions, names and values included, under 200 characters.
	if len(s) > 200 || strings.ContainsAny(s, "+/=") {
		t.Errorf("link %q (%d chars) is not compact base64url", s, len(s))
	}
}

// A scenario link reproduces a labctl run exactly.
func TestScenarioLinkReproducesTheRun(t *testing.T) {
	sc, _ := sandbox.FindScenario("hands-on-lab")
	p := sandbox.Params{Seed: 9, Own: map[string]int64{"stale-token": 3}, Fencing: "off", TTL: 12 * time.Second, Duration: 50 * time.Second,
		Actions: core.ActionLog{core.At(20*time.Second, core.Crash("B"))}}
	want, err := sc.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	l, err := DecodeLink(ScenarioLink("hands-on-lab", p).Encode())
	if err != nil {
		t.Fatal(err)
	}
	q, err := l.ScenarioParams()
	if err != nil {
		t.Fatal(err)
	}
	got, err := sc.Run(q)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sim.Trace.Hash() != want.Sim.Trace.Hash() {
		t.Errorf("the link's run differs from the original")
	}
	if _, err := (RunLink{Kind: LinkScenario, Name: "x", Params: []Param{{"warp", "9"}}}).ScenarioParams(); !errors.Is(err, ErrPermalink) {
		t.Errorf("unknown parameter: %v", err)
	}
	if _, err := (RunLink{Kind: LinkScenario, Name: "x", Params: []Param{{"ttl", "soon"}}}).ScenarioParams(); !errors.Is(err, ErrPermalink) {
		t.Errorf("bad ttl: %v", err)
	}
}

// raw builds a link from payload bytes with a correct checksum, so tests
// reach the parser behind the checksum.
func raw(payload ...[]byte) string {
	var b []byte
	for _, p := range payload {
		b = append(b, p...)
	}
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return base64.RawURLEncoding.EncodeToString(b)
}

// altered changes the i-th character of s to another base64url one.
func altered(s string, i int) string {
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}

func uv(v uint64) []byte { return binary.AppendUvarint(nil, v) }

func TestPermalinkRejectsBadInput(t *testing.T) {
	good := sampleLink().Encode()
	head := []byte{1, 'S', 4, 'h', 'e', 'r', 'd'}
	for _, c := range []struct {
		name, in, want string
	}{
		{"empty", "", "empty link"},
		{"not base64", "hello world!", "not a LeaseLab link"},
		{"too long", strings.Repeat("A", MaxLinkLen+1), "longer than any"},
		{"too short", "AQI", "too short"},
		{"truncated", good[:len(good)-5], "checksum mismatch"},
		{"cut mid byte", good[:len(good)-len(good)%4-3], "cut short"},
		{"one char altered", altered(good, 10), "checksum mismatch"},
		{"future version", raw([]byte{9, 'S', 1, 'x', 0, 0, 0}), "version 9"},
		{"unknown kind", raw([]byte{1, 'Q', 1, 'x', 0, 0, 0}), "unknown run kind"},
		{"no name", raw([]byte{1, 'S', 0, 0, 0, 0}), "no lesson or scenario name"},
		{"huge name", raw([]byte{1, 'S'}, uv(1<<40), []byte("x")), "does not fit"},
		{"huge action count", raw(head, uv(1), uv(0), uv(1<<40)), "do not fit"},
		{"huge param count", raw(head, uv(1), uv(1<<62)), "do not fit"},
		{"overlong varint", raw(head, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), "overlong number"},
		{"cut mid action", raw(head, uv(1), uv(0), uv(1), uv(0), uv(0), uv(mProc)), "truncated"},
		{"unknown action", raw(head, uv(1), uv(0), uv(1), uv(0), uv(99), uv(0)), "unknown kind number 99"},
		{"unknown field", raw(head, uv(1), uv(0), uv(1), uv(0), uv(0), uv(1<<12)), "unknown fields"},
		{"time past a day", raw(head, uv(1), uv(0), uv(1), uv(uint64(48*time.Hour/time.Millisecond)<<1), uv(0), uv(0)), "more than 24h"},
		{"invalid action", raw(head, uv(1), uv(0), uv(1), uv(0), uv(0), uv(mProc), []byte{1, 'A'}), "length must be positive"},
		{"trailing bytes", raw(head, uv(1), uv(0), uv(0), []byte{7, 7}), "unexpected bytes"},
	} {
		_, err := DecodeLink(c.in)
		if !errors.Is(err, ErrPermalink) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// A link claiming billions of entries must not make the decoder allocate
// for them: lengths are checked against the bytes actually present.
func TestPermalinkHugeLengthsAllocateNothing(t *testing.T) {
	in := raw([]byte{1, 'S', 1, 'x'}, uv(1), uv(1<<30), make([]byte, 64))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 100 {
		if _, err := DecodeLink(in); err == nil {
			t.Fatal("accepted")
		}
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("100 hostile decodes allocated %d bytes", grew)
	}
}

// FuzzDecodeLink: any input either fails cleanly or decodes to a link that
// encodes and decodes to itself.
func FuzzDecodeLink(f *testing.F) {
	f.Add(sampleLink().Encode())
	f.Add(ScenarioLink("shards", sandbox.Params{Seed: 3, Fencing: "off", TTL: time.Second}).Encode())
	f.Add(RunLink{Kind: LinkScenario, Name: "x"}.Fragment())
	f.Add(raw([]byte{1, 'S', 1, 'x'}, uv(1), uv(1<<30)))
	f.Add("")
	if l, err := SandboxLink("etcd", sandbox.Default(), nil); err == nil {
		f.Add(l.Encode())
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := DecodeLink(s)
		if err != nil {
			if !errors.Is(err, ErrPermalink) {
				t.Fatalf("error %v does not wrap ErrPermalink", err)
			}
			return
		}
		if l.Kind == LinkSandbox {
			// A sandbox link's settings are read strictly too: an error
			// that says so, or a setup the sandbox accepts.
			if _, c, err := l.Sandbox(); err != nil && !errors.Is(err, ErrPermalink) {
				t.Fatalf("sandbox settings error %v does not wrap ErrPermalink", err)
			} else if err == nil && len(c.Validate()) > 0 {
				t.Fatalf("a sandbox link opened a setup the sandbox refuses: %v", c.Validate())
			}
		}
		again, err := DecodeLink(l.Encode())
		if err != nil {
			t.Fatalf("re-encoding a decoded link fails: %v", err)
		}
		if !reflect.DeepEqual(again, l) {
			t.Fatalf("round trip changed the link:\n%+v\n%+v", l, again)
		}
	})
}

func TestLessonLinkKnobs(t *testing.T) {
	l, err := DecodeLink(LessonLink("ttl-tradeoff", 4, map[string]float64{"ttl": 12, "renew": 2.5}, nil).Encode())
	if err != nil {
		t.Fatal(err)
	}
	k, err := l.Knobs()
	if err != nil || k["ttl"] != 12 || k["renew"] != 2.5 || len(k) != 2 || l.Seed != 4 {
		t.Errorf("knobs %v, %v", k, err)
	}
	if _, err := (RunLink{Kind: LinkLesson, Name: "x", Params: []Param{{"ttl", "long"}}}).Knobs(); !errors.Is(err, ErrPermalink) {
		t.Errorf("bad knob: %v", err)
	}
	if _, err := l.ScenarioParams(); !errors.Is(err, ErrPermalink) {
		t.Errorf("a lesson link read as a scenario: %v", err)
	}
}

// A link's problem reads as a sentence of its own after "This link could
// not be opened: ", without the "permalink: " prefix the errors carry for
// errors.Is (the page said "...opened: permalink: checksum mismatch: ...").
func TestLinkProblemIsTheReasonAsASentence(t *testing.T) {
	_, err := DecodeLink(altered(sampleLink().Encode(), 10))
	require.ErrorIs(t, err, ErrPermalink)
	assert.Equal(t, "checksum mismatch: the link was cut short or altered.", LinkProblem(err))
	_, err = DecodeLink("")
	require.Error(t, err)
	assert.Equal(t, "empty link.", LinkProblem(err))
	assert.Equal(t, "this is a scenario link.", LinkProblem(errors.New("this is a scenario link.")), "one full stop, and nothing cut from another error")
}

// A link keeps the newer verbs: a fix deployed to a client, and the
// actions on a coordinator's members.
func TestALinkKeepsFixesAndMemberActions(t *testing.T) {
	log := core.ActionLog{
		core.At(45*time.Second, core.Fix("compact-1", core.FixNewSession)),
		core.At(time.Second, core.Action{Do: core.VerbSlowDisk, Proc: "member-2", For: core.Duration(300 * time.Millisecond)}),
		core.At(3*time.Second, core.Partition("member-3", core.PeersOf)),
		core.At(32*time.Second, core.Action{Do: core.VerbRead, Proc: "member-2", Key: "locks/leader", On: true}),
	}
	link := RunLink{Kind: LinkLesson, Name: "coordinator-cluster", Seed: 1, Log: log}
	back, err := DecodeLink(link.Encode())
	require.NoError(t, err)
	assert.Equal(t, link.Log, back.Log)
}
